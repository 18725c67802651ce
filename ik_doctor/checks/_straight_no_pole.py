"""Iterations a straight two-bone limb without a pole needs where one-sided hinges choose its
fold, for the solver check's count (``_iteration_needs``): a limit holding the pose's start
against the fold, or the two bones limited to turn opposite ways."""

from __future__ import annotations

from ..core.limb import one_way_on_x
from ..core.reach import stretching_bones
from ..core.rig import IKChain, RigView
from ._need_tables import Need

OPPOSED_HINGES_STRAIGHT_NEEDS = 16
"""A straight limb of equal bones without a pole (``NO_POLE_BEND_NEEDS``: 14) with both bones' X IK
limits one-sided, opposite ways (the upper arm 0 to 150°, the forearm -150° to 0, or the other way
round): 14 leave it 0.11% of its reach short, 16 land. Limited the same way, or the forearm alone,
it lands at 14; the upper arm alone limited to -150° to 0 needs 16 too, and to 0 to 150° lands at
14: the side the solver folds an unlimited joint is its own choice, so that case is left to the
warning."""
AGAINST_THE_FOLD_NEEDS = ((20.0, 16), (70.0, 10))
"""Iterations a straight two-bone limb without a pole needs where its pose starts the lower bone
against its one-sided X IK limit, by how far (degrees), reading a start between rows at the row
below it, which needs more (fresh seed 293, a miss: the arm at 6 iterations posed 20° against its
fold, 3.2% short). Measured on the arm and the leg alike, the upper bone free, either way, on 4.2:
posed 20° against, 15 iterations stop 0.1% short (12: 2.0%) and 16 land; posed 70°, 9 stop 0.3%
short and 10 land."""
OPPOSED_AGAINST_NEEDS = 16
"""The same limb on opposed hinges (``opposed_hinges``), so started: posed 20° and 45° against
the lower bone's fold the arm and the leg need 16, as at rest, and 70° against 17 (16 stop 0.10%
of the reach short), either way, on 4.2 and 5.3. Fresh seed 360, a miss: the arm posed 70°
against, at 5 iterations 0.5% short under "not measured"."""


def against_the_fold_need(rig: RigView, chain: IKChain, further: float) -> Need | None:
    """What a straight limb without a pole started against its lower bone's one-sided IK limit
    needs (``AGAINST_THE_FOLD_NEEDS``, on opposed hinges ``OPPOSED_AGAINST_NEEDS``); None for
    other starts, which no table measured."""
    joint, root = (rig.pose_bone(name) for name in chain.moving_bones)
    way, turn = one_way_on_x(joint), joint.matrix_basis.to_quaternion()
    if not way or stretching_bones(rig, chain):
        return None  # measured with nothing stretching
    opposed = opposed_hinges(rig, chain)
    if one_way_on_x(root) and not opposed:
        return None  # the upper bone limited the same way: not measured
    if abs(turn.axis.x) < 0.99 or turn.axis.x * way >= 0.0:
        return None  # not a turn about X against the limit
    rows = [count for at, count in AGAINST_THE_FOLD_NEEDS if at <= further + 0.5]
    if not rows or further > AGAINST_THE_FOLD_NEEDS[-1][0] + 0.5:
        return None
    count = OPPOSED_AGAINST_NEEDS if opposed else rows[-1]
    return Need(
        count,
        f"straight at rest without a pole, its pose starts {chain.owner} {further:.0f}° "
        "against the one-sided IK limit that folds it, and such two-bone limbs "
        + ("on hinges limited opposite ways " if opposed else "")
        + f"need at least {count}, measured",
        "against_the_fold",
    )


def opposed_hinges_need(rig: RigView, chain: IKChain) -> list[Need]:
    """``OPPOSED_HINGES_STRAIGHT_NEEDS`` for a straight limb on opposed hinges, unstretched
    (stretching, it reads its own rows, ``OPPOSED_STRETCH_NEEDS``)."""
    if not opposed_hinges(rig, chain) or stretching_bones(rig, chain):
        return []
    return [
        Need(
            OPPOSED_HINGES_STRAIGHT_NEEDS,
            "straight at rest without a pole, its two bones IK-limited on X to turn opposite "
            "ways (measured: 14 leave an arm 0.11% of its reach short; it needs 16)",
            "opposed_hinges",
        )
    ]


def opposed_hinges(rig: RigView, chain: IKChain) -> bool:
    """Whether the two bones' X IK limits each let them turn one way only, opposite ways."""
    joint, root = (one_way_on_x(rig.pose_bone(name)) for name in chain.moving_bones)
    return joint * root < 0
