"""A joint held on its bend axis that does not inherit rotation, under a bone posed off that
axis: the pose turns the joint off the held axis where the solver starts, and the chain folds
about the axes left free, as a joint rolled off its bend axis does.

Measured on the leg and the arm (4.5), the lower bone not inheriting rotation and held on X by
an IK lock, a zero-width IK limit or one of ±3° or ±6°, the upper bone posed or keyed: at rest
or turned about X alone they stop 3.3% to 6.5% of the reach short (the locks check's error);
turned 0.03 rad or more about Y or Z (0.02 rad about Z; the keyed FK of 0.3 and 0.8 rad about X
and half that about Y) every one lands, with the body turned 40° either way. Held by a lock it
lands from 0.005 rad; by a limit, turned 0.02 rad about Y, the leg still misses. Inheriting
rotation, the same pose changes nothing: the joint turns with its parent."""

from __future__ import annotations

import math
from dataclasses import replace

from mathutils import Vector

from ..core.finding import Finding, Severity, lowered
from ..core.limb import forward_pose, parent_motion
from ..core.names import readable
from ..core.rig import AXES, IKChain, RigView
from ..core.started import NARROW_X_LIMIT
from ._lock_stretch import BEND_LOCKED_TITLE
from ._tip_motion import blocked

OFF_AXIS_START = 0.03
"""Radians the pose above must turn a joint off its held bend axis for the chain to land
(measured: every limb from 0.03, about Y or Z; below, some miss)."""
_HELD_TITLES = (BEND_LOCKED_TITLE, "IK limit too narrow")


def weighed_against_posed_parent(
    rig: RigView, chain: IKChain, findings: list[Finding]
) -> list[Finding]:
    """Each held bend axis's error made a warning where the pose turns that joint off it
    (``turned_off_its_bend``): the chain lands."""
    return [_weighed(rig, chain, finding) for finding in findings]


def _weighed(rig: RigView, chain: IKChain, finding: Finding) -> Finding:
    if finding.title not in _HELD_TITLES:
        return finding
    name = finding.bone or ""
    if finding.severity != Severity.ERROR:
        return _kept_for_a_joint_that_ignores_the_turn(rig, chain, finding, name)
    turned = turned_off_its_bend(rig, chain, name, str(finding.args.get("axes", "")))
    if turned is None:
        return finding
    parent = readable(rig.raw_bone(name).parent)
    reason = (
        f" But {name} does not inherit rotation, and the pose of {parent} turns it "
        f"{math.degrees(turned):.2g}° off that axis where the solver starts: it folds about "
        "the axes left free, and the chain lands (measured)."
    )
    (weighed,) = lowered([finding], reason, ("posed_off_axis", name), lambda _f: True)
    return _freed_together(weighed, name)


def _freed_together(finding: Finding, name: str) -> Finding:
    """The held axis's finding without its fix: freed alone, the joint, which ignores the turn
    above it, bends away from its pole (measured: 175° on the leg; the inherit check's error)."""
    return replace(
        finding,
        fix_id=None,
        fix_label=None,
        fix_args=(),
        no_fix_reason=held_together(name),
    )


def _kept_for_a_joint_that_ignores_the_turn(
    rig: RigView, chain: IKChain, finding: Finding, name: str
) -> Finding:
    """A held bend axis that IK Stretch makes up for, on a joint of a pole chain that does not
    inherit rotation, without its fix: held, the joint has no bend to flip and the chain lands
    by stretching; freed alone, it folds and bends away from its pole once the bones above turn
    (seed 159, measured on the leg and the arm: the trade of the locks fix)."""
    if (
        finding.fix_id is None
        or "stretching" not in finding.stated
        or chain.pole is None
        or rig.raw_bone(name).use_inherit_rotation
    ):
        return finding
    return replace(
        finding,
        fix_id=None,
        fix_label=None,
        fix_args=(),
        no_fix_reason=(
            f"freed alone, {name}, which does not inherit rotation, would fold and bend away "
            "from its pole once the bones above turn: turn its Inherit Rotation on first (the "
            "inherit check's fix)"
        ),
    )


def held_together(name: str) -> str:
    """Why neither the held axis nor the inheritance of ``name`` is fixed alone."""
    return (
        f"the held axis and {name}'s Inherit Rotation off make up for each other: freed alone, "
        "the joint would bend away from its pole once the bones above turn, and inheriting "
        "alone, the held axis would stop it short; turn Inherit Rotation on and free the axis "
        "together"
    )


def turned_off_its_bend(rig: RigView, chain: IKChain, name: str, axis: str) -> float | None:
    """Radians the pose above turns ``name``, a chain joint without Inherit Rotation held on
    its bend ``axis`` (a lock, or an IK limit within ``NARROW_X_LIMIT``: measured at 0°, 3° and
    6°; at 20° the turned limb misses by its bend) and free on another, off
    that axis where the solver starts, relative to its parent; None below ``OFF_AXIS_START``, or
    where its parent is held on any axis (not measured: locked on every axis, the arm and the
    leg stop 36% short whatever the pose)."""
    bone = rig.raw_bone(name)
    parent = bone.parent
    if (
        len(axis) != 1
        or axis not in AXES
        or bone.use_inherit_rotation
        or parent is None
        or readable(parent) not in chain.moving_bones
        or name not in chain.moving_bones
        or not held_on(rig, name, axis)
        or all(blocked(rig.pose_bone(name), other) for other in AXES if other != axis)
        or any(blocked(rig.pose_bone(readable(parent)), other) for other in AXES)
    ):
        return None
    posed = forward_pose(rig, chain, hinged=True)
    above = parent_motion(rig, chain.root).to_3x3().normalized()
    parent_now = above @ posed[readable(parent)].to_3x3().normalized()
    start = parent_now.inverted_safe() @ posed[name].to_3x3().normalized()
    rest = parent.matrix_local.to_3x3().inverted_safe() @ bone.matrix_local.to_3x3()
    turn = (rest.inverted_safe() @ start).to_quaternion()
    held = Vector([float(axis == a) for a in AXES])
    off = turn.angle * turn.axis.cross(held).length if turn.angle > 1e-9 else 0.0
    return off if off >= OFF_AXIS_START else None


def held_on(rig: RigView, name: str, axis: str) -> bool:
    """Whether the solver cannot turn ``name`` about ``axis`` beyond ``NARROW_X_LIMIT``."""
    pose_bone = rig.pose_bone(name)
    if blocked(pose_bone, axis):
        return True
    widest = max(abs(getattr(pose_bone, f"ik_{end}_{axis}")) for end in ("min", "max"))
    return bool(getattr(pose_bone, f"use_ik_limit_{axis}")) and widest <= NARROW_X_LIMIT + 1e-6
