"""Where a chain's limb and its controls stand, for the pole check: the rest-pose geometry a pole
works on (root, tip, the most bent joint, the side the limb bends to), where a target or pole is
without evaluating the depsgraph, and how the pose turns the bend where the solver starts."""

from __future__ import annotations

import math
from dataclasses import dataclass

import bpy
from mathutils import Matrix, Quaternion, Vector

from ..core.armature import armature_data
from ..core.geometry import offset_from_line, rest_pole_angle
from ..core.limb import (
    STRAIGHT_RATIO,
    chain_shape,
)
from ..core.names import find
from ..core.posed_bend import posed_turn
from ..core.rig import IKChain, RigView

POLE_DISTANCE = 0.5
"""A new or moved pole stands this fraction of the chain's reach in front of the bend."""


@dataclass(frozen=True)
class Limb:
    """The rest-pose geometry a pole works on, in armature space."""

    root_head: Vector
    root_x: Vector
    root_y: Vector
    tip: Vector
    joint_bone: str | None
    """The bone whose head is the most bent joint (the knee); None without inner joints."""
    joint: Vector | None
    bend: Vector | None
    """The inner joints' offsets from the root-tip line, summed (as the oracle judges a bend):
    the side the limb bends to; None for a straight or one-bone chain."""
    reach: float

    def rest_angle(self, pole: Vector) -> float:
        return rest_pole_angle(self.root_head, self.root_x, self.root_y, self.tip, pole)

    def side_of(self, point: Vector) -> Vector:
        return offset_from_line(point, self.root_head, self.tip)

    @property
    def joint_label(self) -> str:
        return f"the joint at the head of {self.joint_bone}"

    def pole_spot(self) -> Vector:
        """In front of the most bent joint, on the side the limb bends to, half the reach away."""
        assert self.joint is not None and self.bend is not None
        return self.joint + self.bend.normalized() * (POLE_DISTANCE * self.reach)

    def bend_at_rest(self, twist: float) -> Vector | None:
        """The bend side once the solver has turned the chain ``twist`` radians at rest.

        Measured: raising the pole angle by d turns the chain by +d about root→tip, and by -d
        where the root points away from the tip (a hips bone atop a leg's chain): Blender turns
        the root about its own Y axis.
        """
        if self.bend is None:
            return None
        axis = (self.tip - self.root_head).normalized()
        return Quaternion(axis, twist if self.root_y.dot(axis) >= 0.0 else -twist) @ self.bend


def limb_at_rest(rig: RigView, chain: IKChain) -> Limb:
    root = rig.bone(chain.root)
    shape = chain_shape(rig, chain)
    tip = shape.tip
    reach = max(shape.reach, 1e-9)
    offsets = dict(zip(shape.joints, shape.offsets, strict=True))
    joint_bone = None if shape.most_bent is None else shape.joints[shape.most_bent]
    joint = rig.bone(joint_bone).head if joint_bone is not None else None
    bend = None
    if joint_bone is not None and offsets[joint_bone].length >= STRAIGHT_RATIO * reach:
        bend = sum(offsets.values(), Vector())
    return Limb(root.head, root.x_axis, root.y_axis, tip, joint_bone, joint, bend, reach)


def start_turn(rig: RigView, chain: IKChain) -> float:
    """Radians the posed rotations of the chain's inner joints turn its bend where the solver
    starts (``core.posed_bend.posed_turn``), within a quarter turn: the pole sets only the root's
    turn about the root-tip line, and the solver folds the joints below from where the pose
    starts them, so that turn adds to the pole's (measured: an arm IK reaching into the shoulder
    under a pole angle 90° off, with its upper arm keyed 17° and 9°, bends 100° from its pole,
    where this model says 101°). 0 for a start that bends a joint the other way
    (``pose_flips_the_start``: ``core.posed_bend.flipped_turn``), or a chain too straight to
    say."""
    turn = posed_turn(rig, chain)
    return turn if turn is not None and abs(turn) < math.pi / 2.0 else 0.0


def pole_point(rig: RigView, chain: IKChain) -> Vector | None:
    return control_point(rig, chain.pole, chain.pole_subtarget)


def control_point(rig: RigView, obj: bpy.types.Object | None, bone: str) -> Vector | None:
    """Where a target or pole is, in armature space: a bone's rest head, an object's origin.

    Objects are placed from their own channels and parents: ``matrix_world`` is only as fresh
    as the last depsgraph evaluation, which a check must not trigger, so an empty moved by a
    script would otherwise be seen where it was before.
    """
    if obj is None:
        return None
    if obj.type == "ARMATURE":
        if not bone:
            return None  # the armature's origin: reported as a fault, not used as a point
        if obj == rig.object:
            return rig.joint_point(obj, bone)
        source = find(armature_data(obj).bones, bone)
        if source is None:
            return None
        world = _placement(obj) @ source.head_local
    else:
        world = _placement(obj).translation
    return _placement(rig.object).inverted_safe() @ world


def _placement(obj: bpy.types.Object) -> Matrix:
    """An object's world matrix from its channels and object parents.

    Constraints and bone or vertex parents need the depsgraph: then the last evaluation it is.
    """
    if obj.constraints or (obj.parent is not None and obj.parent_type != "OBJECT"):
        return obj.matrix_world.copy()
    if obj.parent is None:
        return obj.matrix_basis.copy()
    return _placement(obj.parent) @ obj.matrix_parent_inverse @ obj.matrix_basis
