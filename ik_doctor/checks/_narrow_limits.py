"""IK limits that hold a chain back: a joint's fold cut short or turned away from the bend
(``core.reach.clamped_folds``), and the swing of a chain of one bone.

A chain of one bone (chain length 1, or the owner cut off its limb) reaches only by swinging.
Without a pole, where its IK limits hold that swing (posed by hand within its locks and limits,
its tip moves less than half as far as free: ``core.reach.held_back``, the test the oracle sets
its goals by), the solver leaves it where it is. Measured on the shin and the forearm cut from a
straight limb, with a one-sided limit of 150° on X or Z, alone or beside IK locks on the other
axes (Z, X, Y and Z, X and Y): every such chain stops 34.7% of its reach short, its tip unmoved;
with a pole, or without the limit, every one lands, and so does each whose limits do not hold
the swing (the other side, ±20°, ±60°)."""

from __future__ import annotations

import math

import bpy

from ..core.finding import IK_LIMIT, Finding, Severity, chain_finding
from ..core.limb import bend_limit, fold_off_x, forward_pose, has_degenerate_bone
from ..core.posed_bend import pose_flips_bend
from ..core.reach import (
    ClampedFold,
    clamped_folds,
    held_back,
    mirrored_fold_held_by,
    posed_longer,
    stretching_bones,
)
from ..core.rig import IKChain, RigView
from ..core.start import flip_lands
from ..core.started import start_set_by, started_bend
from ._hinge_turn import angle_turned_back
from ._other_joints import folds_by_hand
from ._stiffness_findings import aimed_by_a_pole
from ._tip_motion import TipMotion, blocked


def narrow_finding(rig: RigView, chain: IKChain, clamp: ClampedFold) -> Finding:
    axis = clamp.axis.upper()
    limit = f"{math.degrees(clamp.low):.3g}° to {math.degrees(clamp.high):.3g}°"
    how_far = (
        f"only {clamp.folded:.2g}°" if clamp.folded > 0.0 else "only away from the chain's bend"
    )
    by_hand = folds_by_hand(rig, chain)
    elsewhere = _folds_without(rig, chain, clamp) if by_hand is None else False
    effect = (
        "but the chain still folds in its plane about its other free axes (a joint rolled off "
        "the bend axis folds about the one the roll tilts into the plane): it reaches, its "
        "joint bent off the pole's plane (measured on "
        "the leg and the arm with ±6° and 0° limits: rolled 1.5° to 40° they land 27° to 77° off "
        "the pole's plane, rolled 90° in it; unrolled they stop 4.6% to 6.5% of the reach "
        "short)."
        if elsewhere
        else f"the chain of IK '{chain.constraint}' can barely fold and misses targets nearer "
        "its root."
    )
    held = posed_flip_held(rig, chain) or (
        angle_turned_back(rig, chain, "without the limit") if elsewhere else None
    )
    return chain_finding(
        "locks",
        rig,
        chain,
        bone=clamp.bone,
        severity=Severity.WARNING if elsewhere else Severity.ERROR,
        title="Limit folds off plane" if elsewhere else "IK limit too narrow",
        message=f"The {axis} IK limit of {clamp.bone} ({limit}) lets it fold {how_far}: {effect}",
        why=(
            "IK limits are angles from the rest pose that the solver never leaves; a joint "
            "that cannot fold toward its bend leaves the limb nearly straight, so its tip "
            "stops short of any target it would have to bend to reach."
        ),
        fix_id=None if held else "drop_limit",
        fix_label=None if held else f"Turn off the {axis} IK limit of {clamp.bone}",
        fix_args=(("axes", clamp.axis), ("cause", IK_LIMIT), ("bones", (clamp.bone,))),
        facts=(("folded", clamp.folded),),
        no_fix_reason=held,
    )


