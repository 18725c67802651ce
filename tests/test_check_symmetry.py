"""The symmetry check: an IK chain whose settings differ from its mirror twin's."""

from __future__ import annotations

import math

import pytest
from faulted_limbs import LIMBS, Fault, faulted_rig, judge
from mathutils import Matrix
from solving import TIP_TOLERANCE, assert_ik_works, findings_of, pose_snapshot, tip_error

from ik_doctor import Severity, apply_fix, run_fix
from ik_doctor.core.editing import edit_bones
from ik_doctor.core.limb import keep_pole_at_rest, pole_rest_angle
from ik_doctor.core.rig import RigView
from ik_doctor.verify.oracle import judge_chains

IK_SETTINGS = ("chain_count", "use_tail", "use_stretch", "iterations", "weight", "pole_angle")
BONE_SETTINGS = (
    *(
        f"{prefix}_{axis}"
        for prefix in ("lock_ik", "use_ik_limit", "ik_min", "ik_max", "ik_stiffness")
        for axis in "xyz"
    ),
    "ik_stretch",
)


def _side(rig, side: str) -> dict:
    """Every IK setting of one side's bones and constraints: proof the good side is untouched."""
    state = {}
    for pose_bone in rig.pose.bones:
        if pose_bone.name.endswith(f".{side}"):
            state[pose_bone.name] = tuple(getattr(pose_bone, s) for s in BONE_SETTINGS)
            for constraint in pose_bone.constraints:
                if constraint.type == "IK":
                    values = tuple(getattr(constraint, s) for s in IK_SETTINGS)
                    state[pose_bone.name, constraint.name] = (
                        *values,
                        constraint.subtarget,
                        constraint.pole_subtarget,
                    )
    return state


def _ik(rig, owner: str):
    return rig.pose.bones[owner].constraints["IK"]


def _twist(rig, owner: str, degrees: float) -> None:
    """Turn a chain ``degrees`` from its rest pose by its pole angle."""
    _ik(rig, owner).pole_angle += math.radians(degrees)


def _turn_from_rest(rig, owner: str) -> float:
    view = RigView(rig)
    chain = view.chain(owner, "IK")
    rest = pole_rest_angle(view, chain)
    return math.degrees(math.remainder(chain.pole_angle - rest, math.tau))


def _only_finding(rig):
    (finding,) = findings_of(rig, "symmetry")
    return finding


def _differs(finding, what: str) -> tuple:
    """The values both sides show for ``what``, from the finding's ``differences`` fact."""
    found = {difference[0]: difference[1:] for difference in finding.stated["differences"]}
    assert what in found, f"no difference '{what}' in {sorted(found)}"
    return found[what]


def _fixed(rig, finding, good_side: str) -> None:
    """Apply the fix; prove the good side kept every setting and a second run changes nothing."""
    good = _side(rig, good_side)
    assert run_fix(finding).changed
    assert _side(rig, good_side) == good
    assert findings_of(rig, "symmetry") == []
    before = (pose_snapshot(rig), _side(rig, "L"), _side(rig, "R"))
    assert not run_fix(finding).changed
    assert (pose_snapshot(rig), _side(rig, "L"), _side(rig, "R")) == before


def test_the_reference_rig_is_its_own_mirror_image(rig) -> None:
    assert findings_of(rig, "symmetry") == []


@pytest.mark.parametrize(("broken", "good"), [("R", "L"), ("L", "R")])
def test_a_knee_locked_on_one_side_is_freed_from_its_twin(rig, broken, good) -> None:
    rig.pose.bones[f"shin.{broken}"].lock_ik_x = True
    assert tip_error(rig, f"shin.{broken}") > TIP_TOLERANCE
    finding = _only_finding(rig)
    assert (finding.bone, finding.severity) == (f"shin.{broken}", Severity.ERROR)
    assert _differs(finding, f"IK lock X of shin.{good} / shin.{broken}") == (False, True)
    assert finding.stated["faults"] == (("locks", "error"),)
    assert finding.fix_args == (("source", f"shin.{good}"), ("source_ik", "IK"))
    _fixed(rig, finding, good)
    assert not rig.pose.bones[f"shin.{broken}"].lock_ik_x
    assert_ik_works(rig, ["shin.L", "shin.R"])


