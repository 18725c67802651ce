"""What a chain of one bone cut from its limb needs of the solver to reach by IK Stretch, for the
solver check's iteration count: the gap it must stretch across, read on the rig at hand, and how
fast a stretch closes it."""

from __future__ import annotations

import math

from ..core.geometry import mean_scale
from ..core.limb import parent_motion
from ..core.reach import (
    REACH_TOLERANCE,
    channel_lengths,
    evenly_scaled,
    limb_bones,
    reachable_tips,
    stretching_bones,
)
from ..core.rig import AXES, IKChain, RigView
from ._need_tables import Need

# fmt: off
ONE_BONE_STRETCH_PACE = (
    (0.1, 12.0), (0.105, 11.4), (0.11, 10.9), (0.12, 9.9), (0.13, 9.05), (0.14, 8.4),
    (0.15, 7.84), (0.17, 6.85), (0.2, 5.55), (0.22, 5.1), (0.25, 4.3), (0.27, 4.08), (0.3, 3.66),
    (0.35, 3.05), (0.4, 2.62), (0.45, 2.2), (0.5, 1.98), (0.55, 1.78), (0.6, 1.58), (0.65, 1.39),
    (0.7, 1.19), (0.8, 0.99), (0.9, 0.79), (1.0, 0.6),
)
# fmt: on
"""Iterations a chain of one bone, reaching by IK Stretch alone, spends per e-fold of the gap
between its tip and its target, by its stretch (this or more; below 0.1 as 0.1: Blender weighs
the stretch by its square, held at 0.01). Fresh seed 394, a miss: the leg of chain length 1,
the shin stretching 0.1, at 12 iterations stops 4% of its reach short, where the chain length
check says it lands by stretching (true at 57). Measured on 4.2 and 5.3 (alike), the shin and the
forearm cut from the leg and the arm, with a pole and without, the gap (the shin 11% of its
length from the oracle's goals unstretched) varied from 2.8% to 103% by rolling the bone or
scaling the one above it: the count each needs is this pace times the natural logarithm of its
gap over the 0.1% the oracle allows, to within 4% (the least of them; without a pole the solver
needs up to 3 more)."""
ONE_BONE_MOST = 100
"""The most iterations the pace is read to (a gap of four times the bone at stretch 0.1 needs
it): past it a count needs no reading."""


def one_bone_stretch_need(rig: RigView, chain: IKChain) -> Need | None:
    """The count a chain of one bone cut from its limb needs to stretch to the oracle's goals
    (``ONE_BONE_STRETCH_PACE``), at most ``ONE_BONE_MOST``; None for another chain, a bone held
    by IK locks, limits or stiffness, a limb scaled unevenly, or goals reached unstretched."""
    stretching = stretching_bones(rig, chain)
    if len(chain.moving_bones) != 1 or not chain.use_tail or not stretching:
        return None
    name = chain.owner
    pose_bone = rig.pose_bone(name)
    held = any(
        getattr(pose_bone, f"{setting}_{axis}")
        for setting in ("lock_ik", "use_ik_limit", "ik_stiffness")
        for axis in AXES
    )
    limb = limb_bones(rig, chain)
    if held or len(limb) < 2 or not all(evenly_scaled(rig, bone) for bone in limb):
        return None
    gap = stretch_gap(rig, chain)
    if gap <= REACH_TOLERANCE:
        return None
    stretch = max(round(pose_bone.ik_stretch, 4), ONE_BONE_STRETCH_PACE[0][0])
    pace = next((pace for at, pace in ONE_BONE_STRETCH_PACE if at >= stretch), None)
    if pace is None:
        return None
    count = min(math.floor(pace * math.log(gap / REACH_TOLERANCE)), ONE_BONE_MOST)
    return Need(
        count,
        f"{name}, a chain of one bone, must stretch {gap:.1%} of its length to reach its "
        f"targets, and at IK Stretch {pose_bone.ik_stretch:.3g} the solver takes at least "
        f"{count} iterations to close such a gap to the 0.1% the oracle allows, measured",
        "one_bone_stretch",
    )


def stretch_gap(rig: RigView, chain: IKChain) -> float:
    """How far, as a share of its reach, the one bone of ``chain`` must grow or shrink to put
    its tip on the farthest of the oracle's goals (the limb posed by hand, ``reachable_tips``),
    its head held where the bones above put it: the oracle's own shortfall with IK Stretch off
    (to 0.01% on the leg and the arm, rolled or scaled evenly)."""
    limb_root = limb_bones(rig, chain)[-1]
    moved = parent_motion(rig, limb_root)
    root_rest, root = rig.bone(limb_root).head, rig.pose_bone(limb_root).head
    goals = [root + moved.to_3x3() @ (tip - root_rest) for tip in reachable_tips(rig, chain)]
    head = rig.pose_bone(chain.owner).head
    length = rig.bone(chain.owner).length * channel_lengths(rig, chain)[chain.owner]
    reach = rig.chain_reach(chain) * mean_scale(parent_motion(rig, chain.owner))
    return max(abs((goal - head).length - length) for goal in goals) / reach
