"""Where the game's joints land against Blender's, frame by frame and action by action.

The joints are the deform bones' heads (what skins the mesh) and each IK chain's tip, matched
by name in the imported armature: importers order and orient bones their own way, and FBX adds
leaf bones. A tip is carried by its bone's rest pose, so a bone the importer turned still
carries it to the same place. Distances are world lengths over the rig's size, the diagonal of
the box its rest bones fill, so one threshold serves a mouse and a dinosaur.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import bpy
from mathutils import Matrix, Vector

from ..core.armature import armature_data, pose_of
from ..core.rig import RigView
from .export_rig_changes import moved_by_others
from .export_roundtrip import ImportedAction, Trip
from .playback import (
    frames_to_play,
    nla_strip,
    play_alone,
    pose_channels,
    scene_kept,
    set_pose_channels,
    strip_alone,
    strip_frames,
)

ProgressCallback = Callable[[int, int], None]
SCENE = "the scene as it plays"
"""What a comparison is named for an armature with no action of its own that other objects'
animation moves (its IK target an animated Empty): the scene's frames, as they play."""
TIP_MATCH = 1e-4
"""An imported bone whose rest head lies this near the owner's rest tail (a share of the rig's
size) starts at the tip: float noise after the file's units, far below any finding."""


@dataclass(frozen=True)
class Joint:
    """A point the game must put where Blender does: a bone's head, or a point on it."""

    name: str
    """As a person reads it: the bone, or "BackLowLeg.L's tip" for an IK chain's tip."""
    bone: str
    tip: bool = False
    """In Blender: the bone's tail (an IK chain's tip), not its head."""
    imported_bone: str = ""
    """In the file: the bone whose head it is, or that carries it by ``offset``."""
    offset: Vector | None = None
    """For a tip no imported bone starts at: the point in the imported owner's rest space."""


@dataclass
class ActionDifference:
    """One action as the game gets it: the worst joint's distance on each compared frame."""

    action: str
    misses: dict[int, tuple[float, str]] = field(default_factory=dict)
    """Frame: (distance as a share of the rig's size, the joint that is furthest)."""
    left_out: tuple[int, ...] = ()
    """The action's frames the file holds no key for: the game holds its last pose there."""
    distances: dict[str, dict[int, float]] = field(default_factory=dict)
    """Joint: its distance on each compared frame, as a share of the rig's size (for a plot)."""


def rig_size(obj: bpy.types.Object) -> float:
    """The diagonal of the box the rest bones fill, in the world."""
    world = obj.matrix_world
    points = [world @ p for b in armature_data(obj).bones for p in (b.head_local, b.tail_local)]
    if not points:
        return 0.0
    low = Vector([min(p[i] for p in points) for i in range(3)])
    high = Vector([max(p[i] for p in points) for i in range(3)])
    return (high - low).length


def joints(obj: bpy.types.Object, imported: bpy.types.Object, exporter: str) -> list[Joint]:
    """The deform bones the file holds, and every IK chain's tip on a bone it holds.

    A tip is the head of the imported bone that starts there (a child, or the leaf bone FBX
    adds), else a point carried by the owner's rest pose. FBX's importer turns bones without
    children (measured: 20-30 degrees on the Trex's feet and tail, every frame alike), so
    there a tip without such a bone is left out rather than measured wrong.
    """
    present = armature_data(imported).bones
    found = [Joint(b.name, b.name, imported_bone=b.name) for b in armature_data(obj).bones]
    found = [
        j
        for j in found
        if present.get(j.bone) is not None and armature_data(obj).bones[j.bone].use_deform
    ]
    near = TIP_MATCH * rig_size(obj)
    for chain in RigView(obj).chains:
        owner = present.get(chain.owner)
        if owner is None or not chain.use_tail:
            continue  # a tip at the owner's head is that bone's joint
        rest_tip = obj.matrix_world @ armature_data(obj).bones[chain.owner].tail_local
        rest = imported.matrix_world @ owner.matrix_local
        name = f"{chain.owner}'s tip"
        starting = [
            child.name
            for child in owner.children
            if (imported.matrix_world @ child.head_local - rest_tip).length <= near
        ]
        if starting:
            found.append(Joint(name, chain.owner, True, starting[0]))
        elif exporter != "fbx":
            found.append(Joint(name, chain.owner, True, chain.owner, rest.inverted() @ rest_tip))
    return found