def test_a_chain_length_of_1_on_one_arm_gets_its_twins_2(rig) -> None:
    _ik(rig, "forearm.R").chain_count = 1
    assert tip_error(rig, "forearm.R") > TIP_TOLERANCE
    finding = _only_finding(rig)
    assert (finding.bone, finding.severity) == ("forearm.R", Severity.ERROR)
    assert _differs(finding, "chain length") == (2, 1)
    _fixed(rig, finding, "L")
    assert _ik(rig, "forearm.R").chain_count == 2
    assert abs(_turn_from_rest(rig, "forearm.R")) < 1e-3
    assert_ik_works(rig, ["forearm.L", "forearm.R"])


def test_a_pole_angle_that_twists_one_knee_is_mirrored_from_the_other(rig) -> None:
    _twist(rig, "shin.R", 40.0)
    finding = _only_finding(rig)
    assert (finding.bone, finding.severity) == ("shin.R", Severity.WARNING)
    _angle, turn, angle, other_turn = _differs(finding, "pole angle")
    assert (turn, angle, other_turn) == pytest.approx((0.0, -50.0, 40.0), abs=0.05)
    _fixed(rig, finding, "L")
    assert abs(_turn_from_rest(rig, "shin.R")) < 1e-3
    assert_ik_works(rig, ["shin.L", "shin.R"])


def test_pole_angles_that_turn_the_twins_opposite_ways_are_mirrored(rig) -> None:
    _twist(rig, "shin.L", 10.0)
    _twist(rig, "shin.R", -10.0)
    assert findings_of(rig, "symmetry") == []


def test_pole_angles_that_turn_both_knees_the_same_way_differ_with_no_side_to_copy(rig) -> None:
    _twist(rig, "shin.L", 10.0)
    _twist(rig, "shin.R", 10.0)
    finding = _only_finding(rig)
    assert finding.severity == Severity.WARNING
    _angle, turn, _other_angle, other_turn = _differs(finding, "pole angle")
    assert (turn, other_turn) == pytest.approx((10.0, 10.0), abs=0.05)
    assert finding.fix_id is None
    assert finding.stated["blocked_by"] == "undecided"


def _limit(rig, bone: str, axis: str, low: float, high: float) -> None:
    pose_bone = rig.pose.bones[bone]
    setattr(pose_bone, f"use_ik_limit_{axis}", True)
    setattr(pose_bone, f"ik_min_{axis}", math.radians(low))
    setattr(pose_bone, f"ik_max_{axis}", math.radians(high))


@pytest.mark.parametrize("axis", ["y", "z"])
def test_ik_limits_on_y_and_z_are_mirrored_ranges(rig, axis) -> None:
    _limit(rig, "thigh.L", axis, -10.0, 40.0)
    _limit(rig, "thigh.R", axis, -40.0, 10.0)
    _limit(rig, "thigh.L", "x", -10.0, 40.0)
    _limit(rig, "thigh.R", "x", -10.0, 40.0)
    assert findings_of(rig, "symmetry") == []


def test_ik_limits_copied_unmirrored_differ_with_both_ranges_named(rig) -> None:
    _limit(rig, "thigh.L", "z", -10.0, 40.0)
    _limit(rig, "thigh.R", "z", -10.0, 40.0)
    finding = _only_finding(rig)
    ranges = _differs(finding, "IK limit Z range of thigh.L / thigh.R")
    assert ranges == pytest.approx((-10.0, 40.0, -10.0, 40.0), abs=1e-4)
    assert finding.fix_id is None


def test_the_fix_copies_limits_mirrored_with_the_rest_of_the_good_side(rig) -> None:
    _limit(rig, "thigh.L", "z", -10.0, 40.0)
    _limit(rig, "thigh.R", "z", -10.0, 40.0)
    _twist(rig, "shin.R", 40.0)  # a fault of the right side: the left one is the model
    finding = _only_finding(rig)
    assert finding.fix_args == (("source", "shin.L"), ("source_ik", "IK"))
    _fixed(rig, finding, "L")
    thigh = rig.pose.bones["thigh.R"]
    assert math.degrees(thigh.ik_min_z) == pytest.approx(-40.0, abs=1e-4)
    assert math.degrees(thigh.ik_max_z) == pytest.approx(10.0, abs=1e-4)
    assert_ik_works(rig, ["shin.L", "shin.R"])


