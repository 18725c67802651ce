"""Every check IK Doctor runs, collected once: its own, its scans', and other packages'.

Another package adds a check by naming a ``Check`` in the entry point group
``ik_doctor.checks`` of its ``pyproject.toml``::

    [project.entry-points."ik_doctor.checks"]
    my_check = "my_package.my_module:CHECK"

It then runs in ``diagnose``, the panel (with a switch in the preferences), ``--checks`` and
every report. The built-in list does not depend on ``importlib.metadata``: inside Blender an
extension's packages may have no metadata at all. A plug-in that fails to load, is not a
``Check`` or takes an id already taken is left out with a warning; the others still run.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable

from .core.registry import Check

ENTRY_POINT_GROUP = "ik_doctor.checks"


def collect() -> list[Check]:
    """This package's checks and scans, then the plug-ins' (``core.registry`` is handed this)."""
    from . import checks, verify

    built_in = [*checks.built_in(), *verify.scans()]
    return [*built_in, *plugin_checks({check.id for check in built_in})]


def plugin_checks(taken: Iterable[str]) -> list[Check]:
    """The checks other packages declare in ``ik_doctor.checks``, by entry point name."""
    from importlib.metadata import entry_points

    taken = set(taken)
    found = []
    for entry in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        where = f"the check plug-in {entry.name!r} ({entry.value})"
        try:
            check = entry.load()
        except Exception as error:  # another package's bug must not stop the built-in checks
            warnings.warn(f"{where} failed to load: {error!r}", stacklevel=2)
            continue
        if not isinstance(check, Check):
            warnings.warn(f"{where} is a {type(check).__name__}, not a Check", stacklevel=2)
        elif check.id in taken:
            warnings.warn(f"{where} claims the id {check.id!r}, already taken", stacklevel=2)
        else:
            taken.add(check.id)
            found.append(check)
    return found
