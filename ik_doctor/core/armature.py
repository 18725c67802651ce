"""Typed access to an armature object's data and pose, for the type checker and for people.

The ``bpy`` stubs type ``Object.data`` as a union of every kind of data and ``Object.pose`` as
optional. For an armature object (``require_armature``) that has been evaluated once (a new one
has no pose until then, and ``diagnose`` returns early) both are known: these say which, and
fail loudly if that ever stops being true.
"""

from __future__ import annotations

import bpy

from .names import named


def armature_data(obj: bpy.types.Object) -> bpy.types.Armature:
    data = obj.data
    assert isinstance(data, bpy.types.Armature), f"'{obj.name}' is not an armature"
    return data


def pose_of(obj: bpy.types.Object) -> bpy.types.Pose:
    pose = obj.pose
    assert pose is not None, f"'{obj.name}' has no pose until it is evaluated once"
    return pose


def pose_bone_of(obj: bpy.types.Object, name: str) -> bpy.types.PoseBone:
    """A pose bone of an evaluated armature by its name as IK Doctor reads it (``names``)."""
    pose_bone: bpy.types.PoseBone = named(pose_of(obj).bones, name)
    return pose_bone
