"""The muted_ik check: a switched-off IK that Blender still builds into a live IK's solve."""

from __future__ import annotations

import bpy
import pytest
from rig_generation import UNREADABLE, reloaded_with_unreadable_names
from solving import findings_of

from ik_doctor import FixError, Severity, apply_fix
from ik_doctor.verify.oracle import judge_chains

LIMBS = [("shin.L", "foot_ik.L"), ("forearm.L", "hand_ik.L")]
SETTINGS = ("use_tail", "chain_count", "mute", "influence", "subtarget", "pole_subtarget")


def _switch(rig: bpy.types.Object, owner: str, control: str) -> bpy.types.KinematicConstraint:
    """A second IK below the reference rig's own, live, aimed at the limb's own control; the
    rig's IK, muted above it, is its switch partner. Returns the live one."""
    live = rig.pose.bones[owner].constraints.new("IK")
    live.target, live.subtarget, live.chain_count = rig, control, 2
    rig.pose.bones[owner].constraints["IK"].mute = True
    return live


def _state(rig: bpy.types.Object, owner: str, constraint: str) -> str:
    return next(v.state for v in judge_chains(rig) if v.key == (owner, constraint))


def _settings(rig: bpy.types.Object) -> dict:
    return {
        (bone.name, c.name): tuple(getattr(c, s) for s in SETTINGS)
        for bone in rig.pose.bones
        for c in bone.constraints
        if c.type == "IK"
    }


@pytest.mark.parametrize(("owner", "control"), LIMBS)
def test_a_muted_ik_above_without_use_tail_breaks_the_live_one_and_moving_it_lands_it(
    rig, owner, control
) -> None:
    """Fresh seed 131, a silent failure: the live IK lands alone, and stops 31% to 189% of its
    reach short below a muted IK without Use Tail (measured, in every run)."""
    live = _switch(rig, owner, control)
    rig.pose.bones[owner].constraints["IK"].use_tail = False
    assert _state(rig, owner, live.name) == "fail"
    (finding,) = findings_of(rig, "muted_ik")
    assert (finding.bone, finding.constraint, finding.severity) == (owner, live.name, "error")
    assert finding.fix_id == "move_below" and "'IK'" in finding.message
    before = _settings(rig)
    apply_fix(finding)
    assert _settings(rig) == before, "only the order changes"
    assert [c.name for c in rig.pose.bones[owner].constraints] == [live.name, "IK"]
    assert _state(rig, owner, live.name) == "pass"
    assert findings_of(rig, "muted_ik") == []


def test_a_muted_leg_ik_reaching_the_hips_drags_the_arms_and_is_told_as_acting_now(rig) -> None:
    """Fresh seed 215, a silent failure: the muted leg IK without Use Tail, of chain length 2,
    reaches the hips; built into the solve of its live twin (aimed at the hand control) it
    turns them, and the arm's IK hanging from them misses (124% of its reach). The muted_ik
    error is the cause the oracle counts for the arm, its words name the hips, and the chain
    length the muted IK has acts now."""
    live = _switch(rig, "shin.L", "hand_ik.L")
    rig.pose.bones["shin.L"].constraints["IK"].use_tail = False
    verdicts = {v.key: v for v in judge_chains(rig)}
    assert verdicts[("shin.L", live.name)].upstream == ()
    assert verdicts[("forearm.L", "IK")].state == "fail"
    assert ("shin.L", live.name) in verdicts[("forearm.L", "IK")].upstream
    (finding,) = findings_of(rig, "muted_ik")
    assert "It turns hips too" in finding.message
    (length,) = [f for f in findings_of(rig, "chain_length") if f.constraint == "IK"]
    assert "yet Blender builds it into the solve of IK" in length.message
    apply_fix(finding)
    states = {v.key: v.state for v in judge_chains(rig)}
    assert states[("forearm.L", "IK")] == "pass"
    (length,) = [f for f in findings_of(rig, "chain_length") if f.constraint == "IK"]
    assert "it fails once switched on" in length.message


