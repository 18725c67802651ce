"""The target check: no target, a missing bone, the armature itself, or the chain's own bone."""

from __future__ import annotations

import bpy
import pytest
from solving import assert_ik_works, findings_of, tip_error

from ik_doctor import Severity, apply_fix, diagnose, run_fix
from ik_doctor.verify.oracle import judge_chains


def _leg_ik(rig: bpy.types.Object) -> bpy.types.KinematicConstraint:
    return rig.pose.bones["shin.L"].constraints["IK"]


def _no_target(rig):
    _leg_ik(rig).target = None


def _missing_subtarget(rig):
    _leg_ik(rig).subtarget = "foot_ik.L.typo"


def _armature_without_bone(rig):
    _leg_ik(rig).subtarget = ""


def _targets_own_chain(rig):
    _leg_ik(rig).subtarget = "thigh.L"


FAULTS = [_no_target, _missing_subtarget, _armature_without_bone, _targets_own_chain]


@pytest.mark.parametrize("break_rig", FAULTS, ids=lambda f: f.__name__.strip("_"))
def test_target_fault_is_found_and_fixed_by_a_control_bone(rig, break_rig) -> None:
    break_rig(rig)
    found = findings_of(rig, "target")
    assert [(f.bone, f.severity) for f in found] == [("shin.L", Severity.ERROR)]
    result = run_fix(found[0])
    assert (result.changed, result.touched) == (True, ("shin.L", "IK"))
    assert findings_of(rig, "target") == []
    control = rig.data.bones["IK-shin.L"]
    assert control.parent.name == "root"
    assert not control.use_deform
    assert (control.head_local - rig.data.bones["shin.L"].tail_local).length < 1e-6
    assert tip_error(rig, "shin.L") < 1e-3
    assert_ik_works(rig, ["shin.L"])


def test_missing_target_makes_the_leg_fall_short_before_the_fix(rig) -> None:
    _missing_subtarget(rig)
    assert tip_error(rig, "shin.L") is None
    _leg_ik(rig).subtarget = "foot_ik.L"
    assert tip_error(rig, "shin.L") < 1e-3


def test_target_fix_twice_changes_nothing_the_second_time(rig) -> None:
    _no_target(rig)
    finding = findings_of(rig, "target")[0]
    apply_fix(finding)
    bones_after_first = len(rig.data.bones)
    assert not run_fix(finding).changed
    assert len(rig.data.bones) == bones_after_first


def test_other_chains_are_not_reported(rig) -> None:
    _no_target(rig)
    assert {f.bone for f in diagnose(rig, checks=["target"])} == {"shin.L"}


def test_targetless_ik_switched_off_beside_an_active_twin_is_a_warning(rig) -> None:
    ik = rig.pose.bones["forearm.L"].constraints["IK"]
    ik.target, ik.mute = None, True
    twin = rig.pose.bones["forearm.L"].constraints.new("IK")
    twin.target, twin.subtarget, twin.chain_count = rig, "hand_ik.L", 2
    states = {v.constraint: v.state for v in judge_chains(rig) if v.owner == "forearm.L"}
    assert states == {"IK": "off", twin.name: "pass"}
    (finding,) = findings_of(rig, "target")
    assert (finding.constraint, finding.severity) == ("IK", Severity.WARNING)
    assert finding.stated["switched_off"]
    ik.mute = False
    twin.mute = True
    (finding,) = findings_of(rig, "target")
    assert finding.severity == Severity.ERROR


@pytest.mark.parametrize(("owner", "count"), [("shin.L", 2), ("thigh.L", 1)])
def test_targetless_ik_beside_a_live_ik_on_its_bones_gets_no_control_of_its_own(
    rig, owner, count
) -> None:
    """A second IK turning the same bones already pulls them; a control for the targetless one
    would give the chain two goals (the duplicates error), so the fix is withheld."""
    other = rig.pose.bones[owner].constraints.new("IK")
    other.target, other.subtarget, other.chain_count = rig, "foot_ik.L", count
    rig.pose.bones["shin.L"].constraints["IK"].target = None
    (finding,) = findings_of(rig, "target")
    assert finding.severity == Severity.ERROR and finding.fix_id is None
    assert finding.stated["rival_ik"] == (owner, other.name)
