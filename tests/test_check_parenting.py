"""The parenting check: a chain bone that lost its parent, and a joint that pivots on a gap."""

from __future__ import annotations

import math

import bpy
import pytest
from mathutils import Vector
from solving import assert_ik_works, findings_of, pose_snapshot, tip_error

from ik_doctor import Severity, apply_fix, run_fix
from ik_doctor.core.editing import edit_bones
from ik_doctor.verify.oracle import judge_chains


def test_unparented_shin_cuts_the_leg_chain(rig) -> None:
    with edit_bones(rig) as bones:
        bones["shin.L"].parent = None
    assert tip_error(rig, "shin.L") > 1e-2
    (finding,) = findings_of(rig, "parenting")
    assert finding.severity == Severity.ERROR
    assert finding.bone == "shin.L" and finding.args["parent"] == "thigh.L"
    assert findings_of(rig, "chain_length") == [], "reported once, by parenting"
    apply_fix(finding)
    assert rig.data.bones["shin.L"].parent.name == "thigh.L"
    assert findings_of(rig, "parenting") == []
    assert_ik_works(rig, ["shin.L"])


def test_gap_below_the_knee_is_a_warning_and_connecting_says_it_moves(rig) -> None:
    with edit_bones(rig) as bones:
        bones["shin.L"].use_connect = False
        bones["shin.L"].head += Vector((0.0, -0.05, 0.0))
    before = pose_snapshot(rig)
    (finding,) = findings_of(rig, "parenting")
    assert finding.severity == Severity.WARNING
    assert finding.changes_rest_pose
    assert (finding.bone, finding.fix_id) == ("shin.L", "connect")
    assert run_fix(finding).changed
    after = pose_snapshot(rig)
    changed = {name for name in before if before[name] != after[name]}
    assert changed == {"shin.L"}, "only the connected bone moves"
    assert rig.data.bones["shin.L"].use_connect
    assert findings_of(rig, "parenting") == []
    assert_ik_works(rig, ["shin.L"])


def test_unparented_shin_that_stretches_still_lands_and_is_a_warning(rig) -> None:
    with edit_bones(rig) as bones:
        bones["shin.L"].use_connect = False
        bones["shin.L"].parent = None
    rig.pose.bones["shin.L"].ik_stretch = 0.1
    assert [v.state for v in judge_chains(rig) if v.owner == "shin.L"] == ["pass"]
    (finding,) = findings_of(rig, "parenting")
    assert finding.severity == Severity.WARNING and finding.stated["stretching"] == ("shin.L",)


@pytest.mark.parametrize(
    ("owner", "pole"), [("shin.L", False), ("forearm.L", False), ("forearm.L", True)]
)
def test_unparented_bone_that_stretches_without_a_pole_is_held_by_its_ik_limit(
    rig, owner, pole
) -> None:
    """Seed 93: cut off its parent, a limb that stretches lands, but without a pole an IK limit
    on the cut bone's swing holds it from turning to the target, and stretching does not make
    that up (the forearm limited ±60° stops 89% of the reach short). With a pole it lands."""
    with edit_bones(rig) as bones:
        bones[owner].use_connect = False
        bones[owner].parent = None
    bone = rig.pose.bones[owner]
    bone.ik_stretch = 0.5
    bone.use_ik_limit_x, bone.ik_min_x, bone.ik_max_x = True, -math.radians(60), math.radians(60)
    if not pole:
        bone.constraints["IK"].pole_target = None
    state = [v.state for v in judge_chains(rig) if v.owner == owner]
    assert state == (["pass"] if pole else ["fail"])
    (finding,) = findings_of(rig, "parenting")
    assert finding.severity == (Severity.WARNING if pole else Severity.ERROR)
    assert finding.stated["swing_held_by"] == (None if pole else owner)


def test_unparented_shin_is_an_error_on_every_active_ik_of_the_bone(rig) -> None:
    with edit_bones(rig) as bones:
        bones["shin.L"].use_connect = False
        bones["shin.L"].parent = None
    twin = rig.pose.bones["shin.L"].constraints.new("IK")
    twin.target, twin.subtarget, twin.chain_count = rig, "foot_ik.L", 2
    failing = {v.constraint for v in judge_chains(rig) if v.owner == "shin.L" and v.fails}
    assert failing == {"IK", twin.name}
    found = findings_of(rig, "parenting")
    assert {f.constraint for f in found} == failing
    assert {f.severity for f in found} == {Severity.ERROR}


def test_a_cut_shared_by_a_muted_ik_and_a_live_one_named_alike_is_told_on_the_live_one(
    rig,
) -> None:
    """Fresh seed 159: the forearm, unparented, cuts both its own IK (muted) and a hand IK of
    length 3, both named 'IK'; the one finding per bone and name went to the muted IK, and the
    hand's chain missed 72% of its reach with no error on it."""
    with edit_bones(rig) as bones:
        bones["forearm.L"].use_connect = False
        bones["forearm.L"].parent = None
    rig.pose.bones["forearm.L"].constraints["IK"].mute = True
    hand_ik = rig.pose.bones["hand.L"].constraints.new("IK")
    hand_ik.target, hand_ik.subtarget, hand_ik.chain_count = rig, "hand_ik.L", 3
    assert hand_ik.name == "IK"
    assert {v.owner for v in judge_chains(rig) if v.fails} >= {"hand.L"}
    (cut,) = findings_of(rig, "parenting")
    assert (cut.chain, cut.severity, cut.title) == (
        ("hand.L", "IK"),
        Severity.ERROR,
        "Chain cut: no parent",
    )


