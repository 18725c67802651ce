"""Verify by solving: let Blender evaluate the rig and measure what the IK really does.

This is how a fix is proven (tests) and how a chain is judged on a real rig (the oracle):
move the target to a point the chain can reach, evaluate the depsgraph, and measure the
distance from the chain tip to the target and the side the middle joint bends to.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import bpy
from mathutils import Matrix, Vector

from ..core.armature import pose_bone_of
from ..core.editing import current_view_layer
from ..core.geometry import mean_scale, offset_from_line, perpendicular
from ..core.limb import TRANSFORMS
from ..core.reach import REACH_TOLERANCE
from ..core.rig import IKChain, RigView, posed_point, posed_tip


@dataclass(frozen=True)
class ChainSolve:
    """What Blender's solver did with one chain."""

    owner: str
    constraint: str
    reach: float
    """Sum of the chain's bone lengths, in world units."""
    tip_error: float | None
    """World distance from the chain tip to its target; None when the target is unresolved."""
    bends_toward_pole: bool | None
    """Whether the middle joint bends to the pole's side; None without a pole or a middle joint."""

    @property
    def reaches(self) -> bool:
        return self.tip_error is not None and self.tip_error < REACH_TOLERANCE * self.reach


def evaluate(obj: bpy.types.Object) -> None:
    """Evaluate the depsgraph so the pose bones carry the solver's result."""
    current_view_layer().update()


def measure_chain(obj: bpy.types.Object, rig: RigView, chain: IKChain) -> ChainSolve:
    """Measure one chain in the pose as last evaluated."""
    world = obj.matrix_world
    tip = posed_tip(obj, chain)
    root_head = world @ rig.pose_bone(chain.root).head
    target = posed_point(chain.target, chain.subtarget, chain.target_bone_missing)
    pole = posed_point(chain.pole, chain.pole_subtarget, chain.pole_bone_missing)
    bends = None
    if pole is not None and len(chain.bones) >= 2:
        joint = world @ rig.pose_bone(chain.bones[-2]).head
        bend = offset_from_line(joint, root_head, tip)
        side = offset_from_line(pole, root_head, tip)
        if bend.length > 1e-6 * max(rig.chain_reach(chain), 1e-6):
            bends = bend.dot(side) > 0.0
    return ChainSolve(
        owner=chain.owner,
        constraint=chain.constraint,
        reach=rig.chain_reach(chain) * mean_scale(world),
        tip_error=None if target is None else (tip - target).length,
        bends_toward_pole=bends,
    )


def measure_chains(obj: bpy.types.Object) -> list[ChainSolve]:
    """Evaluate once and measure every chain where its target is now."""
    evaluate(obj)
    rig = RigView(obj)
    return [measure_chain(obj, rig, chain) for chain in rig.chains]


def solve_within_reach(obj: bpy.types.Object, pull: float = 0.75) -> list[ChainSolve]:
    """For each chain in turn, move its target to a reachable point, solve, measure, restore.

    The point is ``pull`` of the way from the root's head to the rest tip, nudged sideways by a
    tenth of the reach so the chain must both bend and swing. Everything moved is put back.
    """
    rig = RigView(obj)
    results = []
    for chain in rig.chains:
        goal = _reachable_goal(obj, rig, chain, pull)
        with _target_moved_to(obj, chain, goal):
            evaluate(obj)
            results.append(measure_chain(obj, rig, chain))
    evaluate(obj)
    return results


def _reachable_goal(obj: bpy.types.Object, rig: RigView, chain: IKChain, pull: float) -> Vector:
    root = rig.bone(chain.root).head
    tip = rig.chain_tip(chain)
    reach = rig.chain_reach(chain)
    line = tip - root
    sideways = perpendicular(line if line.length > 1e-9 else rig.bone(chain.root).y_axis)
    goal = root + line * pull + sideways * (0.1 * reach)
    return obj.matrix_world @ goal


@contextmanager
def _target_moved_to(obj: bpy.types.Object, chain: IKChain, goal: Vector) -> Iterator[None]:
    """Put the chain's target at ``goal`` (world) for the duration; no-op if it cannot move."""
    target = chain.target
    if target is None or chain.target_bone_missing:
        yield
        return
    mover: bpy.types.PoseBone | bpy.types.Object = target
    saved = channels(target)
    try:
        if target.type == "ARMATURE" and chain.subtarget:
            mover = pose_bone_of(target, chain.subtarget)
            saved = channels(mover)
            evaluate(obj)
            matrix = mover.matrix.copy()
            matrix.translation = target.matrix_world.inverted_safe() @ goal
            mover.matrix = matrix
        else:
            saved_world = target.matrix_world.copy()
            target.matrix_world = Matrix.Translation(goal - saved_world.translation) @ saved_world
        yield
    finally:
        set_channels(mover, saved)


_CHANNELS = tuple(sorted(TRANSFORMS))


def channels(owner: Any) -> tuple[tuple[float, ...], ...]:
    """An object's or pose bone's transform channels, to put back exactly: a matrix would not
    survive a scale of 0 (its rotation is lost when it is decomposed)."""
    return tuple(tuple(getattr(owner, name)) for name in _CHANNELS)


def set_channels(owner: Any, saved: tuple[tuple[float, ...], ...]) -> None:
    for name, value in zip(_CHANNELS, saved, strict=True):
        setattr(owner, name, value)
