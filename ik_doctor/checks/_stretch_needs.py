"""Iterations IK Stretch sets for a two-bone limb of equal bones with Use Tail.

Kept apart from the bend tables because the stretch swings the count both ways: a little lands
sooner than none, more lands later, and from 0.35 the stronger the stretch the sooner.
"""

from __future__ import annotations

from ..core.rig import IKChain, RigView
from ._need_tables import Need, between_bends, by_bend, fewer_either_side
from ._no_pole_stretch_needs import no_pole_stretch_rows

# fmt: off
_STRONG_LEG = (
    (0.35, 12), (0.4, 11), (0.45, 9), (0.5, 8), (0.55, 7), (0.6, 7), (0.65, 6), (0.7, 5),
    (0.75, 5), (0.8, 4), (0.85, 4), (0.9, 4), (0.95, 3),
)
_STRONG_ARM = (
    (0.35, 12), (0.4, 11), (0.45, 10), (0.5, 9), (0.55, 8), (0.6, 7), (0.65, 6), (0.7, 6),
    (0.75, 5), (0.8, 5), (0.85, 4), (0.9, 4), (0.95, 3),
)
_BETWEEN = (0.355, 0.405, 0.455, 0.505, 0.555, 0.605, 0.655, 0.705, 0.755, 0.805, 0.855, 0.905)
# fmt: on


def _with_between(
    rows: tuple[tuple[float, int], ...], counts: tuple[int, ...]
) -> tuple[tuple[float, int], ...]:
    """``rows`` with the counts measured at ``_BETWEEN``: stretches 0.005 past the rows (the
    benchmark's amounts off the grid), where the count is its own (one bone or both stretching,
    the arm at 0.355 needs 12 and 13 where the rows either side say 11 and 12)."""
    return tuple(sorted(rows + tuple(zip(_BETWEEN, counts, strict=True))))


_STRONG_LEG_ONE = _with_between(_STRONG_LEG, (12, 10, 9, 8, 7, 6, 6, 5, 5, 4, 4, 4))
_STRONG_LEG_BOTH = _with_between(_STRONG_LEG, (12, 11, 9, 8, 7, 6, 6, 5, 5, 4, 4, 4))
_STRONG_ARM_ONE = _with_between(_STRONG_ARM, (12, 11, 10, 8, 8, 7, 6, 6, 5, 5, 4, 4))
_STRONG_ARM_BOTH = _with_between(_STRONG_ARM, (13, 11, 10, 9, 8, 7, 6, 6, 5, 5, 4, 4))
_NEAR_STRAIGHT_AT = (
    0.001,
    0.05,
    0.1,
    0.12,
    0.15,
    0.2,
    0.25,
    0.3,
    0.35,
    0.4,
    0.5,
    0.6,
    0.7,
    0.8,
    0.9,
    0.95,
)
# fmt: off
_NEAR_STRAIGHT_ONE = (
    (0.0, (43, 43, 43, 35, 28, 21, 16, 13, 11, 10, 7, 6, 5, 4, 3, 3)),
    (0.5, (26, 26, 26, 26, 28, 21, 16, 13, 11, 10, 7, 6, 5, 4, 3, 3)),
    (1.0, (24, 24, 24, 22, 26, 21, 17, 14, 11, 10, 8, 6, 5, 4, 3, 3)),
    (2.0, (20, 20, 20, 21, 23, 21, 17, 14, 12, 10, 8, 6, 5, 4, 3, 3)),
    (3.0, (17, 17, 17, 19, 20, 21, 17, 14, 12, 10, 8, 6, 5, 4, 3, 3)),
    (5.0, (13, 13, 13, 16, 17, 19, 17, 14, 12, 10, 8, 6, 5, 4, 3, 3)),
)
_NEAR_STRAIGHT_BOTH = (
    (0.0, (43, 43, 43, 35, 28, 21, 16, 13, 11, 10, 7, 6, 5, 4, 3, 3)),
    (0.5, (35, 35, 35, 35, 28, 21, 16, 13, 11, 10, 7, 6, 5, 4, 3, 3)),
    (1.0, (29, 29, 29, 33, 28, 21, 17, 14, 11, 10, 8, 6, 5, 4, 3, 3)),
    (2.0, (26, 26, 26, 26, 28, 21, 17, 14, 12, 10, 8, 6, 5, 4, 3, 3)),
    (3.0, (25, 25, 25, 23, 26, 21, 17, 14, 12, 10, 8, 6, 5, 4, 3, 3)),
    (5.0, (20, 20, 20, 21, 21, 21, 17, 14, 12, 10, 8, 6, 5, 4, 3, 3)),
)
# fmt: on


