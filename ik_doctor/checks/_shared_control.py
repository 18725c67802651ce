"""Two live IKs aimed at one control: which one a pre-bend of either would make miss, for the
rest pose check's pre-bend fix (the duplicates check reports the pair), and one that keeps the
control on the other's line."""

from __future__ import annotations

from mathutils import Vector

from ..core.geometry import offset_from_line
from ..core.limb import STRAIGHT_RATIO, bend_offset
from ..core.rig import IKChain, RigView


def rival_on_the_control(rig: RigView, chain: IKChain) -> tuple[IKChain, str] | None:
    """Another live IK aimed at the chain's control that the pre-bend would make miss, and why:
    one that lies along the chain (its bones are the chain's upper part: straight, the chain
    only aims its line at the control and that IK lands too; bent, the chain folds, wins the
    shared bones and that IK misses, measured on the straight leg and arm with a thigh or
    upper-arm IK on the foot or hand control), or one that shares
    bones with it where the upper of the two (the one whose owner the other moves) is straight
    at rest with no pole, and lands so. The pre-bend bends the lower chain's joint, which then
    folds and takes the shared bones (measured on 5.3: the straight arm without a pole, its
    forearm folding only one way or freely, beside a hand IK of length 2: the arm lands and
    the hand stops 3.2% short; pre-bent, either chain toward any side, the hand lands and the
    arm stops 20% of its reach short; with a pole the straight arm misses either way and the
    pre-bend lands the hand)."""
    for other in rig.chains:
        live = other.live and other.target is not None
        aimed = other.shares_control(chain)
        shared = [name for name in other.bones if name in chain.bones]
        if other is chain or not (live and aimed and shared):
            continue
        if set(other.bones) < set(chain.bones):
            return other, (
                f"the chain would fold and take {other.root} from IK '{other.constraint}' on "
                f"{other.owner}, aimed at the same control, which would then miss it"
            )
        upper = _upper_of(chain, other)
        if upper is not None and upper.pole is None and bend_offset(rig, upper) < STRAIGHT_RATIO:
            lower = other if upper is chain else chain
            return other, (
                f"IK '{lower.constraint}' on {lower.owner} would fold and take {shared[-1]} "
                f"from IK '{upper.constraint}' on {upper.owner}, which lands straight without a "
                "pole and would then miss its target"
            )
    return None


def _upper_of(chain: IKChain, other: IKChain) -> IKChain | None:
    """Of two chains sharing bones, the one whose owner the other moves (the arm's beside the
    hand's); None when each moves the other's owner, or neither does."""
    chain_moved, other_moved = chain.owner in other.bones, other.owner in chain.bones
    if chain_moved == other_moved:
        return None
    return chain if chain_moved else other


def line_aimer(rig: RigView, chain: IKChain) -> str | None:
    """What keeps the control on the chain's line, said as the start of a sentence, or None:
    another live IK on it turns one bone the chain hangs from, whose head and that IK's tip
    both lie on the chain's line, so solving it swings the line through the control. Straight,
    the chain then has the target always coming straight along it (``rest_pose``)."""
    root, tip = rig.bone(chain.root).head, rig.chain_tip(chain)
    reach = max(rig.chain_reach(chain), 1e-12)

    def on_the_line(point: Vector) -> bool:
        return offset_from_line(point, root, tip).length < STRAIGHT_RATIO * reach

    for other in rig.chains:
        aimed = other.shares_control(chain)
        if other is chain or not (other.live and other.target is not None and aimed):
            continue
        if len(other.moving_bones) != 1 or other.moving_bones[0] in chain.bones:
            continue
        pivot = other.moving_bones[0]
        carries = pivot in rig.ancestors(chain.root)
        if carries and on_the_line(rig.bone(pivot).head) and on_the_line(rig.chain_tip(other)):
            return (
                f"IK '{other.constraint}' on {other.owner} turns {pivot} to put its tip on the "
                f"same control, and {pivot}'s head and that tip lie on this chain's line, so"
            )
    return None
