"""IK stiffness on both bones of a straight two-bone limb without a pole whose hinges turn
opposite ways (``locks``' "opposed" reading), the two unequal.

Measured on 4.2 (fresh seed 448, a miss: the arm so, its upper arm at 0.7 and its forearm at
0.8, 0.15% short where the worse of the two alone said 0.07%): two bones stiff unevenly stop
further short than either alone, the upper one's stiffness weighing most (the upper at 0.9 over
a lower bone at 0.5: 0.215%, where each alone stops 0.099% and 0.068% short). The leg and the
arm, either pair of opposed hinges, stop alike to 1e-5 of the reach; the grid below is the arm's.
Read between its rows and columns (bilinearly), 80 pairs drawn at random from 0.3 to 0.99 got
the oracle's verdict but one (0.098% read as 0.104%), where the worse-alone reading missed 27.
"""

from __future__ import annotations

from collections.abc import Sequence

from ._stiffness_tables import shortfall

BOTH_STIFF_LEVELS = (0.3, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 0.975, 0.99)
"""The stiffnesses measured on each bone."""
# fmt: off
BOTH_STIFF_PERCENT = (
    (0.063, 0.078, 0.0877, 0.105, 0.104, 0.0906, 0.0825, 0.111, 0.225, 0.349, 0.622),
    (0.0705, 0.0838, 0.0945, 0.11, 0.125, 0.144, 0.121, 0.135, 0.208, 0.341, 0.715),
    (0.076, 0.0899, 0.0979, 0.114, 0.13, 0.145, 0.159, 0.123, 0.191, 0.32, 0.568),
    (0.081, 0.0928, 0.104, 0.121, 0.133, 0.15, 0.174, 0.179, 0.21, 0.318, 0.561),
    (0.0864, 0.0961, 0.107, 0.124, 0.133, 0.15, 0.174, 0.223, 0.207, 0.312, 0.55),
    (0.0889, 0.101, 0.112, 0.126, 0.138, 0.152, 0.177, 0.225, 0.23, 0.327, 0.552),
    (0.0976, 0.133, 0.128, 0.162, 0.209, 0.211, 0.221, 0.227, 0.265, 0.341, 0.562),
    (0.106, 0.215, 0.252, 0.268, 0.223, 0.274, 0.255, 0.341, 0.354, 0.394, 0.608),
    (0.162, 0.337, 0.422, 0.382, 0.416, 0.372, 0.411, 0.44, 0.52, 0.687, 0.658),
    (0.205, 0.408, 0.604, 0.637, 0.636, 0.579, 0.637, 0.637, 0.574, 0.686, 1.06),
    (0.213, 0.412, 0.598, 0.915, 1.07, 1.02, 1.03, 1.07, 1.02, 0.993, 1.1),
)
# fmt: on
"""Percent of the reach the tip stops short, by the upper bone's stiffness (rows) and the lower
bone's (columns) at ``BOTH_STIFF_LEVELS``: not smooth (the lower bone's own row dips at 0.8 to
0.87), so read between measured cells only."""


def both_stiff_shortfall(upper: float, lower: float) -> float | None:
    """The share of the reach the limb stops short with its upper and lower bones that stiff,
    read between the grid's cells; None below the grid's first row (0.3), where the bone alone
    is read (``STRAIGHT_OPPOSED_SHORTFALL``)."""
    if min(upper, lower) < BOTH_STIFF_LEVELS[0]:
        return None
    # Along each row at the lower bone's stiffness, then down that column at the upper's.
    column = [_read(row, lower) for row in BOTH_STIFF_PERCENT]
    return _read(column, upper) / 100.0


def _read(values: Sequence[float], stiffness: float) -> float:
    """``values`` at ``BOTH_STIFF_LEVELS`` read at this stiffness (``shortfall``)."""
    return shortfall(tuple(zip(BOTH_STIFF_LEVELS, values, strict=True)), stiffness)