def compare(
    obj: bpy.types.Object,
    trip: Trip,
    actions: Sequence[str] | None = None,
    frames: Sequence[int] | None = None,
    progress: ProgressCallback | None = None,
) -> list[ActionDifference]:
    """Play each action in Blender and its import in the game's copy; measure every frame of
    the action's own range (those of ``frames`` only, when given). Changes nothing: the
    animation scan's guard puts the frame, the actions and every pose channel back."""
    if trip.armature is None:
        return []
    chosen = [a for a in trip.actions if actions is None or a.source.name in actions]
    size = rig_size(obj) or 1.0
    points = joints(obj, trip.armature, trip.exporter)
    found = []
    lists = [_frames_of(obj, a) for a in chosen]
    scene_frames = _scene_frames(obj) if actions is None or SCENE in actions else []
    if frames is not None:  # those of the action's own range
        lists = [[f for f in frame_list if f in frames] for frame_list in lists]
        scene_frames = [f for f in scene_frames if f in frames]
    total, done = sum(len(frame_list) for frame_list in lists) + len(scene_frames), 0
    with scene_kept(obj):
        start_pose = pose_channels(obj)
        for pair, frame_list in zip(chosen, lists, strict=True):
            set_pose_channels(obj, start_pose)
            found.append(_compare_action(obj, trip, pair, frame_list, points, size))
            done += len(frame_list)
            if progress is not None:
                progress(done, total)
        if scene_frames:
            set_pose_channels(obj, start_pose)
            found.append(_compare_scene(obj, trip, scene_frames, points, size))
            if progress is not None:
                progress(total, total)
    return found


def _scene_frames(obj: bpy.types.Object) -> list[int]:
    if not moved_by_others(obj):
        return []
    scene = bpy.context.scene
    assert scene is not None
    return list(range(scene.frame_start, scene.frame_end + 1))


def _compare_scene(
    obj: bpy.types.Object, trip: Trip, frames: list[int], points: list[Joint], size: float
) -> ActionDifference:
    """The armature as the scene plays it, against the motion the file gives it: the action
    its import plays (the file's scene-wide bake), or none."""
    assert trip.armature is not None
    animation = trip.armature.animation_data
    if animation is not None:
        strips = [s.action for t in animation.nla_tracks for s in t.strips if s.action is not None]
        imported = animation.action or (strips[0] if strips else None)
        if imported is not None:
            play_alone(trip.armature, imported)
    return _measure(obj, trip, ActionDifference(SCENE), frames, 0, points, size)


def _frames_of(obj: bpy.types.Object, pair: ImportedAction) -> list[int]:
    """The action's own frames, or for a take baked from an NLA strip the strip's."""
    strip = nla_strip(obj, pair.strip) if pair.strip else None
    return frames_to_play(pair.source, None) if strip is None else strip_frames(strip)


def _compare_action(
    obj: bpy.types.Object,
    trip: Trip,
    pair: ImportedAction,
    frames: list[int],
    points: list[Joint],
    size: float,
) -> ActionDifference:
    assert trip.armature is not None
    strip = nla_strip(obj, pair.strip) if pair.strip else None
    if strip is None:
        play_alone(obj, pair.source)
        return _compare_played(obj, trip, pair, frames, points, size)
    with strip_alone(obj, strip):
        return _compare_played(obj, trip, pair, frames, points, size)


def _compare_played(
    obj: bpy.types.Object,
    trip: Trip,
    pair: ImportedAction,
    frames: list[int],
    points: list[Joint],
    size: float,
) -> ActionDifference:
    """Blender as it now plays, against the imported take played alone."""
    assert trip.armature is not None
    play_alone(trip.armature, pair.imported)
    first, last = pair.imported.frame_range[0], pair.imported.frame_range[1]
    kept = [f for f in frames if first - 0.5 <= f + pair.offset <= last + 0.5]
    difference = ActionDifference(pair.source.name, left_out=tuple(sorted(set(frames) - set(kept))))
    return _measure(obj, trip, difference, kept, pair.offset, points, size)


def _measure(
    obj: bpy.types.Object,
    trip: Trip,
    difference: ActionDifference,
    frames: list[int],
    offset: int,
    points: list[Joint],
    size: float,
) -> ActionDifference:
    """Each frame's distances into ``difference``: Blender on ``frame``, the game on
    ``frame + offset``."""
    assert trip.armature is not None
    scene = bpy.context.scene
    assert scene is not None
    for frame in frames:
        scene.frame_set(frame)
        trip.scene.frame_set(frame + offset)
        blender = _world_points(obj, points, game=False)
        game = _world_points(trip.armature.evaluated_get(trip.depsgraph), points, game=True)
        apart = [
            ((blender[i] - game[i]).length / size, joint.name) for i, joint in enumerate(points)
        ]
        for distance, name in apart:
            difference.distances.setdefault(name, {})[frame] = distance
        difference.misses[frame] = max(apart)
    return difference


def _world_points(posed: bpy.types.Object, points: list[Joint], game: bool) -> list[Vector]:
    """Each joint's world position in ``posed``: the user's armature, or the import evaluated."""
    world: Matrix = posed.matrix_world
    bones = pose_of(posed).bones
    found = []
    for joint in points:
        if not game:
            bone = bones[joint.bone]
            found.append(world @ (bone.tail if joint.tip else bone.head))
        elif joint.offset is None:
            found.append(world @ bones[joint.imported_bone].head)
        else:
            found.append(world @ bones[joint.imported_bone].matrix @ joint.offset)
    return found
