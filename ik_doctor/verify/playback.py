"""Playing one action on its own, and putting everything back: the scans (``animation``,
``export_compare``) play each action alone (NLA off, full influence) from the same start pose,
and leave the frame, the armature's animation switches and every transform channel as found."""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

import bpy

from ..core.armature import pose_of
from ..core.names import find, readable
from .target_moves import everything_restored


def chosen_actions(
    obj: bpy.types.Object, wanted: Iterable[bpy.types.Action | str] | None
) -> list[bpy.types.Action]:
    animation = obj.animation_data
    if wanted is not None:
        found = []
        for item in wanted:
            action = find(bpy.data.actions, item) if isinstance(item, str) else item
            if action is None:
                raise ValueError(f"There is no action named '{item}'.")
            found.append(action)
        return found
    if animation is None:
        return []
    found = [animation.action] if animation.action is not None else []
    for track in animation.nla_tracks:
        for strip in track.strips:
            if strip.action is not None and strip.action not in found:
                found.append(strip.action)
    return found


def frames_to_play(action: bpy.types.Action, frames: Iterable[int] | None) -> list[int]:
    if frames is not None:
        return sorted({int(frame) for frame in frames})
    first, last = action.frame_range[0], action.frame_range[1]
    return list(range(math.floor(first), math.ceil(last) + 1))


def play_alone(obj: bpy.types.Object, action: bpy.types.Action) -> None:
    """Make ``action`` the only animation the armature plays (NLA off, full influence)."""
    animation = obj.animation_data or obj.animation_data_create()
    if animation.use_tweak_mode:
        raise ValueError(f"'{readable(obj)}' is in NLA tweak mode: leave it to scan its actions.")
    animation.use_nla = False
    animation.action = action
    animation.action_influence = 1.0
    animation.action_blend_type = "REPLACE"
    slots = getattr(animation, "action_suitable_slots", None)  # Blender 4.4+: action slots
    if slots is not None and getattr(animation, "action_slot", None) is None and len(slots):
        setattr(animation, "action_slot", slots[0])  # noqa: B010  (not in the 4.2 stubs)


def nla_strip(obj: bpy.types.Object, name: str) -> bpy.types.NlaStrip | None:
    """The armature's NLA strip of this name (the first, where tracks repeat a name)."""
    animation = obj.animation_data
    tracks = animation.nla_tracks if animation is not None else ()
    return next((s for t in tracks for s in t.strips if s.name == name), None)


def strip_frames(strip: bpy.types.NlaStrip) -> list[int]:
    """The scene's frames a strip plays on."""
    return list(range(math.floor(strip.frame_start), math.ceil(strip.frame_end) + 1))


@contextmanager
def strip_alone(obj: bpy.types.Object, strip: bpy.types.NlaStrip) -> Iterator[None]:
    """Play ``strip`` as the NLA plays it, with its timing, every other strip and track muted
    and no action over it; put the tracks back on leaving (``scene_kept`` puts the action)."""
    animation = obj.animation_data
    assert animation is not None  # the strip is on it
    tracks = list(animation.nla_tracks)
    kept = [(t.mute, t.is_solo, [s.mute for s in t.strips]) for t in tracks]
    try:
        animation.action = None
        animation.use_nla = True
        for track in tracks:
            track.is_solo = False
            for other in track.strips:
                other.mute = other != strip
            track.mute = all(other.mute for other in track.strips)
        yield
    finally:
        for track, (mute, solo, strips) in zip(tracks, kept, strict=True):
            track.mute = mute
            for other, muted in zip(track.strips, strips, strict=True):
                other.mute = muted
            if solo:
                track.is_solo = True


POSE_CHANNELS = (
    ("location", 3),
    ("rotation_quaternion", 4),
    ("rotation_euler", 3),
    ("rotation_axis_angle", 4),
    ("scale", 3),
)


def current_scene() -> bpy.types.Scene:
    """The context's scene: Blender always has one, though the stubs make it optional."""
    scene = bpy.context.scene
    assert scene is not None
    return scene


def pose_channels(obj: bpy.types.Object) -> dict[str, list[float]]:
    """Every pose bone's transform channels, read in bulk."""
    bones = pose_of(obj).bones
    channels = {}
    for name, size in POSE_CHANNELS:
        values = [0.0] * (len(bones) * size)
        bones.foreach_get(name, values)
        channels[name] = values
    return channels


def set_pose_channels(obj: bpy.types.Object, channels: dict[str, list[float]]) -> None:
    for name, values in channels.items():
        pose_of(obj).bones.foreach_set(name, values)


@contextmanager
def scene_kept(obj: bpy.types.Object) -> Iterator[None]:
    """Put back the frame, the armature's animation switches and every transform channel."""
    scene = current_scene()
    frame = (scene.frame_current, scene.frame_subframe)
    animation = obj.animation_data
    switches = None
    if animation is not None:
        switches = {
            name: getattr(animation, name)
            for name in ("action", "use_nla", "action_influence", "action_blend_type")
        }
        slot = getattr(animation, "action_slot", None)
    with everything_restored():
        try:
            yield
        finally:
            if animation is None:
                if obj.animation_data is not None:
                    obj.animation_data_clear()
            else:
                assert switches is not None
                for name, value in switches.items():
                    setattr(animation, name, value)
                if slot is not None and getattr(animation, "action_slot", None) != slot:
                    setattr(animation, "action_slot", slot)  # noqa: B010  (4.4+, not in the stubs)
            scene.frame_set(frame[0], subframe=frame[1])