def _near_straight(
    rows: tuple[tuple[float, tuple[int, ...]], ...],
) -> tuple[tuple[float, tuple[tuple[float, int], ...]], ...]:
    """Rows by bend of counts read at ``_NEAR_STRAIGHT_AT``."""
    return tuple(
        (bend, tuple(zip(_NEAR_STRAIGHT_AT, counts, strict=True))) for bend, counts in rows
    )


# fmt: off
STRETCH_NEEDS = {
    1: (
        *_near_straight(_NEAR_STRAIGHT_ONE),
        (7.63, ((0.001, 10), (0.05, 10), (0.1, 10), (0.15, 15), (0.2, 17), (0.25, 16), (0.3, 14),
                *_STRONG_LEG_ONE)),
        (13.7, ((0.001, 7), (0.05, 7), (0.1, 7), (0.15, 11), (0.2, 13), (0.25, 14), (0.3, 14),
                *_STRONG_ARM_ONE)),
    ),
    2: (
        *_near_straight(_NEAR_STRAIGHT_BOTH),
        (7.63, ((0.001, 16), (0.05, 16), (0.1, 16), (0.15, 18), (0.2, 20), (0.25, 18), (0.3, 15),
                *_STRONG_LEG_BOTH)),
        (13.7, ((0.001, 11), (0.05, 11), (0.1, 11), (0.15, 14), (0.2, 15), (0.25, 16), (0.3, 15),
                *_STRONG_ARM_BOTH)),
    ),
}
# fmt: on
"""Iterations a two-bone limb with a pole and Use Tail needs with IK Stretch on one bone or on
both, by its joint's bend at rest (degrees; the leg's and the arm's) and the greater stretch:
measured on 5.3 and 4.2 alike, on the lower bone, the upper, both, and with a tenth of it on
the other, the fewest of those. The stretch swings the count: on one bone, 0.001 to 0.1, the limb
lands sooner than unstretched (the arm from 7, the leg from 10), on both later (11 and 16);
from 0.15 to 0.3 later still (the leg at 0.2 on both needs 20); from 0.35 the stronger the
stretch the sooner, either bone alike (at 0.5 the arm 9, the leg 8; at 0.95 both 3). Straight
or nearly at rest (0° to 5°, the leg and the arm alike, on 4.2 and 5.3), far more: straight,
43 at 0.1 or less on one bone or both (fresh seed 413: 28 left the arm 0.3% of its reach
short), 21 at 0.2, 13 at 0.3, 7 at 0.5, 3 from 0.9; bent 1°, 24 on one bone and 29 on both;
bent 5°, 13 and 20 (a tenth on the other bone needs up to 3 more than both alike; read again
every 0.01 from 0.1 to 0.2 on 4.5, bent 3° both bones need 23 at 0.13, which the 0.12 row
keeps). Between
0.35 and 0.95 the count is not smooth in the
stretch, and was read again 0.005 past each row, one bone and both stretching, on 5.3: at 0.405
on both bones the arm stops 0.14% of its reach short at 10 (seed 112), where the rows either
side said 10 and 11. A stretching limb unlike these was not measured: no count."""
STRETCH_MEASURED = (0.001, 0.95)
"""The least and the most IK Stretch ``STRETCH_NEEDS`` was measured at."""


def stretch_need(
    rig: RigView,
    chain: IKChain,
    stretching: tuple[str, ...],
    with_pole: bool,
    starts: float,
) -> Need | None:
    """The count IK Stretch on ``stretching`` sets for a limb of equal bones with Use Tail whose
    joint starts bent ``starts`` degrees, with a pole (``STRETCH_NEEDS``) or without one, both
    bones stretching (``no_pole_stretch_rows``); None for another limb, or a bend or a stretch
    no row measured."""
    if not chain.use_tail or (not with_pole and len(stretching) < 2):
        return None
    stretch = max(round(rig.pose_bone(name).ik_stretch, 4) for name in stretching)
    least, most = STRETCH_MEASURED
    if stretch < least:
        return None
    # Stretchier than measured lands no later (measured: 1.0 needs 3, as 0.95 does).
    at = min(stretch, most)
    rows = (
        STRETCH_NEEDS[min(len(stretching), 2)]
        if with_pole
        else no_pole_stretch_rows(rig, chain, starts)
    )
    read = between_bends if with_pole else by_bend
    need = read(rows, starts, lambda row: fewer_either_side(row, at)) if rows else 0
    if not need:
        return None
    return Need(
        need,
        f"IK Stretch {stretch:g} on {' and '.join(stretching)}, and two-bone limbs "
        f"{'with' if with_pole else 'without'} a pole bent {starts:g}° so stretching "
        f"need at least {need}, measured",
        "stretch",
    )
