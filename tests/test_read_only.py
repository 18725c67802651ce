"""Rigs the user cannot change here: linked, overridden, or sharing their armature with another.

Checks must run on them (a lead wants to know why a linked character's IK fails); fixes must
refuse with a reason the user can act on and leave everything as it was. For armature data shared
by two objects, a fix that reaches both alike (a new control, a constraint of the object's own)
acts; one that moves bones refuses, since the other user's constraints would not follow.
"""

from __future__ import annotations

from pathlib import Path

import bpy
import pytest
from rig_generation import rig_state, state_differences
from solving import assert_ik_works

from ik_doctor import FixError, apply_fix, diagnose
from ik_doctor.sample_rig import build_character_rig

BROKEN = {"target", "chain_length"}


def _break(rig: bpy.types.Object) -> None:
    """Two faults whose fixes touch different things: a new bone, and a constraint setting."""
    rig.pose.bones["shin.L"].constraints["IK"].target = None
    rig.pose.bones["forearm.R"].constraints["IK"].chain_count = 1


@pytest.fixture
def library(scene: bpy.types.Scene, tmp_path: Path) -> Path:
    """A saved file whose "Character" collection holds the broken reference rig and its mesh."""
    collection = bpy.data.collections.new("Character")
    scene.collection.children.link(collection)
    rig = build_character_rig(collection=collection)
    _break(rig)
    path = tmp_path / "character.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(path))
    bpy.ops.wm.read_homefile(use_empty=True)
    return path


def _link_collection(path: Path) -> bpy.types.Collection:
    with bpy.data.libraries.load(str(path), link=True) as (_source, linked):
        linked.collections = ["Character"]
    collection = linked.collections[0]
    bpy.context.scene.collection.children.link(collection)
    return collection


def _assert_diagnosed_but_every_fix_refused(rig: bpy.types.Object, cause: str) -> None:
    findings = [f for f in diagnose(rig) if f.check_id in BROKEN]
    assert {f.check_id for f in findings} == BROKEN
    before = rig_state(rig)
    for finding in findings:
        with pytest.raises(FixError) as refused:
            apply_fix(finding)
        assert refused.value.cause == cause
    assert not state_differences(before, rig_state(rig))


def test_linked_rig_is_diagnosed_and_fixes_say_to_fix_the_library(library) -> None:
    collection = _link_collection(library)
    rig = collection.objects["IKDoctorRig"]
    assert rig.library is not None
    _assert_diagnosed_but_every_fix_refused(rig, "linked")


def test_local_object_with_linked_armature_data_refuses_fixes(library) -> None:
    with bpy.data.libraries.load(str(library), link=True) as (_source, linked):
        linked.armatures = ["IKDoctorRig"]
    rig = bpy.data.objects.new("LocalRig", linked.armatures[0])
    bpy.context.scene.collection.objects.link(rig)
    bpy.context.view_layer.update()  # builds the new object's pose
    rig.pose.bones["shin.L"].constraints.new("IK").chain_count = 2
    findings = [f for f in diagnose(rig) if f.check_id == "target"]
    assert findings, "the local object's own IK without a target is found"
    before = rig_state(rig)
    with pytest.raises(FixError) as refused:
        apply_fix(findings[0])
    assert refused.value.cause == "linked" and rig.library is None  # its data is
    assert not state_differences(before, rig_state(rig))


def test_library_override_is_diagnosed_and_fixes_say_it_is_an_override(library) -> None:
    collection = _link_collection(library)
    scene, view_layer = bpy.context.scene, bpy.context.view_layer
    override = collection.override_hierarchy_create(scene, view_layer)
    scene.collection.children.unlink(collection)
    rig = override.objects["IKDoctorRig"]
    assert rig.override_library is not None
    _assert_diagnosed_but_every_fix_refused(rig, "override")


def test_object_override_alone_is_diagnosed_and_refused(library) -> None:
    with bpy.data.libraries.load(str(library), link=True) as (_source, linked):
        linked.objects = ["IKDoctorRig"]
    bpy.context.scene.collection.objects.link(linked.objects[0])
    # Blender 5 overrides only IDs a scene uses; the override replaces the linked object there.
    rig = linked.objects[0].override_create(remap_local_usages=True)
    assert rig.override_library is not None
    _assert_diagnosed_but_every_fix_refused(rig, "override")


