"""One module per check, each holding its ``Check`` as ``CHECK`` (``core.registry``).

Adding a check means adding a module here: ``built_in`` reads every module the package holds,
so nothing else has to know its name, and it needs no package metadata (``ik_doctor.plugins``).
"""

from __future__ import annotations

import importlib
import pkgutil

from ..core.registry import Check


def built_in() -> list[Check]:
    """The ``CHECK`` of every module in this package."""
    return [
        importlib.import_module(f".{module.name}", __name__).CHECK
        for module in pkgutil.iter_modules(__path__)
        if not module.name.startswith("_")
    ]
