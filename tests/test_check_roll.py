"""The roll check: chain bones whose X axes are not the bend plane's normal."""

from __future__ import annotations

import math

import bpy
import pytest
from faulted_limbs import LIMBS, Fault, judge
from solving import assert_ik_works, findings_of, pose_snapshot

from ik_doctor import Severity, apply_fix, run_fix
from ik_doctor.core.editing import edit_bones
from ik_doctor.core.geometry import offset_from_line, rest_pole_angle
from ik_doctor.verify.oracle import judge_chains
from ik_doctor.verify.solve import evaluate

LEG = ("thigh.L", "shin.L")


def _roll(rig, name: str, degrees: float) -> None:
    with edit_bones(rig) as bones:
        bones[name].roll += math.radians(degrees)


def _fit_pole_angle(rig) -> None:
    """Give the leg the pole angle that leaves it at rest with its current rolls."""
    bones = rig.data.bones
    thigh = bones["thigh.L"]
    rig.pose.bones["shin.L"].constraints["IK"].pole_angle = rest_pole_angle(
        thigh.head_local,
        thigh.matrix_local.col[0].xyz,
        thigh.matrix_local.col[1].xyz,
        bones["shin.L"].tail_local,
        bones["knee_pole.L"].head_local,
    )


def _hinge(rig, name: str) -> None:
    """The classic knee set-up: the bone may only bend on its X axis."""
    rig.pose.bones[name].lock_ik_y = True
    rig.pose.bones[name].lock_ik_z = True


def _x_off_plane(rig) -> dict[str, float]:
    bones = rig.data.bones
    root, joint, tip = (
        bones[LEG[0]].head_local,
        bones[LEG[1]].head_local,
        bones[LEG[1]].tail_local,
    )
    normal = (joint - root).cross(tip - joint).normalized()
    return {n: bones[n].matrix_local.col[0].xyz.angle(normal) for n in LEG}


def _knee_sideways_degrees(rig) -> float:
    """Raise the foot control; how far out of the rest bend plane does the knee swing?"""
    control = rig.pose.bones["foot_ik.L"]
    evaluate(rig)
    matrix = control.matrix.copy()
    matrix.translation.z += 0.3
    control.matrix = matrix
    evaluate(rig)
    pose = rig.pose.bones
    bent = offset_from_line(pose["shin.L"].head, pose["thigh.L"].head, pose["shin.L"].tail)
    control.matrix_basis.identity()
    evaluate(rig)
    rest_side = offset_from_line(
        *(rig.data.bones[n].head_local for n in ("shin.L", "thigh.L")),
        rig.data.bones["shin.L"].tail_local,
    )
    return math.degrees(bent.angle(rest_side))


def _mesh_at_rest(rig) -> list:
    evaluate(rig)
    body = bpy.data.objects["IKDoctorRig_body"]
    evaluated = body.evaluated_get(bpy.context.evaluated_depsgraph_get())
    return [body.matrix_world @ v.co for v in evaluated.data.vertices]


def _pole_angle(rig) -> float:
    return rig.pose.bones["shin.L"].constraints["IK"].pole_angle


def _at_rest(rig) -> bool:
    evaluate(rig)
    return all(
        (pb.head - rig.data.bones[pb.name].head_local).length < 1e-4
        and (pb.tail - rig.data.bones[pb.name].tail_local).length < 1e-4
        for pb in rig.pose.bones
    )


def _solved_heads(rig) -> list:
    evaluate(rig)
    return [pb.head.copy() for pb in rig.pose.bones]


