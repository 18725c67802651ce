"""Mirror twins for the symmetry check: two chains named as each other's mirror (Blender's Flip
Names), their limbs paired bone by bone, the mirror plane between them, and which side of it
each control sits on."""

from __future__ import annotations

from dataclasses import dataclass

import bpy
from mathutils import Vector

from ..core.rig import IKChain, RigView

CROSSED = 0.01
"""A target or pole further than this share of the reach past the mirror plane, on the twin's
side, is across the body."""


@dataclass(frozen=True)
class Twins:
    """Two chains named as each other's mirror, their limbs paired bone by bone."""

    first: IKChain
    second: IKChain
    bones: tuple[tuple[str, str], ...]
    """(first side, second side) from the owners up, as far as the longer of the two chains."""
    axis: int
    """The armature axis across which the limbs lie mirrored (0 for X)."""
    middle: float
    """Where the mirror plane crosses that axis."""
    reach: float
    rest_gap: float
    """The furthest a joint of the second limb lies from the mirror image of the first's."""

    def reflect(self, vector: Vector) -> Vector:
        """A direction mirrored across the plane."""
        mirrored = vector.copy()
        mirrored[self.axis] = -mirrored[self.axis]
        return mirrored

    def side(self, point: Vector) -> int:
        """+1 or -1 for the two sides of the plane; 0 on it."""
        offset = point[self.axis] - self.middle
        return 0 if abs(offset) <= CROSSED * self.reach else (1 if offset > 0.0 else -1)

    def twin(self, chain: IKChain) -> IKChain:
        return self.second if chain is self.first else self.first

    def paired(self, source: IKChain) -> list[tuple[str, str]]:
        """The bone pairs, ``source``'s bone first."""
        return list(self.bones) if source is self.first else [(b, a) for a, b in self.bones]


def named_twin(rig: RigView, chain: IKChain) -> IKChain | None:
    """The chain on the bone whose name Flip Names gives, with the same (flipped) IK name."""
    owner = bpy.utils.flip_name(chain.owner)
    if owner == chain.owner:
        return None
    twin = rig.chain(owner, bpy.utils.flip_name(chain.constraint))
    if twin is None or bpy.utils.flip_name(twin.owner) != chain.owner:
        return None
    return twin


def paired(rig: RigView, first: IKChain, second: IKChain) -> Twins | None:
    """The twins with their limbs paired, or None when the limbs are not built alike."""
    count = max(len(first.bones), len(second.bones))
    walks = [[chain.owner, *rig.ancestors(chain.owner)][:count] for chain in (first, second)]
    if len(walks[0]) != len(walks[1]):
        return None
    bones = tuple(zip(walks[0], walks[1], strict=True))
    if any(bpy.utils.flip_name(a) != b for a, b in bones):
        return None
    reach = max(sum(rig.bone(name).length for name in walk) for walk in walks)
    if reach <= 0.0:
        return None
    points = [
        pair
        for a, b in bones
        for pair in ((rig.bone(a).head, rig.bone(b).head), (rig.bone(a).tail, rig.bone(b).tail))
    ]

    def mirror_gap(axis: int) -> tuple[float, int, float]:
        middle = sum(a[axis] + b[axis] for a, b in points) / (2 * len(points))
        gap = 0.0
        for a, b in points:
            mirrored = a.copy()
            mirrored[axis] = 2.0 * middle - a[axis]
            gap = max(gap, (mirrored - b).length)
        return gap, axis, middle

    gap, axis, middle = min(mirror_gap(axis) for axis in range(3))
    return Twins(first, second, bones, axis, middle, reach, gap)


def controls_across(rig: RigView, twins: Twins, chain: IKChain) -> list[str]:
    """The controls ("target", "pole") that sit on the twin's side of the mirror plane."""
    return [
        label
        for label in ("target", "pole")
        if sits_across(rig, twins, chain, *control_of(chain, label))
    ]


def sits_across(
    rig: RigView, twins: Twins, chain: IKChain, obj: bpy.types.Object | None, bone: str
) -> bool:
    """Whether a control of ``chain`` would sit on the other side of the plane from it."""
    own = twins.side(rig.bone(chain.owner).head)
    point = rig.joint_point(obj, bone)
    return bool(own) and point is not None and twins.side(point) == -own


def control_of(chain: IKChain, label: str) -> tuple[bpy.types.Object | None, str]:
    if label == "target":
        return chain.target, chain.subtarget
    return chain.pole, chain.pole_subtarget
