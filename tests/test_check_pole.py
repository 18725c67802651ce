"""The pole check: a pole that is missing, near the line, behind the knee, or at the wrong angle."""

from __future__ import annotations

import itertools
import math

import bpy
import pytest
from faulted_limbs import LIMBS, Fault, faulted_rig, judge
from mathutils import Vector
from solving import (
    assert_ik_works,
    findings_of,
    flipped_start_turned_back,
    pose_snapshot,
    tip_error,
)

from ik_doctor import Severity, apply_fix, diagnose, run_fix, solve_within_reach
from ik_doctor.core.editing import edit_bones
from ik_doctor.core.geometry import rest_pole_angle
from ik_doctor.verify.oracle import judge_chains

LEG = ("thigh.L", "shin.L")


def _pole_findings(rig: bpy.types.Object) -> list:
    return diagnose(rig, checks=["pole"])


def _leg_ik(rig: bpy.types.Object) -> bpy.types.KinematicConstraint:
    return rig.pose.bones["shin.L"].constraints["IK"]


def _move_knee_pole(rig: bpy.types.Object, head: tuple[float, float, float]) -> None:
    with edit_bones(rig) as bones:
        pole = bones["knee_pole.L"]
        shift = Vector(head) - pole.head
        pole.head += shift
        pole.tail += shift


def _rest_angle(rig: bpy.types.Object, pole: Vector) -> float:
    thigh, shin = rig.data.bones["thigh.L"], rig.data.bones["shin.L"]
    axes = thigh.matrix_local.col
    return rest_pole_angle(thigh.head_local, axes[0].xyz, axes[1].xyz, shin.tail_local, pole)


def _rest_drift(rig: bpy.types.Object, bones: tuple[str, ...] = LEG) -> float:
    """How far the chain's bones move from their rest pose with every control at rest."""
    bpy.context.view_layer.update()
    drift = 0.0
    for name in bones:
        posed, rest = rig.pose.bones[name], rig.data.bones[name]
        drift = max(drift, (posed.head - rest.head_local).length)
        drift = max(drift, (posed.tail - rest.tail_local).length)
    return drift


def _bends_toward_pole(rig: bpy.types.Object, owner: str = "shin.L") -> bool | None:
    return next(s.bends_toward_pole for s in solve_within_reach(rig) if s.owner == owner)


# --- the faults, one builder each, as a user would make them -------------------------------


def _pole_bone_missing(rig):
    _leg_ik(rig).pole_subtarget = "knee_pole.L.typo"


def _pole_armature_without_bone(rig):
    _leg_ik(rig).pole_subtarget = ""


def _pole_on_the_root(rig):
    _move_knee_pole(rig, (0.1, 0.0, 1.0))  # thigh.L's head


def _pole_is_the_chain_root(rig):
    _leg_ik(rig).pole_subtarget = "thigh.L"


def _pole_is_the_shin_itself(rig):
    _leg_ik(rig).pole_subtarget = "shin.L"


def _no_pole(rig):
    _leg_ik(rig).pole_target = None


def _pole_near_the_line(rig):
    _move_knee_pole(rig, (0.1, -0.05, 0.55))  # 0.05 from the hip-ankle line, reach 0.9


def _pole_behind_the_knee(rig):
    """Pole moved behind the knee, angle set by eye so the leg still stands as modelled."""
    _move_knee_pole(rig, (0.1, 0.6, 0.55))
    _leg_ik(rig).pole_angle = _rest_angle(rig, Vector((0.1, 0.6, 0.55)))


def _pole_behind_the_knee_turning_the_leg(rig):
    """Pole moved behind the knee with its old angle: the leg turns around to face it."""
    _move_knee_pole(rig, (0.1, 0.6, 0.55))


def _empty_pole_behind_the_knee(rig):
    empty = bpy.data.objects.new("KneeEmpty", None)
    bpy.context.scene.collection.objects.link(empty)
    empty.location = (0.1, 0.6, 0.55)
    _leg_ik(rig).pole_target, _leg_ik(rig).pole_subtarget = empty, ""
    _leg_ik(rig).pole_angle = _rest_angle(rig, Vector((0.1, 0.6, 0.55)))


def _pole_angle_twists_the_leg(rig):
    _leg_ik(rig).pole_angle += math.radians(45.0)


def _pole_angle_quarter_turn(rig):
    _leg_ik(rig).pole_angle += math.radians(90.0)


def _pole_angle_turns_the_knee_away(rig):
    _leg_ik(rig).pole_angle += math.radians(135.0)


