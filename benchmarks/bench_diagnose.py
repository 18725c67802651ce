"""How much a full diagnosis costs next to one evaluation of the rig itself.

Builds synthetic rigs of 100 to 20,000 bones (a quarter of them in two-bone IK chains with
target and pole controls, a few faults of each kind sprinkled in) and, in this one process,
times ``diagnose`` (median of repeats), one depsgraph evaluation after a pose change
(``view_layer.update()``), and ``apply_fix`` for the fixable findings. Prints a table and
writes the same figures as JSON.

Fixes are timed on a sample: the first ``--fix-sample`` findings of each kind (check and fix),
and the time for all of them is estimated from each kind's mean. Bone fixes borrow Edit Mode,
and Blender's own switch out of it costs 0.14 s at 5,000 bones and 2.2 s at 20,000 (it grows
faster than the rig), so fixing all 504 findings of the 20,000-bone rig one by one takes
minutes whatever IK Doctor does. ``--fix-sample 0`` times every fixable finding.

Run with the same Python as the tests:
    .venv/latest/bin/python benchmarks/bench_diagnose.py [--sizes 100,1000] [--json PATH]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import bpy
from mathutils import Vector

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from measured import write_table

import ik_doctor
from ik_doctor.core.editing import edit_bones

FIX_SAMPLE = 8
"""Findings of each kind whose fix is timed by default."""

BONES_PER_LIMB = 8
"""Two chain bones, a target, a pole, and four FK bones (a spine-like run above the limb)."""


def build_rig(bone_count: int) -> bpy.types.Object:
    """A rig of ``bone_count`` bones in limbs of eight; one limb in ten carries a fault."""
    bpy.ops.wm.read_homefile(use_empty=True)
    data = bpy.data.armatures.new("Bench")
    obj = bpy.data.objects.new("Bench", data)
    bpy.context.scene.collection.objects.link(obj)
    limbs = max(1, bone_count // BONES_PER_LIMB)
    columns = math.ceil(math.sqrt(limbs))
    with edit_bones(obj) as bones:
        for limb in range(limbs):
            origin = Vector((limb % columns, limb // columns, 0.0)) * 2.0
            _add_limb(bones, f"L{limb}", origin)
    for limb in range(limbs):
        owner = obj.pose.bones[f"L{limb}_lower"]
        constraint = owner.constraints.new("IK")
        constraint.target, constraint.subtarget = obj, f"L{limb}_target"
        constraint.pole_target, constraint.pole_subtarget = obj, f"L{limb}_pole"
        constraint.pole_angle = -math.pi / 2
        constraint.chain_count = 2
        _sprinkle_fault(obj, limb, constraint)
    return obj


def _add_limb(bones: bpy.types.ArmatureEditBones, name: str, origin: Vector) -> None:
    parent = None
    for index in range(4):
        fk = bones.new(f"{name}_fk{index}")
        fk.head = origin + Vector((0, 0, 0.2 * index))
        fk.tail = origin + Vector((0, 0, 0.2 * (index + 1)))
        fk.parent, fk.use_connect = parent, parent is not None
        parent = fk
    upper = bones.new(f"{name}_upper")
    upper.head, upper.tail = origin + Vector((0.3, 0, 1.2)), origin + Vector((0.3, -0.02, 0.7))
    upper.parent = parent
    lower = bones.new(f"{name}_lower")
    lower.head, lower.tail = upper.tail, origin + Vector((0.3, 0, 0.2))
    lower.parent, lower.use_connect = upper, True
    for control, head in (("target", lower.tail), ("pole", origin + Vector((0.3, -0.6, 0.7)))):
        bone = bones.new(f"{name}_{control}")
        bone.head, bone.tail = head, head + Vector((0, 0, 0.1))
        bone.use_deform = False


def _sprinkle_fault(obj: bpy.types.Object, limb: int, constraint) -> None:
    fault = limb % 40
    if fault == 1:
        constraint.subtarget = "missing"
    elif fault == 2:
        constraint.chain_count = 1
    elif fault == 3:
        constraint.chain_count = 0
    elif fault == 4:
        constraint.mute = True
    elif fault == 5:
        constraint.pole_target = None
    elif fault == 6:
        obj.pose.bones[f"L{limb}_upper"].lock_ik_x = True
        obj.pose.bones[f"L{limb}_lower"].lock_ik_x = True
    elif fault == 7:
        obj.pose.bones[f"L{limb}_upper"].constraints.new("COPY_ROTATION")


def median_ms(measured: Callable[[], object], repeats: int) -> float:
    """The median wall time of ``repeats`` calls, in ms."""
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        measured()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1000.0


def time_diagnose(obj: bpy.types.Object, repeats: int) -> tuple[float, list]:
    return median_ms(lambda: ik_doctor.diagnose(obj), repeats), ik_doctor.diagnose(obj)


def time_floor(obj: bpy.types.Object, repeats: int) -> float:
    """The least any IK diagnosis reads: every pose bone's constraint stack, once, and each IK's
    target and pole. No check can cost less than this walk through ``bpy``."""

    def walk() -> list:
        return [
            (c.target, c.subtarget, c.pole_target, c.pole_subtarget)
            for pose_bone in obj.pose.bones
            for c in pose_bone.constraints
            if c.type == "IK"
        ]

    return median_ms(walk, repeats)


def time_depsgraph(obj: bpy.types.Object, repeats: int) -> float:
    samples = []
    pose_bone = obj.pose.bones[0]
    pose_bone.rotation_mode = "XYZ"
    bpy.context.view_layer.update()
    for index in range(repeats):
        pose_bone.rotation_euler.x = 0.01 * (index + 1)
        start = time.perf_counter()
        bpy.context.view_layer.update()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1000.0


def peak_memory_kib(obj: bpy.types.Object) -> float:
    tracemalloc.start()
    ik_doctor.diagnose(obj)
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 1024.0


class _Layout:
    """A stand-in for a UILayout when timing the panel's own Python: every call returns one."""

    def __getattr__(self, _name: str) -> Callable[..., _Layout]:
        return lambda *_args, **_kwargs: self

    def __setattr__(self, _name: str, _value: object) -> None:
        pass


