"""Judge IK Doctor against Blender's solver on the real rigs in ``../shared/rigs/``.

For every file and armature: the chains, what the oracle says (solving, see
``ik_doctor.verify.oracle``), the findings by severity, and the disagreements (a failing chain
with no error finding, or an error finding on a chain that works). Run it with a Blender line's
Python::

    .venv/latest/bin/python benchmarks/real_rigs_table.py            # the table
    .venv/latest/bin/python benchmarks/real_rigs_table.py --expected # candidate TSV rows

``tests/test_real_rigs.py`` imports this module and holds the table to zero disagreements and
to the reviewed findings in ``tests/real_rigs_expected.tsv``.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT, ROOT / "tests"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import blender_session  # noqa: E402, F401  (before bpy: Blender's user folder apart from the person's)
import bpy  # noqa: E402
from measured import write_table  # noqa: E402

from ik_doctor import Finding, diagnose  # noqa: E402
from ik_doctor.verify.oracle import ChainVerdict, Disagreement, disagreements, judge_chains  # noqa: E402

RIGS = (ROOT.parent / "shared" / "rigs").resolve()
IMPORTERS = {
    ".glb": lambda path: bpy.ops.import_scene.gltf(filepath=path),
    ".gltf": lambda path: bpy.ops.import_scene.gltf(filepath=path),
    ".fbx": lambda path: bpy.ops.import_scene.fbx(filepath=path),
    ".bvh": lambda path: bpy.ops.import_anim.bvh(filepath=path),
}
EXPECTED_COLUMNS = ("check_id", "file", "armature", "bone", "constraint", "severity", "why")


class UnreadableFile(Exception):
    """This Blender line cannot read the file (a .blend saved in Blender 5's new format)."""


@dataclass
class ArmatureReport:
    file: str
    armature: str
    verdicts: list[ChainVerdict]
    findings: list[Finding]
    disagreements: list[Disagreement] = field(default_factory=list)

    def severities(self) -> Counter[str]:
        return Counter(str(f.severity) for f in self.findings)

    def states(self) -> Counter[str]:
        return Counter(v.state for v in self.verdicts)


def rig_files() -> list[Path]:
    """Every .blend and every importable skeleton, sorted by name (relative to RIGS)."""
    files = [p for p in RIGS.rglob("*") if p.suffix in {".blend", *IMPORTERS}]
    return sorted(files, key=lambda p: p.relative_to(RIGS).as_posix())


def load(path: Path) -> None:
    """Open a .blend, or import a glTF/FBX/BVH into an empty file, with Blender's own tools."""
    if path.suffix == ".blend":
        try:
            bpy.ops.wm.open_mainfile(filepath=str(path), load_ui=False)
        except RuntimeError as error:
            if bpy.app.version < (5, 0, 0) and "not a blend file" in str(error):
                message = f"{path.name}: saved in a format Blender 4 cannot read"
                raise UnreadableFile(message) from error
            raise
        return
    bpy.ops.wm.read_homefile(use_empty=True)
    IMPORTERS[path.suffix](str(path))


def survey(path: Path) -> Iterator[ArmatureReport]:
    """Load one file and report on each of its armatures."""
    load(path)
    name = path.relative_to(RIGS).as_posix()
    for obj in sorted(bpy.data.objects, key=lambda o: o.name):
        if obj.type != "ARMATURE" or obj.library is not None:
            continue
        verdicts = judge_chains(obj)
        findings = diagnose(obj)
        yield ArmatureReport(name, obj.name, verdicts, findings, disagreements(verdicts, findings))


def finding_row(report: ArmatureReport, finding: Finding) -> tuple[str, ...]:
    """The identity of a finding in the expected-findings file (without the justification)."""
    return (
        finding.check_id,
        report.file,
        report.armature,
        finding.bone or "",
        finding.constraint or "",
        str(finding.severity),
    )


def print_table(reports: list[ArmatureReport]) -> None:
    header = (
        "file",
        "armature",
        "chains",
        "pass",
        "fail",
        "off",
        "untested",
        "error",
        "warn",
        "info",
        "dis",
    )
    widths = (38, 16, 6, 4, 4, 3, 8, 5, 4, 4, 3)
    print("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)))
    totals: Counter[str] = Counter()
    for report in reports:
        states, severities = report.states(), report.severities()
        cells = (
            report.file,
            report.armature,
            len(report.verdicts),
            states["pass"],
            states["fail"],
            states["off"],
            states["untested"],
            severities["error"],
            severities["warning"],
            severities["info"],
            len(report.disagreements),
        )
        print("  ".join(str(c)[:w].ljust(w) for c, w in zip(cells, widths, strict=True)))
        totals.update(dict(zip(header[2:], cells[2:], strict=True)))
    files = len({r.file for r in reports})
    print(
        f"{files} files, {len(reports)} armatures: "
        + ", ".join(f"{totals[h]} {h}" for h in header[2:])
    )
    for report in reports:
        for verdict in report.verdicts:
            if verdict.state != "pass":
                print(
                    f"  {report.file} {verdict.owner}/{verdict.constraint}: {verdict.state}, "
                    f"{verdict.reason}"
                )
        for disagreement in report.disagreements:
            print(f"  DISAGREEMENT {report.file} {disagreement.owner}: {disagreement.problem}")


def write_summary(reports: list[ArmatureReport]) -> None:
    """The docs' one-row table: every file, chain and finding, and the disagreements."""
    states: Counter[str] = Counter()
    severities: Counter[str] = Counter()
    for report in reports:
        states.update(report.states())
        severities.update(report.severities())
    write_table(
        "real-rigs",
        [
            "files",
            "armatures",
            "IK chains",
            "solver: pass / fail / off / untested",
            "findings: error / warning / info",
            "disagreements",
        ],
        [
            [
                len({r.file for r in reports}),
                len(reports),
                sum(len(r.verdicts) for r in reports),
                " / ".join(str(states[s]) for s in ("pass", "fail", "off", "untested")),
                " / ".join(str(severities[s]) for s in ("error", "warning", "info")),
                sum(len(r.disagreements) for r in reports),
            ]
        ],
        per_line=True,
    )


def print_expected(reports: list[ArmatureReport]) -> None:
    """Candidate rows for tests/real_rigs_expected.tsv; each needs a reviewed justification."""
    print("\t".join(EXPECTED_COLUMNS))
    for report in reports:
        for finding in report.findings:
            print("\t".join((*finding_row(report, finding), f"REVIEW: {finding.message}")))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--expected", action="store_true", help="print candidate TSV rows")
    args = parser.parse_args(argv)
    reports: list[ArmatureReport] = []
    for path in rig_files():
        try:
            reports.extend(survey(path))
        except UnreadableFile as error:
            print(f"skipped {error}", file=sys.stderr)
    if args.expected:
        print_expected(reports)
    else:
        print_table(reports)
        write_summary(reports)
    sys.stdout.flush()
    return 1 if any(r.disagreements for r in reports) else 0


if __name__ == "__main__":
    sys.exit(main())