# (builder, severity, fix id)
FAULTS = [
    (_pole_bone_missing, Severity.ERROR, "create_pole"),
    (_pole_armature_without_bone, Severity.ERROR, "create_pole"),
    (_pole_on_the_root, Severity.ERROR, "move_pole"),
    (_pole_is_the_chain_root, Severity.ERROR, "create_pole"),
    (_pole_is_the_shin_itself, Severity.WARNING, "create_pole"),
    (_no_pole, Severity.WARNING, "create_pole"),
    (_pole_near_the_line, Severity.WARNING, "move_pole"),
    (_pole_behind_the_knee, Severity.WARNING, "move_pole"),
    (_pole_behind_the_knee_turning_the_leg, Severity.WARNING, "move_pole"),
    (_empty_pole_behind_the_knee, Severity.WARNING, "create_pole"),
    (_pole_angle_twists_the_leg, Severity.WARNING, "set_angle"),
    (_pole_angle_quarter_turn, Severity.WARNING, "set_angle"),
    (_pole_angle_turns_the_knee_away, Severity.ERROR, "set_angle"),
]


@pytest.mark.parametrize(
    ("break_rig", "severity", "fix_id"),
    [pytest.param(*fault, id=fault[0].__name__.strip("_")) for fault in FAULTS],
)
def test_pole_fault_is_found_and_fixed_keeping_the_rest_pose(
    rig, break_rig, severity, fix_id
) -> None:
    break_rig(rig)
    found = _pole_findings(rig)
    assert [(f.bone, f.severity, f.fix_id) for f in found] == [("shin.L", severity, fix_id)]
    finding = found[0]
    assert finding.changes_rest_pose == (fix_id == "move_pole"), "only the pole bone's rest moves"
    assert not finding.needs_confirmation
    assert run_fix(finding).changed
    assert _pole_findings(rig) == []
    assert _rest_drift(rig) < 1e-4
    assert_ik_works(rig, ["shin.L"])
    before = pose_snapshot(rig)
    assert not run_fix(finding).changed
    assert pose_snapshot(rig) == before


def test_missing_pole_bone_makes_the_ik_do_nothing(rig) -> None:
    _pole_bone_missing(rig)
    assert tip_error(rig, "shin.L") > 0.1
    (finding,) = _pole_findings(rig)
    assert finding.stated["pole_bone"] == "knee_pole.L.typo"
    assert finding.severity == Severity.ERROR  # on the rig itself: Blender marks it invalid
    apply_fix(finding)
    assert tip_error(rig, "shin.L") < 1e-3


def test_created_pole_bone_sits_in_front_of_the_knee_outside_the_chain(rig) -> None:
    _no_pole(rig)
    before = pose_snapshot(rig)
    (finding,) = _pole_findings(rig)
    assert finding.fix_id == "create_pole"
    assert run_fix(finding).changed
    pole = rig.data.bones["POLE-shin.L"]
    assert pole.parent.name == "root" and not pole.use_deform
    knee = rig.data.bones["shin.L"].head_local
    assert pole.head_local.y < knee.y - 0.3, "in front (-Y) of the knee"
    assert abs(pole.head_local.x - knee.x) < 1e-6, "in the bend plane"
    assert (_leg_ik(rig).pole_target, _leg_ik(rig).pole_subtarget) == (rig, "POLE-shin.L")
    after = pose_snapshot(rig)
    assert {name for name in after if before.get(name) != after[name]} == {"POLE-shin.L"}


def test_pole_behind_the_knee_makes_the_knee_bend_away_until_moved(rig) -> None:
    _pole_behind_the_knee(rig)
    assert _rest_drift(rig) < 1e-4, "the angle keeps the rest pose..."
    assert _bends_toward_pole(rig) is False, "...so the knee bends away from the pole"
    before = pose_snapshot(rig)
    (finding,) = _pole_findings(rig)
    assert (finding.fix_id, finding.changes_rest_pose) == ("move_pole", True)
    apply_fix(finding)
    assert rig.data.bones["knee_pole.L"].head_local.y < -0.3, "moved to the front"
    after = pose_snapshot(rig)
    assert {name for name in after if before[name] != after[name]} == {"knee_pole.L"}
    assert _bends_toward_pole(rig) is True


def test_pole_angle_off_turns_the_leg_at_rest_and_the_computed_angle_restores_it(rig) -> None:
    _pole_angle_twists_the_leg(rig)
    assert _rest_drift(rig) > 1e-2
    (finding,) = _pole_findings(rig)
    assert finding.stated["turn"] == pytest.approx(45.0, abs=0.05)
    assert finding.fix_id == "set_angle"
    assert finding.stated["rest_angle"] == pytest.approx(-90.0, abs=0.05)
    apply_fix(finding)
    assert math.degrees(_leg_ik(rig).pole_angle) == pytest.approx(-90.0, abs=0.05)
    assert _rest_drift(rig) < 1e-4