FLIPPED_START = 8.5
"""Degrees a joint must start bent the other way from its rest bend for a chain without a pole,
whose one-sided IK limit lets it fold only that way, to fold there and land
(``folds_the_limits_way``)."""
HALF_TURN_START = 165.0
"""Degrees bent the other way past which such a start reads as a half turn, which fails."""
OFF_THE_FOLD_START = 0.05
"""Radians the pose must turn such a chain's hinge (the root twisted or swung, tilting the
joint's bend axis) or swing its lower bone out of the bend plane for the solver, starting off
that plane, to fold the joint the limit's way and land (``turned_off_its_fold``)."""
OFF_THE_FOLD_NEEDS = 40
"""Iterations such a start needs: the most measured (the root twisted 0.05 rad)."""


def starts_the_limits_way(
    rig: RigView,
    chain: IKChain,
    without: bpy.types.Constraint | None = None,
    rested: tuple[str, ...] = (),
) -> bool:
    """Whether an IK limit of the chain lets it fold only away from its bend and the start
    folds it that way (``folds_the_limits_way``); ``without``: as if that constraint were
    muted; ``rested``: those bones' pose cleared."""
    return any(
        folds_the_limits_way(rig, chain, clamp, without, rested)
        for clamp in clamped_folds(rig, chain)
    )


def narrow_clamps(rig: RigView, chain: IKChain) -> list[ClampedFold]:
    """The IK limits that clamp the chain's fold where its start does not fold it their way
    (``folds_the_limits_way``): each is this check's "IK limit too narrow"."""
    return [c for c in clamped_folds(rig, chain) if not folds_the_limits_way(rig, chain, c)]


def folds_the_limits_way(
    rig: RigView,
    chain: IKChain,
    clamp: ClampedFold,
    without: bpy.types.Constraint | None = None,
    rested: tuple[str, ...] = (),
) -> bool:
    """Whether a two-bone chain without a pole, whose IK limit lets its joint fold only away from
    its rest bend, starts bent that way (by its pose or a constraint the IK overrides) far
    enough that the solver folds it there and it lands, the limit not holding that mirrored fold
    (``mirrored_fold_held_by``). Measured on 4.2 (fresh seed 393's class, false alarms of this
    check: a Track To at the control or a Damped Track at the pole starts the limb so): the leg
    (resting bent 7.6°) and the arm (13.7°) limited -150° to 0° or -90° to 0°, posed about X to
    start bent the other way 7.2° (the leg) or 8.3° (the arm) up to 162°, land, 6.9° and 7.8°
    stop 5.1% and 6.5% short, a half turn fails; limited -30° to 0° they stop 3.4% short.
    ``without``: as if that constraint were muted; ``rested``: those bones' pose cleared."""
    if clamp.folded > 0.0 or len(chain.moving_bones) != 2 or aimed_by_a_pole(rig, chain):
        return False
    bend = started_bend(rig, chain, without, rested)
    if -HALF_TURN_START < bend <= -FLIPPED_START:
        return mirrored_fold_held_by(rig, chain) is None
    return turned_off_its_fold(rig, chain, rested)


def turned_off_its_fold(rig: RigView, chain: IKChain, rested: tuple[str, ...] = ()) -> bool:
    """Whether the pose starts such a chain off its bend plane: its root twisted or swung so its
    joint's bend axis tilts ``OFF_THE_FOLD_START`` or more, or its lower bone swung that far out of
    the plane, with the iterations that start needs. Measured on 4.2 and 5.3 (fresh seed 424, a
    false alarm: the arm's upper arm keyed 0.8 and 0.4 rad), the leg and the arm without a pole
    limited -150°, -30°, -15°, -8° or -3° to 0°: the root twisted 0.05 to 3 rad or swung 0.02 to 3
    rad about Z, or the lower bone swung 0.05 or 0.3 rad about Z, land, needing 10 to 40 iterations
    (however narrow the limit, which a start bent its way is not); unposed, turned about X alone or
    twisted 0.02 (the leg 0.03), they stop 5.1% and 6.5% short, as with the lower bone twisted about
    its own Y. A constraint that sets the start was not measured so."""
    if rig.ik_constraint(chain).iterations < OFF_THE_FOLD_NEEDS:
        return False
    lower, root = chain.moving_bones
    if any(start_set_by(rig, chain, name) is not None for name in (lower, root)):
        return False
    posed = forward_pose(rig, chain, rested=rested)
    rest_root = rig.raw_bone(root).matrix_local.to_3x3()
    turn = posed[root].to_3x3().normalized() @ rest_root.inverted_safe()
    hinge = rig.raw_bone(lower).matrix_local.to_3x3().col[0].normalized()
    tilted = (turn @ hinge).normalized()
    swung = math.asin(min(1.0, abs(posed[lower].to_3x3().normalized().col[1].dot(tilted))))
    return max(tilted.angle(hinge, 0.0), swung) >= OFF_THE_FOLD_START - 1e-4


