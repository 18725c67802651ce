"""Locks findings weighed against a start turned about the free swing axis: an inner joint held
on its bend axis (X) alone, by a narrow IK limit or an IK lock, folds about Z once the solver
starts it turned about Z (``core.started.folds_past_its_x_hold``), posed so or set so by a
constraint the IK overrides (a Track To at the hand control rolls the forearm 90° about Z).

Such a chain lands on the hold and the start together: freeing the axis alone leaves the start
bending the joint away from its pole where the start is large or set by a constraint, and muting
the constraint alone leaves the joint straight about Z, short of the target. Their fixes wait.

Without a pole the solver starts the limb as posed, and a root turned about its own Y or Z
(``root_turn_that_folds``) folds such a joint about Z as well: keyed so, the limb lands, and
clearing the keys (``fk_ik_mix``) would stop it short, so that fix waits.
"""

from __future__ import annotations

import math
from dataclasses import replace

import bpy

from ..core.finding import IK_LIMIT, IK_LOCK, Finding, Severity, lowered
from ..core.limb import forward_pose
from ..core.names import readable
from ..core.rig import AXES, IKChain, RigView
from ..core.start import overridden_constraints
from ..core.started import (
    folds_past_its_x_hold,
    held_on_x_by_a_narrow_limit,
    limited_on_x_alone,
    locked_on_x_alone,
    sets_the_start,
    start_set_by,
    started_pose,
)

ROOT_TURN_THAT_FOLDS = {"y": (0.05, 3.0), "z": (0.5, 1.0)}
"""Radians (least, most) the pose turns a two-bone limb's root about its own Y (a twist, with or
without a turn about X) or, untwisted, about Z, with which its joint held on X by a narrow limit
alone folds the limb without a pole (``root_turn_that_folds``). Measured on the arm and the leg
limited 0°, ±3° and ±6°: twisted 0.05 to 3.0 they land, 0.025 fails (4.6% to 6.5% of the reach
short; 0.03 lands the arm, not the leg); turned 0.5 or 1.0 about Z they land, about X alone they
fail; with a pole every such start fails, the pole setting the limb's plane."""


def root_turn_that_folds(rig: RigView, chain: IKChain) -> tuple[str, float] | None:
    """The axis ("y" or "z") and radians the pose turns the root of a two-bone limb without a
    pole, free of IK locks and limits and of other constraints, where that turn lets its joint,
    held on X by a narrow limit alone, fold and land (``ROOT_TURN_THAT_FOLDS``); else None."""
    if chain.pole is not None or len(chain.moving_bones) != 2:
        return None
    joint, root = chain.moving_bones
    pose_bone = rig.pose_bone(root)
    settings = [f"{setting}_{axis}" for setting in ("lock_ik", "use_ik_limit") for axis in AXES]
    if any(getattr(pose_bone, setting) for setting in settings):
        return None
    if not held_on_x_by_a_narrow_limit(rig, joint) or next(
        overridden_constraints(rig, [root]), None
    ):
        return None  # another constraint on the root sets its start: not measured
    swing, twist = pose_bone.matrix_basis.to_quaternion().to_swing_twist("Y")
    about_z = swing.axis.z * swing.angle
    for axis, turn in (("y", twist), ("z", about_z if abs(twist) < 1e-4 else 0.0)):
        least, most = ROOT_TURN_THAT_FOLDS[axis]
        if least - 1e-4 <= abs(turn) <= most + 1e-4:
            return axis, turn
    return None


def turn_that_fails_with_a_pole(rig: RigView, chain: IKChain) -> str | None:
    """Why giving this chain a pole would stop it short: its root's posed turn folds its joint,
    held on X by a narrow limit, only while no pole sets the limb's plane
    (``ROOT_TURN_THAT_FOLDS``: with one, 4.6% to 6.5% of the reach short)."""
    turn = root_turn_that_folds(rig, chain)
    if turn is None:
        return None
    return (
        f"{chain.root} is posed turned {abs(turn[1]):.2g} rad about its own {turn[0].upper()}, "
        f"which folds {chain.moving_bones[0]}, held on X by a narrow IK limit, only while no "
        "pole sets the limb's plane: with one, the limit would stop it short (the locks check's "
        "error); free that limit first"
    )


FREED_LANDS = 1.5
"""Radians about Z up to which a joint posed so still lands once its narrow X limit is
freed (measured on the arm and the leg: 0.004 to 1.5 either way land; 2 and 3 bend the joint 92°
to 103° away from its pole)."""


