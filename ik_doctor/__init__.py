"""IK Doctor: finds out why a rig's inverse kinematics does not work, and fixes it.

The public API works headless right after ``import ik_doctor``::

    findings = ik_doctor.diagnose(armature_object)
    for finding in findings:
        if finding.fix_label:
            print(ik_doctor.apply_fix(finding))

A fault kept on purpose is accepted with a reason, stored in the .blend on the armature:
``ik_doctor.waive(finding, "influence 0.1 on purpose")`` (and ``ik_doctor.unwaive(finding)``).

The names load on first use, so ``import ik_doctor`` alone does not import ``bpy``: the
command line decides when Blender starts and where its start-up messages go.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .core import registry as _registry
from .plugins import collect as _collect_checks

# Every check, this package's and other packages' (``plugins``), collected on first use: by
# then any part of the package may ask the registry, whatever was imported first.
_registry.collect_with(_collect_checks)

if TYPE_CHECKING:
    from .core.editing import FixError
    from .core.finding import Finding, FixResult, Severity
    from .core.fix_policy import FixPermission
    from .core.registry import Check, all_checks, get_check
    from .core.waiver_store import unwaive, waive, waivers_of
    from .core.waivers import Waiver
    from .doctor import apply_all_fixes, apply_fix, diagnose, run_fix
    from .verify.animation import scan_animation
    from .verify.export_scan import scan_export
    from .verify.oracle import ChainVerdict, judge_chains
    from .verify.solve import ChainSolve, measure_chains, solve_within_reach

_PUBLIC = {
    "apply_all_fixes": ".doctor",
    "apply_fix": ".doctor",
    "diagnose": ".doctor",
    "run_fix": ".doctor",
    "FixError": ".core.editing",
    "Finding": ".core.finding",
    "FixResult": ".core.finding",
    "FixPermission": ".core.fix_policy",
    "Severity": ".core.finding",
    "scan_animation": ".verify.animation",
    "scan_export": ".verify.export_scan",
    "ChainVerdict": ".verify.oracle",
    "judge_chains": ".verify.oracle",
    "Check": ".core.registry",
    "all_checks": ".core.registry",
    "get_check": ".core.registry",
    "ChainSolve": ".verify.solve",
    "measure_chains": ".verify.solve",
    "solve_within_reach": ".verify.solve",
    "Waiver": ".core.waivers",
    "waive": ".core.waiver_store",
    "unwaive": ".core.waiver_store",
    "waivers_of": ".core.waiver_store",
}

__all__ = [
    "ChainSolve",
    "ChainVerdict",
    "Check",
    "Finding",
    "FixError",
    "FixPermission",
    "FixResult",
    "Severity",
    "Waiver",
    "all_checks",
    "apply_all_fixes",
    "apply_fix",
    "diagnose",
    "get_check",
    "judge_chains",
    "measure_chains",
    "register",
    "run_fix",
    "scan_animation",
    "scan_export",
    "solve_within_reach",
    "unregister",
    "unwaive",
    "waive",
    "waivers_of",
]


def __getattr__(name: str) -> Any:
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def register() -> None:
    """Blender calls this when the extension is enabled: the panel, and the command line as
    ``blender --command ik_doctor``."""
    from . import ui
    from .cli import blender_command

    ui.register()
    blender_command.register()


def unregister() -> None:
    """Blender calls this when the extension is disabled; it removes everything it added."""
    from . import ui
    from .cli import blender_command

    blender_command.unregister()
    ui.unregister()
