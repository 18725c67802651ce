"""Constraint order: what happens to an IK and to the other constraints of its chain.

Blender solves an IK after every other constraint of the chain's bones, whatever their order in
the stack (measured in 4.2 and 5.3). So a Copy Rotation, Copy Transforms or Damped Track on a
chain bone is silently overridden, and a Limit Rotation does not limit the IK: only the bone's
IK limits (``use_ik_limit_*``) do. Overridden is not harmless on an inner joint (a knee): the
solver starts from the rotation such a constraint sets, and a start bent the other way flips the
knee away from its pole (``core.start``: an error; a start bent the rest way is a warning). A
muted IK, or one at influence 0, does nothing; at a lower influence the tip stops short of the
target, except under iTaSC, which ignores influence (measured: the leg and the arm reach alike
at 0 and 0.5). An IK whose owner lies inside another active IK's
chain is solved in one tree with it, and the outer chain's target wins, unless a straight chain
that never folds aims its line at the inner IK's control, along which the inner bone lies: the
two outweigh it (``duplicates`` warns of the pair).

A muted IK that is half of a switch (a second IK on the same bone, as Rigify pairs a pole and a
no-pole IK, or an IK whose mute or influence is driven or keyed) is off on purpose: that is
information, not a fault.

What it reports:

- An IK muted or at influence 0: an error, it does nothing.
- An IK below influence 1: an error, the tip stops short. A warning under iTaSC, which ignores
  influence (measured: the leg and the arm reach alike at 0, 0.5, 0.95 and 1, in 4.2 and 5.3).
- Neither when a driver or keys switch the IK, or, for one muted or at 0, when an active twin IK
  is on the bone: information. At 0.95 beside a live twin the leg stops 1.9% short.
- Copy Rotation, Copy Transforms, Damped Track, Locked Track, Track To or a rotation Transform on a
  chain bone, which the IK solves after and overrides: a warning. An error on an inner joint of a
  pole chain when the rotation it sets, where the solver starts, bends the joint backwards,
  straight, or more than 45° out of its bend plane, or is a copied rotation bent the rest way by
  less than the 40° the body turns, which it does not follow; a Track To so under any of the body's
  turns, since its up axis is the world's, which the hips do not carry, and out of the plane only
  where the side it starts bent to lies more than 91° from the rest side, which the solver keeps
  (measured: one on the shin at the foot control starts it 128° the rest way, and 52° the other way
  with the hips turned -40° about X; the thigh scaled 1.5 over a shin that inherits no scale starts
  it 154° the rest way under every turn, and the leg lands). Not on a joint of a two-bone limb bent
  at rest whose IK limit lets it fold only further than it rests, which keeps its side whatever its
  start (the leg and the arm limited 0° to 30° up to 0° to 150° land under a Copy Rotation, a Track
  To or a Damped Track that starts them flipped). A Track To on an inner joint of a chain in a
  mirrored armature (a negative object scale): an error, its start comes out reflected and the chain
  stops 17% to 143% of its reach short (the leg and the arm, any pole angle). Only the last
  constraint in the bone's stack that sets its rotation sets the start; those above it are merely
  overridden (measured: the shin copying the hand control's rotation bends 91° from its pole, and
  lands with a Damped Track at the foot control below the copy). A track at the chain's own target
  is read where the limb folds, where its bend shows: the keyed thigh 17° forward starts the shin
  26° the other way at the rest tip, 3° the rest way folded, and the leg lands; out of the chain's
  reach (the hips turned 181° leave the hand control 2.9 reaches from the shoulder) the chain ends
  straight toward it whatever the start, and the arm lands. A hinge (a bone its IK locks leave free
  about X or Z alone) keeps only its angle of that start: measured, the forearm locked on Y and Z
  copying the shoulder's or the foot control's rotation, which lays its Z axis on the hinge, leaves
  the angle to rounding and bends 180° from its pole (an error); the shin so locked copying the hand
  control's keeps an angle folded the rest way and lands (a warning). The copied bone is read
  without what turns the whole limb: a thigh IK without Use Tail turning the hips 174° turns the
  shoulder and the upper arm alike. Blended, local-space or otherwise unmodelled ones stay warnings.
  A warning on a limb built bending away from its pole (a pole behind the bend): the flipped start
  either turns it back to its built bend or leaves it facing the pole, and it lands (measured: the
  shin copying the hips' rotation, 180° from its pole alone, ends on its built bend under a pole
  behind it, 0.0036% short). A warning where the pole angle turns that flipped start back round to
  the pole (``core.start.start_turned_back``, the body as modelled and turned 40° each way):
  measured, a Damped Track at the pole on the forearm or the shin lands with the angle turned 120°
  to 180°, and fails at 100° and 110°, where the error stands; on a limb straight at rest, which the
  track bends away from the pole at the rest angle, it lands with the angle turned 150° or 180°. A
  warning on a joint held on X by a zero-width or narrow IK limit alone that the start turns about Z
  (``core.started.folds_past_its_x_hold``): it folds about Z and lands (measured: the forearm
  limited 0° to ±6°, a Track To at the hand control starting it 90° about Z). A warning where
  another IK, turning the chain's bones toward a goal of its own, is solved with it as one tree (not
  a twin at the same control): where the flipped start ends is the tree's (measured: under a thigh
  IK with Use Tail at the foot control the shin copying the hips' rotation lands, with a Track To at
  the control it still flips); the other IK's error stands, and once it is fixed the chain is solved
  alone and flips.
- Limit Rotation on a chain bone, which does not limit IK: a warning.
- An IK nested inside another IK's longer, valid chain and sharing a bone it turns, which misses
  its target: an error.

What its fixes do:

- Unmute, and set influence 1.
- Copy a Local-space Limit Rotation's ranges to the bone's IK limits, clamped to what they hold.
  Not a range that would keep the joint from folding, which the ``locks`` check would call an
  error.
- Mute the overridden constraint: it asks first, and says what it did. Not a Damped Track that
  starts a straight chain bent, nor one that sets where a joint without inherited rotation
  starts, nor one that replaces a posed rotation that would flip the joint, nor a world-space
  copy that rebuilds a sheared bone's matrix, nor one whose flipped start the pole angle turns
  back, nor a Damped Track that aims a chain whose IK locks block its bend at its target, nor
  one whose start lets the chain's few iterations land or folds a joint past its narrow X
  limit, nor one below a constraint whose start would flip the joint once it is muted: muted,
  the limb would fail.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

import bpy

from ..core.armature import pose_of
from ..core.editing import constraint_on
from ..core.finding import NESTED_IK, NESTED_IK_REASON, Finding, Severity, chain_finding
from ..core.limb import FULL_INFLUENCE, STRAIGHT_RATIO, bend_offset, pole_behind_bend
from ..core.names import readable
from ..core.reach import holds_the_fold, mirrored_fold_held_by, solved_by_itasc
from ..core.registry import Check
from ..core.rig import AXES, IKChain, RigView
from ..core.start import (
    FLAT_SIDE_ON,
    flat_start_side_on,
    side_on_mute_waits,
    start_flips_the_bend,
    start_set_by,
    start_turned_back,
    target_tracking_joint,
)
from ..core.start import straight_start as straight_start_of
from ..core.switches import animated_switch, off_state, switched_by, turn_on
from ._limits_start import limits_start
from ._locks_what_if import lock_holds_the_bend_of
from ._mute_blocks import why_not_muted
from ._overridden_start import (
    HOLDS_THE_START,
    flipped_in_a_tree,
    mirrored_track,
    turned_back_words,
    what_it_does,
)
from ._shared_control import line_aimer
from ._stiffness_findings import tree_partner
from ._straight_pairs import aimed_along_a_straight_chain
from ._straight_start import flat_start_away, flat_start_by_rounding
from .duplicates import clash_after

OVERRIDDEN = {
    "COPY_ROTATION": "copies the rotation of {target}",
    "COPY_TRANSFORMS": "copies the transforms of {target}",
    "DAMPED_TRACK": "points the bone at {target}",
    "TRACK_TO": "points the bone at {target}",
    "LOCKED_TRACK": "turns the bone toward {target} about one axis",
    "TRANSFORM": "maps the transforms of {target} to the bone's rotation",
}
"""Constraints whose effect on a chain bone is a rotation, which the IK solved after them
replaces (measured: the chain ends where it would without them)."""


def find_constraint_order_problems(rig: RigView, options: Mapping[str, Any]) -> Iterator[Finding]:
    nested = {finding.chain: finding for finding in _overlaps(rig)}
    reported: set[tuple[str, str]] = set()
    for chain in rig.chains:
        weak_ik = not chain.live or chain.influence < FULL_INFLUENCE
        # An active twin switches off only an IK that is off: beside one that is on, even
        # blended (at 0.95 it stops 1.9% of the leg's reach short, measured), it is a duplicate.
        reason = switched_by(rig, chain) if not chain.live else animated_switch(rig, chain)
        if weak_ik:
            weak = _weak_ik(rig, chain, reason)
            if weak.fix_id is None and chain.key in nested:
                # Both would say something about this IK with no fix: one finding, one key.
                weak = _also_switched(nested.pop(chain.key), weak)
            yield weak
        if chain.influence < FULL_INFLUENCE or not chain.live or reason is not None:
            # The other constraints of the chain show whenever this IK is off or blended.
            continue
        for bone in chain.bones:
            for constraint in rig.constraints(bone):
                if (bone, readable(constraint)) in reported or not _acts(constraint):
                    continue
                finding = _overridden(rig, chain, bone, constraint)
                if finding is not None:
                    reported.add((bone, readable(constraint)))
                    yield finding
    yield from nested.values()


def _weak_ik(rig: RigView, chain: IKChain, switch_reason: str | None) -> Finding:
    where = f"IK '{chain.constraint}' on {chain.owner}"
    state = off_state(chain)
    if switch_reason is not None:
        return chain_finding(
            "constraint_order",
            rig,
            chain,
            severity=Severity.INFO,
            title="IK off by its switch",
            message=f"{where} is {state} on purpose: {switch_reason}.",
            why="It is one half of an IK switch; the rig turns it on when it is needed.",
            no_fix_reason="nothing to fix: the rig switches this IK itself",
        )
    # Measured on the leg and the arm, in 4.2 and 5.3: iTaSC solves an IK at influence 0, 0.5
    # or 0.95 as at 1 (0.008% and 0.013% of the reach off at precision 0.001); muted, it is off.
    ignored = solved_by_itasc(rig) and not chain.mute
    if ignored:
        title = "Influence ignored (iTaSC)"
        message = (
            f"{where} is {state}, which the iTaSC solver ignores: it solves the chain as at "
            "influence 1, and the setting takes effect only under the Standard solver."
        )
        why = (
            "iTaSC does not blend an IK by its influence (measured: the leg and the arm reach "
            "alike at influence 0, 0.5, 0.95 and 1); under the Standard solver the tip would "
            "stop short."
        )
    elif not chain.live:
        title = "IK switched off"
        message = f"{where} is {state}: the IK does nothing."
        why = "A muted IK, or one at influence 0, is skipped: the chain stays in its FK pose."
    else:
        title = "IK influence below 1"
        message = f"{where} is {state}: the tip stops short of the target."
        why = (
            "Influence blends the solved pose with the FK pose, so the chain moves only part "
            "of the way to the target; nothing drives or keys the influence."
        )
    # Measured: a muted shin IK beside a thigh IK on the foot control, or a forearm's beside a
    # hand IK on the hand control: unmuted, the two fight and the one that reached misses.
    rival = None if chain.live else clash_after(rig, replace(chain, mute=False, influence=1.0))
    return chain_finding(
        "constraint_order",
        rig,
        chain,
        severity=Severity.WARNING if ignored else Severity.ERROR,
        title=title,
        message=message,
        why=why,
        fix_id=None if rival else "enable_ik",
        fix_label=None if rival else "Unmute the IK and set its influence to 1",
        no_fix_reason=None
        if rival is None
        else (
            f"unmuted, it would fight IK '{rival.constraint}' on {rival.owner} for the same "
            "bones or control and one of them would miss (the duplicates check's error): "
            "delete or mute the IK you did not mean first"
        ),
        facts=(("rival_ik", None if rival is None else (rival.owner, rival.constraint)),),
    )


def _also_switched(nested: Finding, switch_note: Finding) -> Finding:
    """The nested IK's error, also saying that its mute or influence is a switch's doing."""
    return replace(
        nested,
        message=f"{nested.message} {switch_note.message}",
        facts=(("off_by_switch", True),),
    )


def _acts(constraint: bpy.types.Constraint) -> bool:
    return (
        constraint.type != "IK"
        and not constraint.mute
        and constraint.influence > 0.0
        and constraint.is_valid
    )


def _overridden(
    rig: RigView, chain: IKChain, bone: str, constraint: bpy.types.Constraint
) -> Finding | None:
    if constraint.type == "LIMIT_ROTATION":
        return _limit_rotation_ignored(rig, chain, bone, constraint)
    return _rotation_overridden(rig, chain, bone, constraint)


def _finding(
    rig: RigView, chain: IKChain, bone: str, constraint: bpy.types.Constraint, **fields: Any
) -> Finding:
    return chain_finding(
        "constraint_order", rig, chain, bone=bone, constraint=readable(constraint), **fields
    )


def _limit_rotation_ignored(
    rig: RigView, chain: IKChain, bone: str, constraint: bpy.types.Constraint
) -> Finding | None:
    """A Limit Rotation the solver ignores; copied to IK limits when that keeps the fold."""
    ik = f"IK '{chain.constraint}' on {chain.owner}"
    axes = _limited_axes(constraint)
    if not axes or _ik_limits_match(rig.pose_bone(bone), constraint, axes):
        return None
    local = constraint.owner_space == "LOCAL"
    holding = [
        axis
        for axis in axes
        if local and holds_the_fold(rig, chain, bone, axis, *_ik_range(constraint, axis))
    ]
    convertible = local and not holding
    if holding:
        low, high = (math.degrees(v) for v in _ik_range(constraint, holding[0]))
        no_fix = (
            f"as IK limits its {holding[0].upper()} range ({low:.3g}° to {high:.3g}°) would "
            f"keep {bone} from folding, and the limb from reaching targets nearer its root "
            "(the locks check's narrow limit): widen the range first, or leave the IK "
            "unlimited"
        )
    else:
        no_fix = (
            f"its ranges are in {constraint.owner_space.replace('_', ' ').lower()} space, "
            "and IK limits are angles from the rest pose in the bone's own axes: set them "
            "by hand (Bone properties > Inverse Kinematics)"
        )
    return _finding(
        rig,
        chain,
        bone,
        constraint,
        severity=Severity.WARNING,
        title="Limit Rotation ignored",
        message=(
            f"Limit Rotation '{readable(constraint)}' on {bone} does not limit {ik}: the "
            f"chain turns past its {'/'.join(a.upper() for a in axes)} range."
        ),
        why=(
            "Blender solves IK after the other constraints of the chain and ignores their "
            "limits; only the bone's IK limits (use_ik_limit_*) bound the solver."
        ),
        fix_id="convert_limit" if convertible else None,
        fix_label=(f"Copy its ranges to {bone}'s IK limits" if convertible else None),
        # What keeps the copy back: a range that would hold the fold, or the wrong space.
        facts=(("blocked_by", None if convertible else "holds_fold" if holding else "space"),),
        no_fix_reason=None if convertible else no_fix,
    )


def _rotation_overridden(
    rig: RigView, chain: IKChain, bone: str, constraint: bpy.types.Constraint
) -> Finding | None:
    """A constraint whose rotation the solver replaces: overridden, or setting where it starts."""
    ik = f"IK '{chain.constraint}' on {chain.owner}"
    purpose = OVERRIDDEN.get(constraint.type)
    if purpose is None:
        return None
    if isinstance(constraint, bpy.types.TransformConstraint) and constraint.map_to != "ROTATION":
        return None
    kind = constraint.type.replace("_", " ").title()
    what = purpose.format(target=_target_name(constraint))
    moves_head = constraint.type == "COPY_TRANSFORMS" and not rig.bone(bone).use_connect
    straight_start = _pre_bends_a_straight_chain(rig, chain, bone, constraint)
    # A limb built bending away from its pole lands bent either way: the flipped start either
    # turns it back to its built bend or leaves it facing the pole, and the oracle passes both
    # (measured: the shin copying the hips' rotation flips the leg 180° from its pole alone,
    # and under a pole behind the bend ends on its built bend, 0.0036% short; a Track To at the
    # control lands there too, stiff thigh or not).
    flips = start_flips_the_bend(rig, chain, bone, constraint)
    # Flipped, the joint folds the mirrored way, where a narrow IK limit holds it short (fresh
    # seed 314: the shin copying the hips' rotation, limited ±20°, the pole behind the bend or
    # turned side-on, stops 2.3% short; measured: ±44° stops 0.35% short, ±45° lands).
    held = flips and mirrored_fold_held_by(rig, chain) is not None
    faces_the_pole = flips and not held and pole_behind_bend(rig, chain)
    # Measured: a Damped Track at the pole on the forearm or the shin lands with the pole angle
    # turned 120° to 180°, and fails at 100° and 110° (core.start_bends.TURNED_BACK_BEND).
    turned_back = start_turned_back(rig, chain) == (bone, readable(constraint))
    flat = flat_start_by_rounding(rig, chain) == (bone, readable(constraint))
    severity, title, effect, why = (
        turned_back_words(chain)
        if turned_back
        else what_it_does(flips, faces_the_pole, straight_start, moves_head, flat)
    )
    blocked_by, no_mute = why_not_muted(
        rig, chain, bone, constraint, moves_head, straight_start, turned_back
    ) or (None, None)
    if blocked_by == "locks" and flips and lock_holds_the_bend_of(rig, chain, bone):
        # Its own bend axis locked, the bone cannot fold the way the start shows (fresh seed
        # 129; measured on the arm and the leg, the upper bone keyed -1.5 to 1.5 rad about X and
        # half that about Y: every one lands): the locks check's warning says what holds.
        severity = Severity.WARNING
    # Only a start that lands aims it: one that flips the joint stays that error, its mute
    # waiting all the same (seed 155: the leg at 5 iterations under a Track To at the foot
    # control stops 10% short, and with its iterations set the joint flips 180°).
    if blocked_by in HOLDS_THE_START and severity is Severity.WARNING:
        title, effect = "Constraint aims the start", HOLDS_THE_START[blocked_by]
    if severity is Severity.ERROR and (partner := tree_partner(rig, chain)) is not None:
        severity, title, effect = flipped_in_a_tree(partner)
    if flips and not held and flat_start_side_on(rig, chain) == (bone, readable(constraint)):
        severity, title, effect = Severity.WARNING, "Flat start, side-on", FLAT_SIDE_ON
        if (waits := side_on_mute_waits(rig, chain)) is not None:
            blocked_by, no_mute = "pole_angle", waits
    if (mirrored := mirrored_track(rig, chain, bone, constraint)) is not None:
        severity, title, effect, why = mirrored
        if blocked_by == "pole_angle":
            # The flip the angle was read to undo is the unmirrored start's: muted, the chain
            # bends as its angle turns it (measured: the arm turned 60° lands, 51° off its pole).
            blocked_by = no_mute = None
    return _finding(
        rig,
        chain,
        bone,
        constraint,
        severity=severity,
        title=title,
        message=(
            f"{kind} '{readable(constraint)}' on {bone} ({what}) is overridden by {ik}: {effect}"
        ),
        why=why,
        fix_id=None if no_mute else "mute_overridden",
        fix_label=None if no_mute else f"Mute '{readable(constraint)}' (it {what})",
        fix_args=(("purpose", what),),
        facts=(("copies_location", moves_head), ("blocked_by", blocked_by)),
        no_fix_reason=no_mute,
        needs_confirmation=no_mute is None,
    )


def _pre_bends_a_straight_chain(
    rig: RigView, chain: IKChain, bone: str, constraint: bpy.types.Constraint
) -> bool:
    """Whether the chain, straight at rest, folds from the bend this constraint gives it where
    the solver starts."""
    # A chain straight at rest folds the way this bends it where the solver starts: the track
    # at its target, or another constraint whose bend lands (``core.start.straight_start``).
    # Without a pole, its start is all that folds a chain whose line another IK aims at the
    # control (``line_aimer``; measured: the arm copying another's rotation or tracking the
    # control lands, muted it stops 4.3% short).
    return bend_offset(rig, chain) < STRAIGHT_RATIO and (
        target_tracking_joint(rig, chain) == (bone, readable(constraint))
        or (
            (found := straight_start_of(rig, chain)) is not None
            and found[:2] == (bone, readable(constraint))
            and (found[2] or limits_start(rig, chain) == "lands")
        )
        or (
            chain.pole is None
            and start_set_by(rig, chain, bone) == constraint
            and line_aimer(rig, chain) is not None
        )
        or flat_start_away(rig, chain) == (bone, readable(constraint))
    )


def _target_name(constraint: bpy.types.Constraint) -> str:
    target = getattr(constraint, "target", None)
    if target is None:
        return "its target"
    subtarget = readable(constraint, "subtarget", "")
    return f"'{subtarget}'" if subtarget else f"'{readable(target)}'"


def _limited_axes(constraint: bpy.types.Constraint) -> list[str]:
    return [axis for axis in AXES if getattr(constraint, f"use_limit_{axis}")]


def _ik_range(constraint: bpy.types.Constraint, axis: str) -> tuple[float, float]:
    """The Limit Rotation range on one axis, clamped to what IK limits can hold."""
    low = getattr(constraint, f"min_{axis}")
    high = getattr(constraint, f"max_{axis}")
    return min(max(low, -math.pi), 0.0), max(min(high, math.pi), 0.0)


def _ik_limits_match(
    pose_bone: bpy.types.PoseBone, constraint: bpy.types.Constraint, axes: list[str]
) -> bool:
    for axis in axes:
        low, high = _ik_range(constraint, axis)
        if not (
            getattr(pose_bone, f"use_ik_limit_{axis}")
            and math.isclose(getattr(pose_bone, f"ik_min_{axis}"), low, abs_tol=1e-5)
            and math.isclose(getattr(pose_bone, f"ik_max_{axis}"), high, abs_tol=1e-5)
        ):
            return False
    return True


def _overlaps(rig: RigView) -> Iterator[Finding]:
    """Live IKs whose owner lies inside another active IK's chain (``RigView.nesting_chain``):
    the outer chain wins."""
    for inner in rig.chains:
        outer = rig.nesting_chain(inner) if inner.live else None
        if outer is None or aimed_along_a_straight_chain(rig, inner):
            continue
        yield chain_finding(
            "constraint_order",
            rig,
            inner,
            severity=Severity.ERROR,
            title="Nested IK misses",
            message=(
                f"IK '{inner.constraint}' on {inner.owner} sits inside the chain of IK "
                f"'{outer.constraint}' on {outer.owner}, which also moves "
                f"{', '.join(b for b in inner.bones if b in outer.bones)}: it misses its "
                "target."
            ),
            why=(
                "Blender solves IKs that share bones as one tree; the longer chain pulls the "
                "shared bones toward its own target, so the inner IK's target is not reached."
            ),
            fix_args=(("cause", NESTED_IK),),
            facts=(("off_by_switch", False),),
            no_fix_reason=NESTED_IK_REASON,
        )


def enable_ik(obj: bpy.types.Object, finding: Finding) -> str:
    was = turn_on(obj, finding, bpy.types.KinematicConstraint)
    return f"IK '{finding.constraint}' on {finding.bone} was {was}; it is now on at influence 1."


def mute_overridden(obj: bpy.types.Object, finding: Finding) -> str:
    constraint = constraint_on(obj, finding.bone, finding.constraint, bpy.types.Constraint)
    constraint.mute = True
    owner, ik = finding.chain or ("", "")
    return (
        f"Muted '{constraint.name}' on {finding.bone}, which {finding.args['purpose']} but "
        f"was overridden by IK '{ik}' on {owner}."
    )


def convert_limit(obj: bpy.types.Object, finding: Finding) -> str:
    pose_bone = pose_of(obj).bones[finding.bone or ""]
    constraint = constraint_on(
        obj, finding.bone, finding.constraint, bpy.types.LimitRotationConstraint
    )
    ranges = []
    for axis in _limited_axes(constraint):
        low, high = _ik_range(constraint, axis)
        setattr(pose_bone, f"use_ik_limit_{axis}", True)
        setattr(pose_bone, f"ik_min_{axis}", low)
        setattr(pose_bone, f"ik_max_{axis}", high)
        clamped = (low, high) != (
            getattr(constraint, f"min_{axis}"),
            getattr(constraint, f"max_{axis}"),
        )
        ranges.append(
            f"{axis.upper()} {math.degrees(low):.4g}° to {math.degrees(high):.4g}°"
            + (" (clamped: IK limits run from -180° to 0° and 0° to 180°)" if clamped else "")
        )
    return (
        f"Set the IK limits of {finding.bone} to the ranges of Limit Rotation "
        f"'{readable(constraint)}': {', '.join(ranges)}."
    )


CHECK = Check(
    id="constraint_order",
    title="Constraint order",
    doc=__doc__ or "",
    find=find_constraint_order_problems,
    fixes={
        "enable_ik": enable_ik,
        "mute_overridden": mute_overridden,
        "convert_limit": convert_limit,
    },
    order=40,
)