@pytest.mark.parametrize("owner", ["shin.L", "shin.R", "forearm.L", "forearm.R"])
@pytest.mark.parametrize("twist", [-150.0, -60.0, 20.0, 100.0])
def test_computed_angle_round_trips_the_rest_pose_on_every_limb(rig, owner, twist) -> None:
    constraint = rig.pose.bones[owner].constraints["IK"]
    constraint.pole_angle = math.remainder(constraint.pole_angle + math.radians(twist), math.tau)
    chain = (rig.data.bones[owner].parent.name, owner)
    assert _rest_drift(rig, chain) > 1e-3
    (finding,) = _pole_findings(rig)
    apply_fix(finding)
    assert _rest_drift(rig, chain) < 1e-4


def test_pole_beside_the_knee_with_its_computed_angle_is_fine(rig) -> None:
    """Like the Spider's shared poles: off the bend plane, the angle keeps the rest pose."""
    spot = Vector((0.5, -0.3, 0.55))
    _move_knee_pole(rig, tuple(spot))
    _leg_ik(rig).pole_angle = _rest_angle(rig, spot)
    assert _rest_drift(rig) < 1e-4
    assert _pole_findings(rig) == []


def test_pole_angle_a_few_degrees_off_is_tolerated(rig) -> None:
    _leg_ik(rig).pole_angle += math.radians(10.0)
    assert _pole_findings(rig) == []


def test_no_pole_is_fine_when_a_muted_twin_ik_has_one(rig) -> None:
    """Rigify pairs a pole and a no-pole IK on the same bone and mutes one of them."""
    twin = rig.pose.bones["shin.L"].constraints.new("IK")
    twin.target, twin.subtarget, twin.chain_count = rig, "foot_ik.L", 2
    _leg_ik(rig).mute = True
    assert _pole_findings(rig) == []


def test_no_pole_on_a_three_bone_chain_is_not_reported(rig) -> None:
    """Fingers, spines and tails bend in more than one place: a single pole does not fit."""
    ik = rig.pose.bones["chest"].constraints.new("IK")
    ik.target, ik.subtarget, ik.chain_count = rig, "hand_ik.L", 3
    assert _pole_findings(rig) == []


@pytest.mark.parametrize(("locked", "hinge"), [("yz", 0), ("xy", 2)])
def test_no_pole_is_fine_where_the_root_is_a_hinge(rig, locked: str, hinge: int) -> None:
    """Rigify's quadruped rear legs: a helper IK without a pole whose upper bone turns about one
    axis only. The hinge keeps the knee on its plane wherever the foot goes."""
    _leg_ik(rig).pole_target = None
    assert [f.title for f in _pole_findings(rig) if f.bone == "shin.L"] == ["No pole"]
    thigh = rig.pose.bones["thigh.L"]
    for axis in locked:
        setattr(thigh, f"lock_ik_{axis}", True)
    assert [f for f in _pole_findings(rig) if f.bone == "shin.L"] == []
    normal = rig.data.bones["thigh.L"].matrix_local.col[hinge].xyz
    bpy.context.view_layer.update()
    at_rest = (thigh.tail - thigh.head).dot(normal)
    foot = rig.pose.bones[_leg_ik(rig).subtarget]
    for move in ((0.15, 0.0, 0.0), (0.15, -0.2, 0.1), (-0.1, 0.1, 0.1)):
        foot.location = move
        bpy.context.view_layer.update()
        assert abs((thigh.tail - thigh.head).dot(normal) - at_rest) < 1e-3, move
    assert [v.state for v in judge_chains(rig) if v.owner == "shin.L"] == ["pass"]


def test_no_pole_on_a_leg_free_at_the_hip_swings_the_knee_out(rig) -> None:
    """Why the warning stands where the root turns freely: the knee follows the foot out."""
    _leg_ik(rig).pole_target = None
    thigh = rig.pose.bones["thigh.L"]
    side = rig.data.bones["thigh.L"].matrix_local.col[0].xyz
    bpy.context.view_layer.update()
    at_rest = (thigh.tail - thigh.head).dot(side)
    rig.pose.bones[_leg_ik(rig).subtarget].location = (0.15, 0.0, 0.0)
    bpy.context.view_layer.update()
    assert abs((thigh.tail - thigh.head).dot(side) - at_rest) > 0.05


def test_pole_bone_missing_from_another_armature_falls_back_to_its_origin(rig) -> None:
    other = bpy.data.objects.new("OtherRig", bpy.data.armatures.new("OtherRig"))
    bpy.context.scene.collection.objects.link(other)
    _leg_ik(rig).pole_target, _leg_ik(rig).pole_subtarget = other, "knee"
    (finding,) = _pole_findings(rig)
    assert finding.severity == Severity.WARNING
    assert finding.stated["pole_bone"] == "knee"  # aimed at OtherRig's origin: a warning
    apply_fix(finding)
    assert _pole_findings(rig) == []
    assert_ik_works(rig, ["shin.L"])


