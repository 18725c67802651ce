"""IK Doctor: finds out why a rig's inverse kinematics does not work, and fixes it.

The public API works headless right after ``import ik_doctor``::

    findings = ik_doctor.diagnose(armature_object)
    for finding in findings:
        if finding.fix_label:
            print(ik_doctor.apply_fix(finding))

The names load on first use, so ``import ik_doctor`` alone does not import ``bpy``: the
command line decides when Blender starts and where its start-up messages go.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .core.diagnosis import apply_all_fixes, apply_fix, diagnose, run_fix
    from .core.editing import FixError
    from .core.finding import Finding, FixResult, Severity
    from .core.fix_policy import FixPermission
    from .core.oracle import ChainVerdict, judge_chains
    from .core.registry import Check, all_checks, get_check
    from .core.solve import ChainSolve, measure_chains, solve_within_reach

_PUBLIC = {
    "apply_all_fixes": ".core.diagnosis",
    "apply_fix": ".core.diagnosis",
    "diagnose": ".core.diagnosis",
    "run_fix": ".core.diagnosis",
    "FixError": ".core.editing",
    "Finding": ".core.finding",
    "FixResult": ".core.finding",
    "FixPermission": ".core.fix_policy",
    "Severity": ".core.finding",
    "ChainVerdict": ".core.oracle",
    "judge_chains": ".core.oracle",
    "Check": ".core.registry",
    "all_checks": ".core.registry",
    "get_check": ".core.registry",
    "ChainSolve": ".core.solve",
    "measure_chains": ".core.solve",
    "solve_within_reach": ".core.solve",
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
    "all_checks",
    "apply_all_fixes",
    "apply_fix",
    "diagnose",
    "get_check",
    "judge_chains",
    "measure_chains",
    "register",
    "run_fix",
    "solve_within_reach",
    "unregister",
]


def __getattr__(name: str) -> Any:
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def register() -> None:
    """Blender calls this when the extension is enabled."""
    from . import ui

    ui.register()


def unregister() -> None:
    """Blender calls this when the extension is disabled; it removes everything it added."""
    from . import ui

    ui.unregister()
