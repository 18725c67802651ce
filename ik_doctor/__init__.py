"""IK Doctor: finds out why a rig's inverse kinematics does not work, and fixes it.

The public API works headless right after ``import ik_doctor``::

    findings = ik_doctor.diagnose(armature_object)
    for finding in findings:
        if finding.fix_label:
            print(ik_doctor.apply_fix(finding))
"""

from .core.diagnosis import apply_all_fixes, apply_fix, diagnose
from .core.editing import FixError
from .core.finding import Finding, Severity
from .core.registry import Check, all_checks, get_check
from .core.solve import ChainSolve, measure_chains, solve_within_reach

__all__ = [
    "ChainSolve",
    "Check",
    "Finding",
    "FixError",
    "Severity",
    "all_checks",
    "apply_all_fixes",
    "apply_fix",
    "diagnose",
    "get_check",
    "measure_chains",
    "register",
    "solve_within_reach",
    "unregister",
]


def register() -> None:
    """Blender calls this when the extension is enabled."""
    from . import ui

    ui.register()


def unregister() -> None:
    """Blender calls this when the extension is disabled; it removes everything it added."""
    from . import ui

    ui.unregister()