def test_reference_rig_has_no_pole_findings(rig) -> None:
    assert _pole_findings(rig) == []


@pytest.mark.parametrize(
    ("break_rig", "severity"),
    [pytest.param(*fault[:2], id=fault[0].__name__.strip("_")) for fault in FAULTS],
)
def test_pole_errors_are_exactly_the_legs_the_solver_fails(rig, break_rig, severity) -> None:
    """Severity follows Blender: an error only where the oracle sees the leg fail."""
    break_rig(rig)
    verdict = next(v for v in judge_chains(rig) if v.key == ("shin.L", "IK"))
    assert verdict.fails == (severity == Severity.ERROR), verdict.reason


@pytest.mark.parametrize("mode", ["OBJECT", "POSE", "EDIT"])
@pytest.mark.parametrize("break_rig", [_pole_near_the_line, _no_pole], ids=["move", "create"])
def test_pole_bone_fixes_leave_the_mode_as_found(rig, mode, break_rig) -> None:
    break_rig(rig)
    bpy.context.view_layer.objects.active = rig
    bpy.ops.object.mode_set(mode=mode)
    apply_fix(_pole_findings(rig)[0])
    assert rig.mode == mode
    assert _pole_findings(rig) == []
    bpy.ops.object.mode_set(mode="OBJECT")
    assert _rest_drift(rig) < 1e-4
    assert_ik_works(rig, ["shin.L"])


def test_an_s_curved_chain_has_no_side_to_be_behind(scene) -> None:
    """Like the Quaternius snake's neck: one joint bends toward the pole, the next away."""
    obj = bpy.data.objects.new("Snake", bpy.data.armatures.new("Snake"))
    scene.collection.objects.link(obj)
    points = [(0, 0, 0), (0, 0.1, 1), (0, -0.3, 2), (0, 0, 3)]
    with edit_bones(obj) as bones:
        parent = None
        for index, (head, tail) in enumerate(itertools.pairwise(points)):
            bone = bones.new(f"neck{index}")
            bone.head, bone.tail, bone.parent, bone.use_connect = (
                head,
                tail,
                parent,
                parent is not None,
            )
            parent = bone
        for name, head in (("goal", (0, 0, 3)), ("pole", (0, 2, 1.5))):
            control = bones.new(name)
            control.head, control.tail = head, (head[0], head[1], head[2] + 0.2)
    pose_bones = obj.pose.bones
    ik = pose_bones["neck2"].constraints.new("IK")
    ik.target, ik.subtarget, ik.chain_count = obj, "goal", 3
    ik.pole_target, ik.pole_subtarget = obj, "pole"
    root = obj.data.bones["neck0"]
    axes = root.matrix_local.col
    ik.pole_angle = rest_pole_angle(
        root.head_local, axes[0].xyz, axes[1].xyz, Vector((0, 0, 3)), Vector((0, 2, 1.5))
    )
    assert _rest_drift(obj, ("neck0", "neck1", "neck2")) < 1e-4
    assert _pole_findings(obj) == []


def test_a_root_placed_on_its_own_pole_by_a_constraint_is_an_error_with_no_fix(rig) -> None:
    copy = rig.pose.bones["thigh.L"].constraints.new("COPY_TRANSFORMS")
    copy.target, copy.subtarget = rig, "knee_pole.L"
    bpy.context.view_layer.update()
    assert next(v for v in judge_chains(rig) if v.owner == "shin.L").fails
    (finding,) = [f for f in diagnose(rig) if f.check_id == "pole" and f.bone == "shin.L"]
    assert (finding.severity, finding.title) == (Severity.ERROR, "Pole on the root as posed")
    assert finding.fix_id is None


@pytest.mark.parametrize("owner", ["shin.L", "forearm.R"])
@pytest.mark.parametrize("control", ["bone", "empty"])
def test_a_pole_that_is_the_target_is_an_error_and_a_new_pole_lands_it(
    rig, owner: str, control: str
) -> None:
    """The pole on the target lies on the root-target line wherever it goes: no side to bend to.
    An empty target keeps the stale pole bone name, which Blender ignores."""
    ik = rig.pose.bones[owner].constraints["IK"]
    target = rig.pose.bones[ik.subtarget]
    if control == "bone":
        ik.pole_subtarget = ik.subtarget
    else:
        empty = bpy.data.objects.new("Control", None)
        bpy.context.scene.collection.objects.link(empty)
        empty.location = rig.matrix_world @ target.head
        ik.target, ik.subtarget, ik.pole_target = empty, "", empty
    bpy.context.view_layer.update()
    assert next(v for v in judge_chains(rig) if v.owner == owner).fails
    (finding,) = [f for f in _pole_findings(rig) if f.bone == owner]
    assert (finding.severity, finding.title) == (Severity.ERROR, "Pole is the target")
    assert finding.fix_id == "create_pole", "moving the pole would move the target"
    before = pose_snapshot(rig)
    assert run_fix(finding).changed
    assert [f for f in _pole_findings(rig) if f.bone == owner] == []
    after = pose_snapshot(rig)
    assert {name for name in after if before.get(name) != after[name]} == {f"POLE-{owner}"}
    assert_ik_works(rig, [owner])


