"""The export truth table for the README: each animated shared rig, exported with each setting.

For every rig and setting: how far the game's worst joint lands from Blender's pose (a share of
the rig's size, with its joint, action and frame), how many frames the file left out, and what
``scan_export`` said (its findings' titles and proved causes)::

    .venv/latest/bin/python benchmarks/export_table.py
    .venv/latest/bin/python benchmarks/export_table.py --built-faults

``--built-faults`` measures only the faults ``tests/export_faults.py`` builds on the reference
rig (seconds, on any Blender line: its rows are kept per line), each with glTF's and FBX's
defaults and deform bones only where that is the fault, into ``docs/measured/export-faults.md``.
Whole frames, as the scan compares: the Euler wrap's spine lands on every frame (see its
builder for what happens between them).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT, ROOT / "tests"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import blender_session  # noqa: E402, F401  (before bpy: Blender's user folder apart from the person's)
import bpy  # noqa: E402
from bench_export import ANIMATED, RIGS  # noqa: E402
from export_faults import FAULTS  # noqa: E402
from measured import write_table  # noqa: E402

from ik_doctor.sample_rig import build_character_rig  # noqa: E402
from ik_doctor.verify.export_compare import compare  # noqa: E402
from ik_doctor.verify.export_roundtrip import ExportFailed, round_trip  # noqa: E402
from ik_doctor.verify.export_scan import scan_export  # noqa: E402
from ik_doctor.verify.export_settings import user_settings  # noqa: E402

SETTINGS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("glTF defaults", "gltf", {}),
    ("glTF Always Sample off", "gltf", {"export_force_sampling": False}),
    ("glTF Deform Bones Only", "gltf", {"export_def_bones": True}),
    ("FBX defaults", "fbx", {}),
    ("FBX Simplify 0", "fbx", {"bake_anim_simplify_factor": 0.0}),
    ("FBX All Actions off", "fbx", {"bake_anim_use_all_actions": False}),
)


def worst(obj: bpy.types.Object, exporter: str, settings: dict[str, Any]) -> str:
    """The worst joint over every action and frame, and the frames left out."""
    with round_trip(obj, exporter, user_settings(obj, exporter, settings)) as trip:
        differences = compare(obj, trip)
    misses = [(m[0], m[1], d.action, f) for d in differences for f, m in d.misses.items()]
    left_out = sum(len(d.left_out) for d in differences)
    if not misses:
        return f"no action in the file; {left_out} frames left out"
    share, joint, action, frame = max(misses)
    text = f"{share:.2%} ({joint}, '{action}' frame {frame})"
    return f"{text}; {left_out} frames left out" if left_out else text


HEADER = ("rig", "export", "worst joint off", "IK Doctor said")
FAULT_HEADER = ("built fault", "export", "worst joint off", "IK Doctor said")
FAULT_EXPORTS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("glTF defaults", "gltf", {}),
    ("FBX defaults", "fbx", {}),
)
DEFORM_ONLY: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("glTF Deform Bones Only", "gltf", {"export_def_bones": True}),
    ("FBX Only Deform Bones", "fbx", {"use_armature_deform_only": True}),
)


def fault_rows() -> list[tuple[str, str, str, str]]:
    """Each built fault on the reference rig, with each export: the worst joint, what IK
    Doctor said."""
    rows = []
    for fault, build in FAULTS.items():
        for label, exporter, settings in FAULT_EXPORTS + (DEFORM_ONLY if "deform" in fault else ()):
            bpy.ops.wm.read_homefile(use_empty=True)
            rig = build_character_rig()
            build(rig)
            measured = worst(rig, exporter, settings)
            said = [f"{f.title} ({f.args['cause']})" for f in scan_export(rig, exporter, settings)]
            rows.append((fault, label, measured, "; ".join(said) or "-"))
            print(f"| {' | '.join(rows[-1])} |", flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--built-faults",
        action="store_true",
        help="only the faults built on the reference rig (docs/measured/export-faults.md)",
    )
    print(f"Blender {bpy.app.version_string}")
    if parser.parse_args().built_faults:
        write_table("export-faults", FAULT_HEADER, fault_rows(), per_line=True)
        return
    print(f"| {' | '.join(HEADER)} |")
    print("|---|---|---|---|")
    rows = []
    for name in ANIMATED:
        for label, exporter, settings in SETTINGS:
            bpy.ops.wm.open_mainfile(filepath=str(RIGS / name))
            obj = next(o for o in bpy.data.objects if o.type == "ARMATURE")
            try:
                measured = worst(obj, exporter, settings)
                found = scan_export(obj, exporter, settings)
            except ExportFailed as error:
                rows.append((Path(name).stem, label, "-", str(error)))
            else:
                said = [f"{f.title} ({f.args['cause']})" for f in found]
                rows.append((Path(name).stem, label, measured, "; ".join(said) or "-"))
            print(f"| {' | '.join(rows[-1])} |")
    write_table("export", HEADER, rows)


if __name__ == "__main__":
    main()