@pytest.fixture
def two_users(rig: bpy.types.Object) -> tuple[bpy.types.Object, bpy.types.Object]:
    """The reference rig and a second object sharing its armature data (a crowd duplicate)."""
    twin = rig.copy()  # shares rig.data; the pose and its constraints are the twin's own
    twin.name = "Twin"
    bpy.context.scene.collection.objects.link(twin)
    twin.location.x += 2.0
    bpy.context.view_layer.update()
    return rig, twin


def test_shared_armature_fix_adding_a_bone_reaches_both_users(two_users) -> None:
    rig, twin = two_users
    rig.pose.bones["shin.L"].constraints["IK"].target = None
    twin_constraints = rig_state(twin)["pose"]
    (finding,) = [f for f in diagnose(rig) if f.check_id == "target"]
    apply_fix(finding)
    assert "IK-shin.L" in twin.pose.bones, "the twin's pose gains the new bone's channel"
    after = rig_state(twin)["pose"]
    for name, pose in twin_constraints.items():
        assert not state_differences(pose["constraints"], after[name]["constraints"]), name
    assert not [f for f in diagnose(twin) if f.severity != "info"]
    assert_ik_works(rig)
    assert_ik_works(twin)


def test_shared_armature_constraint_fix_changes_only_that_object(two_users) -> None:
    rig, twin = two_users
    _break(rig)
    _break(twin)
    (finding,) = [f for f in diagnose(rig) if f.check_id == "chain_length"]
    apply_fix(finding)
    assert rig.pose.bones["forearm.R"].constraints["IK"].chain_count == 2
    assert twin.pose.bones["forearm.R"].constraints["IK"].chain_count == 1
    assert [f.bone for f in diagnose(twin) if f.check_id == "chain_length"] == ["forearm.R"]


def test_shared_armature_fix_while_the_other_user_is_in_pose_mode(two_users) -> None:
    rig, twin = two_users
    _break(rig)
    bpy.context.view_layer.objects.active = twin
    bpy.ops.object.mode_set(mode="POSE")
    (finding,) = [f for f in diagnose(rig) if f.check_id == "target"]
    apply_fix(finding)
    assert (bpy.context.view_layer.objects.active, twin.mode, rig.mode) == (twin, "POSE", "OBJECT")
    assert "IK-shin.L" in twin.data.bones


def test_shared_armature_fix_moving_bones_refuses_and_changes_neither_user(two_users) -> None:
    """Applying one copy's scale would scale the other's bones too (measured: its hand moved
    1.7); rolling the bones would leave the other's pole angles unmatched."""
    rig, twin = two_users
    rig.scale = (2.0, 2.0, 2.0)
    bpy.context.view_layer.update()
    before = {obj.name: rig_state(obj) for obj in two_users}
    (finding,) = [f for f in diagnose(rig) if f.check_id == "transforms"]
    with pytest.raises(FixError) as refused:
        apply_fix(finding)
    assert refused.value.cause == "shared" and "'Twin'" in str(refused.value)
    for obj in two_users:
        assert not state_differences(before[obj.name], rig_state(obj)), obj.name
    twin.data = twin.data.copy()  # Make Single User: now it is this rig's own
    apply_fix(finding)
    assert_ik_works(rig)


def test_an_armature_scaled_to_zero_refuses_every_fix_and_changes_nothing(rig) -> None:
    """Its bones collapse, and Blender crashed evaluating such a rig under iTaSC after a chain
    length fix (found by the long property run): nothing is changed until it has a scale."""
    rig.pose.bones["shin.L"].constraints["IK"].mute = True
    rig.pose.ik_solver = "ITASC"
    rig.scale = (1.0, 0.0, 1.0)
    bpy.context.view_layer.update()
    fixable = [f for f in diagnose(rig) if f.fix_id is not None]
    assert fixable
    before = rig_state(rig)
    for finding in fixable:
        with pytest.raises(FixError) as refused:
            apply_fix(finding)
        assert refused.value.cause == "collapsed"
    assert not state_differences(before, rig_state(rig))
