"""What the viewport overlay draws, as plain line segments in world space (no ``gpu`` here).

For each IK chain, in the pose as last evaluated: the chain itself (root, joints, tip), a line
from the tip to its target, a line from the first joint (the knee or elbow) to its pole, and the
normal of the plane the chain bends in. A knee that points away from its pole is then visible
at a glance. The colour says the worst finding of the stored report on that chain.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING

from mathutils import Vector

from ..core.armature import pose_bone_of
from ..core.geometry import bend_normal, offset_from_line
from ..core.rig import IKChain, RigView, posed_point
from ..verify.animation import MISS

if TYPE_CHECKING:
    import bpy

Color = tuple[float, float, float, float]

COLORS: dict[str | None, Color] = {
    "error": (0.95, 0.2, 0.2, 1.0),
    "warning": (1.0, 0.8, 0.1, 1.0),
    "info": (0.35, 0.8, 0.45, 1.0),
    None: (0.35, 0.8, 0.45, 1.0),
}
NORMAL_SCALE = 0.25
"""The bend-plane normal is drawn this fraction of the chain's posed length."""
STRAIGHT = 1e-4
"""A joint closer than this fraction of the chain's length to the root-tip line is straight:
its bend plane is float noise, so no normal is drawn."""


@dataclass(frozen=True)
class Segment:
    """One line to draw: ``kind`` is "chain", "target" (or "miss", red, when the tip misses a
    target within reach on this frame), "pole" or "normal"."""

    kind: str
    start: Vector
    end: Vector
    color: Color


def chain_segments(
    obj: bpy.types.Object, severities: Mapping[tuple[str, str], str] | None = None
) -> list[Segment]:
    """The overlay's lines for every unmuted IK chain of ``obj``, coloured by ``severities``
    (worst severity per (owner, constraint), as the stored report gives it)."""
    rig = RigView(obj)
    segments: list[Segment] = []
    for chain in rig.chains:
        if not chain.mute:
            color = COLORS[(severities or {}).get(chain.key)]
            segments.extend(_chain_segments(obj, chain, color))
    return segments


def _chain_segments(obj: bpy.types.Object, chain: IKChain, color: Color) -> list[Segment]:
    points = _posed_chain_points(obj, chain)
    segments = [Segment("chain", a, b, color) for a, b in pairwise(points)]
    root, tip = points[0], points[-1]
    target = posed_point(chain.target, chain.subtarget, chain.target_bone_missing)
    if target is not None:
        segments.append(_target_segment(points, target, color))
    if len(points) < 3:
        return segments
    joint = points[1]
    pole = posed_point(chain.pole, chain.pole_subtarget, chain.pole_bone_missing)
    if pole is not None:
        segments.append(Segment("pole", joint, pole, color))
    length = sum((b - a).length for a, b in pairwise(points))
    normal = bend_normal(root, joint, tip)
    if normal is not None and offset_from_line(joint, root, tip).length > STRAIGHT * length:
        segments.append(Segment("normal", joint, joint + normal * NORMAL_SCALE * length, color))
    return segments


def _target_segment(points: list[Vector], target: Vector, color: Color) -> Segment:
    """Tip to target; red ("miss") on this frame when the tip misses a target within reach."""
    root, tip = points[0], points[-1]
    reach = sum((b - a).length for a, b in pairwise(points))
    missed = len(points) > 2 and (target - root).length <= reach  # an aim never lands
    missed = missed and (tip - target).length > MISS * reach
    return (
        Segment("miss", tip, target, COLORS["error"])
        if missed
        else Segment("target", tip, target, color)
    )


def _posed_chain_points(obj: bpy.types.Object, chain: IKChain) -> list[Vector]:
    """Root head, each joint, then the tip, in world space."""
    world = obj.matrix_world
    points = [world @ pose_bone_of(obj, name).head for name in reversed(chain.bones)]
    if chain.use_tail:
        points.append(world @ pose_bone_of(obj, chain.owner).tail)
    return points
