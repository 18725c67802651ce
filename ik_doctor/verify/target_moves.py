"""Moving a chain's target onto a goal for the oracle, and putting everything back: the target
itself or whatever drives it (a constraint's subtarget, a parent), never the chain's own bones,
each move undone exactly (transform channels, not a decomposed matrix)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import bpy
from mathutils import Matrix, Vector

from ..core.armature import pose_of
from ..core.editing import constraint_on, current_view_layer
from ..core.names import find, named, readable
from ..core.reach import landing_tolerance
from ..core.rig import IKChain, RigView, known_constraints, posed_point
from .settle import evaluate
from .solve import channels, set_channels


def target_point(chain: IKChain) -> Vector:
    point = posed_point(chain.target, chain.subtarget, chain.target_bone_missing)
    assert point is not None  # only resolved targets are solved
    return point


@contextmanager
def target_moved(
    obj: bpy.types.Object, rig: RigView, chain: IKChain, goal: Vector, reach: float
) -> Iterator[float | None]:
    """Bring the chain's target to ``goal`` (world), evaluate, and yield how far it landed off.

    Tries the target, then what drives it (constraint subtargets, parents), keeping the first
    move that lands the target on the goal, else the nearest miss: a target the chain carries
    along (parented or constrained to it) never lands. None when nothing can move the target.
    """
    misses: list[tuple[float, Any]] = []
    for mover in _movers(rig, chain):
        with _shifted(obj, chain, mover, goal) as miss:
            if miss <= landing_tolerance(reach, goal):
                yield miss
                return
        misses.append((miss, mover))
    if not misses:
        yield None
        return
    nearest = min(misses, key=lambda pair: pair[0])[1]
    with _shifted(obj, chain, nearest, goal) as miss:
        yield miss


def lands_without(
    obj: bpy.types.Object, rig: RigView, chain: IKChain, goal: Vector, reach: float
) -> bool:
    """Whether the target would land on ``goal`` if this chain's IK were muted.

    Then the chain itself carries its target away (a control parented or constrained inside
    it): the animator cannot place the target. Otherwise something else holds it.

    The muted pose is evaluated once before the target moves: when the target hangs from the
    chain, the two form a dependency cycle, and Blender may then evaluate the target before the
    chain's bones, from the pose last evaluated (the one the IK bent), and the target misses.
    CI once judged a target tied to the thigh untested that way, where every other run fails it.
    """
    constraint = constraint_on(obj, *chain.key, bpy.types.KinematicConstraint)
    muted = constraint.mute
    constraint.mute = True
    try:
        evaluate(obj)
        with target_moved(obj, rig, chain, goal, reach) as miss:
            return miss is not None and miss <= landing_tolerance(reach, goal)
    finally:
        constraint.mute = muted
        evaluate(obj)


@contextmanager
def _shifted(obj: bpy.types.Object, chain: IKChain, mover: Any, goal: Vector) -> Iterator[float]:
    """Shift ``mover`` so the target should land on ``goal``, evaluate, yield the miss, undo."""
    saved = channels(mover)
    try:
        _shift(mover, goal - target_point(chain))
        evaluate(obj)
        yield (target_point(chain) - goal).length
    finally:
        set_channels(mover, saved)
        evaluate(obj)


def _movers(rig: RigView, chain: IKChain) -> Iterator[Any]:
    """The target itself, then the bones that drive it, nearest first, never the chain's own.

    Every bone that drives it, however far: each is tried (two evaluations) only until one
    lands the target. Measured on the real rigs (35 armatures, 136 chains, Rigify's included),
    a chain walks at most 10 bones, and the verdicts were the same with the walk cut at 24.
    """
    target = chain.target
    assert target is not None
    if target.type != "ARMATURE" or not chain.subtarget:
        if target != rig.object:  # moving the armature itself moves the chain along
            yield target
        return
    frozen = set(chain.bones)
    if target == rig.object:
        frozen.update(rig.ancestors(chain.root))
    seen: set[str] = set()
    queue = [chain.subtarget]
    while queue:
        name = queue.pop(0)
        if name in seen or name in frozen:
            continue
        seen.add(name)
        pose_bones = pose_of(target).bones
        pose_bone = named(pose_bones, name)
        yield pose_bone
        drivers = [
            readable(c, "subtarget", "")
            for c in known_constraints(pose_bone.constraints)
            if getattr(c, "target", None) == target
        ]
        queue.extend(d for d in drivers if find(pose_bones, d) is not None)
        if pose_bone.parent is not None:
            queue.append(readable(pose_bone.parent))


def _shift(mover: Any, delta: Vector) -> None:
    """Move a pose bone or object by a world-space offset."""
    if isinstance(mover, bpy.types.PoseBone):
        armature = mover.id_data
        matrix = mover.matrix.copy()
        matrix.translation += armature.matrix_world.inverted_safe().to_3x3() @ delta
        mover.matrix = matrix
    else:
        mover.matrix_world = Matrix.Translation(delta) @ mover.matrix_world


@contextmanager
def everything_restored() -> Iterator[None]:
    """A last guard: every pose bone and object channel is as before, and the scene evaluated."""
    objects = [ob for ob in bpy.data.objects if ob.library is None]
    owners: list[Any] = list(objects)
    for ob in objects:
        if ob.type == "ARMATURE" and ob.pose is not None:
            owners.extend(ob.pose.bones)
    saved = [(owner, channels(owner)) for owner in owners]
    try:
        yield
    finally:
        for owner, kept in saved:
            if channels(owner) != kept:
                set_channels(owner, kept)
        current_view_layer().update()
