"""A small, correct character rig built in code: the demo's patient and the tests' reference.

Legs and arms have two-bone IK with a control bone as target and a pole bone in the bend
plane, pole angles computed so nothing moves at rest, rolls that agree on the bend axis,
knees and elbows pre-bent, and a mesh skinned to the deform bones.
"""

from __future__ import annotations

import bpy
from mathutils import Vector

from .core.armature import armature_data, pose_of
from .core.editing import edit_bones
from .core.geometry import rest_pole_angle

# name: (head, tail, parent, connected, deforms); left side only, mirrored below. -Y is front.
_Point = tuple[float, float, float]
_Spec = tuple[_Point, _Point, str | None, bool, bool]
_BODY: dict[str, _Spec] = {
    "root": ((0, 0, 0), (0, 0.4, 0), None, False, False),
    "hips": ((0, 0, 1.0), (0, 0, 1.15), "root", False, True),
    "spine": ((0, 0, 1.15), (0, 0, 1.4), "hips", True, True),
    "chest": ((0, 0, 1.4), (0, 0, 1.6), "spine", True, True),
    "neck": ((0, 0, 1.6), (0, 0, 1.7), "chest", True, True),
    "head": ((0, 0, 1.7), (0, 0, 1.9), "neck", True, True),
}
_SIDE: dict[str, _Spec] = {
    "thigh": ((0.1, 0, 1.0), (0.1, -0.03, 0.55), "hips", False, True),
    "shin": ((0.1, -0.03, 0.55), (0.1, 0, 0.1), "thigh", True, True),
    "foot": ((0.1, 0, 0.1), (0.1, -0.15, 0.02), "shin", True, True),
    "shoulder": ((0.03, 0, 1.55), (0.17, 0, 1.55), "chest", False, True),
    "upper_arm": ((0.2, 0, 1.55), (0.45, 0.03, 1.55), "shoulder", False, True),
    "forearm": ((0.45, 0.03, 1.55), (0.7, 0, 1.55), "upper_arm", True, True),
    "hand": ((0.7, 0, 1.55), (0.8, 0, 1.55), "forearm", True, True),
    "foot_ik": ((0.1, 0, 0.1), (0.1, -0.15, 0.1), "root", False, False),
    "knee_pole": ((0.1, -0.6, 0.55), (0.1, -0.7, 0.55), "root", False, False),
    "hand_ik": ((0.7, 0, 1.55), (0.8, 0, 1.55), "root", False, False),
    "elbow_pole": ((0.45, 0.6, 1.55), (0.45, 0.7, 1.55), "root", False, False),
}
# (owner, target, pole, chain bones root first)
_LIMBS = (
    ("shin", "foot_ik", "knee_pole", ("thigh", "shin")),
    ("forearm", "hand_ik", "elbow_pole", ("upper_arm", "forearm")),
)


def _layout() -> dict[str, tuple[Vector, Vector, str | None, bool, bool]]:
    layout: dict[str, tuple[Vector, Vector, str | None, bool, bool]] = {}
    for name, (head, tail, parent, connect, deform) in _BODY.items():
        layout[name] = (Vector(head), Vector(tail), parent, connect, deform)
    for side, sign in (("L", 1.0), ("R", -1.0)):
        for name, (head, tail, parent, connect, deform) in _SIDE.items():
            mirror = Vector((sign, 1.0, 1.0))
            if parent in _SIDE:
                parent = f"{parent}.{side}"
            layout[f"{name}.{side}"] = (
                Vector(head) * mirror,
                Vector(tail) * mirror,
                parent,
                connect,
                deform,
            )
    return layout


