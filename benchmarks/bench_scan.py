"""What ``scan_animation`` costs over playing the same frames: the figures for the README.

For every real rig in ``../shared/rigs/`` with animation, in one process: the time to play each
of its actions frame by frame with ``frame_set`` alone (what any look at those frames costs),
the time of ``scan_animation`` without the cause search (the measuring), and the time the cause
search adds on the chain-actions that miss. The target is a ratio of at most 1.5 between the
scan and plain playback where nothing fails::

    .venv/latest/bin/python benchmarks/bench_scan.py
    .venv/4.2/bin/python benchmarks/bench_scan.py --repeat 5
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT, ROOT / "tests"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import blender_session  # noqa: E402  (before bpy: Blender's user folder apart from the person's)
import bpy  # noqa: E402
from measured import write_table  # noqa: E402

from ik_doctor.verify import animation, playback  # noqa: E402

RIGS = (ROOT.parent / "shared" / "rigs").resolve()


def play(obj: bpy.types.Object) -> None:
    """Every frame of every action the scan would play, with nothing measured."""
    scene = bpy.context.scene
    for action in playback.chosen_actions(obj, None):
        playback.play_alone(obj, action)
        for frame in playback.frames_to_play(action, None):
            scene.frame_set(frame)


def median_seconds(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _load() -> str:
    return f"Load average at the end: {os.getloadavg()[0]:.1f} (2 cores shared with other work)."


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (median)")
    args = parser.parse_args(argv)
    print(f"Blender {bpy.app.version_string}; seconds, median of {args.repeat}")
    print(f"{'rig':<34}{'frames':>7}{'play':>9}{'scan':>9}{'ratio':>7}{'causes':>9}  failing")
    totals = {"play": 0.0, "scan": 0.0, "quiet_play": 0.0, "quiet_scan": 0.0, "causes": 0.0}
    rows: list[list[object]] = []
    for path in sorted(RIGS.glob("*.blend")):
        try:
            bpy.ops.wm.open_mainfile(filepath=str(path), load_ui=False)
        except RuntimeError:
            continue
        for obj in [o for o in bpy.data.objects if o.type == "ARMATURE" and o.library is None]:
            actions = playback.chosen_actions(obj, None)
            if not actions or not any(True for _ in obj.pose.bones):
                continue
            frames = sum(len(playback.frames_to_play(a, None)) for a in actions)
            with playback.scene_kept(obj):
                played = median_seconds(lambda o=obj: play(o), args.repeat)
            suspects = animation.suspects
            animation.suspects = lambda *_: []  # the measuring alone
            try:
                scanned = median_seconds(
                    lambda o=obj: animation.scan_animation(o, solve_untested=False), args.repeat
                )
            finally:
                animation.suspects = suspects
            start = time.perf_counter()
            findings = animation.scan_animation(obj, solve_untested=False)
            causes = max(0.0, time.perf_counter() - start - scanned)
            failing = sum(1 for f in findings if f.args.get("problem") == "miss")
            totals["play"] += played
            totals["scan"] += scanned
            totals["causes"] += causes
            if not failing:
                totals["quiet_play"] += played
                totals["quiet_scan"] += scanned
            name = f"{path.stem[:22]}/{obj.name[:10]}"
            ratio = f"{scanned / played if played else 0.0:.2f}"
            rows.append([name, frames, f"{played:.3f}", f"{scanned:.3f}", ratio, f"{causes:.3f}"])
            print(
                f"{name:<34}{frames:>7}{played:>9.3f}{scanned:>9.3f}"
                f"{scanned / played if played else 0.0:>7.2f}{causes:>9.3f}  {failing}"
            )
    quiet = totals["quiet_scan"] / totals["quiet_play"] if totals["quiet_play"] else 0.0
    print(
        f"all: play {totals['play']:.2f} s, scan {totals['scan']:.2f} s "
        f"(ratio {totals['scan'] / totals['play']:.2f}); rigs where nothing misses: "
        f"ratio {quiet:.2f} (target <= 1.5); cause search {totals['causes']:.2f} s"
    )
    rows.append(
        [
            "all",
            "",
            f"{totals['play']:.2f}",
            f"{totals['scan']:.2f}",
            f"{totals['scan'] / totals['play']:.2f}",
            f"{totals['causes']:.2f}",
        ]
    )
    rows.append(
        [
            "where nothing misses",
            "",
            f"{totals['quiet_play']:.2f}",
            f"{totals['quiet_scan']:.2f}",
            f"{quiet:.2f}",
            "",
        ]
    )
    header = ["rig/armature", "frames", "play s", "scan s", "scan / play", "cause search s"]
    write_table("scan-speed", header, rows, per_line=True, note=_load())
    blender_session.leave(0)


if __name__ == "__main__":
    main()