def test_the_roll_fix_keeps_the_turn_the_pole_angle_gives_the_chain(rig) -> None:
    """Once a trade (issue 25): the fix set the pole angle to rest whatever it was, undoing a
    turn the chain relied on (a Damped Track at the pole starts it bent the other way, the
    angle turned 180° brings it back). Now the angle keeps the chain's turn from rest: solved,
    every bone stays where it was (the old fix moved one 0.030)."""
    _roll(rig, "thigh.L", 40)
    _fit_pole_angle(rig)
    rig.pose.bones["shin.L"].constraints["IK"].pole_angle += math.radians(60)
    before = _solved_heads(rig)
    (finding,) = findings_of(rig, "roll")
    assert run_fix(finding).changed
    assert max(_x_off_plane(rig).values()) < 1e-4
    worst = max((a - b).length for a, b in zip(_solved_heads(rig), before, strict=True))
    assert worst < 1e-4
    assert not _at_rest(rig), "turned 60° from rest as before"


def test_rolled_hinge_knee_bends_sideways_and_rolling_it_back_fixes_it(rig) -> None:
    _hinge(rig, "shin.L")
    _roll(rig, "shin.L", 30)
    assert _knee_sideways_degrees(rig) > 10.0, "measured: the knee leaves the leg's plane"
    mesh_before, snapshot = _mesh_at_rest(rig), pose_snapshot(rig)
    (finding,) = findings_of(rig, "roll")
    assert (finding.bone, finding.severity) == ("shin.L", Severity.WARNING)
    assert dict(finding.stated["off"]) == {"shin.L": pytest.approx(30.0, abs=0.5)}
    assert (finding.changes_rest_pose, finding.fix_id) == (True, "align_rolls")
    bpy.context.view_layer.objects.active = rig
    bpy.ops.object.mode_set(mode="POSE")
    assert finding.changes_rest_pose and run_fix(finding).changed
    assert rig.mode == "POSE", "the user's mode is restored"
    assert max(_x_off_plane(rig).values()) < 1e-4
    assert findings_of(rig, "roll") == []
    assert _knee_sideways_degrees(rig) < 1.0
    assert_ik_works(rig, ["shin.L"])
    assert pose_snapshot(rig) == snapshot, "heads, tails and pose stay where they were"
    assert all((a - b).length < 1e-4 for a, b in zip(_mesh_at_rest(rig), mesh_before, strict=True))
    assert not run_fix(finding).changed


def test_free_bones_with_other_rolls_are_info_and_the_pole_angle_follows_the_fix(rig) -> None:
    _roll(rig, "thigh.L", 40)
    _fit_pole_angle(rig)  # a rig whose pole angle was set for the odd roll: works, sits at rest
    assert _at_rest(rig)
    (finding,) = findings_of(rig, "roll")
    assert (finding.bone, finding.severity) == ("shin.L", Severity.INFO)
    assert dict(finding.stated["off"])["thigh.L"] == pytest.approx(40.0, abs=0.5)
    fitted = _pole_angle(rig)
    assert run_fix(finding).changed
    assert _pole_angle(rig) != pytest.approx(fitted, abs=1e-4), "the pole angle follows the roll"
    assert max(_x_off_plane(rig).values()) < 1e-4
    assert _at_rest(rig), "the leg still sits where it was modelled"
    assert_ik_works(rig, ["shin.L"])
    assert findings_of(rig, "roll") == []
    assert not run_fix(finding).changed


def test_x_and_minus_x_agree_only_when_every_bone_shares_the_sign(rig) -> None:
    _roll(rig, "shin.L", 180)
    (finding,) = findings_of(rig, "roll")
    assert dict(finding.stated["off"])["shin.L"] == pytest.approx(180.0, abs=0.5)
    apply_fix(finding)
    assert findings_of(rig, "roll") == []
    assert_ik_works(rig, ["shin.L"])
    for name in LEG:
        _roll(rig, name, 180)
    _fit_pole_angle(rig)
    assert findings_of(rig, "roll") == [], "both bones bend on -X: they agree"
    assert_ik_works(rig, ["shin.L"])


def test_threshold_is_an_option(rig) -> None:
    from ik_doctor import diagnose

    _roll(rig, "shin.L", 8)
    assert findings_of(rig, "roll") == []
    (finding,) = diagnose(rig, checks=["roll"], options={"roll": {"max_angle": 5.0}})
    assert finding.bone == "shin.L"