def test_no_pole_is_offered_to_a_joint_that_does_not_inherit_rotation(rig) -> None:
    rig.data.bones["shin.L"].use_inherit_rotation = False
    _leg_ik(rig).pole_target = None
    assert [v.state for v in judge_chains(rig) if v.owner == "shin.L"] == ["pass"]
    (finding,) = [f for f in _pole_findings(rig) if f.bone == "shin.L"]
    assert finding.fix_id is None and finding.stated["blocked_by"] == "inherit_rotation"
    _leg_ik(rig).pole_target, _leg_ik(rig).pole_subtarget = rig, "knee_pole.L"
    assert [v.state for v in judge_chains(rig) if v.owner == "shin.L"] == ["fail"], (
        "the pole the fix would have made flips the knee"
    )


def test_no_pole_is_offered_where_an_overridden_rotation_would_flip_the_knee(rig) -> None:
    copy = rig.pose.bones["shin.L"].constraints.new("COPY_ROTATION")
    copy.target, copy.subtarget = rig, "hand_ik.L"
    _leg_ik(rig).pole_target = None
    assert [v.state for v in judge_chains(rig) if v.owner == "shin.L"] == ["pass"]
    (finding,) = [f for f in _pole_findings(rig) if f.bone == "shin.L"]
    assert finding.fix_id is None and finding.stated["blocked_by"] == "overridden_start"
    _leg_ik(rig).pole_target, _leg_ik(rig).pole_subtarget = rig, "knee_pole.L"
    assert [v.state for v in judge_chains(rig) if v.owner == "shin.L"] == ["fail"], (
        "the pole the fix would have made flips the knee"
    )


def test_pole_behind_a_joint_without_inherited_rotation_is_not_moved_in_front(rig) -> None:
    """Behind the bend the forearm that ignores its parent's rotation still lands; moved in
    front, the pole would leave it flipping away once the shoulder turns: the move waits for
    Inherit Rotation."""
    rig.data.bones["forearm.L"].use_inherit_rotation = False
    with edit_bones(rig) as bones:
        pole = bones["elbow_pole.L"]
        pole.head.y, pole.tail.y = -pole.head.y, -pole.tail.y
    (finding,) = findings_of(rig, "pole")
    assert finding.fix_id is None and finding.stated["blocked_by"] == "inherit_rotation"
    rig.data.bones["forearm.L"].use_inherit_rotation = True
    (finding,) = findings_of(rig, "pole")
    assert finding.fix_id == "move_pole"


@pytest.mark.parametrize(
    ("kind", "aimed_at", "reason"),
    [
        ("DAMPED_TRACK", "knee_pole.L", "aimed_at_pole"),
        ("TRACK_TO", "foot_ik.L", "tracking"),
    ],
)
def test_pole_behind_the_bend_that_a_constraint_starts_the_knee_toward_is_not_moved_in_front(
    rig, kind, aimed_at, reason
) -> None:
    """The shin's Damped Track at the pole, or its Track To at the foot control (agreement seed
    31: the pole's fix traded for constraint_order's error), starts it bent toward the pole
    behind the bend, and the leg lands; moved in front, the pole would have that start flip the
    knee."""
    with edit_bones(rig) as bones:
        pole = bones["knee_pole.L"]
        pole.head.y, pole.tail.y = -pole.head.y, -pole.tail.y
    track = rig.pose.bones["shin.L"].constraints.new(kind)
    track.target, track.subtarget = rig, aimed_at
    assert [v.state for v in judge_chains(rig) if v.owner == "shin.L"] == ["pass"]
    (finding,) = findings_of(rig, "pole")
    assert finding.fix_id is None and finding.stated["blocked_by"] == reason
    with edit_bones(rig) as bones:  # the move, made by hand
        pole = bones["knee_pole.L"]
        pole.head.y, pole.tail.y = -pole.head.y, -pole.tail.y
    assert [v.state for v in judge_chains(rig) if v.owner == "shin.L"] == ["fail"]


