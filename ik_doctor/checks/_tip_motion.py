"""How a chain's free axes move its tip at rest (its Jacobian), shared by the locks check's
lock and stiffness judgements: an axis is free unless an IK lock or a zero-width IK limit
blocks it."""

from __future__ import annotations

import math

import bpy
import numpy as np
from mathutils import Vector

from ..core.geometry import bend_normal, offset_from_line
from ..core.rig import AXES, IKChain, RigView

BLOCKED_RATIO = 0.025
"""A chain whose free axes move the tip less than this share of what all its axes could, in
its weakest direction, cannot reach: 0 for every failing setup measured, 0.37 and more on every
working real rig (hinged horse, frog and spider legs included). Between them, a lower bone held
on X and rolled off its fold with Z free: rolled 1.5° (0.029) to 6° (0.12), the leg and the arm
with a pole fold about Z and land, bent 62° to 86° off the pole's plane; rolled 1° (0.0195) the
leg held by a zero-width limit stops short (measured on 4.2)."""


def blocked(pose_bone: bpy.types.PoseBone, axis: str) -> bool:
    """The solver cannot turn this bone about ``axis``: an IK lock or a zero-width IK limit."""
    if getattr(pose_bone, f"lock_ik_{axis}"):
        return True
    return getattr(pose_bone, f"use_ik_limit_{axis}") and math.isclose(
        getattr(pose_bone, f"ik_min_{axis}"), getattr(pose_bone, f"ik_max_{axis}"), abs_tol=1e-6
    )


def blocked_every_way(rig: RigView, chain: IKChain) -> bool:
    """Whether every turning bone of the chain is ``blocked`` about every axis: the solver can
    turn none of them, and only IK Stretch, if any, moves the tip."""
    return all(blocked(rig.pose_bone(name), axis) for name in chain.moving_bones for axis in AXES)


class TipMotion:
    """How each bone axis of a chain moves the tip at rest: one Jacobian column per axis."""

    def __init__(self, rig: RigView, chain: IKChain) -> None:
        tip = rig.chain_tip(chain)
        self.columns: dict[tuple[str, str], Vector] = {}
        for name in chain.bones:
            bone = rig.bone(name)
            for axis, direction in zip(AXES, (bone.x_axis, bone.y_axis, bone.z_axis), strict=True):
                self.columns[(name, axis)] = direction.cross(tip - bone.head)
        root = rig.bone(chain.root).head
        joint = max(
            (rig.bone(name).head for name in chain.bones[:-1]),
            key=lambda point: offset_from_line(point, root, tip).length,
        )
        self.normal = bend_normal(root, joint, tip)
        self._free: dict[bool, float] = {}

    def weakest(self, usable: set[tuple[str, str]], in_plane: bool = False) -> float:
        """Smallest singular value of the usable columns: how well the tip moves every way."""
        columns = [list(self.columns[key].to_tuple()) for key in self.columns if key in usable]
        size = 3
        if in_plane and self.normal is not None:
            first = self.normal.orthogonal().normalized()
            second = self.normal.cross(first)
            columns = [[Vector(c).dot(first), Vector(c).dot(second)] for c in columns]
            size = 2
        if len(columns) < size:
            return 0.0
        return float(np.linalg.svd(np.array(columns).T, compute_uv=False)[-1])

    def free_motion(self, in_plane: bool = False) -> float:
        """``weakest`` with every axis usable: what each restriction is measured against."""
        if in_plane not in self._free:
            self._free[in_plane] = self.weakest(set(self.columns), in_plane)
        return self._free[in_plane]

    def cannot_reach(self, usable: set[tuple[str, str]], in_plane: bool = False) -> bool:
        return self.weakest(usable, in_plane) < BLOCKED_RATIO * self.free_motion(in_plane)

    def bend_axis(self, rig: RigView, name: str) -> str | None:
        """The bone's local axis nearest the bend plane's normal: the axis it folds about."""
        normal = self.normal
        if normal is None:
            return None
        return axis_nearest(rig, name, normal)


def axis_nearest(rig: RigView, name: str, direction: Vector) -> str:
    """The bone's local axis (at rest) nearest ``direction``, either way."""
    bone = rig.bone(name)
    axes = (bone.x_axis, bone.y_axis, bone.z_axis)
    return AXES[max(range(3), key=lambda i: abs(axes[i].dot(direction)))]