def test_a_leg_aimed_at_the_other_foot_gets_its_own(rig) -> None:
    _ik(rig, "shin.R").subtarget = "foot_ik.L"
    finding = _only_finding(rig)
    assert finding.bone == "shin.R"
    assert _differs(finding, "target") == ("foot_ik.L", False, "foot_ik.L", True)
    assert finding.stated["faults"] == (("across", "target"),)
    _fixed(rig, finding, "L")
    assert _ik(rig, "shin.R").subtarget == "foot_ik.R"
    assert_ik_works(rig, ["shin.L", "shin.R"])


def test_a_leg_that_lost_its_pole_gets_the_mirror_of_its_twins(rig) -> None:
    _ik(rig, "shin.R").pole_target = None
    finding = _only_finding(rig)
    assert _differs(finding, "pole") == ("knee_pole.L", False, None, False)
    assert finding.stated["faults"] == (("pole", "warning"),)
    _fixed(rig, finding, "L")
    assert _ik(rig, "shin.R").pole_subtarget == "knee_pole.R"
    assert abs(_turn_from_rest(rig, "shin.R")) < 1e-3
    assert_ik_works(rig, ["shin.L", "shin.R"])


def test_a_pole_without_a_mirror_control_is_not_copied(rig) -> None:
    rig.data.bones["knee_pole.L"].name = "KneePoleLeft"
    _ik(rig, "shin.R").pole_target = None
    finding = _only_finding(rig)
    assert finding.fix_id is None
    assert finding.stated["blocked_by"] == "cannot_copy"


def test_faults_on_both_sides_leave_the_choice_to_the_rigger(rig) -> None:
    rig.pose.bones["shin.R"].lock_ik_x = True
    _twist(rig, "shin.L", 40.0)
    finding = _only_finding(rig)
    assert finding.severity == Severity.WARNING
    assert finding.fix_id is None
    assert finding.stated["blocked_by"] == "both_faulted"
    assert finding.stated["side_faults"] == (
        ("shin.L", (("pole", "warning"),)),
        ("shin.R", (("locks", "error"),)),
    )


def test_twins_built_to_different_lengths_are_only_information(rig) -> None:
    with edit_bones(rig) as bones:
        shin = bones["shin.R"]
        shin.tail = shin.head + (shin.tail - shin.head) * 1.1
    _ik(rig, "shin.R").iterations = 50
    finding = _only_finding(rig)
    assert finding.severity == Severity.INFO
    length, other, _apart = _differs(finding, "rest length of shin.L / shin.R")
    assert other / length == pytest.approx(1.1, abs=1e-4)
    assert _differs(finding, "iterations") == (500, 50)
    assert finding.fix_id is None


def test_a_chain_without_a_twin_is_not_judged(rig) -> None:
    rig.data.bones["forearm.R"].name = "forearm_right_custom"
    _ik(rig, "forearm_right_custom").iterations = 50
    assert findings_of(rig, "symmetry") == []


def test_twins_whose_limbs_are_built_differently_are_not_judged(rig) -> None:
    with edit_bones(rig) as bones:
        twist = bones.new("arm_twist.R")
        twist.head, twist.tail = bones["shoulder.R"].tail, bones["upper_arm.R"].head
        twist.parent = bones["shoulder.R"]
        bones["upper_arm.R"].parent = twist
    for side in "LR":
        _ik(rig, f"forearm.{side}").chain_count = 3
    _ik(rig, "forearm.R").iterations = 50
    assert findings_of(rig, "symmetry") == []


def _roll(rig, bone: str, degrees: float) -> None:
    with edit_bones(rig) as bones:
        bones[bone].roll += math.radians(degrees)
    keep_pole_at_rest(rig, ("shin.R", "IK"))


