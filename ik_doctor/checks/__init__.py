"""One module per check; importing this package registers every check (``core.registry``).

Adding a check means adding a module here that calls ``register(Check(...))``: the package
imports every module it holds, so nothing else has to know its name. ``ik_doctor.doctor``
imports it before its first pass.
"""

from __future__ import annotations

import importlib
import pkgutil

for _module in pkgutil.iter_modules(__path__):
    if not _module.name.startswith("_"):
        importlib.import_module(f".{_module.name}", __name__)