def test_unparented_shin_under_a_thigh_ik_on_its_control_is_not_parented_back(rig) -> None:
    """Issue 13 (a fix that traded): a thigh IK aimed at the foot control lands while the shin
    hangs free; parented back, the shin's chain turns the thigh too and the thigh's IK misses
    its whole reach (the duplicates check's error)."""
    with edit_bones(rig) as bones:
        bones["shin.L"].use_connect = False
        bones["shin.L"].parent = None
    thigh = rig.pose.bones["thigh.L"].constraints.new("IK")
    thigh.target, thigh.subtarget, thigh.chain_count = rig, "foot_ik.L", 1
    assert {v.owner: v.state for v in judge_chains(rig)}["thigh.L"] == "pass"
    (finding,) = findings_of(rig, "parenting")
    assert (finding.severity, finding.fix_id) == (Severity.ERROR, None)
    assert finding.stated["rival_ik"] == ("thigh.L", "IK")
    with edit_bones(rig) as bones:
        bones["shin.L"].parent = bones["thigh.L"]
        bones["shin.L"].use_connect = True
    assert {v.owner: v.state for v in judge_chains(rig)}["thigh.L"] == "fail"


def test_a_chain_reaching_into_the_hips_is_not_connected_to_them(rig) -> None:
    """Issue 25 (agreement seed 141, a trade): the leg's IK without Use Tail turns the thigh and
    the hips, which the spine and the other leg hang from. Connecting the thigh to the hips
    makes them one limb, so nothing calls the chain turning the body any more, yet moving the
    foot control still turns the hips."""
    ik = rig.pose.bones["shin.L"].constraints["IK"]
    ik.use_tail = False
    (reaching,) = findings_of(rig, "chain_length")
    assert reaching.severity == Severity.ERROR
    (gap,) = [f for f in findings_of(rig, "parenting") if f.bone == "thigh.L"]
    assert (gap.severity, gap.fix_id, gap.stated["carrier"]) == (Severity.WARNING, None, "hips")
    with edit_bones(rig) as bones:  # the connection, made by hand
        bones["thigh.L"].use_connect = True
    assert findings_of(rig, "chain_length") == []
    rest = rig.pose.bones["hips"].matrix.to_quaternion()
    rig.pose.bones["foot_ik.L"].location.x += 0.3
    bpy.context.view_layer.update()
    turned = rest.rotation_difference(rig.pose.bones["hips"].matrix.to_quaternion())
    assert math.degrees(turned.angle) > 5.0


def test_unparented_bone_is_not_parented_back_over_an_ik_it_would_nest(rig) -> None:
    """Issue 25 (agreement seed 139, a trade): a second forearm IK aimed at another limb's
    control is cut off from the upper arm, whose own IK of length 1 on the hand control lands;
    parented back, that IK sits inside the second IK's chain and stops its whole reach short
    (constraint_order's nested IK)."""
    with edit_bones(rig) as bones:
        bones["forearm.L"].use_connect = False
        bones["forearm.L"].parent = None
    second = rig.pose.bones["forearm.L"].constraints.new("IK")
    second.target, second.subtarget, second.chain_count = rig, "foot_ik.L", 2
    upper = rig.pose.bones["upper_arm.L"].constraints.new("IK")
    upper.target, upper.subtarget, upper.chain_count = rig, "hand_ik.L", 1
    assert {v.owner: v.state for v in judge_chains(rig)}["upper_arm.L"] == "pass"
    found = [f for f in findings_of(rig, "parenting") if f.constraint == second.name]
    (finding,) = found
    assert (finding.severity, finding.fix_id) == (Severity.ERROR, None)
    assert finding.stated["rival_ik"] == ("upper_arm.L", upper.name)
    with edit_bones(rig) as bones:  # the parenting, made by hand
        bones["forearm.L"].parent = bones["upper_arm.L"]
        bones["forearm.L"].use_connect = True
    assert {v.owner: v.state for v in judge_chains(rig)}["upper_arm.L"] == "fail"


def test_a_gap_above_a_bone_whose_own_ik_turns_it_alone_is_not_connected(rig) -> None:
    """Issue 13 (agreement seed 37: the fix traded): the forearm's IK without Use Tail spans the
    gap between the upper arm and the shoulder; an upper-arm IK of chain length 1 on the hand
    control lands while the upper arm sits apart, and stops short once it is connected (the
    shoulder joins its limb: the chain_length check's error)."""
    forearm = rig.pose.bones["forearm.L"].constraints["IK"]
    forearm.use_tail, forearm.mute = False, True
    upper = rig.pose.bones["upper_arm.L"].constraints.new("IK")
    upper.target, upper.subtarget, upper.chain_count = rig, "hand_ik.L", 1
    # Blender does not evaluate this rig the same every time under load (a muted IK without Use
    # Tail over the active one's bone): while the full suite ran on three lines, 5 and then 2 of
    # 150 judgements in a row failed it on 4.5 (5.2% to 144% of the reach short), a later 200
    # none; with the muted IK removed, or keeping its tail, 200 none each. The majority of five
    # decides (of three, it failed once on 5.3 beside two agreement runs, 2026-12-06; the same
    # load then missed none of 100).
    verdicts = [v for _ in range(5) for v in judge_chains(rig) if v.owner == "upper_arm.L"]
    states = [verdict.state for verdict in verdicts]
    assert states.count("pass") >= 3, [verdict.reason for verdict in verdicts]
    (finding,) = [f for f in findings_of(rig, "parenting") if f.bone == "upper_arm.L"]
    assert finding.fix_id is None and finding.stated["one_bone_ik"] == ("upper_arm.L", upper.name)
    with edit_bones(rig) as bones:  # the connection, made by hand
        bones["upper_arm.L"].use_connect = True
    assert [v.state for v in judge_chains(rig) if v.owner == "upper_arm.L"] == ["fail"]
