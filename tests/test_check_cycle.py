"""The cycle check: a target or pole that hangs from, or follows, a bone of its own chain."""

from __future__ import annotations

import bpy
import pytest
from mathutils import Matrix
from solving import assert_ik_works, findings_of, pose_snapshot, tip_error

from ik_doctor import Severity, apply_fix, run_fix
from ik_doctor.core.editing import edit_bones
from ik_doctor.verify.oracle import judge_chains


def _reparent(rig: bpy.types.Object, bone: str, parent: str) -> None:
    with edit_bones(rig) as bones:
        bones[bone].parent = bones[parent]


def _fix_and_prove(rig: bpy.types.Object, finding) -> None:
    assert run_fix(finding).changed
    assert findings_of(rig, "cycle") == []
    assert_ik_works(rig, ["shin.L"])
    assert not run_fix(finding).changed


def test_knee_pole_parented_to_the_thigh_is_a_cycle(rig) -> None:
    _reparent(rig, "knee_pole.L", "thigh.L")
    rest_head = rig.data.bones["knee_pole.L"].head_local.copy()
    (finding,) = findings_of(rig, "cycle")
    assert (finding.bone, finding.severity) == ("shin.L", Severity.WARNING)
    assert finding.stated["control"] == (rig.name, "knee_pole.L")
    assert finding.stated["chain_bone"] == "thigh.L"
    assert finding.fix_id == "reparent_pole" and not finding.needs_confirmation
    before = pose_snapshot(rig)
    _fix_and_prove(rig, finding)
    assert rig.data.bones["knee_pole.L"].parent.name == "root"
    assert (rig.data.bones["knee_pole.L"].head_local - rest_head).length < 1e-6
    after = pose_snapshot(rig)
    assert {n for n in before if before[n] != after[n]} == {"knee_pole.L"}


def test_foot_control_below_the_foot_is_a_cycle_that_misses(rig) -> None:
    _reparent(rig, "foot_ik.L", "foot.L")  # further down: foot.L is the shin's child
    (finding,) = findings_of(rig, "cycle")
    assert (finding.fix_id, finding.severity) == ("reparent_target", Severity.ERROR)
    assert finding.stated["chain_bone"] == "shin.L"
    _fix_and_prove(rig, finding)
    assert rig.data.bones["foot_ik.L"].parent.name == "root"


@pytest.mark.parametrize("parent", ["shin.L", "thigh.L"])
def test_foot_control_parented_straight_into_the_leg_is_an_error_the_oracle_confirms(
    rig, parent
) -> None:
    _reparent(rig, "foot_ik.L", parent)
    (finding,) = findings_of(rig, "cycle")
    assert (finding.fix_id, finding.severity) == ("reparent_target", Severity.ERROR)
    (verdict,) = [v for v in judge_chains(rig) if v.owner == "shin.L"]
    assert verdict.fails, verdict.reason
    _fix_and_prove(rig, finding)
    assert [v.state for v in judge_chains(rig) if v.owner == "shin.L"] == ["pass"]


def test_posed_control_keeps_its_world_position_when_reparented(rig) -> None:
    _reparent(rig, "knee_pole.L", "thigh.L")
    rig.pose.bones["knee_pole.L"].location = (0.05, 0.0, 0.02)
    bpy.context.view_layer.update()
    posed = (rig.matrix_world @ rig.pose.bones["knee_pole.L"].head).copy()
    apply_fix(findings_of(rig, "cycle")[0])
    bpy.context.view_layer.update()
    assert (rig.matrix_world @ rig.pose.bones["knee_pole.L"].head - posed).length < 1e-5


def test_child_of_constraint_to_the_thigh_carries_the_target_and_muting_asks_first(rig) -> None:
    child_of = rig.pose.bones["foot_ik.L"].constraints.new("CHILD_OF")
    child_of.target, child_of.subtarget = rig, "thigh.L"
    bpy.context.view_layer.update()
    held = rig.pose.bones["foot_ik.L"].matrix.copy()
    (finding,) = findings_of(rig, "cycle")
    assert finding.fix_id == "mute_target_link" and finding.needs_confirmation
    assert finding.severity == Severity.ERROR, "the thigh carries the control away"
    assert finding.args["constraint"] == child_of.name
    _fix_and_prove(rig, finding)
    assert child_of.mute
    bpy.context.view_layer.update()
    assert (rig.pose.bones["foot_ik.L"].matrix.translation - held.translation).length < 1e-5


def test_empty_target_parented_to_the_shin_is_reparented_in_place(rig) -> None:
    goal = bpy.data.objects.new("FootGoal", None)
    bpy.context.scene.collection.objects.link(goal)
    goal.parent, goal.parent_type, goal.parent_bone = rig, "BONE", "shin.L"
    bpy.context.view_layer.update()
    goal.matrix_world = Matrix.Translation(rig.data.bones["shin.L"].tail_local)
    ik = rig.pose.bones["shin.L"].constraints["IK"]
    ik.target, ik.subtarget = goal, ""
    bpy.context.view_layer.update()
    assert tip_error(rig, "shin.L") > 0.1
    bpy.context.view_layer.update()
    where = goal.matrix_world.translation.copy()
    (finding,) = findings_of(rig, "cycle")
    assert finding.stated["control"] == ("FootGoal", "") and finding.severity == Severity.ERROR
    _fix_and_prove(rig, finding)
    bpy.context.view_layer.update()
    assert goal.parent_bone == "root"
    assert (goal.matrix_world.translation - where).length < 1e-5


