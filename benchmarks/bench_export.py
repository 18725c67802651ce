"""What ``scan_export`` costs over the exporter's own export of the same actions.

For each rig, in one process: the time of Blender's exporter writing the armature and its
actions with the same settings (what exporting costs the user anyway), and the time of
``scan_export`` (export, import into a scratch scene, every frame of every action compared).
The target is a ratio of at most 2.5 where nothing fails (no cause search)::

    .venv/latest/bin/python benchmarks/bench_export.py
    .venv/latest/bin/python benchmarks/bench_export.py --exporter fbx --repeat 3 RIG.blend
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT, ROOT / "tests"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import blender_session  # noqa: E402, F401  (before bpy: Blender's user folder apart from the person's)
import bpy  # noqa: E402
from measured import write_table  # noqa: E402

from ik_doctor.verify import export_roundtrip, export_settings  # noqa: E402
from ik_doctor.verify.export_scan import scan_export  # noqa: E402

RIGS = (ROOT.parent / "shared" / "rigs").resolve()
ANIMATED = ("quaternius_Trex.blend", "quaternius_Horse.blend", "quaternius_Rat.blend")


def export_alone(obj: bpy.types.Object, exporter: str, folder: Path) -> None:
    """The exporter on its own, as the scan calls it: the armature, the user's settings."""
    settings = export_settings.user_settings(obj, exporter)
    export_roundtrip.write_export(obj, exporter, settings, folder / f"alone.{exporter}")


def timed(repeat: int, run: Callable[[], object]) -> tuple[float, object]:
    """The median time of ``repeat`` runs, and what the last returned."""
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rigs", nargs="*", type=Path, default=[RIGS / name for name in ANIMATED])
    parser.add_argument("--exporter", choices=export_settings.EXPORTERS, default="gltf")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="ik_doctor_bench_"))
    print(f"Blender {bpy.app.version_string}, {args.exporter}, median of {args.repeat}")
    print(f"{'rig':32} {'actions':>7} {'frames':>6} {'export s':>9} {'scan s':>7} {'ratio':>6}")
    rows = []
    for path in args.rigs:
        bpy.ops.wm.open_mainfile(filepath=str(path))
        obj = next(o for o in bpy.data.objects if o.type == "ARMATURE")
        actions = [a for a in bpy.data.actions if a.users]
        frames = sum(int(a.frame_range[1] - a.frame_range[0]) + 1 for a in actions)
        alone, _ = timed(args.repeat, partial(export_alone, obj, args.exporter, folder))
        scan, found = timed(args.repeat, partial(scan_export, obj, args.exporter))
        count = len(found) if isinstance(found, list) else 0
        note = f"  ({count} findings)" if count else ""
        print(
            f"{path.stem:32} {len(actions):7} {frames:6} {alone:9.2f} {scan:7.2f} "
            f"{scan / alone:6.2f}{note}"
        )
        rows.append(
            [
                path.stem,
                len(actions),
                frames,
                f"{alone:.2f}",
                f"{scan:.2f}",
                f"{scan / alone:.2f}",
                count,
            ]
        )
    header = ["rig", "actions", "frames", "export s", "scan s", "scan / export", "findings"]
    load = f"Load average at the end: {os.getloadavg()[0]:.1f} (2 cores shared with other work)."
    write_table(f"export-speed-{args.exporter}", header, rows, per_line=True, note=load)


if __name__ == "__main__":
    main()
