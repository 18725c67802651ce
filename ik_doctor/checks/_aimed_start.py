"""Locks findings weighed against a Damped Track that aims a chain's first turning bone at the
chain's own target: the solver starts that bone pointing at the target and lands the chain by
turning it, past locks that would leave it short (``weighed_against_aim``)."""

from __future__ import annotations

import math
from dataclasses import replace

import bpy

from ..core.finding import Finding, Severity, lowered
from ..core.names import readable
from ..core.reach import FOLD_DEGREES
from ..core.rig import IKChain, RigView
from ..core.start import start_kept_by_a_lock
from ._lock_stretch import bend_locked
from ._shear import SCALE_TOLERANCE
from ._tip_motion import blocked


def weighed_against_aim(rig: RigView, chain: IKChain, findings: list[Finding]) -> list[Finding]:
    """Blocked-axis errors made warnings on a chain whose first turning bone a Damped Track
    aims at the chain's own target, where that bone keeps a swing axis (X or Z) free: the solver
    starts it pointing at the target and lands by turning it (measured on the arm and the leg,
    the lower bone's, the upper bone's or both bend axes locked, the upper bone locked on every
    axis: they land, and stop 6.4% to 36% short without the track; the lower bone free about Y
    alone, or every axis of both locked, fails with it). Not where a zero-width IK limit, not a
    lock, holds that bone's swing: the solver clamps the start the track sets back to rest
    (measured: the leg 5.1%, the arm 6.5% short; a zero-width limit on the upper bone lands)."""
    track = aim_that_lands(rig, chain)
    if track is None:
        return findings
    aimed = (
        f" But a Damped Track ('{track}') aims {chain.moving_bones[0]} at the target, where the "
        "solver starts: it lands by turning that bone (measured)."
    )
    found = lowered(findings, aimed, ("aimed_by", track), lambda f: f.fix_id == "free_axes")
    flipped = start_kept_by_a_lock(rig, chain, bend_locked(found))
    return [_kept_by_the_lock(rig, finding, flipped) for finding in found]


def _kept_by_the_lock(rig: RigView, finding: Finding, flipped: str | None) -> Finding:
    """A landing chain's lock finding without its fix where freeing the axis would hand the
    bone to an IK limit on it, which the lock overrides, narrower than the fold the goals ask
    (``FOLD_DEGREES`` each way; fresh seed 122: the shin locked on X and limited to ±6° there
    lands under a Damped Track at the control; freed, it stops 4.2% of the reach short, this
    check's narrow-limit error), or where freeing it would let a flipped start show
    (``flipped``, ``start_kept_by_a_lock``: the same for every finding of the chain)."""
    if finding.fix_id != "free_axes" or finding.severity == Severity.ERROR:
        return finding
    if flipped is not None:
        return replace(finding, fix_id=None, fix_label=None, no_fix_reason=flipped)
    pose_bone = rig.pose_bone(finding.bone or "")
    for axis in str(finding.args["axes"]):
        low, high = (math.degrees(getattr(pose_bone, f"ik_{end}_{axis}")) for end in ("min", "max"))
        if getattr(pose_bone, f"use_ik_limit_{axis}") and max(-low, high) < FOLD_DEGREES:
            reason = (
                f"the lock overrides {finding.bone}'s {axis.upper()} IK limit ({low:.3g}° to "
                f"{high:.3g}°); freed, that limit would hold the fold and the chain would stop "
                "short: widen or drop the limit first"
            )
            return replace(finding, fix_id=None, fix_label=None, no_fix_reason=reason)
    return finding


def aim_that_lands(rig: RigView, chain: IKChain) -> str | None:
    """The Damped Track (``tracking_target``) whose start lands the chain past its locks: its
    bone keeps a swing axis free, no zero-width IK limit clamps the start back to rest, and no
    bone of the chain is posed scaled along its length. Measured on the arm and the leg, the
    upper bone locked on X: the upper or lower bone scaled evenly 0.95 to 1.1, or (1, s, 1),
    stops 2.1% to 7.5% short (seed 245: the upper arm at 1.1, its forearm not inheriting it,
    2.8% under warnings), from 0.2% at 1.005; scaled (s, 1, 1), or the body above, it lands."""
    track = tracking_target(rig, chain)
    if track is None or any(
        abs(rig.pose_bone(name).scale.y - 1.0) > SCALE_TOLERANCE for name in chain.moving_bones
    ):
        return None
    first = rig.pose_bone(chain.moving_bones[0])
    held = [axis for axis in "xz" if blocked(first, axis)]
    by_a_limit = any(not getattr(first, f"lock_ik_{axis}") for axis in held)
    return None if len(held) == 2 or by_a_limit else track


def tracking_target(rig: RigView, chain: IKChain) -> str | None:
    """The Damped Track on the chain's first turning bone aimed at the chain's own target, at
    full influence, along Y from the bone's head (None: none, or no bone turns)."""
    if not chain.moving_bones:
        return None
    for constraint in rig.constraints(chain.moving_bones[0]):
        if (
            isinstance(constraint, bpy.types.DampedTrackConstraint)
            and not constraint.mute
            and constraint.influence >= 1.0
            and constraint.track_axis == "TRACK_Y"
            and constraint.head_tail == 0.0
            and (constraint.target, readable(constraint, "subtarget", ""))
            == (chain.target, chain.subtarget)
        ):
            return readable(constraint)
    return None