def build_character_rig(
    name: str = "IKDoctorRig",
    with_mesh: bool = True,
    collection: bpy.types.Collection | None = None,
) -> bpy.types.Object:
    """Create the reference rig and return its armature object.

    The rig and its mesh go into ``collection``, or the current scene's master collection.
    """
    collection = collection or _current_scene().collection
    data = bpy.data.armatures.new(name)
    obj = bpy.data.objects.new(name, data)
    collection.objects.link(obj)
    layout = _layout()
    with edit_bones(obj) as bones:
        for bone_name, (head, tail, _parent, _connect, deform) in layout.items():
            bone = bones.new(bone_name)
            bone.head, bone.tail, bone.use_deform = head, tail, deform
        for bone_name, (_head, _tail, parent, connect, _deform) in layout.items():
            if parent:
                bones[bone_name].parent = bones[parent]
                bones[bone_name].use_connect = connect
        for side in ("L", "R"):
            for _owner, _target, _pole, chain in _LIMBS:
                _align_rolls_to_bend_plane(bones, [f"{b}.{side}" for b in chain])
    for side in ("L", "R"):
        for owner, target, pole, chain in _LIMBS:
            _add_ik(obj, f"{owner}.{side}", f"{target}.{side}", f"{pole}.{side}", len(chain))
    if with_mesh:
        _add_skinned_mesh(obj, [n for n, spec in layout.items() if spec[4]], collection)
    return obj


def _current_scene() -> bpy.types.Scene:
    """The context's scene: Blender always has one, headless too, though the stubs make it
    optional."""
    scene = bpy.context.scene
    assert scene is not None
    return scene


def _align_rolls_to_bend_plane(bones: bpy.types.ArmatureEditBones, chain: list[str]) -> None:
    """Give every chain bone the bend plane's normal as its X axis, so the limb bends on X."""
    root, tip = bones[chain[0]].head, bones[chain[-1]].tail
    joint = bones[chain[1]].head
    normal = (joint - root).cross(tip - joint).normalized()
    for name in chain:
        bone = bones[name]
        bone.align_roll(normal.cross(bone.vector.normalized()))


def _add_ik(obj: bpy.types.Object, owner: str, target: str, pole: str, count: int) -> None:
    bones = armature_data(obj).bones
    owner_bone = pose_of(obj).bones[owner]
    root = bones[owner_bone.parent_recursive[count - 2].name]
    constraint = owner_bone.constraints.new("IK")
    assert isinstance(constraint, bpy.types.KinematicConstraint)
    constraint.name = "IK"
    constraint.target, constraint.subtarget = obj, target
    constraint.pole_target, constraint.pole_subtarget = obj, pole
    constraint.chain_count = count
    constraint.pole_angle = rest_pole_angle(
        root.head_local,
        root.matrix_local.col[0].xyz,
        root.matrix_local.col[1].xyz,
        bones[owner].tail_local,
        bones[pole].head_local,
    )


def _add_skinned_mesh(
    obj: bpy.types.Object, deform_bones: list[str], collection: bpy.types.Collection
) -> bpy.types.Object:
    """A mesh with a small triangle at each deform bone, weighted fully to that bone."""
    bones = armature_data(obj).bones
    vertices: list[Vector] = []
    faces: list[tuple[int, int, int]] = []
    for name in deform_bones:
        head, tail = bones[name].head_local, bones[name].tail_local
        side = bones[name].matrix_local.col[0].xyz * 0.03
        start = len(vertices)
        vertices += [head + side, (head + tail) / 2, tail - side]
        faces.append((start, start + 1, start + 2))
    mesh = bpy.data.meshes.new(f"{obj.name}_body")
    mesh.from_pydata([v.to_tuple() for v in vertices], [], faces)
    body = bpy.data.objects.new(f"{obj.name}_body", mesh)
    collection.objects.link(body)
    body.parent = obj
    for index, name in enumerate(deform_bones):
        group = body.vertex_groups.new(name=name)
        group.add([3 * index, 3 * index + 1, 3 * index + 2], 1.0, "REPLACE")
    deform = body.modifiers.new("Armature", "ARMATURE")
    assert isinstance(deform, bpy.types.ArmatureModifier)
    deform.object = obj
    return body
