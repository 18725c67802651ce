"""Iterations a two-bone limb without a pole needs while IK Stretch is on, for the solver check's
count (``_iteration_needs``): the solver chooses the bend plane, and the stretch swings the
count as it does under a pole, by rows of their own."""

from __future__ import annotations

from ..core.limb import one_way_on_x
from ..core.rig import IKChain, RigView
from ._straight_no_pole import opposed_hinges

Rows = tuple[tuple[float, tuple[tuple[float, int], ...]], ...]
"""Counts by rest bend, each a row of (stretch, iterations)."""

# fmt: off
NO_POLE_STRETCH_NEEDS: Rows = (
    (0.0, ((0.001, 18), (0.05, 18), (0.1, 18), (0.125, 21), (0.15, 23), (0.175, 22), (0.2, 20),
           (0.225, 17), (0.25, 16), (0.275, 14), (0.3, 13), (0.325, 12), (0.35, 11), (0.375, 10),
           (0.4, 10), (0.425, 9), (0.45, 9), (0.475, 9), (0.5, 9), (0.55, 8), (0.6, 8), (0.65, 7),
           (0.7, 7), (0.8, 7), (0.95, 6))),
    (7.63, ((0.001, 10), (0.05, 10), (0.1, 10), (0.125, 12), (0.15, 14), (0.175, 15), (0.2, 16),
            (0.225, 16), (0.25, 16), (0.275, 15), (0.3, 14), (0.325, 13), (0.35, 12), (0.375, 11),
            (0.4, 10), (0.425, 10), (0.45, 9), (0.475, 8), (0.5, 8), (0.55, 8), (0.6, 7),
            (0.65, 7), (0.7, 7), (0.8, 7), (0.95, 6))),
    (13.7, ((0.001, 8), (0.05, 8), (0.1, 8), (0.125, 9), (0.15, 11), (0.175, 12), (0.2, 13),
            (0.225, 14), (0.25, 14), (0.275, 14), (0.3, 14), (0.325, 13), (0.35, 12), (0.375, 12),
            (0.4, 11), (0.425, 10), (0.45, 10), (0.475, 9), (0.5, 8), (0.55, 7), (0.6, 7),
            (0.65, 7), (0.7, 7), (0.8, 6), (0.95, 6))),
)
"""Iterations a two-bone limb of equal bones without a pole needs with IK Stretch on both bones,
by its joint's bend at rest (straight, the leg's and the arm's) and the greater stretch: the
fewer of the lower bone stretching with a tenth of it on the upper, and both alike (both need up
to 3 more at 0.15 to 0.2). Fresh seed 328, a miss: the leg without a pole, stretch 0.1 (0.01 on
the thigh), at 5 iterations stopped 1.1% of its reach short under "not measured". Measured on
4.2 at each row (one fewer stops 0.10% to 0.32% short), and on 5.3 alike at eight of them
(straight: ten). Straight, the leg and the arm need the same, its lower bone IK-limited to fold
one way or free (seed 334: the straight arm so limited, stretch 0.1, 1.9% short at 5)."""
OPPOSED_STRETCH_NEEDS: Rows = (
    (0.0, ((0.001, 22), (0.05, 22), (0.1, 22), (0.125, 21), (0.15, 19), (0.175, 18), (0.2, 17),
           (0.225, 16), (0.25, 15), (0.275, 14), (0.3, 13), (0.325, 12), (0.35, 12), (0.375, 11),
           (0.4, 11), (0.425, 10), (0.45, 10), (0.475, 9), (0.5, 9), (0.55, 9), (0.6, 8),
           (0.65, 8), (0.7, 7), (0.8, 6), (0.95, 6))),
)
"""The straight limb of ``NO_POLE_STRETCH_NEEDS`` with both bones' X IK limits one-sided,
opposite ways (``OPPOSED_HINGES_STRAIGHT_NEEDS`` unstretched): 4 more below 0.125, up to 4
fewer at 0.15 to 0.225, one more or fewer from 0.35. Measured on 4.2, the leg and the arm
alike, either way round (one fewer stops 0.10% to 0.27% short)."""
# fmt: on


def no_pole_stretch_rows(rig: RigView, chain: IKChain, starts: float) -> Rows | None:
    """The rows a limb without a pole starting bent ``starts`` degrees reads; None for a straight
    one whose upper bone alone is limited to turn one way (measured on the arm: limited to turn
    the way the solver folds it, it needs the free rows; the other way, the opposed rows; which
    way the solver folds a free joint is its own choice)."""
    if starts != 0.0:
        return NO_POLE_STRETCH_NEEDS
    if opposed_hinges(rig, chain):
        return OPPOSED_STRETCH_NEEDS
    joint, root = (one_way_on_x(rig.pose_bone(name)) for name in chain.moving_bones)
    return None if root and not joint else NO_POLE_STRETCH_NEEDS
