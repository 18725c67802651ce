"""The transforms check: unapplied rotation and scale on the armature and on IK empties."""

from __future__ import annotations

import math

import bpy
import pytest
from mathutils import Matrix, Quaternion, Vector
from solving import assert_ik_works, findings_of

from ik_doctor import FixError, Severity, apply_fix, diagnose, run_fix
from ik_doctor.core.editing import edit_bones
from ik_doctor.verify.solve import evaluate


def _pose(rig) -> None:
    """A pose to keep: a moved foot control (the IK follows it) and a turned chest."""
    rig.pose.bones["foot_ik.L"].location = (0.05, 0.1, 0.0)
    rig.pose.bones["chest"].rotation_quaternion = Quaternion((0, 1, 0), math.radians(20))


def _world_state(rig) -> list[Vector]:
    """Everything that must not move: rest and posed bones, the skinned mesh, the IK targets."""
    evaluate(rig)
    world = rig.matrix_world
    points = []
    for bone in rig.data.bones:
        pose_bone = rig.pose.bones[bone.name]
        points += [world @ bone.head_local, world @ bone.tail_local]
        points += [world @ pose_bone.head, world @ pose_bone.tail]
    body = bpy.data.objects["IKDoctorRig_body"]
    evaluated = body.evaluated_get(bpy.context.evaluated_depsgraph_get())
    points += [body.matrix_world @ v.co for v in evaluated.data.vertices]
    points += [o.matrix_world.translation.copy() for o in bpy.data.objects if o.type == "EMPTY"]
    return points


def _assert_nothing_moved(before: list[Vector], after: list[Vector]) -> None:
    assert len(before) == len(after)
    worst = max((a - b).length for a, b in zip(before, after, strict=True))
    assert worst < 1e-4, f"moved by {worst}"


def _at_rest_after_fix(rig) -> bool:
    for pose_bone in rig.pose.bones:
        pose_bone.matrix_basis = Matrix()
    evaluate(rig)
    return all(
        (pb.head - rig.data.bones[pb.name].head_local).length < 1e-4 for pb in rig.pose.bones
    )


def _empty_targets(rig) -> tuple[bpy.types.Object, bpy.types.Object]:
    """Replace the left leg's control bones by empties, as many rigs do."""
    empties = []
    for bone in ("foot_ik.L", "knee_pole.L"):
        empty = bpy.data.objects.new(f"{bone}_empty", None)
        bpy.context.scene.collection.objects.link(empty)
        empty.matrix_world = rig.matrix_world @ Matrix.Translation(rig.data.bones[bone].head_local)
        empties.append(empty)
    ik = rig.pose.bones["shin.L"].constraints["IK"]
    ik.target, ik.subtarget = empties[0], ""
    ik.pole_target, ik.pole_subtarget = empties[1], ""
    return empties[0], empties[1]


@pytest.mark.parametrize(
    ("transform", "severity", "title"),
    [
        (
            lambda rig: setattr(rig, "rotation_euler", (0.3, 0.2, 1.0)),
            Severity.INFO,
            "Armature rotated",
        ),
        (lambda rig: setattr(rig, "scale", (2.0, 2.0, 2.0)), Severity.INFO, "Armature scaled"),
    ],
    ids=["rotation", "uniform_scale"],
)
def test_rotation_and_uniform_scale_are_info_and_applying_them_moves_nothing(
    rig, transform, severity, title
) -> None:
    transform(rig)
    rig.location = (1.0, 2.0, 0.5)
    _pose(rig)
    before = _world_state(rig)
    (finding,) = findings_of(rig, "transforms")
    assert (finding.bone, finding.severity, finding.title) == (None, severity, title)
    assert (finding.changes_rest_pose, finding.fix_id) == (True, "apply_armature")
    assert run_fix(finding).changed
    assert _is_unit(rig.matrix_basis)
    assert tuple(rig.location) == pytest.approx((1.0, 2.0, 0.5))
    _assert_nothing_moved(before, _world_state(rig))
    assert findings_of(rig, "transforms") == []
    assert_ik_works(rig)
    assert not run_fix(finding).changed
    assert _at_rest_after_fix(rig), "pole angles still leave every limb at rest"


@pytest.mark.parametrize(
    "scale", [(1.0, 1.0, 1.5), (-1.0, 1.0, 1.0)], ids=["non_uniform", "negative"]
)
def test_non_uniform_and_negative_scale_are_warnings_applied_without_moving(rig, scale) -> None:
    rig.scale = scale
    rig.rotation_euler = (0.0, 0.0, 0.4)
    before = _world_state(rig)
    (finding,) = findings_of(rig, "transforms")
    assert finding.severity == Severity.WARNING
    bpy.context.view_layer.objects.active = rig
    bpy.ops.object.mode_set(mode="POSE")
    apply_fix(finding)
    assert rig.mode == "POSE"
    assert _is_unit(rig.matrix_basis)
    _assert_nothing_moved(before, _world_state(rig))
    assert findings_of(rig, "transforms") == []
    assert_ik_works(rig)
    assert _at_rest_after_fix(rig)


