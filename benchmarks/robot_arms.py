"""How well the findings agree with the solver on robot and servo arms drawn at random.

Each arm (``tests/robot_arms.py``: 3 to 6 links, turntables, hinges, one-sided and two-sided IK
limits, no pole) is judged by the oracle and diagnosed. It prints, and writes to
``docs/measured/robot-arms.md``, how many arms pass and fail, the failing ones with an error and
with an error or warning, the arms that pass with an error on them (false alarms), and any crash::

    .venv/latest/bin/python benchmarks/robot_arms.py --arms 400 --seed 0
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT, ROOT / "tests"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import blender_session  # noqa: E402  (before bpy: Blender's user folder apart from the person's)
import bpy  # noqa: E402
from measured import write_table  # noqa: E402
from robot_arms import build_robot_arm  # noqa: E402

from ik_doctor import Severity, diagnose  # noqa: E402
from ik_doctor.verify.oracle import disagreements, judge_chains  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arms", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0, help="the first arm's seed")
    parser.add_argument("--no-table", action="store_true", help="print only")
    args = parser.parse_args()
    counts = dict.fromkeys(
        ("pass", "fail", "with error", "with finding", "false alarms", "crashes"), 0
    )
    started = time.perf_counter()
    for seed in range(args.seed, args.seed + args.arms):
        bpy.ops.wm.read_homefile(use_empty=True)
        arm = build_robot_arm(seed)
        try:
            verdicts = judge_chains(arm.rig)
            findings = diagnose(arm.rig)
        except Exception:  # a crash is what this counts, with its trace
            counts["crashes"] += 1
            print(f"arm {seed} {arm.joints}: crashed")
            traceback.print_exc()
            continue
        state = verdicts[0].state
        counts[state] = counts.get(state, 0) + 1
        severities = {f.severity for f in findings}
        if state == "fail":
            counts["with error"] += Severity.ERROR in severities
            counts["with finding"] += bool(severities & {Severity.ERROR, Severity.WARNING})
        problems = disagreements(verdicts, findings)
        counts["false alarms"] += any(p.kind == "false alarm" for p in problems)
        for problem in problems:
            print(f"arm {seed} {arm.joints} ({state}): {problem.problem[:140]}")
    seconds = time.perf_counter() - started
    print(counts, f"{seconds:.0f} s")
    if not args.no_table:
        failing = counts["fail"]
        write_table(
            "robot-arms",
            [
                "arms",
                "first seed",
                "pass",
                "fail",
                "fail with an error",
                "fail with an error or warning",
                "pass with an error",
                "crashes",
            ],
            [
                [
                    args.arms,
                    args.seed,
                    counts["pass"],
                    failing,
                    f"{counts['with error']} of {failing}",
                    f"{counts['with finding']} of {failing}",
                    f"{counts['false alarms']} of {counts['pass']}",
                    counts["crashes"],
                ]
            ],
            per_line=True,
        )
    blender_session.leave(0)


if __name__ == "__main__":
    main()