def test_a_roll_that_is_not_mirrored_is_information_while_the_bones_turn_freely(rig) -> None:
    _roll(rig, "thigh.R", 30.0)
    finding = _only_finding(rig)
    assert finding.severity == Severity.INFO
    rolls = _differs(finding, "roll of thigh.L / thigh.R")
    assert rolls == pytest.approx((0.0, 30.0, 30.0), abs=0.05)
    assert finding.fix_id is None and finding.stated["blocked_by"] == "rolls"


def test_a_roll_that_is_not_mirrored_turns_ik_locks_the_other_way(rig) -> None:
    for side in "LR":
        rig.pose.bones[f"thigh.{side}"].lock_ik_z = True
    _roll(rig, "thigh.R", 30.0)
    assert _only_finding(rig).severity == Severity.WARNING


def test_a_reversed_x_axis_locks_the_same_lines(rig) -> None:
    for side in "LR":
        rig.pose.bones[f"thigh.{side}"].lock_ik_z = True
    _roll(rig, "thigh.R", 180.0)
    assert _only_finding(rig).severity == Severity.INFO


@pytest.mark.parametrize(
    "name",
    [
        lambda base, side: f"{base}_{side}",
        lambda base, side: f"{base}-{side}",
        lambda base, side: f"{side}_{base}",
        lambda base, side: f"{side.lower()}_{base}",
        lambda base, side: f"{base}_{'left' if side == 'L' else 'right'}",
        lambda base, side: f"{'Left' if side == 'L' else 'Right'}{base.title()}",
    ],
    ids=["_L", "-L", "L_", "l_", "_left", "Left"],
)
def test_twins_are_found_under_the_names_flip_names_understands(rig, name) -> None:
    for bone in list(rig.data.bones):
        base, dot, side = bone.name.rpartition(".")
        if dot and side in "LR":
            bone.name = name(base, side)  # Blender renames the constraints' targets too
    owner = name("shin", "R")
    rig.pose.bones[owner].lock_ik_x = True
    finding = _only_finding(rig)
    assert (finding.bone, finding.severity) == (owner, Severity.ERROR)
    apply_fix(finding)
    assert_ik_works(rig, [name("shin", "L"), owner])


def test_a_rig_mirrored_across_y_is_judged_across_y(rig) -> None:
    rig.data.transform(Matrix.Rotation(math.pi / 2, 4, "Z"))  # the body now faces +X
    assert findings_of(rig, "symmetry") == []
    _ik(rig, "shin.R").subtarget = "foot_ik.L"
    finding = _only_finding(rig)
    assert _differs(finding, "target") == ("foot_ik.L", False, "foot_ik.L", True)
    apply_fix(finding)
    assert _ik(rig, "shin.R").subtarget == "foot_ik.R"
    assert_ik_works(rig, ["shin.L", "shin.R"])


def test_twins_pole_is_not_copied_onto_a_joint_that_does_not_inherit_rotation(rig) -> None:
    rig.data.bones["shin.L"].use_inherit_rotation = False
    rig.pose.bones["shin.L"].constraints["IK"].pole_target = None
    (finding,) = findings_of(rig, "symmetry")
    assert finding.bone == "shin.L" and finding.severity == Severity.WARNING
    assert finding.fix_id is None and finding.stated["blocked_by"] == "inherit_rotation"


def test_twins_settings_are_not_copied_over_the_stretch_that_lets_a_limb_reach(rig) -> None:
    rig.pose.bones["shin.L"].lock_ik_x = True  # the knee's bend axis: only stretch reaches
    rig.pose.bones["shin.L"].ik_stretch = 0.1
    assert [v.state for v in judge_chains(rig) if v.owner == "shin.L"] == ["pass"]
    (finding,) = findings_of(rig, "symmetry")
    assert finding.bone == "shin.L" and finding.fix_id is None
    assert finding.stated["blocked_by"] == "stretch"