def time_panel_draw(obj: bpy.types.Object, findings: list, repeats: int) -> float:
    """One redraw of the N-panel with these findings stored, in ms (Blender draws only the
    visible rows of its list; the panel's Python counts the stored rows once)."""
    from ik_doctor.ui import panel, report

    # Registered only here: its depsgraph handler must not weigh on the evaluations timed above.
    ik_doctor.register()  # the panel's report lives on the window manager
    try:
        bpy.context.view_layer.objects.active = obj
        with contextlib.suppress(RuntimeError):
            bpy.ops.object.mode_set(mode="POSE")
        report.store(bpy.context, obj, findings)
        view = SimpleNamespace(layout=_Layout())
        draw_ms = median_ms(lambda: panel.IK_DOCTOR_PT_panel.draw(view, bpy.context), repeats)
        bpy.ops.object.mode_set(mode="OBJECT")
    finally:
        ik_doctor.unregister()
    return draw_ms


def time_fixes(findings: list, sample: int) -> dict:
    """Apply the first ``sample`` fixable findings of each kind (all with 0); time each."""
    kinds: dict[tuple[str, str], list] = {}
    for finding in findings:
        if finding.fix_id is not None:
            kinds.setdefault((finding.check_id, finding.fix_id), []).append(finding)
    timed_ms, estimate_ms, timed = 0.0, 0.0, 0
    for members in kinds.values():
        chosen = members[:sample] if sample else members
        start = time.perf_counter()
        for finding in chosen:
            with contextlib.suppress(ik_doctor.FixError):
                ik_doctor.apply_fix(finding)
        spent = (time.perf_counter() - start) * 1000.0
        timed_ms += spent
        estimate_ms += spent / len(chosen) * len(members)
        timed += len(chosen)
    return {
        "fixable": sum(len(members) for members in kinds.values()),
        "fixes_timed": timed,
        "fixes_ms": round(timed_ms, 1),
        "ms_per_fix": round(timed_ms / timed, 1) if timed else None,
        "all_fixes_ms_est": round(estimate_ms, 1),
    }


