"""Two IKs on one control where a chain is straight at rest: whether the solver ever folds it,
and so which of the pair lands (``duplicates``). A chain that never folds only aims its line at
the control, and a one-bone IK lying along it aims at the same line: both land."""

from __future__ import annotations

from ..core.finding import Severity
from ..core.limb import FULL_INFLUENCE, STRAIGHT_RATIO, bend_offset, root_folds_against
from ..core.reach import stretching_bones
from ..core.rig import IKChain, RigView
from ..core.spline import skipped_spline_ik
from ..core.start import overridden_constraints
from ._stacked_chains import frozen


def straight_pair(winner: IKChain, loser: IKChain) -> tuple[Severity, str, str, str]:
    """Severity, title, why and the message's end for a one-bone IK lying along a straight
    chain on its control. With a pole the chain never folds and both aim one line. Without one,
    its hinges limited against each other (``_folds_all_the_same`` is false), rounding decides
    goal by goal whether the solver folds it, and where it folds the other misses: an error."""
    title = "Two IKs, one straight"
    if winner.pole is None:
        why = (
            f"The chain of IK '{winner.constraint}' on {winner.owner} is straight and has no "
            "pole; its IK limits let it fold either way, so floating-point rounding decides, "
            "target by target, whether the solver folds it. Where it folds, the other chain, "
            "lying along its line, is pulled off the control. Measured with the shoulder or hips "
            "turned 1° to 40° either way about X and Z (160 turns): the upper arm's IK misses at "
            "17, by 0.1% to all of its reach, the thigh's at 6 to 8, by 0.2%; deleted, every "
            "chain lands at all of them and at 85°."
        )
        outcome = (
            f": IK '{loser.constraint}' on {loser.owner} misses wherever the solver folds "
            f"{winner.owner}'s chain."
        )
        return Severity.ERROR, title, why, outcome
    why = (
        f"The chain of IK '{winner.constraint}' on {winner.owner} is straight and nothing starts "
        "it bent, so the solver never folds it: it only aims that line at the control, which "
        "the other chain, lying along it, aims at too (measured on the straight leg and arm: "
        "the thigh's and the upper arm's IK land). Once the chain bends (a pre-bend, a posed "
        "bend, IK Stretch) it wins and the other misses."
    )
    outcome = (
        f": IK '{loser.constraint}' on {loser.owner} lands while {winner.owner}'s chain stays "
        "straight."
    )
    return Severity.WARNING, title, why, outcome


def _aims_its_straight_line(rig: RigView, winner: IKChain, loser: IKChain) -> bool:
    """Whether ``winner`` never folds (``_never_folds``) and ``loser``, one bone that can only
    turn, lies along it: both then aim one line. A loser of two bones or more folds to bring its
    own tip onto the control, and that is not the winner's: measured on the straight arm, a hand
    IK of length 3 on the hand control lands and the forearm's misses 20% of its reach."""
    return (
        len(loser.moving_bones) == 1
        and set(loser.bones) <= set(winner.bones)
        and _never_folds(rig, winner)
    )


def along_one_line(rig: RigView, winner: IKChain, loser: IKChain) -> tuple[bool, IKChain, IKChain]:
    """For two chains sharing bones on one control: whether both aim one straight line (the
    warning), and the winner and loser once a straight chain is weighed (measured)."""
    if _aims_its_straight_line(rig, winner, loser):
        if _folds_all_the_same(rig, winner):
            return False, loser, winner  # it folds, and misses
        return True, winner, loser
    if _rides_its_straight_line(rig, winner, loser):
        return False, loser, winner  # only the other folds the bones they share
    return False, winner, loser


def aimed_along_a_straight_chain(rig: RigView, inner: IKChain) -> bool:
    """Whether a live chain on ``inner``'s control never folds and ``inner``, one bone lying
    along it, aims at the same line (``along_one_line``): the two outweigh a longer chain that
    holds them toward another target (``constraint_order``'s nesting). Measured on the straight
    arm with its pole, the forearm's twin IK of length 2 on a target moved 0.3 to 2 away in six
    directions: the upper arm's IK of length 1 on the hand control lands at every one; bent,
    it stops all of its reach short."""
    return any(
        chain is not inner
        and chain.live
        and chain.shares_control(inner)
        and along_one_line(rig, chain, inner)[0]
        for chain in rig.chains
    )


def _rides_its_straight_line(rig: RigView, winner: IKChain, loser: IKChain) -> bool:
    """Whether ``winner`` overlaps ``loser`` (does not hold all its bones) and never folds its
    own joints (``_never_folds`` below its root, which ``loser`` turns): only ``loser`` folds,
    and ``winner``'s tip, carried along its line, misses. Measured with a hand IK of length 2
    beside the forearm's on the hand control: with the hand in line with the forearm the forearm
    lands and the hand stops 3.2% to 5.5% of its reach short (bent arm with its pole, straight
    arm without one, forearm posed +20 or +70 deg or copying the shoulder, upper arm scaled);
    a foot in line with the shin, 3.3%. With the hand bent 20 deg at rest the forearm misses
    (19.9%) and the hand lands. Not when ``loser`` cannot fold either (every bone locked on every
    axis) or pulls at part influence: it misses by itself, and the other lands."""
    return (
        not set(loser.bones) <= set(winner.bones)
        and loser.influence >= FULL_INFLUENCE
        and not frozen(rig, loser)
        and _never_folds(rig, winner, winner.moving_bones[:-1])
    )


def _folds_all_the_same(rig: RigView, chain: IKChain) -> bool:
    """Whether a chain straight at rest folds all the same: without a pole the solver folds it
    toward the side the target leans to, or the side its IK limits choose (``rest_pose``), unless
    the root's own IK limit turns it the other way (``root_folds_against``). Measured on the
    straight leg and arm without a pole under an upper-arm or thigh IK of length 1 on the same
    control: the limb stops 3.4% of its reach short, free or with a one-sided hinge at the
    joint; with the root limited the other way too the limb lands (and the thigh's IK; the
    upper arm's stopped 0.2% short once, with the shoulder turned 40° about Z)."""
    return chain.pole is None and not root_folds_against(rig, chain)


def _never_folds(rig: RigView, chain: IKChain, starting: tuple[str, ...] | None = None) -> bool:
    """Whether the chain is straight at rest and nothing starts it bent (no pose, no constraint
    the IK overrides that sets a rotation, no IK Stretch; on ``starting`` only, when given):
    aimed along its line, the solver never folds it. Measured: a straight limb whose lower bone
    copies or tracks something folds from that start, and the upper arm's or thigh's IK of
    length 1 on its control misses (0.45 short); a Limit Rotation, or a Spline IK Blender skips,
    sets no start, and the pair lands. The root turned keeps the chain straight: only its scale
    counts (seed 157: the upper arm keyed 0.3 to 1.5 rad, the thigh too, and the IK of length 1
    on the control lands; scaled (1, 2, 1) it misses)."""
    setting = (
        constraint
        for _bone, constraint in overridden_constraints(
            rig, chain.moving_bones if starting is None else starting
        )
        if not constraint.type.startswith("LIMIT_") and not skipped_spline_ik(constraint)
    )
    posed = rig.turned_or_scaled.intersection(chain.bones if starting is None else starting)
    scale = rig.pose_bone(chain.root).scale
    if (scale.x, scale.y, scale.z) == (1.0, 1.0, 1.0):
        posed.discard(chain.root)
    return (
        bend_offset(rig, chain) < STRAIGHT_RATIO
        and not posed
        and next(setting, None) is None
        and not stretching_bones(rig, chain)
    )