def test_non_uniform_scale_with_a_pose_offers_no_fix(rig) -> None:
    rig.scale = (1.0, 1.0, 1.5)
    _pose(rig)
    (finding,) = findings_of(rig, "transforms")
    assert finding.fix_id is None and finding.stated["blocked_by"] == "posed"


def test_scaled_and_rotated_ik_empties_are_info_and_stay_where_they_are(rig) -> None:
    target, pole = _empty_targets(rig)
    target.rotation_euler = (0.5, 0.0, 0.0)
    target.scale = (1.0, 3.0, 1.0)
    pole.scale = (-2.0, 2.0, 2.0)
    child = bpy.data.objects.new("marker", None)
    bpy.context.scene.collection.objects.link(child)
    child.parent = target
    child.location = (0.1, 0.0, 0.0)
    before = _world_state(rig)
    found = findings_of(rig, "transforms")
    assert sorted((f.fix_id, f.severity) for f in found) == [
        ("apply_pole", Severity.INFO),
        ("apply_target", Severity.INFO),
    ]
    for finding in found:
        apply_fix(finding)
    assert _is_unit(target.matrix_basis) and _is_unit(pole.matrix_basis)
    _assert_nothing_moved(before, _world_state(rig))
    assert findings_of(rig, "transforms") == []
    assert_ik_works(rig, ["shin.L"])


def test_reference_rig_and_rigs_without_ik_are_quiet(scene) -> None:
    data = bpy.data.armatures.new("no_ik")
    obj = bpy.data.objects.new("no_ik", data)
    scene.collection.objects.link(obj)
    obj.scale = (2.0, 1.0, 1.0)
    bpy.context.view_layer.update()  # a new armature object has no pose until evaluated
    assert diagnose(obj, checks=["transforms"]) == []


def _is_unit(matrix: Matrix) -> bool:
    linear = matrix.to_3x3()
    return all(abs(linear[r][c] - (r == c)) < 1e-6 for r in range(3) for c in range(3))


def test_animated_rotation_or_scale_gets_no_fix(rig) -> None:
    target, _pole = _empty_targets(rig)
    target.scale = (2.0, 2.0, 2.0)
    target.keyframe_insert("scale", frame=1)
    target.keyframe_insert("location", frame=1)
    rig.rotation_euler = (0.0, 0.0, 0.5)
    rig.keyframe_insert("rotation_euler", frame=1)
    found = findings_of(rig, "transforms")
    assert len(found) == 2
    assert all(f.fix_id is None and f.stated["blocked_by"] == "animated" for f in found)


def test_keyed_target_location_is_kept_by_the_fix(rig) -> None:
    target, _pole = _empty_targets(rig)
    target.rotation_euler = (0.4, 0.0, 0.0)
    target.keyframe_insert("location", frame=1)
    (finding,) = findings_of(rig, "transforms")
    before = target.matrix_world.translation.copy()
    apply_fix(finding)
    bpy.context.scene.frame_set(1)
    assert (target.matrix_world.translation - before).length < 1e-6
    assert findings_of(rig, "transforms") == []


def test_zero_scale_is_not_applied_because_it_would_flatten_the_bones(rig) -> None:
    """Bug: with object scale (0, 1, 1) the fix changed an IK's pole angle (90° to 0) and
    flattened the bones: a zero scale cannot be applied without losing information."""
    rig.scale = (0.0, 1.0, 1.0)
    before = [bone.matrix_local.copy() for bone in rig.data.bones]
    (finding,) = findings_of(rig, "transforms")
    assert finding.severity == Severity.WARNING
    assert finding.fix_id is None and finding.stated["blocked_by"] == "zero_scale"
    with pytest.raises(FixError):
        apply_fix(finding)
    assert [bone.matrix_local for bone in rig.data.bones] == before
    assert tuple(rig.scale) == (0.0, 1.0, 1.0)


