"""Diagnose and fix from wherever the user is: any mode, the rig hidden, excluded or not active.

A fix that needs edit bones borrows Edit Mode; afterwards the user must find the same mode, the
same active object (in its own mode), the same selection and the same visibility.
"""

from __future__ import annotations

from collections.abc import Callable

import bpy
import pytest
from solving import assert_ik_works, findings_of

from ik_doctor import diagnose, run_fix
from ik_doctor.sample_rig import build_character_rig


def _user_context(rig: bpy.types.Object) -> dict:
    """What the user sees: modes, active object, selection, visibility, collections."""
    view_layer = bpy.context.view_layer
    active = view_layer.objects.active
    return {
        "rig mode": rig.mode,
        "active": (active.name, active.mode) if active else None,
        "selected": sorted(o.name for o in view_layer.objects if o.select_get()),
        "visible": sorted(o.name for o in view_layer.objects if o.visible_get()),
        "hidden": (rig.hide_viewport, rig.name in view_layer.objects and rig.hide_get()),
        "collections": sorted(c.name for c in rig.users_collection),
        "view layer": sorted(o.name for o in view_layer.objects),
    }


@pytest.fixture
def broken_rig(scene: bpy.types.Scene) -> bpy.types.Object:
    """The reference rig, in its own collection, with the left leg's IK target removed."""
    collection = bpy.data.collections.new("Character")
    scene.collection.children.link(collection)
    rig = build_character_rig(collection=collection)
    rig.pose.bones["shin.L"].constraints["IK"].target = None
    bpy.context.view_layer.update()
    return rig


def _fix_the_missing_target(rig: bpy.types.Object) -> None:
    """Diagnose, apply the target fix (it edits bones), and check the fix took."""
    (finding,) = [f for f in diagnose(rig) if f.check_id == "target"]
    context = _user_context(rig)
    assert run_fix(finding).changed
    assert _user_context(rig) == context
    bones = rig.data.edit_bones if rig.mode == "EDIT" else rig.data.bones
    assert "IK-shin.L" in bones
    assert not findings_of(rig, "target")


def _select_only(obj: bpy.types.Object) -> None:
    for other in bpy.context.view_layer.objects:
        other.select_set(False)
    obj.select_set(True)
    bpy.context.view_layer.objects.active = obj


@pytest.mark.parametrize("mode", ["OBJECT", "POSE", "EDIT"])
def test_fix_from_each_mode_keeps_mode_selection_and_active(broken_rig, mode) -> None:
    _select_only(broken_rig)
    bpy.ops.object.mode_set(mode=mode)
    _fix_the_missing_target(broken_rig)
    bpy.ops.object.mode_set(mode="OBJECT")
    assert_ik_works(broken_rig, owners=["shin.L"])


def test_edit_mode_fix_keeps_the_users_unsaved_bone_edits(broken_rig) -> None:
    _select_only(broken_rig)
    bpy.ops.object.mode_set(mode="EDIT")
    broken_rig.data.edit_bones["head"].tail.z += 0.1
    edited = broken_rig.data.edit_bones["head"].tail.z
    _fix_the_missing_target(broken_rig)
    assert broken_rig.data.edit_bones["head"].tail.z == pytest.approx(edited)


def _hide(rig: bpy.types.Object) -> None:
    rig.hide_set(True)


def _disable_in_viewports(rig: bpy.types.Object) -> None:
    rig.hide_viewport = True


def _hide_collection(rig: bpy.types.Object) -> None:
    bpy.context.view_layer.layer_collection.children["Character"].hide_viewport = True


def _disable_collection(rig: bpy.types.Object) -> None:
    bpy.data.collections["Character"].hide_viewport = True


def _exclude_collection(rig: bpy.types.Object) -> None:
    bpy.context.view_layer.layer_collection.children["Character"].exclude = True


def _unlink_from_scene(rig: bpy.types.Object) -> None:
    bpy.context.scene.collection.children.unlink(bpy.data.collections["Character"])


def _mesh_active(rig: bpy.types.Object) -> None:
    _select_only(bpy.data.objects["IKDoctorRig_body"])


def _other_armature_in_pose_mode(rig: bpy.types.Object) -> None:
    other = bpy.data.objects.new("Other", bpy.data.armatures.new("Other"))
    bpy.context.scene.collection.objects.link(other)
    _select_only(other)
    bpy.ops.object.mode_set(mode="POSE")


def _mesh_in_edit_mode(rig: bpy.types.Object) -> None:
    mesh = bpy.data.meshes.new("Prop")
    mesh.from_pydata([(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0)], [], [(0, 1, 2)])
    prop = bpy.data.objects.new("Prop", mesh)
    bpy.context.scene.collection.objects.link(prop)
    _select_only(prop)
    bpy.ops.object.mode_set(mode="EDIT")


def _nothing_active(rig: bpy.types.Object) -> None:
    bpy.context.view_layer.objects.active = None


SITUATIONS: list[Callable[[bpy.types.Object], None]] = [
    _hide,
    _disable_in_viewports,
    _hide_collection,
    _disable_collection,
    _exclude_collection,
    _unlink_from_scene,
    _mesh_active,
    _other_armature_in_pose_mode,
    _mesh_in_edit_mode,
    _nothing_active,
]


@pytest.mark.parametrize("situation", SITUATIONS, ids=lambda f: f.__name__.strip("_"))
def test_fix_works_and_restores_the_context(broken_rig, situation) -> None:
    situation(broken_rig)
    bpy.context.view_layer.update()
    _fix_the_missing_target(broken_rig)


def test_rig_in_pose_mode_but_not_active_is_fixed_and_stays_in_pose_mode(broken_rig) -> None:
    _select_only(broken_rig)
    bpy.ops.object.mode_set(mode="POSE")
    _mesh_active(broken_rig)  # the rig keeps Pose Mode while a mesh becomes active
    assert broken_rig.mode == "POSE"
    _fix_the_missing_target(broken_rig)


def test_excluded_rig_is_put_back_in_its_collection_only(broken_rig) -> None:
    _exclude_collection(broken_rig)
    _fix_the_missing_target(broken_rig)
    assert [c.name for c in broken_rig.users_collection] == ["Character"]
    assert broken_rig.name not in bpy.context.view_layer.objects
    assert broken_rig.name not in bpy.context.scene.collection.objects
