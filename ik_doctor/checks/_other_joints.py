"""Locks and limits on a chain of three or more turning bones without a pole, bent at rest,
judged as the oracle judges them: a robot or servo arm hinged at every joint, a turntable at
its root.

The locks check reads a one-sided limit from the chain's shape at rest: on a two-bone limb the
joint cannot fold the way the limb bends. A longer chain without a pole folds at whichever
joints are free to, and whether it still folds is what posing it by hand within its locks and
limits says (``core.reach.held_back``, the test the oracle sets its goals by), or two other
inner joints that turn either way about their bend axis. Folding, a narrow limit is a warning;
held back, it is an error (not a "folds off plane" warning, which said such arms reach). A
locked bend axis stays an error: pulled straight toward their roots, arms the oracle's folded
goals pass stop 2% to 27% short. A chain straight at rest folds the way its limits choose and is
left to the locks check. Measured with ``benchmarks/robot_arms.py`` (400 arms each): seeds 200
to 599, 31 of 44 failing arms carry an error where 20 did, 23 of 356 passing arms carry one
where 21 of 342 did (14 crashed the roll check then); seeds 600 to 999, the draw these rules
were not read from, 34 of 38 where 26 did, and 29 of 362 where 26 of 351 did (11 crashed).
Those left are arms held back at some joints that land by folding further at others, or the
reverse: no measure read from the rest pose told them apart.
"""

from __future__ import annotations

from ..core.finding import Finding, lowered
from ..core.limb import STRAIGHT_RATIO, bend_offset
from ..core.reach import held_back
from ..core.rig import IKChain, RigView
from ._tip_motion import TipMotion, blocked


def folds_by_hand(rig: RigView, chain: IKChain) -> bool | None:
    """Whether a chain of three or more turning bones without a pole, bent at rest, still folds
    posed by hand within its locks and limits, or has two inner joints that turn either way;
    None for any other chain. Read once a pass: the locks check asks for each narrow limit and
    again for the chain."""
    if chain.pole is not None or len(chain.moving_bones) < 3:
        return None
    return rig.remember(
        ("folds_by_hand", chain.bones, chain.use_tail), lambda: _folds_by_hand(rig, chain)
    )


def _folds_by_hand(rig: RigView, chain: IKChain) -> bool | None:
    if bend_offset(rig, chain) < STRAIGHT_RATIO:
        return None
    return not held_back(rig, chain) or len(_either_way(rig, chain)) >= 2


def _either_way(rig: RigView, chain: IKChain) -> list[str]:
    """The inner joints (all but the root) the solver may turn either way about their bend
    axis: free, or limited on both sides of the rest pose."""
    motion = TipMotion(rig, chain)
    return [
        name
        for name in chain.moving_bones[:-1]
        if (axis := motion.bend_axis(rig, name)) is not None and _both_ways(rig, name, axis)
    ]


def _both_ways(rig: RigView, name: str, axis: str) -> bool:
    pose_bone = rig.pose_bone(name)
    if blocked(pose_bone, axis):
        return False
    if not getattr(pose_bone, f"use_ik_limit_{axis}"):
        return True
    return getattr(pose_bone, f"ik_min_{axis}") < 0.0 < getattr(pose_bone, f"ik_max_{axis}")


def weighed_against_other_joints(
    rig: RigView, chain: IKChain, findings: list[Finding]
) -> list[Finding]:
    """Narrow-limit errors made warnings on a chain that folds at its other joints
    (``folds_by_hand``)."""
    if not folds_by_hand(rig, chain):
        return findings
    folded = (
        " But posed by hand within its locks and limits the chain still folds at its other joints, "
        "and reaches where they let it (measured on robot arms of 3 to 6 links); a target they "
        "cannot bend toward is missed."
    )
    return lowered(findings, folded, ("folds_elsewhere", True), lambda f: f.fix_id == "drop_limit")
