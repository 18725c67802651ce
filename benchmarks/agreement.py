"""How well the findings agree with the solver on the reference rig broken at random.

Each rig is the reference rig with one to three faults the checks know, in random kinds, limbs
and magnitudes (``tests/faulted_limbs.py``), judged by the oracle (``judge_chains``) and
diagnosed, and (unless ``--no-fixes``) every offered fix and Fix All tried on a fresh copy. It
prints, per fault kind and per check, the recall and precision of errors against the oracle,
the recall of errors and warnings together (no silent failure), the fixes that traded one error
for another, and for each kind of miss the smallest rig that shows it::

    .venv/latest/bin/python benchmarks/agreement.py --rigs 2000
    .venv/4.2/bin/python benchmarks/agreement.py --rigs 300 --seed 7 --json /tmp/agreement.json

A failing chain counts as found when an error (or, for "err+warn", a warning) stands on it or
on a chain upstream; an error is right when its chain fails the oracle or could not be tested.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT, ROOT / "tests"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import blender_session  # noqa: E402  (before bpy: Blender's user folder apart from the person's)
import faulted_limbs as faulted  # noqa: E402
from measured import write_table  # noqa: E402

from ik_doctor import Severity  # noqa: E402


@dataclass
class Tally:
    """Counts for one fault kind or one check."""

    failing: int = 0
    """Chains the oracle fails (on rigs with this fault)."""
    with_error: int = 0
    with_finding: int = 0
    """Failing chains with an error, or an error or warning, on them or upstream."""
    errors: int = 0
    right_errors: int = 0
    """Error findings, and those whose chain fails the oracle or could not be tested."""
    trades: int = 0
    rigs: int = 0

    def row(self) -> list[str]:
        return [
            str(self.rigs),
            str(self.failing),
            _share(self.with_error, self.failing),
            _share(self.with_finding, self.failing),
            str(self.errors),
            _share(self.right_errors, self.errors),
            str(self.trades),
        ]


def _share(part: int, whole: int) -> str:
    """A share that reads 100% only when it is whole: 2,585 of 2,586 is 99.96%, not 100.0%."""
    if not whole:
        return "-"
    return "100%" if part == whole else f"{min(part / whole, 0.9999):.2%}"


@dataclass
class Misses:
    """The smallest rig for each kind of miss (fewest faults, then the first drawn), and every
    miss, for ``--misses``."""

    smallest: dict[tuple[str, str], tuple[tuple[faulted.Fault, ...], str]] = field(
        default_factory=dict
    )
    every: list[dict] = field(default_factory=list)

    def add(self, what: str, where: str, faults: tuple[faulted.Fault, ...], problem: str) -> None:
        self.every.append(
            {
                "what": what,
                "where": where,
                "faults": [f.__dict__ for f in faults],
                "problem": problem,
            }
        )
        key = (what, where)
        known = self.smallest.get(key)
        if known is None or len(faults) < len(known[0]):
            self.smallest[key] = (faults, problem)


def run(rigs: int, seed: int, most: int, fixes: bool, off_grid: bool = False) -> dict:
    rng = random.Random(seed)
    by_kind: dict[str, Tally] = defaultdict(Tally)
    by_check: dict[str, Tally] = defaultdict(Tally)
    total = Tally()
    misses = Misses()
    for _ in range(rigs):
        faults = faulted.random_faults(rng, most, off_grid)
        judged = faulted.judge(faults, fixes=fixes)
        kinds = {fault.kind for fault in faults}
        tallies = [total, *(by_kind[k] for k in kinds)]
        for tally in tallies:
            tally.rigs += 1
        failing = [v for v in judged.verdicts if v.fails]
        unexplained = {(d.owner, d.constraint) for d in judged.unexplained}
        silent = {(d.owner, d.constraint) for d in judged.silent}
        for verdict in failing:
            for tally in tallies:
                tally.failing += 1
                tally.with_error += verdict.key not in unexplained
                tally.with_finding += verdict.key not in silent
        for finding in judged.findings:
            if finding.severity != Severity.ERROR:
                continue
            place = (finding.bone, finding.constraint, finding.check_id)
            wrong = place in {(d.owner, d.constraint, d.check_id) for d in judged.false_alarms}
            for tally in (*tallies, by_check[finding.check_id]):
                tally.errors += 1
                tally.right_errors += not wrong
        for trade in judged.trades:
            check = trade.split(".", 1)[0]
            for tally in (*tallies, by_check[check]):
                tally.trades += 1
            misses.add("trade", check, faults, trade)
        for d in judged.false_alarms:
            misses.add("false alarm", d.check_id or "", faults, d.problem)
        for fix in judged.unrefused:
            misses.add("fix on a name Python cannot read", fix.split(".", 1)[0], faults, fix)
        for d in judged.silent:
            for k in kinds:
                misses.add("silent", k, faults, f"{d.owner}/{d.constraint}: {d.problem}")
        for d in judged.unexplained:
            if (d.owner, d.constraint) not in silent:
                for k in kinds:
                    misses.add("warning only", k, faults, f"{d.owner}/{d.constraint}: {d.problem}")
    return {"total": total, "kinds": dict(by_kind), "checks": dict(by_check), "misses": misses}


HEADER = ["", "rigs", "failing", "err recall", "err+warn", "errors", "err precision", "trades"]


def print_report(result: dict, rigs: int, seed: int, seconds: float) -> None:
    import bpy

    print(f"Blender {bpy.app.version_string}: {rigs} faulted rigs (seed {seed}) in {seconds:.0f} s")
    rows = [["all", *result["total"].row()]]
    rows += [[f"fault {k}", *t.row()] for k, t in sorted(result["kinds"].items())]
    rows += [[f"check {k}", *t.row()] for k, t in sorted(result["checks"].items())]
    widths = [max(len(r[i]) for r in [HEADER, *rows]) for i in range(len(HEADER))]
    for row in [HEADER, *rows]:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)))
    smallest = result["misses"].smallest
    print(f"\n{len(smallest)} kinds of miss; the smallest rig for each:")
    for (what, where), (faults, problem) in sorted(smallest.items()):
        spelled = ", ".join(f"{f.kind}({f.limb}, {f.amount:g})" for f in faults)
        print(f"- {what} [{where}]: {spelled}\n    {problem[:300]}")


def _plain(result: dict) -> dict:
    def tally(t: Tally) -> dict:
        return t.__dict__

    return {
        "total": tally(result["total"]),
        "kinds": {k: tally(t) for k, t in result["kinds"].items()},
        "checks": {k: tally(t) for k, t in result["checks"].items()},
        "misses": [
            {"what": what, "where": where, "faults": [f.__dict__ for f in faults], "problem": p}
            for (what, where), (faults, p) in sorted(result["misses"].smallest.items())
        ],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rigs", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--most", type=int, default=3, help="most faults on one rig")
    parser.add_argument("--no-fixes", action="store_true", help="judge findings only")
    parser.add_argument(
        "--off-grid",
        action="store_true",
        help="draw amounts between and beyond the kinds' own (table agreement-off-grid)",
    )
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--misses", type=Path, help="write every miss here, a JSON line each")
    args = parser.parse_args(argv)
    started = time.monotonic()
    result = run(args.rigs, args.seed, args.most, not args.no_fixes, args.off_grid)
    print_report(result, args.rigs, args.seed, time.monotonic() - started)
    write_table(
        "agreement-off-grid" if args.off_grid else "agreement",
        [
            "rigs",
            "seed",
            "failing chains",
            "error recall",
            "error or warning",
            "errors",
            "error precision",
            "fixes that trade",
        ],
        [[f"{args.rigs:,}", args.seed, *result["total"].row()[1:]]],
        per_line=True,
    )
    if args.json:
        args.json.write_text(json.dumps(_plain(result), indent=1))
    if args.misses:
        args.misses.write_text("".join(json.dumps(m) + "\n" for m in result["misses"].every))
    blender_session.leave(0)


if __name__ == "__main__":
    main()
