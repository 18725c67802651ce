"""Fix All, once for every caller: the panel, ``ik-doctor fix`` (``--animation`` too) and the demo.

A fix can make another finding disappear or appear (a new control bone gets a pole), so the
findings are asked for again after every fix and the next fix is chosen among them: structure
first (each check's ``order``), then errors before warnings. A fix that rebinds a skinned mesh
or throws something away runs only when the permission covers it (``fix_policy``). The core
neither diagnoses nor solves: it is handed where the findings come from and how one fix is
applied (``doctor.apply_all_fixes`` hands it ``diagnose``, the animation scan and ``run_fix``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import bpy

from .editing import FixError
from .finding import Finding, FixResult, limb_order
from .fix_policy import FixPermission, fix_impact, skinned_meshes
from .registry import get_check

FindingSource = Callable[[], Sequence[Finding]]
"""The rig's findings as they are now, asked again after every fix."""
ApplyFix = Callable[[Finding], FixResult]
"""Apply one finding's fix; raise ``FixError`` when it cannot be applied."""
Leave = Callable[[Finding], bool]
"""Says yes to a finding no fix may touch (a fault accepted on purpose)."""
MAX_FIXES = 50
"""Fixes one run may apply to one armature: a bound, should fixes ever undo each other."""


def run_fixes(
    obj: bpy.types.Object,
    sources: Sequence[FindingSource],
    apply: ApplyFix,
    permission: FixPermission | None = None,
    leave: Leave | None = None,
    max_fixes: int = MAX_FIXES,
) -> list[FixResult]:
    """Apply every fix ``permission`` covers, one at a time, finding again after each; return
    what each fix did, in the order applied (a refused fix as ``failed``, tried once).

    ``sources`` are asked in turn: a later one only when those before it offer nothing to fix.
    The animation scan comes after the checks: it solves every frame of every action (seconds
    on a real rig), and what it proves is about the rig the checks' fixes leave.
    """
    permission = permission or FixPermission()
    skinned = skinned_meshes(obj)
    tried: set[tuple[Any, ...]] = set()

    def wanted(finding: Finding) -> bool:
        return (
            finding.fix_id is not None
            and finding.key not in tried
            and not (leave and leave(finding))
            and fix_impact(finding, obj, skinned).allowed_by(permission)
        )

    done: list[FixResult] = []
    for _ in range(max_fixes):
        finding = _next_fix(sources, wanted)
        if finding is None:
            break
        tried.add(finding.key)
        done.append(_applied(apply, finding))
    return done


def _next_fix(
    sources: Sequence[FindingSource], wanted: Callable[[Finding], bool]
) -> Finding | None:
    """The first fix to apply now: from the first source offering one, by check order, then
    errors before warnings, then limb by limb (not the report's order, which puts the worst
    limb first and so moves when a fix changes another limb)."""
    for source in sources:
        candidates = [finding for finding in source() if wanted(finding)]
        if candidates:
            return min(
                candidates,
                key=lambda f: (get_check(f.check_id).order, f.severity.rank, *limb_order(f)),
            )
    return None


def _applied(apply: ApplyFix, finding: Finding) -> FixResult:
    try:
        return apply(finding)
    except FixError as error:
        return FixResult(finding, changed=False, sentence=f"Not fixed: {error}", failed=True)
