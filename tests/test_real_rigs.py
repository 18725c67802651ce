"""Truth on real rigs: the findings agree with Blender's solver on rigs other people made.

Every file in ``../shared/rigs/`` is opened (or imported with Blender's own glTF, FBX and BVH
importers), every IK chain is judged by solving (``ik_doctor.verify.oracle``) and diagnosed. A
chain that fails the solver must carry an error finding; a chain that works must carry none;
and every finding must be one a person reviewed in ``real_rigs_expected.tsv``.
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import bpy
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import real_rigs_table as table

from ik_doctor import Severity, diagnose
from ik_doctor.verify.oracle import disagreements, judge_chains

EXPECTED = Path(__file__).with_name("real_rigs_expected.tsv")
FILES = table.rig_files() if table.RIGS.is_dir() else []


def _expected_rows() -> dict[tuple[str, ...], str]:
    with EXPECTED.open(newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    return {tuple(row[c] for c in table.EXPECTED_COLUMNS[:-1]): row["why"] for row in rows}


def _reports(path: Path) -> list[table.ArmatureReport]:
    try:
        return list(table.survey(path))
    except table.UnreadableFile as error:
        pytest.skip(str(error))


pytestmark = pytest.mark.skipif(not FILES, reason=f"no rigs in {table.RIGS}")


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.relative_to(table.RIGS).as_posix())
def test_findings_agree_with_the_solver_and_the_review(path: Path) -> None:
    reports = _reports(path)
    assert reports, f"{path.name}: no armature"
    found_disagreements = {
        (r.file, r.armature, d.owner or ""): d.problem for r in reports for d in r.disagreements
    }
    assert found_disagreements == {}, "findings and the solver tell different stories"
    found = {table.finding_row(r, f) for r in reports for f in r.findings}
    expected = {row for row in _expected_rows() if row[1] == reports[0].file}
    assert found - expected == set(), "findings nobody reviewed (add to real_rigs_expected.tsv)"
    assert expected - found == set(), "reviewed findings no longer found (remove them)"


@pytest.mark.parametrize(
    "path",
    [p for p in FILES if p.suffix != ".blend"],
    ids=lambda p: p.relative_to(table.RIGS).as_posix(),
)
def test_imported_skeletons_are_diagnosed_without_error(path: Path) -> None:
    reports = _reports(path)
    assert [r.verdicts for r in reports] == [[] for _ in reports], "importers carry no IK"
    assert [f for r in reports for f in r.findings if f.severity == Severity.ERROR] == []


def test_expected_findings_are_justified() -> None:
    for row, why in _expected_rows().items():
        assert why and not why.startswith("REVIEW"), f"unreviewed: {row}"


def test_rigify_switch_pair_is_judged_by_its_active_member() -> None:
    """Rigify mutes one of a pole and a no-pole IK by a driver; whichever is on must work."""
    rigify = table.RIGS / "cheng_rigify_character.blend"
    if not rigify.exists():
        pytest.skip("no Rigify rig")
    report = next(r for r in _reports(rigify) if r.armature == "rig")
    states = {(v.owner, v.constraint): v.state for v in report.verdicts}
    assert states[("MCH-shin_ik.L", "IK")] == "pass"
    assert states[("MCH-shin_ik.L", "IK.001")] == "off"
    assert not [f for f in report.findings if f.severity == Severity.ERROR]
    rig = bpy.data.objects["rig"]
    for limb in ("thigh", "upper_arm"):
        for side in ("L", "R"):
            switch = rig.pose.bones[f"{limb}_parent.{side}"]
            switch["pole_vector"] = type(switch["pole_vector"])(1)
    rig.update_tag()  # an ID property set from Python does not re-run the drivers by itself
    bpy.context.view_layer.update()
    verdicts = judge_chains(rig)
    assert {v.constraint: v.state for v in verdicts if v.state != "off"} == {"IK.001": "pass"}
    assert [v.constraint for v in verdicts if v.state == "off"] == ["IK"] * 4
    assert disagreements(verdicts, diagnose(rig)) == []


def _state_of_everything() -> list[tuple]:
    state = []
    for obj in bpy.data.objects:
        state.append((obj.name, tuple(map(tuple, obj.matrix_world))))
        if obj.type == "ARMATURE":
            for pose_bone in obj.pose.bones:
                state.append(
                    (
                        pose_bone.name,
                        tuple(pose_bone.location),
                        tuple(pose_bone.rotation_quaternion),
                        tuple(pose_bone.rotation_euler),
                        tuple(pose_bone.scale),
                        tuple(map(tuple, pose_bone.matrix)),
                    )
                )
    return state


@pytest.mark.parametrize(
    "name", ["cheng_rigify_character.blend", "quaternius_Spider.blend", "quaternius_Cowboy.blend"]
)
def test_the_oracle_puts_everything_back(name: str) -> None:
    path = table.RIGS / name
    if not path.exists():
        pytest.skip(f"no {name}")
    table.load(path)
    bpy.context.view_layer.update()
    before = _state_of_everything()
    for obj in bpy.data.objects:
        if obj.type == "ARMATURE":
            judge_chains(obj)
    assert _state_of_everything() == before