def test_pole_behind_a_knee_posed_toward_it_is_not_moved_in_front(rig) -> None:
    """The shin posed -70° bends toward the pole behind it and the leg lands; moved in front,
    the pole would have the knee bend away from it: the pose is cleared first."""
    with edit_bones(rig) as bones:
        pole = bones["knee_pole.L"]
        pole.head.y, pole.tail.y = -pole.head.y, -pole.tail.y
    rig.pose.bones["shin.L"].rotation_mode = "XYZ"
    rig.pose.bones["shin.L"].rotation_euler = (math.radians(-70), 0.0, 0.0)
    assert [v.state for v in judge_chains(rig) if v.owner == "shin.L"] == ["pass"]
    (finding,) = findings_of(rig, "pole")
    assert finding.fix_id is None and finding.stated["blocked_by"] == "posed"


@pytest.mark.parametrize(("owner", "turn"), [("shin.L", 150.0), ("forearm.L", 100.0)])
def test_pole_angle_turning_a_flipped_start_back_toward_the_pole_is_a_warning(
    rig, owner, turn
) -> None:
    """The joint posed -20° starts the solver bent the other way, and a pole angle turned more
    than 89° turns that mirrored bend back: measured, the leg with 150° lands 30° from its pole
    and the arm with 100° 80°. Either fix alone would leave the joint bending away (120° with
    the angle turned 60°), so none is offered."""
    turn_to = flipped_start_turned_back(rig, owner, turn)
    assert [v.state for v in judge_chains(rig) if v.owner == owner] == ["pass"]
    (finding,) = findings_of(rig, "pole")
    assert (finding.severity, finding.title) == (Severity.WARNING, "Pose turns the bend")
    assert finding.fix_id is None  # the title says why: set alone, the angle would flip it
    turn_to(60)
    assert [v.state for v in judge_chains(rig) if v.owner == owner] == ["fail"]
    (finding,) = findings_of(rig, "pole")
    assert finding.severity == Severity.ERROR


@pytest.mark.parametrize(
    ("limb", "roll", "posed", "turn", "lands"),
    [
        ("arm", 10, -60, 80, True),  # seed 243: modelled 89° from the pole
        ("arm", 20, -20, 60, True),  # 68°
        ("arm", -40, -20, 100, False),  # 162°, ends 162° away
        ("leg", 20, -20, 60, True),  # 89°
        ("leg", -40, -70, 100, False),  # 117°, ends 118° away
    ],
)
def test_a_flipped_start_tilted_by_the_roll_is_turned_as_far_as_it_tilts(
    limb, roll, posed, turn, lands
) -> None:
    """The lower bone rolled, then posed against its bend about its X, starts the joint bent
    the other way but tilted out of the plane by the roll: short of a half turn, and the pole
    angle turns that (``core.posed_bend.flipped_turn``; seed 243: the arm rolled 10°, posed
    -60°, its angle turned 80°, landed under the pole and rest_pose checks' errors, where
    unrolled it ends 99° away). The errors stand where the two turns leave it past 91°."""
    faults = (
        Fault("roll", limb, roll),
        Fault("pose_rotation", limb, posed),
        Fault("pole_angle", limb, turn),
    )
    rig = faulted_rig(faults)
    owner = {"arm": "forearm.L", "leg": "shin.L"}[limb]
    assert [v.state for v in judge_chains(rig) if v.owner == owner] == ["pass" if lands else "fail"]
    expected = Severity.WARNING if lands else Severity.ERROR
    (turned,) = [f for f in findings_of(rig, "pole") if f.bone == owner]
    (leftover,) = [f for f in findings_of(rig, "rest_pose") if f.bone == owner]
    assert (turned.severity, leftover.severity) == (expected, expected)
    assert turned.title == ("Pose turns the bend" if lands else "Pole angle flips joint")


@pytest.mark.parametrize(("keyed", "fails"), [(0.0, False), (0.3, True), (0.8, True)])
def test_keys_on_the_upper_arm_of_a_chain_into_the_shoulder_turn_its_bend_past_the_pole(
    rig, keyed, fails
) -> None:
    """Issue 13 (only a warning before): at chain length 3 the arm's pole angle turns it 90°
    from its rest pose, at the edge; the solver folds the upper arm and forearm from where the
    keys start them, which turns the bend a further 10.9° (keys of 0.3 rad) or 29.4° (0.8):
    the elbow ends 100° and 111° from its pole."""
    ik = rig.pose.bones["forearm.L"].constraints["IK"]
    ik.chain_count = 3
    upper = rig.pose.bones["upper_arm.L"]
    upper.rotation_mode = "XYZ"
    upper.rotation_euler = (keyed, keyed / 2, 0.0)
    upper.keyframe_insert("rotation_euler")
    assert [v.fails for v in judge_chains(rig) if v.owner == "forearm.L"] == [fails]
    (finding,) = [f for f in findings_of(rig, "pole") if f.chain == ("forearm.L", "IK")]
    assert finding.severity == (Severity.ERROR if fails else Severity.WARNING)
    assert ("upper_arm.L" in finding.stated["posed"]) == bool(keyed)
    apply_fix(finding)
    assert [v.state for v in judge_chains(rig) if v.owner == "forearm.L"] == ["pass"]