def limit_behind_the_lock(rig: RigView, chain: IKChain, name: str) -> str | None:
    """Why freeing the IK lock on the bend axis of ``name``, which without a pole folds about
    its other swing axis and lands ("Locked, folds off plane"), would leave the chain short: the
    IK limit on that axis lets the joint fold only straighter than it rests, and freed it folds
    in its plane (fresh seed 406, a trade: the forearm locked on X and limited -150° to 0°
    lands; unlocked, it stops 6.5% short under "IK limit too narrow")."""
    limited = bend_limit(rig, name, unlocked=True)
    if chain.pole is not None or limited is None or limited[2] > 1e-6:
        return None
    return (
        f"freed, {name} would fold in its plane, where its IK limit lets it fold only "
        "straighter than it rests, and the limb would stop short (this check's error): free "
        "that limit with it"
    )


def posed_flip_held(rig: RigView, chain: IKChain) -> str | None:
    """Why the limit that folds the chain off its plane (``folds_off_plane``), or holds a chain
    that reaches by IK Stretch, must stay while its pose bends the joint the other way: dropped,
    the joint folds in its plane from that start and bends away from the pole (the rest_pose
    check's error; measured on the arm rolled 30°, limited ±16°, posed -50°: it lands, and with
    the limit dropped ends 141° away; fresh seed 482, a trade: the arm stretching 0.1, limited
    ±6° and posed -20°, lands, and with the limit dropped ends 180° away)."""
    if chain.pole is None or not (folds_off_plane(rig, chain) or stretching_bones(rig, chain)):
        return None
    # As posed once the limit is gone, not held within it (the arm limited ±8° and posed -20°
    # starts bent the rest way within the limit).
    if not pose_flips_bend(rig, chain, forward_pose(rig, chain)) or flip_lands(rig, chain):
        return None
    return (
        "without the limit, the posed rotation would start the joint bent the other way, and "
        "the chain would bend away from its pole; clear the pose first"
    )


def folds_off_plane(rig: RigView, chain: IKChain) -> bool:
    """Whether an IK limit clamps the chain's fold and the joint, rolled off its bend axis,
    folds about its other free axis instead (the finding "Limit folds off plane"): a posed
    rotation about the clamped axis then decides nothing. Measured (fresh seed 254, a false
    error of ``rest_pose``): the arm rolled 30°, limited ±8° to ±16° on X, the leg rolled 60°
    at ±20°, posed -20° or -70° against the bend, land; rolled 10° at ±20° the leg, which
    folds in its plane, ends 107° to 109° from its pole."""
    return folds_by_hand(rig, chain) is None and any(
        _folds_without(rig, chain, clamp) for clamp in clamped_folds(rig, chain)
    )


ROLLED_ONTO_FREE_AXIS = 1.5
"""Degrees a joint's lower bone is rolled off the axis its chain folds about from which, its
own Z free, it folds past its X IK limit about Z (``rolled_onto_a_free_axis``)."""
ROLLED_FOLD_ROOM = 30.0
"""The most degrees an IK limit lets a rolled joint fold toward its bend for it to be read as
folding past it (``rolled_onto_a_free_axis``)."""
ROLLED_LONGER = 1.5
"""The most times its rest length a bone of the limb may be posed for that reading."""


