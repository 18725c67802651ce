"""Locks findings on a bend-axis IK lock that no longer blocks the tip: the locked bone, rolled a
little off the axis its chain folds about, with a pole. The solver folds it about the free axis
the roll tilts into the bend plane, and the limb reaches bent off its pole's plane, which an
animator sees as a knee or elbow swung aside (as ``_narrow_limits``' "Limit folds off plane"
says of an IK limit). Also the fix's arguments every locks finding on a blocked axis carries."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import bpy

from ..core.finding import IK_LIMIT, IK_LOCK, Finding, Severity, chain_finding
from ..core.geometry import degrees_off
from ..core.names import readable
from ..core.reach import stretching_bones
from ..core.rig import IKChain, RigView
from ._hinge_turn import angle_turned_back
from ._tip_motion import TipMotion


def rolled_lock_findings(
    rig: RigView, chain: IKChain, motion: TipMotion, free: set[tuple[str, str]]
) -> Iterator[Finding]:
    """A warning where the lower bone of a two-bone limb with a pole has an IK lock on the axis
    nearest its fold and the chain still reaches (``TipMotion.cannot_reach`` says no; a root so
    locked is aimed by its other axes): measured on 4.2, the leg and the arm with the shin or
    forearm locked on X and rolled 1.5° to 40° either way land 35° to 86° off the pole's plane
    (unstretched, stiff or not, posed longer or not); freed, they land."""
    normal = motion.normal
    if chain.pole is None or normal is None or len(chain.moving_bones) != 2:
        return  # measured on two-bone limbs; hinged insect legs of three land as built
    name = chain.moving_bones[0]
    axis = motion.bend_axis(rig, name)
    pose_bone = rig.pose_bone(name)
    if axis is None or (name, axis) in free or not getattr(pose_bone, f"lock_ik_{axis}"):
        return
    # Freed, the joint folds in its plane, where a pole angle the hold turns back flips it.
    held = angle_turned_back(rig, chain, "freed")
    rolled = degrees_off(getattr(rig.bone(name), f"{axis}_axis"), normal)
    yield chain_finding(
        "locks",
        rig,
        chain,
        bone=name,
        severity=Severity.WARNING,
        title="Lock folds off plane",
        message=(
            f"{name} cannot turn about {axis.upper()} (an IK lock on {axis.upper()}), the axis "
            f"nearest the one the chain of IK '{chain.constraint}' bends on, {rolled:.2g}° off "
            f"it: {_how_it_reaches(rig, chain)}"
        ),
        why=(
            "Blender's solver turns a bone only about the axes its IK locks leave free; a roll "
            "tilts another axis into the bend plane, and folding about it swings the joint "
            "sideways."
        ),
        fix_id=None if held else "free_axes",
        fix_label=None if held else f"Free the {axis.upper()} IK axis of {name} (unlock)",
        fix_args=blocked_args(pose_bone, axis),
        no_fix_reason=held,
    )


def _how_it_reaches(rig: RigView, chain: IKChain) -> str:
    """How the chain reaches past the lock, in words: by IK Stretch where its bones stretch."""
    stretching = stretching_bones(rig, chain)
    if stretching:
        return (
            f"the limb reaches by IK Stretch on {', '.join(stretching)}, its joint near the "
            "pole's plane (measured: the leg and the arm so locked, rolled 1.5° to 40°, with "
            "stretch 0.5 land within 2° of it)."
        )
    return (
        "the solver folds the joint about its free axes instead, and the limb reaches with the "
        "joint bent off the pole's plane (measured: the leg and the arm so locked, rolled 1.5° "
        "to 40°, land 35° to 86° off it, the less the more they are rolled)."
    )


def blocked_args(pose_bone: bpy.types.PoseBone, axes: str) -> tuple[tuple[str, Any], ...]:
    """The fix's axes, and the setting that blocks them as the animation scan names it (its
    ``cause``, with the bones): an IK lock, or a zero-width IK limit, so that the scan's proof
    of the same setting on the same axes joins this finding (``core.scan_proofs``)."""
    locked = [bool(getattr(pose_bone, f"lock_ik_{axis}")) for axis in axes]
    cause = IK_LOCK if all(locked) else IK_LIMIT if not any(locked) else None
    named = () if cause is None else (("cause", cause), ("bones", (readable(pose_bone),)))
    return (("axes", axes), *named)