def swung_past_x_holds(
    rig: RigView,
    chain: IKChain,
    without: bpy.types.Constraint | None = None,
    rested: tuple[str, ...] = (),
) -> dict[str, float]:
    """Each turning bone held on X alone, by a narrow limit or an IK lock, that the solver
    starts turned about Z enough to fold the limb (``folds_past_its_x_hold``), with that turn
    (radians); empty where the start is not modelled (a constraint the IK overrides that
    ``started_pose`` does not turn the bone by). ``without``: as if that constraint were
    muted; ``rested``: as if those bones' keys were cleared."""
    if not any(
        limited_on_x_alone(rig.pose_bone(name)) or locked_on_x_alone(rig.pose_bone(name))
        for name in chain.moving_bones
    ):
        return {}  # most chains: nothing to fold past, and no start worth reading
    posed = forward_pose(rig, chain)
    modelled = all(
        constraint == without or sets_the_start(rig, chain, constraint, posed[bone])
        for bone, constraint in overridden_constraints(rig, chain.moving_bones)
    )
    if not modelled:
        return {}
    started = started_pose(rig, chain, without, rested)
    swings = {
        name: folds_past_its_x_hold(rig, chain, name, started, reaching=True)
        for name in chain.bones
    }
    return {name: swing for name, swing in swings.items() if swing is not None}


def weighed_against_swing(rig: RigView, chain: IKChain, findings: list[Finding]) -> list[Finding]:
    """X lock and narrow X limit errors (zero-width included) made warnings where every joint
    they name starts turned about Z within what was measured to fold the limb
    (``swung_past_x_holds``); the fix waits where freeing the axis alone would bend the joint
    away (``freeing_breaks``)."""
    limited = [f for f in findings if _x_limit_error(f)]
    swings = swung_past_x_holds(rig, chain) if limited else {}
    if limited and [f.bone for f in limited] == [chain.moving_bones[0]] and not swings:
        turn = root_turn_that_folds(rig, chain)
        if turn is not None:
            reason = (
                f" But without a pole the solver starts the limb as posed, {chain.root} turned "
                f"{abs(turn[1]):.2g} rad about its own {turn[0].upper()}: the joint held on X "
                "alone then folds about Z and lands (measured)."
            )
            return lowered(findings, reason, ("root_turned", turn), _x_limit_error)
    if not limited or any(f.bone not in swings for f in limited):
        return findings
    said = ", ".join(f"{f.bone} {abs(swings[f.bone or '']):.2g} rad" for f in limited)
    reason = (
        f" But the solver starts it turned about its own Z ({said}): held on X alone, it folds "
        "about Z and its tip reaches the target (measured)."
    )
    named = tuple(f.bone for f in limited)
    weighed = lowered(findings, reason, ("swung_start", named), _x_limit_error)
    return [_waiting(rig, chain, f, swings) if f.stated.get("swung_start") else f for f in weighed]


def freeing_breaks(rig: RigView, chain: IKChain, bone: str, swing: float) -> str | None:
    """Why freeing the narrow limit of ``bone``, which the solver starts turned ``swing`` about
    Z (``swung_past_x_holds``), alone would break a chain that lands on it (None: it may
    be freed): the start that folds it would then bend the joint away."""
    constraint = start_set_by(rig, chain, bone)
    if constraint is not None:
        # Measured: the arm whose forearm a Track To at the hand control starts 90° about Z
        # lands on a narrow X limit and bends away from its pole without it.
        return (
            f"the start that '{readable(constraint)}' gives {bone} is what folds it past its "
            "hold on X: freed alone, that start would bend the joint away from its pole; free "
            "that axis and mute that constraint together"
        )
    if abs(swing) > FREED_LANDS:
        return (
            f"{bone} is posed {math.degrees(abs(swing)):.0f}° about Z, which folds it past its "
            "hold on X: freed alone, that pose would bend the joint away from its pole; free "
            "that axis and clear the pose together"
        )
    return None


def _waiting(rig: RigView, chain: IKChain, finding: Finding, swings: dict[str, float]) -> Finding:
    name = finding.bone or ""
    reason = freeing_breaks(rig, chain, name, swings[name])
    if reason is None:
        return finding
    return replace(finding, fix_id=None, fix_label=None, no_fix_reason=reason)


def _x_limit_error(finding: Finding) -> bool:
    """An error on a bone held on X by a narrow IK limit or an IK lock."""
    return (
        finding.severity == Severity.ERROR
        and finding.fix_id in ("free_axes", "drop_limit")
        and finding.args.get("cause") in (IK_LIMIT, IK_LOCK)
        and finding.args.get("axes") == "x"
    )