def rolled_onto_a_free_axis(rig: RigView, chain: IKChain) -> bool:
    """Whether the chain's joint, rolled off its fold with its Z axis free (no IK lock, no IK
    limit), folds past the IK limits that clamp it: the roll tilts Z into the bend plane and
    the solver folds about it (it lands, its bend off the pole's plane). Measured on 4.2, the
    leg and the arm whose upper bone is posed 1.2 or 1.5 times longer (the lower not
    inheriting it), rolled 2° to 60° either way, limited ±20° or 0° to 30°: each lands; limited
    ±60°, or posed twice as long, most stop 0.1% to 0.4% short; rolled 1°, some."""
    off = fold_off_x(rig, chain)
    if off is None or off < ROLLED_ONTO_FREE_AXIS or len(chain.moving_bones) < 2:
        return False
    name = chain.moving_bones[0]
    joint = rig.pose_bone(name)
    if joint.lock_ik_z or joint.use_ik_limit_z or not joint.use_ik_limit_x:
        return False
    limit = bend_limit(rig, name)
    room = limit[2] if limit is not None else max(abs(joint.ik_min_x), abs(joint.ik_max_x))
    longer = posed_longer(rig, chain).values()
    return (
        math.degrees(room) <= ROLLED_FOLD_ROOM + 1e-6
        and max(longer, default=1.0) <= ROLLED_LONGER + 1e-3
    )


def _folds_without(rig: RigView, chain: IKChain, clamp: ClampedFold) -> bool:
    """Whether the chain still folds in its bend plane with the clamped axis held, by the same
    measure as a lock (``BLOCKED_RATIO`` of its free motion in the plane): a joint rolled off
    the bend axis folds about its other free axis, which the roll tilts into the plane."""
    if len(chain.bones) < 2 or has_degenerate_bone(rig, chain):
        return False
    motion = TipMotion(rig, chain)
    if motion.normal is None or motion.free_motion(in_plane=True) <= 1e-6 * rig.chain_reach(chain):
        return False  # straight: nothing folds in a plane
    # Another IK limit on the clamped joint holds that fold too: it must turn far about the
    # tilted axis (measured: the leg rolled 2° to 60°, limited on X, with its Z limited ±5.7°
    # stops short).
    joint = rig.pose_bone(clamp.bone)
    free = {
        (name, axis)
        for name, axis in motion.columns
        if not blocked(rig.pose_bone(name), axis)
        and not (name == clamp.bone and getattr(joint, f"use_ik_limit_{axis}"))
    }
    return not motion.cannot_reach(free, in_plane=True)


def held_swing_finding(rig: RigView, chain: IKChain) -> Finding | None:
    """The error for a chain of one bone without a pole whose IK limit holds its swing."""
    if not chain.use_tail or (chain.pole is not None and not chain.pole_bone_missing):
        return None
    if rig.detached_parent(chain) is not None:
        return None  # the parenting check speaks for a chain cut off its limb
    only = rig.pose_bone(chain.owner)
    limited = [axis for axis in "xz" if getattr(only, f"use_ik_limit_{axis}")]
    if not limited or not held_back(rig, chain):
        return None
    one_sided = [
        axis
        for axis in limited
        if getattr(only, f"ik_min_{axis}") >= 0.0 or getattr(only, f"ik_max_{axis}") <= 0.0
    ]
    axis = (one_sided or limited)[0]
    low, high = (math.degrees(getattr(only, f"ik_{end}_{axis}")) for end in ("min", "max"))
    return chain_finding(
        "locks",
        rig,
        chain,
        bone=chain.owner,
        severity=Severity.ERROR,
        title="Limit holds the swing",
        message=(
            f"The {axis.upper()} IK limit of {chain.owner} ({low:.3g}° to {high:.3g}°) holds the "
            f"swing of IK '{chain.constraint}', a chain of one bone without a pole: the solver "
            "leaves it where it is (measured on a shin and a forearm so limited: 34.7% of the "
            "reach short; without the limit, or with a pole, they land)."
        ),
        why=(
            "A chain of one bone reaches only by swinging toward the target. Posed by hand "
            "within its IK locks and limits it swings less than half as far as free; without a "
            "pole the solver then does not swing it at all."
        ),
        fix_id="drop_limit",
        fix_label=f"Turn off the {axis.upper()} IK limit of {chain.owner}",
        fix_args=(("axes", axis), ("cause", IK_LIMIT), ("bones", (chain.owner,))),
    )