@pytest.mark.parametrize("copied", ["hips", "hand_ik.L"])
def test_twins_pole_is_not_copied_where_an_overridden_rotation_would_flip_the_knee(
    rig, copied
) -> None:
    """Without a pole the shin starts where a Copy Rotation puts it and the leg still lands;
    with its twin's pole copied, that start flips the knee away from it (measured)."""
    rig.pose.bones["shin.L"].constraints["IK"].pole_target = None
    copy = rig.pose.bones["shin.L"].constraints.new("COPY_ROTATION")
    copy.target, copy.subtarget = rig, copied
    assert [v.state for v in judge_chains(rig) if v.owner == "shin.L"] == ["pass"]
    (finding,) = findings_of(rig, "symmetry")
    assert finding.bone == "shin.L" and finding.fix_id is None
    assert finding.stated["blocked_by"] == "overridden_start"


def test_twins_use_tail_is_not_copied_where_an_overridden_track_would_flip_the_elbow(rig) -> None:
    """Without Use Tail the forearm only carries the tip and its Track To works; copied from
    the twin, Use Tail makes the forearm turn, and the Track To starts it flipped."""
    rig.pose.bones["forearm.L"].constraints["IK"].use_tail = False
    track = rig.pose.bones["forearm.L"].constraints.new("TRACK_TO")
    track.target, track.subtarget = rig, "hand_ik.L"
    assert [v.state for v in judge_chains(rig) if v.owner == "forearm.L"] == ["pass"]
    (finding,) = findings_of(rig, "symmetry")
    assert finding.bone == "forearm.L" and finding.fix_id is None
    assert finding.stated["blocked_by"] == "overridden_start"


def test_twins_use_tail_is_not_copied_onto_a_forearm_that_does_not_inherit_rotation(rig) -> None:
    """Without Use Tail the forearm only carries the tip, so its inheritance does not matter;
    with its twin's Use Tail it turns, and flips away from the pole once the shoulder turns."""
    rig.pose.bones["forearm.L"].constraints["IK"].use_tail = False
    rig.data.bones["forearm.L"].use_inherit_rotation = False
    (finding,) = findings_of(rig, "symmetry")
    assert finding.bone == "forearm.L" and finding.fix_id is None
    assert finding.stated["blocked_by"] == "inherit_rotation"


def test_twins_use_tail_is_not_copied_onto_a_forearm_an_uneven_scale_would_shear(rig) -> None:
    """The upper arm posed at scale (1, 2, 1): without Use Tail the forearm only carries the tip
    and the arm lands; with its twin's Use Tail it turns, sheared, and the arm stops 33.8% of
    its reach short (measured; the copy was offered and traded for the inherit check's error)."""
    rig.pose.bones["forearm.L"].constraints["IK"].use_tail = False
    rig.pose.bones["upper_arm.L"].scale = (1.0, 2.0, 1.0)
    assert [v.state for v in judge_chains(rig) if v.owner == "forearm.L"] == ["pass"]
    (finding,) = [f for f in findings_of(rig, "symmetry") if f.bone == "forearm.L"]
    assert finding.fix_id is None and finding.stated["blocked_by"] == "shear"
    rig.pose.bones["forearm.L"].constraints["IK"].use_tail = True  # the copy, made by hand
    assert [v.state for v in judge_chains(rig) if v.owner == "forearm.L"] == ["fail"]


def test_twins_chain_length_is_not_copied_where_the_target_hangs_below_the_longer_chain(
    rig,
) -> None:
    """Fresh seed 217, a trade: the arm of chain length 1 whose hand control hangs from the
    upper arm lands; with its twin's length 2 the chain turns the bone its target hangs below,
    the cycle check's error."""
    with edit_bones(rig) as bones:
        bones["hand_ik.L"].parent = bones["upper_arm.L"]
    rig.pose.bones["forearm.L"].constraints["IK"].chain_count = 1
    rig.pose.bones["forearm.L"].ik_stiffness_x = 0.71
    assert [v.state for v in judge_chains(rig) if v.owner == "forearm.L"] == ["pass"]
    (finding,) = [f for f in findings_of(rig, "symmetry") if f.bone == "forearm.L"]
    assert finding.fix_id is None and finding.stated["blocked_by"] == "cycle"
    assert "upper_arm.L, which its target hand_ik.L hangs below" in finding.no_fix_reason
    rig.pose.bones["forearm.L"].constraints["IK"].chain_count = 2  # the copy, made by hand
    assert [f.bone for f in findings_of(rig, "cycle")] == ["forearm.L"]


