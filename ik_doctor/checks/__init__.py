"""One module per check. Each module registers its ``Check`` when imported."""

from __future__ import annotations

import importlib
import pkgutil

_loaded = False


def load_all() -> None:
    """Import every check module once, so each registers itself."""
    global _loaded
    if _loaded:
        return
    for module in pkgutil.iter_modules(__path__):
        if not module.name.startswith("_"):
            importlib.import_module(f".{module.name}", __package__)
    _loaded = True