def test_a_live_ik_without_use_tail_below_one_is_broken_too(rig) -> None:
    live = _switch(rig, "forearm.L", "hand_ik.L")
    live.use_tail = False
    rig.pose.bones["forearm.L"].constraints["IK"].use_tail = False
    assert _state(rig, "forearm.L", live.name) == "fail"
    (finding,) = findings_of(rig, "muted_ik")
    assert finding.severity == Severity.ERROR
    apply_fix(finding)
    assert _state(rig, "forearm.L", live.name) == "pass"


@pytest.mark.parametrize(("owner", "control"), LIMBS)
def test_a_muted_ik_with_use_tail_or_below_the_live_one_is_quiet(rig, owner, control) -> None:
    """Measured: with Use Tail on, or below the live IK, it changes nothing."""
    live = _switch(rig, owner, control)
    assert _state(rig, owner, live.name) == "pass"
    assert findings_of(rig, "muted_ik") == []
    stack = rig.pose.bones[owner].constraints
    stack["IK"].use_tail = False
    stack.move(0, 1)
    assert _state(rig, owner, live.name) == "pass"
    assert findings_of(rig, "muted_ik") == []


def test_an_ik_at_influence_0_counts_as_muted(rig) -> None:
    live = _switch(rig, "shin.L", "foot_ik.L")
    muted = rig.pose.bones["shin.L"].constraints["IK"]
    muted.mute, muted.influence, muted.use_tail = False, 0.0, False
    assert _state(rig, "shin.L", live.name) == "fail"
    (finding,) = findings_of(rig, "muted_ik")
    assert "at influence 0" in finding.message


def test_twin_iks_on_one_control_muted_below_by_the_duplicates_fix_are_quiet(rig) -> None:
    """Fresh seed 134: two upper-arm IKs without Use Tail on the hand control; the duplicates
    check's fix mutes the later one, below the live one, and the arm lands."""
    for _ in range(2):
        above = rig.pose.bones["upper_arm.L"].constraints.new("IK")
        above.target, above.subtarget, above.chain_count, above.use_tail = (
            rig,
            "hand_ik.L",
            1,
            False,
        )
    rig.pose.bones["upper_arm.L"].constraints[-1].mute = True
    assert _state(rig, "upper_arm.L", "IK") == "pass"
    assert findings_of(rig, "muted_ik") == []


def test_a_muted_ik_without_a_target_or_on_another_bone_is_left_alone(rig) -> None:
    """Measured: neither changes the live IK's solve."""
    live = _switch(rig, "forearm.L", "hand_ik.L")
    muted = rig.pose.bones["forearm.L"].constraints["IK"]
    muted.use_tail, muted.subtarget = False, ""
    assert _state(rig, "forearm.L", live.name) == "pass"
    assert findings_of(rig, "muted_ik") == []
    rig.pose.bones["forearm.L"].constraints.remove(muted)
    above = rig.pose.bones["upper_arm.L"].constraints.new("IK")
    above.target, above.subtarget, above.use_tail, above.mute = rig, "hand_ik.L", False, True
    assert _state(rig, "forearm.L", live.name) == "pass"
    assert findings_of(rig, "muted_ik") == []


def test_a_muted_ik_whose_name_python_cannot_read_is_named_escaped_and_not_moved(rig) -> None:
    """Issue 25: the finding shows the name by its escaped bytes; the fix, which must ask
    Blender for the constraint by name, refuses rather than guess."""
    _switch(rig, "forearm.L", "hand_ik.L")
    muted = rig.pose.bones["forearm.L"].constraints["IK"]
    muted.use_tail, muted.name = False, "IK" + UNREADABLE
    rig = reloaded_with_unreadable_names(rig)
    (finding,) = findings_of(rig, "muted_ik")
    assert "IK\\xdf" in finding.message
    with pytest.raises(FixError, match="not text"):
        apply_fix(finding)