def test_no_pole_angle_copied_onto_a_flipped_start_that_the_angle_turns_back(rig) -> None:
    """shin.L posed -20° starts bent the other way and its pole angle, turned 150°, turns it
    back: it lands 30° from its pole (measured). With its twin's angle it would bend 180° away
    (the rest_pose check's error): the copy waits for the pose to be cleared."""
    shin = rig.pose.bones["shin.L"]
    shin.rotation_mode = "XYZ"
    shin.rotation_euler = (math.radians(-20), 0.0, 0.0)
    shin.constraints["IK"].pole_angle += math.radians(150)
    assert [v.state for v in judge_chains(rig) if v.owner == "shin.L"] == ["pass"]
    (finding,) = [f for f in findings_of(rig, "symmetry") if f.bone == "shin.L"]
    assert finding.fix_id is None and finding.stated["blocked_by"] == "posed"


def test_twins_use_tail_is_not_copied_where_the_start_was_read_off_the_turned_shoulder(
    rig,
) -> None:
    """forearm.L without Use Tail under a Damped Track at its pole, the hips turned by a thigh
    IK without Use Tail on the foot control: the arm lands, its IK turning the shoulder. Read so,
    the track seemed to start the forearm bent the right way; with the twin's Use Tail the
    shoulder stays and the elbow bends 107° from its pole (fresh seed 128, a trade)."""
    forearm = rig.pose.bones["forearm.L"]
    forearm.constraints["IK"].use_tail = False
    track = forearm.constraints.new("DAMPED_TRACK")
    track.target, track.subtarget = rig, "elbow_pole.L"
    thigh_ik = rig.pose.bones["thigh.L"].constraints.new("IK")
    thigh_ik.target, thigh_ik.subtarget = rig, "foot_ik.L"
    thigh_ik.chain_count, thigh_ik.use_tail = 1, False
    assert [v.state for v in judge_chains(rig) if v.owner == "forearm.L"] == ["pass"]
    (finding,) = [f for f in findings_of(rig, "symmetry") if f.bone == "forearm.L"]
    assert finding.fix_id is None and finding.stated["blocked_by"] == "overridden_start"
    forearm.constraints["IK"].use_tail = True  # the copy, made by hand
    assert [v.state for v in judge_chains(rig) if v.owner == "forearm.L"] == ["fail"]


def test_twins_use_tail_copied_leaves_no_error_read_from_the_pose_before_the_copy(rig) -> None:
    """shin.L without Use Tail (its length-2 chain then turns the hips) under a Damped Track at
    its foot control: the twin's Use Tail makes it land (measured), and the checks that read the
    rig right after the copy read the pose it gives, not the hips the old chain turned (which
    made constraint_order call the track's start flipped)."""
    shin = rig.pose.bones["shin.L"]
    shin.constraints["IK"].use_tail = False
    track = shin.constraints.new("DAMPED_TRACK")
    track.target, track.subtarget = rig, "foot_ik.L"
    judge_chains(rig)  # leaves the rig evaluated with its faults, as the user sees it
    (finding,) = findings_of(rig, "symmetry")
    assert finding.bone == "shin.L" and finding.fix_id == "copy_from_twin"
    apply_fix(finding)
    errors = [f for f in findings_of(rig, "constraint_order") if f.severity == Severity.ERROR]
    assert errors == []
    assert [v.state for v in judge_chains(rig) if v.owner == "shin.L"] == ["pass"]


