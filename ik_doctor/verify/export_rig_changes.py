"""Changes to the rig, not to the exporter, that an export is repeated with to prove a cause.

Some exports part from Blender's pose for a reason in the file rather than in a setting: NLA
tracks playing under the action being baked, a non-uniform pose scale that the child bones
inherit as a shear (glTF and FBX hold a translation, a rotation and a scale per bone, never a
shear), an IK target in another object whose animation the FBX exporter's All Actions stops.
``export_scan`` repeats the export with the change made for that one export (Blender's pose
is measured with it too) and undoes it, as it stretches the scene's range for FBX.

Measured on the reference walk (Blender 5.3, glTF and FBX defaults): an action keyed over an
NLA track misses by 13% (glTF) and 8% (FBX) of the rig's size, and lands with the tracks
muted; the thigh scaled (1, 1, 1.6) misses by 3.3% and 3.7%, (1, 1.3, 1) by 1.9% and 4.7%,
and lands scaled 1; FBX with All Actions bakes the armature's action with its target's Empty
standing still (18%), and lands baked as the scene plays (All Actions and NLA Strips off).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import bpy

from ..core.armature import pose_of
from ..core.names import readable

NLA_MUTED = "nla_muted"
UNIFORM_SCALE = "uniform_scale"
SCALE_UNEVEN = 1e-3
"""Scales whose axes differ by less than this share are uniform, and within it of 1 are 1
(float noise in keyed files)."""


def nla_under_action(obj: bpy.types.Object) -> bool:
    """The armature plays an action with NLA tracks under it: the exporters bake them in."""
    animation = obj.animation_data
    if animation is None or animation.action is None or not animation.use_nla:
        return False
    return any(not track.mute and len(track.strips) for track in animation.nla_tracks)


def scaled_bones(
    obj: bpy.types.Object, actions: Iterable[bpy.types.Action], evenly_too: bool = False
) -> list[str]:
    """The pose bones scaled unevenly (with ``evenly_too``: scaled at all), as posed or on a
    key of ``actions``: their children inherit a shear the file cannot hold (FBX: a scale)."""
    wanted = _scaled if evenly_too else _uneven
    found = {bone.name for bone in pose_of(obj).bones if wanted(bone.scale)}
    for action in actions:
        keyed: dict[str, dict[int, list[float]]] = {}
        for curve in action_curves(action):
            bone = _scaled_bone(curve)
            if bone is None:
                continue
            for key in curve.keyframe_points:
                axes = keyed.setdefault(bone, {}).setdefault(round(key.co[0]), [1.0, 1.0, 1.0])
                axes[curve.array_index] = key.co[1]
        found |= {bone for bone, keys in keyed.items() if any(map(wanted, keys.values()))}
    return sorted(name for name in found if pose_of(obj).bones.get(name) is not None)


def target_objects_animated(obj: bpy.types.Object) -> list[str]:
    """Other objects that the armature's bone constraints aim at, with animation of their own."""
    found = set()
    for bone in pose_of(obj).bones:
        for constraint in bone.constraints:
            for name in ("target", "pole_target"):
                other = getattr(constraint, name, None)
                if other is not None and other is not obj and other.animation_data is not None:
                    found.add(other.name)
    return sorted(found)


def moved_by_others(obj: bpy.types.Object) -> bool:
    """The armature plays no action of its own and another object's animation moves it
    (measured: neither exporter then writes any motion for it)."""
    animation = obj.animation_data
    if animation is not None and (
        animation.action is not None or any(len(t.strips) for t in animation.nla_tracks)
    ):
        return False
    return bool(target_objects_animated(obj))


@contextmanager
def rig_changed(obj: bpy.types.Object, change: str, bones: Iterable[str] = ()) -> Iterator[None]:
    """Make ``change`` (none for ""), and undo it on leaving."""
    if change == NLA_MUTED:
        with _nla_muted(obj):
            yield
    elif change == UNIFORM_SCALE:
        with _scale_one(obj, list(bones)):
            yield
    else:
        yield


@contextmanager
def _nla_muted(obj: bpy.types.Object) -> Iterator[None]:
    """Every NLA track of the armature muted (measured: glTF also leaves them out with the
    armature's NLA switched off, FBX does not)."""
    animation = obj.animation_data
    tracks = list(animation.nla_tracks) if animation is not None else []
    kept = [track.mute for track in tracks]
    try:
        for track in tracks:
            track.mute = True
        yield
    finally:
        for track, mute in zip(tracks, kept, strict=True):
            track.mute = mute


@contextmanager
def _scale_one(obj: bpy.types.Object, bones: list[str]) -> Iterator[None]:
    """``bones`` scaled 1, their scale keys muted in every action."""
    posed = pose_of(obj).bones
    scales = {name: posed[name].scale.copy() for name in bones}
    curves = [
        curve
        for action in bpy.data.actions
        for curve in action_curves(action)
        if _scaled_bone(curve) in scales
    ]
    muted = [curve.mute for curve in curves]
    try:
        for curve in curves:
            curve.mute = True
        for name in bones:
            posed[name].scale = (1.0, 1.0, 1.0)
        yield
    finally:
        for curve, mute in zip(curves, muted, strict=True):
            curve.mute = mute
        for name, scale in scales.items():
            posed[name].scale = scale


def _uneven(scale: Any) -> bool:
    low, high = min(scale), max(scale)
    return high - low > SCALE_UNEVEN * max(abs(high), abs(low))


def _scaled(scale: Any) -> bool:
    return any(abs(value - 1.0) > SCALE_UNEVEN for value in scale)


def _scaled_bone(curve: bpy.types.FCurve) -> str | None:
    """The pose bone whose scale ``curve`` keys, if it keys one."""
    path = readable(curve, "data_path")
    if not path.startswith('pose.bones["') or not path.endswith('"].scale'):
        return None
    return path[len('pose.bones["') : -len('"].scale')]


def action_curves(action: bpy.types.Action) -> Iterator[bpy.types.FCurve]:
    """Every F-curve of an action, on the flat (4.x) and the layered (4.4+) API."""
    if hasattr(action, "fcurves"):
        yield from action.fcurves
        return
    for layer in getattr(action, "layers", ()):
        for strip in layer.strips:
            for bag in getattr(strip, "channelbags", ()):
                yield from bag.fcurves