def measure(bone_count: int, repeats: int, fix_sample: int) -> dict:
    obj = build_rig(bone_count)
    bpy.context.view_layer.update()
    diagnose_ms, findings = time_diagnose(obj, repeats)
    depsgraph_ms = time_depsgraph(obj, repeats)
    floor_ms = time_floor(obj, repeats)
    memory = peak_memory_kib(obj)
    draw_ms = time_panel_draw(obj, findings, repeats)
    size = {  # counted before the fixes add control bones
        "bones": len(obj.data.bones),
        "chains": sum(1 for b in obj.pose.bones for c in b.constraints if c.type == "IK"),
    }
    return {
        **size,
        "findings": len(findings),
        "diagnose_ms": round(diagnose_ms, 2),
        "depsgraph_ms": round(depsgraph_ms, 2),
        "ratio": round(diagnose_ms / depsgraph_ms, 3) if depsgraph_ms else None,
        "floor_ms": round(floor_ms, 2),
        "floor_ratio": round(floor_ms / depsgraph_ms, 3) if depsgraph_ms else None,
        "peak_kib": round(memory, 1),
        "draw_ms": round(draw_ms, 3),
        **time_fixes(findings, fix_sample),
    }


DOCS_COLUMNS = {
    "bones": "bones",
    "chains": "chains",
    "findings": "findings",
    "diagnose_ms": "diagnose",
    "depsgraph_ms": "depsgraph",
    "ratio": "ratio",
    "floor_ms": "floor",
    "floor_ratio": "floor ratio",
    "peak_kib": "peak KiB",
    "draw_ms": "draw",
    "fixes_timed": "fixes timed",
    "ms_per_fix": "ms per fix",
    "all_fixes_ms_est": "all fixes (est.)",
}
"""The docs' table: a row's key and its column (times in ms)."""


def write_docs_table(rows: list[dict]) -> None:
    cells = [
        [
            f"{row[key]} of {row['fixable']}" if key == "fixes_timed" else f"{row[key]:,}"
            for key in DOCS_COLUMNS
        ]
        for row in rows
    ]
    load = f"Times in ms; load average at the end: {os.getloadavg()[0]:.1f} (2 cores)."
    write_table("diagnose-speed", list(DOCS_COLUMNS.values()), cells, per_line=True, note=load)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,1000,5000,20000")
    parser.add_argument("--repeats", type=int, default=11, help="runs per median")
    parser.add_argument(
        "--fix-sample",
        type=int,
        default=FIX_SAMPLE,
        help="fixes timed per kind of finding (0: every fixable finding)",
    )
    parser.add_argument("--json", type=Path, default=Path("benchmarks/results.json"))
    args = parser.parse_args()
    rows = [measure(int(size), args.repeats, args.fix_sample) for size in args.sizes.split(",")]
    columns = list(rows[0])
    print(f"Blender {bpy.app.version_string}, Python {sys.version.split()[0]}")
    print(" | ".join(f"{c:>12}" for c in columns))
    for row in rows:
        print(" | ".join(f"{row[c]!s:>12}" for c in columns))
    by_size = {row["bones"]: row for row in rows}
    if 1000 in by_size and 20000 in by_size:
        growth = by_size[20000]["diagnose_ms"] / by_size[1000]["diagnose_ms"]
        print(f"20,000 / 1,000 bones diagnose time: {growth:.1f}x (target <= 25x)")
    worst = max((r["ratio"] for r in rows if r["bones"] >= 1000 and r["ratio"]), default=None)
    if worst is not None:
        print(f"worst diagnose/depsgraph ratio at >= 1,000 bones: {worst} (target <= 0.25)")
        floor = max(r["floor_ratio"] for r in rows if r["bones"] >= 1000 and r["floor_ratio"])
        print(f"worst floor/depsgraph ratio (reading the IK constraints alone): {floor}")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    report = {"blender": bpy.app.version_string, "python": sys.version.split()[0], "rows": rows}
    args.json.write_text(json.dumps(report, indent=2) + "\n")
    write_docs_table(rows)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