def test_twins_differing_beside_a_joint_whose_lost_inheritance_is_harmless_are_a_warning(
    rig,
) -> None:
    """forearm.L inherits no rotation, but an upper-arm IK without Use Tail aimed at the hand
    control re-aims the shoulder (the inherit check's warning): with stiffness 0.8 on the arm
    too it lands 6.6° from its pole (measured), so the pair is no error."""
    rig.data.bones["forearm.L"].use_inherit_rotation = False
    for name in ("forearm.L", "upper_arm.L"):
        bone = rig.pose.bones[name]
        bone.ik_stiffness_x = bone.ik_stiffness_y = bone.ik_stiffness_z = 0.8
    ik = rig.pose.bones["upper_arm.L"].constraints.new("IK")
    ik.target, ik.subtarget, ik.chain_count, ik.use_tail = rig, "hand_ik.L", 1, False
    assert [v.state for v in judge_chains(rig) if v.owner == "forearm.L"] == ["pass"]
    (finding,) = [f for f in findings_of(rig, "symmetry") if f.bone == "forearm.L"]
    assert finding.severity == Severity.WARNING


def test_twins_free_limits_are_not_copied_onto_a_joint_they_hold_on_its_side() -> None:
    """Fresh seed 317 (a trade): the forearm limited 0° to 150° and posed -90° lands, the limit
    holding the pose on the joint's side; the symmetry check copied its twin's free joint, and
    the pose then bent it 180° from its pole (rest_pose's error). The copy waits for the pose."""
    faults = (
        Fault("one_sided_limit", "arm", 150),
        Fault("pose_rotation", "arm", -90),
        Fault("inherit_scale_none", "arm", 1.9),
    )
    judged = judge(faults)
    assert [v.state for v in judged.verdicts if v.owner == "forearm.L"] == ["pass"]
    assert list(judged.problems()) == []
    (twins,) = [f for f in judged.findings if f.check_id == "symmetry"]
    assert (twins.fix_id, twins.stated["blocked_by"]) == (None, "posed")
    assert "twin's IK limits" in twins.no_fix_reason
    rig = faulted_rig(faults)
    rig.pose.bones["forearm.L"].use_ik_limit_x = False  # the copy, by hand
    assert [v.state for v in judge_chains(rig) if v.owner == "forearm.L"] == ["fail"]


@pytest.mark.parametrize("limb", ["leg", "arm"])
def test_twins_pole_and_free_joint_are_not_copied_over_a_start_the_limit_kept_out(limb) -> None:
    """Fresh seed 393 (a trade): the leg without a pole, limited 0° to 30°, lands under a Track
    To at its control that starts it flipped, the limit keeping the flip out; the copy gave it
    its twin's pole and free knee, and the start then bent it 180° from the pole
    (constraint_order's error). The copy waits for the Track To."""
    faults = (
        Fault("no_pole", limb, 0),
        Fault("one_sided_limit", limb, 30),
        Fault("overriding_constraint", limb, 2),
    )
    judged = judge(faults)
    assert [v.state for v in judged.verdicts if v.owner == LIMBS[limb].owner] == ["pass"]
    assert list(judged.problems()) == []
    (twins,) = [f for f in judged.findings if f.check_id == "symmetry"]
    assert (twins.fix_id, twins.stated["blocked_by"]) == (None, "overridden_start")
    rig = faulted_rig(faults[2:])  # the copy, by hand: the twin's pole and free joint
    assert [v.state for v in judge_chains(rig) if v.owner == LIMBS[limb].owner] == ["fail"]


@pytest.mark.parametrize(("limb", "posed"), [("leg", -20), ("arm", -70)])
def test_twins_pole_and_free_joint_are_not_copied_over_a_pose_the_limit_holds(limb, posed) -> None:
    """Without a pole, a limb limited 0° to 30° and posed against its bend lands (the limit
    holds the pose on the joint's side); with its twin's pole and free joint the pose flips it
    180° from that pole (rest_pose's error). The copy waits for the pose."""
    faults = (
        Fault("no_pole", limb, 0),
        Fault("one_sided_limit", limb, 30),
        Fault("pose_rotation", limb, posed),
    )
    judged = judge(faults)
    assert [v.state for v in judged.verdicts if v.owner == LIMBS[limb].owner] == ["pass"]
    assert list(judged.problems()) == []
    (twins,) = [f for f in judged.findings if f.check_id == "symmetry"]
    assert (twins.fix_id, twins.stated["blocked_by"]) == (None, "posed")