def test_straight_chain_is_left_to_the_rest_pose_check(rig) -> None:
    with edit_bones(rig) as bones:
        thigh, shin = bones["thigh.L"], bones["shin.L"]
        middle = (thigh.head + shin.tail) / 2
        thigh.tail = shin.head = middle
        shin.roll += 1.0
    assert findings_of(rig, "roll") == []


def test_rolling_keeps_a_held_pose_where_it_is(rig) -> None:
    ik = rig.pose.bones["shin.L"].constraints["IK"]
    ik.pole_target = None  # without a pole the held pose steers the IK
    _roll(rig, "thigh.L", 40)
    rig.pose.bones["thigh.L"].rotation_quaternion = (0.9, 0.3, 0.1, 0.2)
    rig.pose.bones["shin.L"].rotation_quaternion = (0.95, 0.3, 0.0, 0.0)
    rig.pose.bones["foot_ik.L"].location = (0.05, 0.1, 0.05)
    solved = _posed_points(rig)
    ik.mute = True
    held = _posed_points(rig)
    ik.mute = False
    (finding,) = findings_of(rig, "roll")
    apply_fix(finding)
    assert _largest_move(solved, _posed_points(rig)) < 1e-3, "the solver's own tolerance"
    ik.mute = True
    assert _largest_move(held, _posed_points(rig)) < 1e-5, "the pose turned with the axes"


def test_animated_chain_bones_get_no_roll_fix(rig) -> None:
    _roll(rig, "shin.L", 30)
    rig.pose.bones["shin.L"].keyframe_insert("rotation_quaternion", frame=1)
    (finding,) = findings_of(rig, "roll")
    assert finding.fix_id is None and finding.stated["blocked_by"] == "keyed"
    assert finding.stated["keyed"] == ("shin.L",)


def _largest_move(before: list, after: list) -> float:
    return max((a - b).length for a, b in zip(before, after, strict=True))


def _posed_points(rig) -> list:
    evaluate(rig)
    return [p for pb in rig.pose.bones for p in (pb.head.copy(), pb.tail.copy())]


def test_fixing_from_edit_mode_still_recomputes_the_pole_angle(rig) -> None:
    _roll(rig, "thigh.L", 40)
    _fit_pole_angle(rig)
    bpy.context.view_layer.objects.active = rig
    bpy.ops.object.mode_set(mode="EDIT")
    (finding,) = findings_of(rig, "roll")
    fitted = _pole_angle(rig)
    assert run_fix(finding).changed
    assert _pole_angle(rig) != pytest.approx(fitted, abs=1e-4), "the pole angle follows the roll"
    assert rig.mode == "EDIT"
    bpy.ops.object.mode_set(mode="OBJECT")
    assert _at_rest(rig)
    assert findings_of(rig, "roll") == []


@pytest.mark.parametrize(("size", "reported"), [(1.0, True), (1e-3, False)])
def test_bones_too_short_to_hold_a_roll_are_not_reported(scene, size, reported) -> None:
    """Bug: on bones 1e-7 to 1e-3 long align_rolls left its own finding: Blender rebuilds
    their axes from single-precision head and tail, so no roll can be set on them."""
    obj = bpy.data.objects.new("Rig", bpy.data.armatures.new("Rig"))
    scene.collection.objects.link(obj)
    with edit_bones(obj) as bones:
        upper = bones.new("upper")
        upper.head, upper.tail, upper.roll = (0, 0, 0), (0, -0.2 * size, size), 1.2
        lower = bones.new("lower")
        lower.head, lower.tail, lower.roll = upper.tail, (0, 0, 2 * size), 1.2
        lower.parent, lower.use_connect = upper, True
    obj.pose.bones["lower"].constraints.new("IK").chain_count = 2
    assert bool(findings_of(obj, "roll")) == reported