def test_helper_bone_with_child_of_the_shin_drags_the_foot_control(rig) -> None:
    with edit_bones(rig) as bones:
        helper = bones.new("foot_space.L")
        helper.head, helper.tail = bones["foot_ik.L"].head, bones["foot_ik.L"].tail
        helper.parent, helper.use_deform = bones["root"], False
        bones["foot_ik.L"].parent = helper
    child_of = rig.pose.bones["foot_space.L"].constraints.new("CHILD_OF")
    child_of.target, child_of.subtarget = rig, "shin.L"
    assert tip_error(rig, "shin.L") > 0.1
    (finding,) = findings_of(rig, "cycle")
    assert (finding.fix_id, finding.severity) == ("reparent_target", Severity.ERROR)
    _fix_and_prove(rig, finding)


def test_control_of_a_rig_without_a_top_bone_is_unparented(scene) -> None:
    obj = bpy.data.objects.new("arm", bpy.data.armatures.new("arm"))
    scene.collection.objects.link(obj)
    with edit_bones(obj) as bones:
        upper = bones.new("upper")
        upper.head, upper.tail = (0, 0, 1), (0, -0.05, 0.5)
        lower = bones.new("lower")
        lower.head, lower.tail, lower.parent = (0, -0.05, 0.5), (0, 0, 0), upper
        lower.use_connect = True
        goal = bones.new("goal")
        goal.head, goal.tail, goal.parent = (0, 0, 0), (0, 0, -0.1), lower
    ik = obj.pose.bones["lower"].constraints.new("IK")
    ik.target, ik.subtarget, ik.chain_count = obj, "goal", 2
    (finding,) = findings_of(obj, "cycle")
    assert (finding.fix_id, finding.fix_args) == (
        "reparent_target",
        (("parent", None), ("control", "goal")),
    )
    assert run_fix(finding).changed
    assert obj.data.bones["goal"].parent is None
    assert obj.data.bones["goal"].head_local.length < 1e-6
    assert findings_of(obj, "cycle") == []
    assert_ik_works(obj)


def test_target_that_is_a_chain_bone_is_left_to_the_target_check(rig) -> None:
    rig.pose.bones["shin.L"].constraints["IK"].subtarget = "thigh.L"
    assert findings_of(rig, "cycle") == []
    assert findings_of(rig, "target") != []


def test_reference_rig_has_no_cycle(rig) -> None:
    assert findings_of(rig, "cycle") == []


def _constrain_foot_control(rig, kind: str, subtarget: str, head_tail: float = 0.0):
    constraint = rig.pose.bones["foot_ik.L"].constraints.new(kind)
    constraint.target, constraint.subtarget = rig, subtarget
    if hasattr(constraint, "head_tail"):
        constraint.head_tail = head_tail
    return constraint


@pytest.mark.parametrize(
    ("kind", "subtarget", "head_tail"),
    [
        ("LIMIT_DISTANCE", "thigh.L", 0.0),  # keeps the foot within reach of the hip joint
        ("COPY_ROTATION", "thigh.L", 0.0),
        ("DAMPED_TRACK", "thigh.L", 0.0),
    ],
)
def test_a_control_reading_only_the_roots_head_or_turned_by_the_chain_is_no_cycle(
    rig, kind: str, subtarget: str, head_tail: float
) -> None:
    """The solver turns the thigh about its head and reads the foot control's place alone."""
    _constrain_foot_control(rig, kind, subtarget, head_tail)
    assert [v.state for v in judge_chains(rig) if v.owner == "shin.L"] == ["pass"]
    assert findings_of(rig, "cycle") == []


@pytest.mark.parametrize(
    ("kind", "subtarget", "head_tail"),
    [("LIMIT_DISTANCE", "thigh.L", 1.0), ("LIMIT_DISTANCE", "shin.L", 0.0)],
)
def test_a_control_kept_near_the_knee_is_still_a_cycle(
    rig, kind: str, subtarget: str, head_tail: float
) -> None:
    """The thigh's tail and the shin's head are the knee, which the solver moves with the thigh."""
    _constrain_foot_control(rig, kind, subtarget, head_tail)
    (finding,) = findings_of(rig, "cycle")
    assert (finding.severity, finding.stated["chain_bone"]) == (Severity.ERROR, "thigh.L")


def test_a_control_turned_by_the_chain_is_a_cycle_when_the_ik_follows_its_rotation(rig) -> None:
    _constrain_foot_control(rig, "COPY_ROTATION", "thigh.L")
    rig.pose.bones["shin.L"].constraints["IK"].use_rotation = True
    (finding,) = findings_of(rig, "cycle")
    assert finding.stated["chain_bone"] == "thigh.L"