def test_no_pole_is_given_where_its_iterations_would_be_too_few_with_one(rig) -> None:
    """Issue 25 (seed 101, a trade): the leg at 12 iterations, its thigh at IK stiffness 0.7,
    lands without a pole; given one by the fix it stopped 0.14% of the reach short (the solver
    check's error: limbs with a pole need 13 so stiff). The pole waits for the iterations."""
    ik = _leg_ik(rig)
    ik.iterations = 12
    thigh = rig.pose.bones["thigh.L"]
    thigh.ik_stiffness_x = thigh.ik_stiffness_y = thigh.ik_stiffness_z = 0.7
    ik.pole_target = None
    assert [v.state for v in judge_chains(rig) if v.owner == "shin.L"] == ["pass"]
    (finding,) = [f for f in _pole_findings(rig) if f.bone == "shin.L"]
    assert finding.fix_id is None and finding.stated["blocked_by"] == "iterations"
    ik.iterations = 13
    (finding,) = [f for f in _pole_findings(rig) if f.bone == "shin.L"]
    apply_fix(finding)
    assert [v.state for v in judge_chains(rig) if v.owner == "shin.L"] == ["pass"]


def test_no_new_pole_where_a_posed_root_folds_a_narrow_limit() -> None:
    """Issue 25: the leg without a pole, its shin held on X to ±6°, the thigh keyed 0.3, 0.15
    rad: the keyed twist folds the shin and the leg lands; a pole would set the limb's plane
    and the limit would stop it 4.6% short, so the pole fix waits."""
    faults = (Fault("no_pole", "leg", 0), Fault("ik_limit", "leg", 6), Fault("fk_keys", "leg", 0.3))
    rig = faulted_rig(faults)
    (verdict,) = [v for v in judge_chains(rig) if v.owner == "shin.L"]
    assert verdict.state == "pass", verdict.reason
    (finding,) = [f for f in findings_of(rig, "pole") if f.bone == "shin.L"]
    assert (finding.fix_id, finding.stated["blocked_by"]) == (None, "turned_root")
    assert list(judge(faults, fixes=True).problems()) == []


def test_the_rest_angle_of_a_chain_cut_off_its_limb_waits_for_its_parent() -> None:
    """Fresh seed 190 (Fix All's claimed fix undone): the forearm unparented and rolled 120°, its
    chain cut to the forearm, reads its pole angle about the forearm's line, where 30° keeps the
    rest pose. Fix All set 30°, then parented the forearm, and the whole arm's angle turned it
    120° from its rest pose (this check's error). The angle waits for the parent; parented, the
    arm's own -90° keeps its rest pose and it lands."""
    rig = faulted_rig((Fault("unparented", "arm", 0), Fault("roll", "arm", 120)))
    (angle,) = [f for f in diagnose(rig) if f.check_id == "pole" and f.bone == "forearm.L"]
    assert angle.title == "Pole angle off rest" and angle.fix_id is None
    assert "parent it first" in (angle.no_fix_reason or "")
    (cut,) = [f for f in diagnose(rig) if f.check_id == "parenting" and f.bone == "forearm.L"]
    apply_fix(cut)
    assert [f for f in diagnose(rig) if f.check_id == "pole" and f.bone == "forearm.L"] == []
    assert [v.state for v in judge_chains(rig) if v.owner == "forearm.L"] == ["pass"]
    rig.pose.bones["forearm.L"].constraints["IK"].pole_angle = math.radians(30.0)  # set first
    (verdict,) = [v for v in judge_chains(rig) if v.owner == "forearm.L"]
    assert verdict.fails and verdict.bend_from_pole > 90.0


@pytest.mark.parametrize(
    "faults",
    [
        (("pole_behind", "arm", 0), ("pose_rotation", "arm", 70)),
        (("pole_behind", "arm", 0), ("pose_rotation", "arm", 20)),
        (("pole_behind", "leg", 0), ("pose_rotation", "leg", 70)),
        (("pole_angle", "leg", 180), ("pose_rotation", "leg", -70)),
    ],
)
def test_no_rest_angle_alone_for_a_straight_limb_whose_pose_the_angle_turns_round(faults) -> None:
    """Fresh seed 207 (a trade): a straight limb posed at its joint, its pole angle 180° off
    rest, lands: the angle turns the bend the pose starts it with round toward the pole. Set to
    the rest angle alone, or pre-bent toward the pole, the pose starts it bent away, and it
    bends 180° from its pole. Both fixes wait for the pose to be cleared."""
    limb = faults[0][1]
    drawn = (Fault("straight", limb, 0), *(Fault(*fault) for fault in faults))
    judged = judge(drawn)
    assert judged.holds, "\n".join(judged.problems())
    owner = LIMBS[limb].owner
    waiting = [
        f for f in judged.findings if f.bone == owner and f.check_id in ("pole", "rest_pose")
    ]
    assert {f.check_id for f in waiting} == {"pole", "rest_pose"}
    assert all(f.fix_id is None and f.no_fix_reason for f in waiting), waiting