def test_a_bone_off_the_bend_plane_is_rolled_as_near_the_normal_as_a_roll_can(scene) -> None:
    """Bug: with the lower bone set off the upper's tail (not connected), the upper bone does not
    lie in the bend plane; align_rolls turned it as far as a roll can and the finding stayed."""
    obj = bpy.data.objects.new("Rig", bpy.data.armatures.new("Rig"))
    scene.collection.objects.link(obj)
    with edit_bones(obj) as bones:
        upper = bones.new("upper")
        upper.head, upper.tail = (0, 0, 0), (0, 0, 1)
        lower = bones.new("lower")
        lower.head, lower.tail, lower.parent = (0, 1, 1), (1, 1, 1), upper
    obj.pose.bones["lower"].constraints.new("IK").chain_count = 2
    (finding,) = findings_of(obj, "roll")
    apply_fix(finding)
    assert findings_of(obj, "roll") == []
    assert not run_fix(finding).changed


def _limit_z(rig, name: str, low: float, high: float) -> None:
    """An IK limit on Z only (degrees), as BlenRig limits its shoulder_mstr bones."""
    pose_bone = rig.pose.bones[name]
    pose_bone.use_ik_limit_z = True
    pose_bone.ik_min_z, pose_bone.ik_max_z = math.radians(low), math.radians(high)


def _solved_tip_error(rig) -> float:
    from ik_doctor import solve_within_reach

    return next(s.tip_error for s in solve_within_reach(rig) if s.owner == "shin.L")


@pytest.mark.parametrize(
    ("name", "roll", "low", "high"),
    [("shin.L", 90, -10, 180), ("thigh.L", -90, -10, 180)],
    ids=["joint", "root"],
)
def test_bone_limited_on_z_with_z_on_the_bend_normal_bends_in_its_plane(
    rig, name, roll, low, high
) -> None:
    """BlenRig's elbow pin bends its shoulder about Z, the axis its IK limit is on. Measured:
    rolled so Z lies on the bend normal and limited on Z the way folding the leg turns the bone,
    the leg bends 0.00° out of its plane and lands; limited the other way it stops 2.4% of the
    reach short (the thigh also swings 9.8° sideways): still a warning."""
    _roll(rig, name, roll)
    _fit_pole_angle(rig)
    _limit_z(rig, name, low, high)
    assert _knee_sideways_degrees(rig) < 0.1
    assert_ik_works(rig, ["shin.L"])
    (finding,) = findings_of(rig, "roll")
    assert (finding.severity, finding.title) == (Severity.INFO, "Bends on its Z axis")
    assert name in dict(finding.stated["off"])
    _limit_z(rig, name, -high, -low)  # Z still on the normal, but it cannot fold that way
    assert _solved_tip_error(rig) > 0.02
    (finding,) = findings_of(rig, "roll")
    assert finding.severity == Severity.WARNING


def test_bone_limited_on_z_with_z_40_degrees_off_the_bend_normal_is_a_warning(rig) -> None:
    _roll(rig, "shin.L", -50)  # Z 40° off the normal, turned against the fold this limit allows
    _limit_z(rig, "shin.L", -10, 180)
    assert _knee_sideways_degrees(rig) > 30.0, "measured: 40.1° out of the leg's plane"
    (finding,) = findings_of(rig, "roll")
    assert (finding.bone, finding.severity) == ("shin.L", Severity.WARNING)


@pytest.mark.parametrize(
    ("owner", "lock", "roll"),
    [("forearm.L", "lock", 20), ("shin.L", 6, 20), ("shin.L", 18, 160)],
)
def test_no_roll_fix_that_would_put_an_x_lock_or_narrow_limit_on_the_bend(
    rig, owner, lock, roll
) -> None:
    """Rolled 20° off the bend axis, a joint locked or limited to ±6° on X folds about Z and the
    limb lands (measured); rolled back, X is the bend axis and the joint cannot fold (4.6% to
    6.5% of the reach short, the locks check's error): the roll fix is held back. So at ±18°
    rolled 160° (agreement seed 2026, a trade before): 18° is 60% of the goal's 30° fold but
    brings the tip 37% of the way, and rolled back the leg stops 2.9% short."""
    pose_bone = rig.pose.bones[owner]
    if lock == "lock":
        pose_bone.lock_ik_x = True
    else:
        pose_bone.use_ik_limit_x = True
        pose_bone.ik_min_x, pose_bone.ik_max_x = -math.radians(lock), math.radians(lock)
    _roll(rig, owner, roll)
    (finding,) = findings_of(rig, "roll")
    assert finding.fix_id is None and finding.stated["blocked_by"] == "holds_fold"
    assert [f for f in findings_of(rig, "locks") if f.severity == Severity.ERROR] == []
    _roll(rig, owner, -roll)
    assert [f.severity for f in findings_of(rig, "locks")] == [Severity.ERROR]


