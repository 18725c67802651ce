"""Export faults built on the reference rig walking its left foot (``key_walk``): each is a
complaint met in game exporters' trackers, made small enough to export in a second.

``tests/test_scan_export_faults.py`` proves the scan finds those the export shows, and
``benchmarks/export_table.py`` measures every one of them with each exporter.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import bpy
from mathutils import Euler, Vector
from test_scan_animation import FRAMES, key_walk


def key_wave(rig: bpy.types.Object, name: str = "Wave") -> bpy.types.Action:
    """Key hand_ik.L rising and falling over frames 1-12, as the active action."""
    animation = rig.animation_data or rig.animation_data_create()
    animation.action = bpy.data.actions.new(name)
    control = rig.pose.bones["hand_ik.L"]
    for frame in FRAMES:
        control.location = (0.0, 0.0, 0.2 * math.sin(2.0 * math.pi * (frame - 1) / len(FRAMES)))
        control.keyframe_insert("location", frame=frame)
    control.location = (0.0, 0.0, 0.0)
    return animation.action


def walk_in_nla_under_wave(rig: bpy.types.Object) -> None:
    """The walk pushed down to an NLA strip, the wave keyed as the active action over it."""
    walk = key_walk(rig)
    rig.animation_data.nla_tracks.new().strips.new(walk.name, 1, walk)
    key_wave(rig)


def walk_in_nla_only(rig: bpy.types.Object) -> None:
    """The walk plays from an NLA strip alone, with no active action."""
    walk = key_walk(rig)
    rig.animation_data.nla_tracks.new().strips.new(walk.name, 1, walk)
    rig.animation_data.action = None


def walk_in_a_slowed_nla_strip(rig: bpy.types.Object) -> None:
    """The walk plays from an NLA strip alone, scaled 2: frames 1-23 in Blender's timeline."""
    walk_in_nla_only(rig)
    rig.animation_data.nla_tracks[0].strips[0].scale = 2.0


def thigh_scaled_unevenly(rig: bpy.types.Object) -> None:
    """The walk with thigh.L scaled 1.6 on Z: the shin bending under it is sheared."""
    key_walk(rig)
    rig.pose.bones["thigh.L"].scale = (1.0, 1.0, 1.6)


def thigh_scaled_evenly(rig: bpy.types.Object) -> None:
    """The walk with thigh.L scaled 1.6 on every axis: no shear."""
    key_walk(rig)
    rig.pose.bones["thigh.L"].scale = (1.6, 1.6, 1.6)


def thigh_scale_keyed_unevenly(rig: bpy.types.Object) -> None:
    """The walk with thigh.L's scale keyed from 1 to 1.8 on Z."""
    key_walk(rig)
    thigh = rig.pose.bones["thigh.L"]
    for frame, z in ((FRAMES[0], 1.0), (FRAMES[-1], 1.8)):
        thigh.scale = (1.0, 1.0, z)
        thigh.keyframe_insert("scale", frame=frame)


def _foot_target_empty(rig: bpy.types.Object) -> bpy.types.Object:
    """An Empty at foot_ik.L, keyed as key_walk keys the bone, made the leg's IK target."""
    empty = bpy.data.objects.new("FootTarget", None)
    bpy.context.scene.collection.objects.link(empty)
    bpy.context.view_layer.update()
    empty.matrix_world = rig.matrix_world @ rig.pose.bones["foot_ik.L"].matrix
    ik = rig.pose.bones["shin.L"].constraints["IK"]
    ik.target, ik.subtarget = empty, ""
    rest = empty.location.copy()
    for frame in FRAMES:
        phase = 2.0 * math.pi * (frame - 1) / len(FRAMES)
        empty.location = rest + Vector((0.0, -0.2 * math.sin(phase), 0.25 + 0.1 * math.cos(phase)))
        empty.keyframe_insert("location", frame=frame)
    return empty


def target_in_an_empty_waving(rig: bpy.types.Object) -> None:
    """The leg's target is an Empty walking on its own action; the armature plays the wave."""
    _foot_target_empty(rig)
    key_wave(rig)


def target_in_an_empty_only(rig: bpy.types.Object) -> None:
    """The leg's target is an Empty walking; the armature has no action of its own."""
    _foot_target_empty(rig)
    bpy.context.scene.frame_start, bpy.context.scene.frame_end = FRAMES[0], FRAMES[-1]


def deform_bones_under_a_moving_control(rig: bpy.types.Object) -> None:
    """The walk with the root (a control bone the deforming hips hang from) keyed moving and
    turning: an export of the deform bones only must carry its motion into the hips."""
    key_walk(rig)
    root = rig.pose.bones["root"]
    for frame in FRAMES:
        root.location = (0.0, 0.03 * (frame - 1), 0.0)
        root.rotation_quaternion = Euler((0.0, 0.0, 0.05 * (frame - 1))).to_quaternion()
        root.keyframe_insert("location", frame=frame)
        root.keyframe_insert("rotation_quaternion", frame=frame)
    root.location, root.rotation_quaternion = (0.0, 0.0, 0.0), (1.0, 0.0, 0.0, 0.0)


def spine_euler_wrapping(rig: bpy.types.Object) -> None:
    """The walk with the spine's Euler Y keyed 170 degrees on frame 6 and -170 on frame 9:
    Blender turns it 340 degrees the long way, the chest and arms with it."""
    key_walk(rig)
    spine = rig.pose.bones["spine"]
    spine.rotation_mode = "XYZ"
    for frame, degrees in ((1, 0.0), (6, 170.0), (9, -170.0), (12, 0.0)):
        spine.rotation_euler = (0.0, math.radians(degrees), 0.0)
        spine.keyframe_insert("rotation_euler", frame=frame)


FAULTS: dict[str, Callable[[bpy.types.Object], None]] = {
    "NLA track under the active action": walk_in_nla_under_wave,
    "action only in an NLA strip": walk_in_nla_only,
    "action only in an NLA strip scaled 2": walk_in_a_slowed_nla_strip,
    "thigh scaled (1, 1, 1.6)": thigh_scaled_unevenly,
    "thigh scale keyed to (1, 1, 1.8)": thigh_scale_keyed_unevenly,
    "thigh scaled (1.6, 1.6, 1.6)": thigh_scaled_evenly,
    "IK target in an Empty, armature waving": target_in_an_empty_waving,
    "IK target in an Empty, armature without action": target_in_an_empty_only,
    "deform hips under a moving control root": deform_bones_under_a_moving_control,
    "spine Euler keys wrapping past 180": spine_euler_wrapping,
}
"""Each fault by the words the truth table prints."""