def test_applying_a_mirror_recomputes_the_pole_angles_of_both_arms(rig) -> None:
    """Every limb's IK is called 'IK': the fix must find each by its owner bone."""
    rig.scale = (-1.0, 1.0, 1.0)
    (finding,) = findings_of(rig, "transforms")
    # As the Scale fields read, not as the matrix decomposes (a half turn and -1 on every axis).
    assert finding.message.endswith("has a negative scale (-1, 1, 1).")
    angles = {name: _pole_angle(rig, name) for name in POLE_OWNERS}
    # It names every chain whose pole angle it may recompute: it changes their IK (the
    # property tests found it changing a bone it did not name).
    assert set(finding.args["poles_kept"]) == set(POLE_OWNERS)
    assert run_fix(finding).changed
    changed = {name for name in POLE_OWNERS if _pole_angle(rig, name) != angles[name]}
    assert changed == {"forearm.L", "forearm.R"}  # measured: -90° to +90°, the legs keep theirs
    assert findings_of(rig, "transforms") == []
    assert_ik_works(rig)


@pytest.mark.parametrize("owner", ["forearm.L", "shin.L"])
def test_applying_a_mirror_keeps_the_turn_a_pole_angle_gives_the_chain(rig, owner) -> None:
    """Once a trade (issue 25): the fix kept the angle's number, but the applied mirror flips
    what it means, so a chain turned from rest (60° here) was turned elsewhere, and a Damped
    Track at the pole turned back by 180° no longer landed. The angle now keeps the chain's
    turn, mirrored: solved, nothing moves in the world (the old fix moved a bone 0.042)."""
    rig.scale = (-1.0, 1.0, 1.0)
    rig.pose.bones[owner].constraints["IK"].pole_angle += math.radians(60)
    before = _world_state(rig)
    (finding,) = findings_of(rig, "transforms")
    assert run_fix(finding).changed
    _assert_nothing_moved(before, _world_state(rig))


@pytest.mark.parametrize(("owner", "turned"), [("forearm.L", True), ("shin.L", False)])
def test_applying_a_mirror_turns_one_sided_ik_limits_to_match(rig, owner, turned) -> None:
    """Once a trade: an elbow limited 0° to 150° under a scale of (-1, 1, 1) lands, and the
    applied mirror turned its folds the other way round: it could fold only away from its bend
    (the locks check's error). A turn about an axis that became its own mirror image runs the
    other way, so the fix turns that axis's limits to match; the knee, which bends about the
    mirror's own axis, keeps its limits. Solved, both limbs still land."""
    rig.scale = (-1.0, 1.0, 1.0)
    bone = rig.pose.bones[owner]
    bone.use_ik_limit_x, bone.ik_min_x, bone.ik_max_x = True, 0.0, math.radians(150)
    (finding,) = findings_of(rig, "transforms")
    assert finding.args["limits_mirrored"] == (owner,)
    result = run_fix(finding)
    assert (
        result.changed
        and (f"IK limits turned to match the mirror: {owner}" in result.sentence) == turned
    )
    limits = (-math.radians(150), 0.0) if turned else (0.0, math.radians(150))
    assert (bone.ik_min_x, bone.ik_max_x) == pytest.approx(limits)
    assert [f for f in diagnose(rig) if f.severity == Severity.ERROR] == []
    assert_ik_works(rig)


POLE_OWNERS = ("forearm.L", "forearm.R", "shin.L", "shin.R")


def _pole_angle(rig, owner: str) -> float:
    return rig.pose.bones[owner].constraints["IK"].pole_angle


def test_scale_that_would_shrink_a_bone_below_what_blender_keeps_is_not_applied(rig) -> None:
    """Bug: applying a scale of 0.01 left a short bone under 1e-6, and the next Edit Mode
    round trip (any later bone fix) deleted it."""
    with edit_bones(rig) as bones:
        tiny = bones.new("tiny")
        tiny.head, tiny.tail, tiny.parent = (0, 0, 1), (0, 0, 1.0005), bones["hips"]
    rig.scale = (0.01, 0.01, 0.01)
    (finding,) = findings_of(rig, "transforms")
    assert finding.fix_id is None and finding.stated["blocked_by"] == "tiny_bones"
    with pytest.raises(FixError):
        apply_fix(finding)
    assert "tiny" in rig.data.bones


def test_unmeasured_stretch_to_rest_length_stays_unmeasured(rig) -> None:
    """Bug: the fix's scene updates measured a Stretch To's rest length 0 ("measure on the
    next evaluation"), a change its sentence does not mention."""
    stretch = rig.pose.bones["neck"].constraints.new("STRETCH_TO")
    stretch.target, stretch.subtarget = rig, "head"
    assert stretch.rest_length == 0.0
    rig.scale = (2.0, 2.0, 2.0)
    (finding,) = findings_of(rig, "transforms")
    apply_fix(finding)
    assert stretch.rest_length == 0.0
    assert findings_of(rig, "transforms") == []