@pytest.mark.parametrize(("iterations", "waits"), [(8, True), (9, False)])
def test_no_roll_fix_that_leaves_the_chain_too_few_iterations(rig, iterations, waits) -> None:
    """Fresh seed 479's class: the forearm rolled 50° off its fold lands with 8 iterations, one
    fewer than unrolled; rolled onto the bend it would need 9 (the solver check's error), so the
    roll fix waits for the iterations. With 9 it is offered."""
    rig.pose.bones["forearm.L"].constraints["IK"].iterations = iterations
    _roll(rig, "forearm.L", 50.0)
    assert [v.state for v in judge_chains(rig) if v.owner == "forearm.L"] == ["pass"]
    (finding,) = findings_of(rig, "roll")
    assert (finding.fix_id is None) == waits
    if waits:
        assert finding.stated["blocked_by"] == "iterations"
        assert "raise its iterations first" in (finding.no_fix_reason or "")
        _roll(rig, "forearm.L", -50.0)
        assert [v.state for v in judge_chains(rig) if v.owner == "forearm.L"] == ["fail"]


def test_no_roll_fix_that_turns_the_start_a_track_to_sets(rig) -> None:
    """Fresh seed 190 (a trade): the forearm rolled 70° under a Track To at the hand control
    (its -Z at the control) lands, the Track To's start the rest way. Rolled onto the bend, the
    start turns with the bone's axes, and the arm bends 106° from its pole (the constraint order
    check's error), as unrolled: the roll fix waits for the Track To's mute."""
    track = rig.pose.bones["forearm.L"].constraints.new("TRACK_TO")
    track.target, track.subtarget = rig, "hand_ik.L"
    assert (track.track_axis, track.up_axis) == ("TRACK_NEGATIVE_Z", "UP_Y")  # Blender's own
    _roll(rig, "forearm.L", 70.0)
    assert [v.state for v in judge_chains(rig) if v.owner == "forearm.L"] == ["pass"]
    (finding,) = findings_of(rig, "roll")
    assert finding.fix_id is None and finding.stated["blocked_by"] == "start"
    assert "Track To" in (finding.no_fix_reason or "")
    _roll(rig, "forearm.L", -70.0)
    (verdict,) = [v for v in judge_chains(rig) if v.owner == "forearm.L"]
    assert verdict.fails and verdict.bend_from_pole > 100.0


@pytest.mark.parametrize("limb", ["arm", "leg"])
def test_a_one_sided_limit_that_aligning_would_turn_round_keeps_the_roll(limb) -> None:
    """Fresh seed 303 (a trade): the forearm rolled 130° and limited -150° to 0° on X folds
    about its rolled X and lands; aligning its roll turned that limit round, so it could fold
    only straighter (the locks check's error). The roll fix waits for that limit."""
    faults = (Fault("roll", limb, 130), Fault("one_sided_limit", limb, -150))
    judged = judge(faults)
    assert list(judged.problems()) == []
    owner = LIMBS[limb].owner
    assert [v.state for v in judged.verdicts if v.owner == owner] == ["pass"]
    (rolled,) = [f for f in judged.findings if f.check_id == "roll" and f.bone == owner]
    assert (rolled.fix_id, rolled.stated["blocked_by"]) == (None, "holds_fold")