@pytest.mark.parametrize("pose", [-70, -20, 20, 70])
@pytest.mark.parametrize(
    "turn", [(("chain_length", 3),), (("pole_angle", 89),), (("pole_angle", 91),)]
)
def test_a_straight_limb_turned_side_on_by_its_pole_angle_lands_posed_either_way(
    turn, pose
) -> None:
    """Fresh seed 209 (false errors and trades): a straight arm posed at the elbow whose pole
    angle turns it a quarter turn (the arm of chain length 3 turns exactly 90°) starts side-on
    to its pole and folds toward it either way: measured every degree, 89° to 91° land posed
    ±20° or ±70°, and one side fails at 88° and 92°. No error; and no rest angle or pre-bend
    alone where the angle is what turns a start posed away toward the pole."""
    drawn = (
        Fault("straight", "arm", 0),
        *(Fault(kind, "arm", amount) for kind, amount in turn),
        Fault("pose_rotation", "arm", pose),
    )
    judged = judge(drawn)
    assert judged.holds, "\n".join(judged.problems())
    assert {v.owner: v.state for v in judged.verdicts}["forearm.L"] == "pass"


@pytest.mark.parametrize(
    ("limb", "held", "roll", "angle", "fails"),
    [
        ("arm", ("ik_lock", 0), 130, 80, True),  # seed 337: 80° + 28°, a miss under warnings
        ("arm", ("ik_lock", 0), 20, 100, False),  # 100° - 51°: was called flipped, and landed
        ("leg", ("ik_lock", 3), 20, 80, True),  # a hinge on X: 80° + 16°
        ("leg", ("ik_lock", 3), 130, 100, False),  # 100° - 41°
        ("arm", ("ik_limit", 0), 130, 80, True),  # a zero-width limit holds as a lock
        ("leg", ("ik_limit", 6), 130, 80, True),  # ±6° of play: 80° + 22°
    ],
)
def test_a_lower_bone_held_to_fold_off_the_normal_turns_the_pole_angles_bend(
    limb, held, roll, angle, fails
) -> None:
    """Locked or narrowly limited on X (folding about Z), or locked on Y and Z (about X), a lower
    bone rolled off the bend plane's normal folds out of the plane and the limb's bend turns with
    it, adding to the pole angle's turn (``_hinge_turn``: 0.7 of the axis's angle, the least
    measured, less 1.6° per degree of a limit's play): past 90° the pole check's error, whose
    fix (the rest angle) lands it; turned back under 90°, a warning."""
    faults = (
        Fault(held[0], limb, held[1]),
        Fault("roll", limb, roll),
        Fault("pole_angle", limb, angle),
    )
    judged = judge(faults, fixes=True)
    assert judged.holds, "\n".join(judged.problems())
    owner = LIMBS[limb].owner
    (verdict,) = [v for v in judged.verdicts if v.owner == owner]
    (finding,) = [f for f in judged.findings if f.check_id == "pole" and f.bone == owner]
    assert verdict.fails == fails
    assert finding.severity == (Severity.ERROR if fails else Severity.WARNING)
    assert "held by its IK locks or limit" in finding.message


@pytest.mark.parametrize(
    ("held", "roll", "check"), [(("ik_lock", 3), 130, "roll"), (("ik_limit", 6), 20, "locks")]
)
def test_freeing_a_hold_that_turns_a_pole_angle_back_waits_for_the_angle(held, roll, check) -> None:
    """The leg held to fold about one axis, rolled off the normal, under a pole angle turned
    100°: the hold turns the bend back and the leg lands 50° to 59° from its pole. Rolled into
    line, or freed, first, it would bend 100° from its pole (a trade), so those fixes wait for
    the pole check's, which lands it."""
    faults = (
        Fault(held[0], "leg", held[1]),
        Fault("roll", "leg", roll),
        Fault("pole_angle", "leg", 100),
    )
    rig = faulted_rig(faults)
    (waiting,) = [f for f in diagnose(rig) if f.check_id == check and f.bone == "shin.L"]
    assert waiting.fix_id is None and "set the pole angle first" in (waiting.no_fix_reason or "")
    (angle,) = [f for f in diagnose(rig) if f.check_id == "pole" and f.bone == "shin.L"]
    assert run_fix(angle).changed
    assert [v.state for v in judge_chains(rig) if v.owner == "shin.L"] == ["pass"]
    (freed,) = [f for f in diagnose(rig) if f.check_id == check and f.bone == "shin.L"]
    assert freed.fix_id is not None
