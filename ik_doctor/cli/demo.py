"""``ik-doctor demo``: the built-in rig with a fault on each limb, diagnosed, fixed, verified.

It saves the fixed rig and an HTML report with each chain's diagram before and after.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

import bpy

from .. import apply_all_fixes, diagnose, solve_within_reach
from ..core.editing import constraint_on
from ..core.fix_policy import FixPermission
from ..core.rig import RigView
from ..sample_rig import build_character_rig
from .diagram import rig_geometry
from .report_html import render_html


def _missing_foot_target(obj: bpy.types.Object) -> None:
    constraint_on(obj, "shin.L", "IK", bpy.types.KinematicConstraint).subtarget = "foot_ik.L.001"


def _arm_chain_too_short(obj: bpy.types.Object) -> None:
    constraint_on(obj, "forearm.L", "IK", bpy.types.KinematicConstraint).chain_count = 1


def _forearm_unparented(obj: bpy.types.Object) -> None:
    from ..core.editing import edit_bones

    with edit_bones(obj) as bones:
        bones["forearm.R"].parent = None


DEMO_FAULTS: dict[str, Callable[[bpy.types.Object], None]] = {
    "shin.L targets a bone that does not exist": _missing_foot_target,
    "forearm.L has chain length 1": _arm_chain_too_short,
    "forearm.R lost its parent": _forearm_unparented,
}


def build_demo_rig() -> bpy.types.Object:
    """The reference rig with every demo fault applied."""
    obj = build_character_rig("IKDoctorDemo")
    for fault in DEMO_FAULTS.values():
        fault(obj)
    return obj


def demo_report_path(output: str, report: str | None) -> Path:
    """Where the demo's HTML report goes: ``report``, or next to the rig with ``.html``."""
    return Path(report) if report else Path(output).with_suffix(".html")


def run_demo(output: str, out: TextIO, report: str | None = None) -> int:
    bpy.ops.wm.read_homefile(use_empty=True)
    obj = build_demo_rig()
    out.write("IK Doctor demo: a character rig with these faults:\n")
    for description in DEMO_FAULTS:
        out.write(f"  - {description}\n")
    before = {(s.owner, s.constraint): s for s in solve_within_reach(obj)}
    found = diagnose(obj)
    chains_before = _geometry(obj)
    out.write("\nFindings:\n")
    for finding in found:
        out.write(f"  [{finding.severity.value}] {finding.title}: {finding.message}\n")
    out.write("\nFixes:\n")
    # The demo's mesh is made here, so nothing is lost when its bind moves with the bones.
    fixes = apply_all_fixes(obj, permission=FixPermission(rebind_meshes=True))
    for fixed in fixes:
        out.write(f"  {fixed.finding.check_id}: {fixed.sentence}\n")
    after = {(s.owner, s.constraint): s for s in solve_within_reach(obj)}
    out.write("\nTip error for a target within reach (before -> after):\n")
    for key, solved in after.items():
        was = before.get(key)
        out.write(
            f"  {key[0]:<10} {_distance(was.tip_error if was else None)} -> "
            f"{_distance(solved.tip_error)}\n"
        )
    left = diagnose(obj)
    remaining = [f for f in left if f.severity.value == "error"]
    path = Path(output).resolve()
    bpy.ops.wm.save_as_mainfile(filepath=str(path))
    out.write(f"\nSaved the fixed rig to {path}\n")
    report_path = demo_report_path(output, report).resolve()
    result: dict[str, Any] = {
        "path": "built-in demo rig",
        "status": "ok",
        "problem": None,
        "output": str(path),
        "backup": None,
        "armatures": [
            {
                "name": obj.name,
                "library": None,
                "override": False,
                "problem": None,
                "findings": [f.to_dict() for f in found],
                "chains": chains_before,
                "fix": {
                    "skipped": None,
                    "applied": [fixed.to_dict() for fixed in fixes],
                    "not_applied": [],
                    "after": [f.to_dict() for f in left],
                    "chains_after": _geometry(obj),
                },
            }
        ],
    }
    page = render_html([result], "fix", bpy.app.version_string)
    report_path.write_text(page, encoding="utf-8")
    out.write(f"Report with before/after diagrams: {report_path}\n")
    out.write(f"Errors left: {len(remaining)}\n")
    return 1 if remaining else 0


def _geometry(obj: bpy.types.Object) -> list[dict[str, Any]]:
    return [geometry.to_dict() for geometry in rig_geometry(RigView(obj))]


def _distance(value: float | None) -> str:
    return "no target" if value is None else f"{value:.6f}"
