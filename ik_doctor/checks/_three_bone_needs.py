"""Iterations a chain of three bones with a short root needs, for the solver check: an insect's
leg, as issue 25's spiders and ants (a short coxa under a femur and a tibia).

Measured on 5.3 on 39 such legs at the oracle's goals, the body turned among them: a coxa 0.06
to 0.22 long (0.14 to 0.57 of the femur's 0.39) under a tibia 0.49, bent -30° to 60° from the
femur, the tibia bent 20° to 140° from it; a pole, Use Tail, ±90° X IK limits, IK Stretch on at
0. None lands below 5 iterations, and the straighter the lower joint the more it needs: from
60° each lands from 5 or 6, at 45° from 6 or 7, at 30° from 7, at 20° from 8 to 12 or not
within 12. The rows are the fewest; between them, the fewer side. A root as long as the femur,
bent against it, lands from 4 with the lower joint folded 140°: another chain, left to the
warning, as are a chain posed, stretching, stiff or started by another constraint.
"""

from __future__ import annotations

import math

from ..core.reach import stretching_bones
from ..core.rig import IKChain, RigView
from ..core.start import overridden_constraints
from ._stiffness_findings import stiff_bones

THREE_BONE_NEEDS = ((20.0, 8), (30.0, 7), (45.0, 6), (60.0, 5), (140.0, 5))
"""(the lower joint's bend at rest in degrees, the fewest iterations such legs need)."""
SHORT_ROOT = 0.6
"""Longest root, as a share of the middle bone, the table was measured with (0.57)."""
ROOT_BEND = 60.0
"""Most degrees the root was measured bent from the middle bone (a clavicle square to its upper
arm was not)."""


def three_bone_need(rig: RigView, chain: IKChain) -> tuple[int, str] | None:
    """The iterations a chain like the measured insect legs needs, and what was measured in
    words; None for any other chain (``THREE_BONE_NEEDS``)."""
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
    count = next((n for at, n in THREE_BONE_NEEDS if at >= bend - 1e-6), None)
    if bend < THREE_BONE_NEEDS[0][0] - 1e-6 or count is None:
        return None
    return count, (
        f"a chain of three bones, its root short under two long ones, its lower joint bent "
        f"{bend:.0f}° at rest: insect legs so built need at least {count}, measured"
    )


def _as_measured(rig: RigView, chain: IKChain) -> bool:
    """Whether the chain starts at rest as the legs measured did: not posed, stretching, stiff,
    or turned by a constraint the IK overrides."""
    moving = chain.moving_bones
    return not (
        stiff_bones(rig, chain)
        or stretching_bones(rig, chain)
        or not rig.turned_or_scaled.isdisjoint(moving)
        or any(True for _ in overridden_constraints(rig, moving))
    )
