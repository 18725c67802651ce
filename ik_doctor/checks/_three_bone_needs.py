"""Iterations a chain of three bones with a short root needs, for the solver check: an insect's
leg, as issue 25's spiders and ants (a short coxa under a femur and a tibia), and an arm from its
shoulder (a clavicle under an upper arm and a forearm).

Measured at the oracle's goals, the body turned among them. On 5.3, 39 insect legs: a coxa 0.06
to 0.22 long (0.14 to 0.57 of the femur's 0.39) under a tibia 0.49, bent -30° to 60° from the
femur, the tibia bent 20° to 140° from it; a pole, Use Tail, ±90° X IK limits, IK Stretch on at
0. None lands below 5 iterations, and the straighter the lower joint the more it needs: from
60° each lands from 5 or 6, at 45° from 6 or 7, at 30° from 7, at 20° from 8 to 12 or not
within 12. On 4.2 and 5.3 alike (fresh seed 205), 144 arms of the reference rig at chain
length 3: a shoulder 0.05 to 0.14 long (0.2 to 0.56 of the upper arm's 0.25), in line with the
upper arm or tilted 30° or 60° from it, a forearm 0.15 to 0.4 long, the elbow bent 3° to 140°;
a pole, Use Tail, no limits. A forearm no longer than the upper arm needs fewer than the insect
legs: from 9 at 3° to 10°, 8 at 14°, 7 at 20°, 6 at 30°, 5 at 40° to 60°, 4 at 90° and 140°
(the reference arm, bent 13.7°, lands from 9 and stops 4.1% short at 5); a forearm 1.6 times
as long needs more (12 at 10°, 5 to 7 at 140°). The rows are the fewest of each side of that
line (the insect legs' tibia is 1.26 times the femur), below 20° the shorter side's, where no
insect leg was measured; between rows, the fewer side. A root as long as the femur, bent
against it, lands from 4 with the lower joint folded 140°: another chain, left to the warning,
as are a chain posed, stretching, stiff or started by another constraint, and proportions or
bends past those measured.
"""

from __future__ import annotations

import math

from ..core.reach import stretching_bones
from ..core.rig import IKChain, RigView
from ..core.start import overridden_constraints
from ._stiffness_findings import stiff_bones

THREE_BONE_NEEDS = (
    (1.0, ((10.0, 9), (14.0, 8), (20.0, 7), (30.0, 6), (60.0, 5), (140.0, 4))),
    (1.6, ((10.0, 9), (14.0, 8), (20.0, 8), (30.0, 7), (45.0, 6), (140.0, 5))),
)
"""(the longest lower bone, as a share of the middle one, its rows): each row (the lower joint's
bend at rest in degrees, the fewest iterations such chains need)."""
STRAIGHTEST = 3.0
"""Degrees of the straightest lower joint measured; a straighter chain gets no count."""
SHORTEST_LOWER = 0.6
"""Shortest lower bone, as a share of the middle bone, measured (a forearm 0.15 under 0.25)."""
SHORT_ROOT = 0.6
"""Longest root, as a share of the middle bone, the table was measured with (0.57)."""
ROOT_BEND = 60.0
"""Most degrees the root was measured bent from the middle bone (a clavicle square to its upper
arm was not)."""


def three_bone_need(rig: RigView, chain: IKChain) -> tuple[int, str] | None:
    """The iterations a chain like the measured insect legs and arms needs, and what was
    measured in words; None for any other chain (``THREE_BONE_NEEDS``)."""
    moving = chain.moving_bones
    if len(moving) != 3 or not chain.use_tail or chain.pole is None or chain.pole_bone_missing:
        return None
    lower, middle, root = (rig.bone(name) for name in moving)
    if root.length > SHORT_ROOT * middle.length or not _as_measured(rig, chain):
        return None
    root_way = root.tail - root.head
    upper_way, lower_way = middle.tail - middle.head, lower.tail - lower.head
    if min(root_way.length, upper_way.length, lower_way.length) == 0.0:
        return None
    if math.degrees(root_way.angle(upper_way)) > ROOT_BEND + 1e-6:
        return None
    bend = math.degrees(upper_way.angle(lower_way))
    share = lower.length / middle.length
    rows = next((table for longest, table in THREE_BONE_NEEDS if share <= longest + 1e-6), None)
    if rows is None or share < SHORTEST_LOWER - 1e-6 or bend < STRAIGHTEST - 1e-6:
        return None
    count = next((n for at, n in rows if at >= bend - 1e-6), None)
    if count is None:
        return None
    return count, (
        f"a chain of three bones, its root short under two long ones, its lower joint bent "
        f"{bend:.0f}° at rest: chains so built (insect legs, arms from the shoulder) need at "
        f"least {count}, measured"
    )


def _as_measured(rig: RigView, chain: IKChain) -> bool:
    """Whether the chain starts at rest as the chains measured did: not posed, stretching, stiff,
    or turned by a constraint the IK overrides."""
    moving = chain.moving_bones
    return not (
        stiff_bones(rig, chain)
        or stretching_bones(rig, chain)
        or not rig.turned_or_scaled.isdisjoint(moving)
        or any(True for _ in overridden_constraints(rig, moving))
    )
