"""How many Standard-solver iterations IK stiffness asks of a two-bone limb, alone or with IK
Stretch on both bones (``iterations_needed`` asks): tables measured on the reference rig's leg and
arm."""

from __future__ import annotations

from ..core.rig import IKChain, RigView
from ._lock_stiffness import folds_about_z
from ._need_tables import Need, at_least, by_bend, fewer_either_side
from ._stiffness_findings import swing_stiffness

# fmt: off
STIFF_NEEDS = {
    "even": (
        (7.63, (
            (0.2, 11), (0.785, 12), (0.845, 13), (0.875, 14), (0.9, 15), (0.92, 16), (0.925, 17),
            (0.935, 18), (0.95, 20), (0.955, 22), (0.96, 23), (0.965, 25), (0.97, 27),
        )),
        (13.7, (
            (0.695, 10), (0.77, 11), (0.83, 12), (0.86, 13), (0.89, 14), (0.9, 15), (0.92, 17),
            (0.935, 19), (0.95, 21), (0.955, 22), (0.96, 24), (0.965, 25),
        )),
    ),
    "joint": (
        (7.63, ((0.65, 13), (0.77, 14), (0.815, 15))),
        (13.7, ((0.3, 10), (0.605, 11), (0.725, 12), (0.785, 13), (0.83, 14), (0.85, 15))),
    ),
    "root": (
        (7.63, ((0.515, 13),)),
        (13.7, ((0.3, 10), (0.59, 11), (0.74, 12))),
    ),
}
# fmt: on
"""Iterations a two-bone limb with a pole needs by its joint's bend at rest (degrees) with IK
stiffness at least this on X and Z of both bones ("even", the lesser of the two), of the lower bone
alone ("joint") or of the upper alone ("root"), the other not stiff at all; below the first
stiffness the bend table holds. Measured on 5.3 on the leg (bent 7.63°, 12 unstiff) and the arm
(13.7°, 9), and on the leg bent as the arm: the same counts as the arm, so the bend decides, not
the limb (eleven of the counts held on 4.2 and 4.5 too). Stiffer than the last row the limb fails
at 500 (``locks``), or lands only just. A straighter stiff limb need not need more: the leg at 0.95
needs 20, the arm 21. Both leg bones mildly stiff (0.2 to 0.77) land at 11, one fewer than unstiff,
the same on 4.2, 4.5 and 5.3 (a row below the bend table's count lowers it). The rows from 0.5 were
read every 0.015 on 4.5 (the benchmark's amounts off the grid), where a row between the measured
ones left a failing limb a warning. The rows past 0.95 were read on 4.2 and 5.3 alike (fresh seed
401, a miss: the leg at 0.965 on both bones, 21 iterations, stopped 0.15% short under a warning
where the 0.95 row said 20); the arm at 0.97 stops 0.10% short at 500."""
# fmt: off
ROLLED_STIFF_NEEDS = {
    "even": (
        (7.63, ((0.5, 9), (0.8, 10), (0.9, 13))),
        (13.7, ((0.5, 7), (0.7, 8), (0.8, 9), (0.9, 12))),
    ),
    "joint": ((7.63, ((0.5, 11), (0.7, 12), (0.8, 13))), (13.7, ((0.5, 8), (0.7, 10), (0.8, 11)))),
    "root": ((7.63, ((0.5, 11), (0.7, 12))), (13.7, ((0.5, 8), (0.7, 9), (0.8, 11)))),
}
# fmt: on
"""``STIFF_NEEDS`` for a limb whose joint folds within ``ROLLED`` of its own Z axis (rolled
about 90°): it needs one or two fewer (measured on 5.3 at 0.5, 0.7, 0.8 and 0.9: the arm rolled
90° with its forearm at 0.8 lands from 11 where unrolled it needs 13; seed 113 called it an error
at 12). Each row holds from its stiffness up to the next, the fewer side."""

STIFF_FOLDED_BENDS = (7.63, 13.7)
"""The rest bends (the leg's, the arm's) ``STIFF_FOLDED_NEEDS`` holds at, and between."""
_FOLDS = (2, 5, 10, 15, 20, 25, 30, 35, 45, 55, 70, 90, 110, 130, 150, 170)
"""Degrees further folded than at rest that ``STIFF_FOLDED_NEEDS`` was measured at."""
# fmt: off
STIFF_FOLDED_NEEDS = {
    "even": (
        (0.5, (8, 7, 6, 5, 4, 4, 5, 6, 6, 7, 8, 9, 10, 11, 12, 13)),
        (0.6, (8, 8, 7, 6, 5, 5, 6, 6, 7, 8, 9, 10, 11, 12, 14, 15)),
        (0.7, (9, 8, 7, 7, 6, 6, 7, 8, 9, 9, 10, 12, 13, 14, 16, 18)),
        (0.75, (10, 9, 8, 7, 7, 7, 8, 8, 10, 11, 12, 13, 14, 16, 18, 19)),
        (0.8, (11, 10, 9, 8, 8, 8, 9, 10, 11, 12, 13, 15, 16, 18, 20, 22)),
        (0.85, (12, 11, 10, 10, 9, 9, 10, 11, 13, 14, 15, 17, 19, 21, 23, 25)),
        (0.9, (14, 14, 13, 12, 11, 11, 13, 14, 16, 18, 19, 21, 24, 26, 29, 32)),
        (0.925, (16, 16, 15, 14, 13, 13, 15, 17, 19, 21, 23, 25, 28, 30, 33, 36)),
        (0.95, (20, 19, 19, 18, 17, 16, 19, 21, 23, 26, 28, 31, 33, 36, 41, 41)),
    ),
    "joint": (
        (0.5, (9, 8, 7, 6, 5, 6, 7, 7, 8, 9, 10, 11, 12, 13, 14, 16)),
        (0.6, (10, 9, 8, 7, 6, 7, 8, 9, 9, 10, 11, 12, 13, 14, 16, 17)),
        (0.7, (11, 10, 9, 8, 8, 9, 10, 10, 11, 12, 13, 14, 16, 17, 19, 20)),
        (0.75, (11, 11, 10, 9, 9, 10, 11, 12, 13, 14, 15, 16, 17, 19, 21, 23)),
        (0.8, (13, 12, 11, 11, 10, 11, 12, 13, 15, 16, 17, 18, 20, 22, 24, 26)),
    ),
    "root": (
        (0.5, (10, 9, 7, 6, 5, 6, 7, 7, 8, 9, 10, 11, 11, 12, 13, 15)),
        (0.6, (10, 9, 8, 7, 6, 7, 8, 8, 9, 10, 11, 12, 13, 14, 15, 16)),
        (0.7, (11, 10, 9, 8, 8, 9, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18)),
    ),
}
# fmt: on
"""Iterations a two-bone limb with a pole needs where the solver starts its joint folded further
than at rest (``FOLDED_FURTHER_NEEDS``' starts) and its bones are IK-stiff, as ``STIFF_NEEDS``
reads them, by the stiffness row at or below the limb's and the degrees further folded
(``_FOLDS``; between two, the fewer of both), every count below failing: the fewer of the leg's
and the arm's, measured on 4.2 at the joint posed folded 2° to 170° further (fresh seed 312, a
miss: the arm stiff 0.95 on both bones, started 83° further by a copied rotation, stopped 2.1%
of its reach short at 20 under "not measured"). The two together need more than either: the
leg at 0.95 needs 20 at rest and 28 started 70° further, where the unstiff leg needs 8; the
counts dip at 20° to 25° further, as unstiff starts do. Stiffer than its last row (both bones
past 0.95, the lower bone alone from 0.85, the upper from 0.75) a limb stops short at 80 from
many starts (``locks``): the last row is the least it needs. The arm folded 170° further starts
past the line and fails at 80 (the leg's count is the row's)."""

# fmt: off
STIFF_STRAIGHTER_NEEDS = {
    "even": (
        (7.63, (
            (0.5, (18, 16, 14, 13, 12, 11)),
            (0.6, (18, 15, 14, 13, 12, 11)),
            (0.7, (17, 15, 14, 13, 12, 11)),
            (0.8, (17, 15, 14, 13, 13, 12)),
            (0.9, (19, 18, 17, 16, 16, 15)),
            (0.95, (23, 22, 22, 21, 21, 21)),
        )),
        (13.7, (
            (0.5, (19, 15, 13, 12, 10, 10)),
            (0.6, (18, 15, 13, 12, 11, 10)),
            (0.7, (18, 15, 13, 12, 11, 10)),
            (0.8, (18, 15, 14, 13, 12, 12)),
            (0.9, (20, 18, 17, 16, 16, 15)),
            (0.95, (25, 24, 23, 22, 22, 22)),
        )),
    ),
    "joint": (
        (7.63, (
            (0.5, (20, 17, 16, 15, 14, 13)),
            (0.6, (19, 17, 16, 14, 14, 13)),
            (0.7, (19, 17, 16, 15, 14, 13)),
            (0.8, (19, 18, 17, 16, 15, 15)),
        )),
        (13.7, (
            (0.5, (20, 17, 14, 13, 12, 11)),
            (0.6, (20, 16, 14, 13, 12, 11)),
            (0.7, (20, 17, 15, 14, 13, 12)),
            (0.8, (20, 18, 16, 15, 14, 14)),
        )),
    ),
    "root": (
        (7.63, (
            (0.5, (22, 19, 17, 15, 14, 13)),
            (0.6, (21, 19, 17, 16, 14, 13)),
        )),
        (13.7, (
            (0.5, (23, 18, 16, 14, 13, 11)),
            (0.6, (23, 18, 16, 14, 13, 12)),
            (0.7, (22, 18, 14, 14, 13, 12)),
        )),
    ),
}
# fmt: on
"""Iterations a two-bone limb with a pole needs where the solver starts its joint straighter
than at rest on the same side (``STRAIGHTER_NEEDS``' starts) and its bones are IK-stiff, as
``STIFF_NEEDS`` reads them, by the rest bend (the leg's, the arm's), the stiffness and the bend
it starts at (``STRAIGHTER_STARTS``; the first measured start as bent or more holds), every
count below failing: measured on 4.2, the leg posed 1° to 6° and the arm 2° to 12° straighter
(a sweep after fresh seed 320: the arm with its upper arm at 0.55 to 0.8, started at 6.8° by a
copied rotation of the shoulder, stopped 0.3% to 0.4% short at 12 under warnings; it needs
14). Stiffness does not raise the count evenly (both arm bones at 0.5 need 19 starting at 1.7°,
at 0.6 18), so a stiffness between two rows reads the fewer of both. The thigh alone at 0.7
stops short at 80 from every such start (``locks``): its rows end at 0.6."""
STRAIGHTER_STARTS = {
    7.63: (1.63, 2.63, 3.63, 4.63, 5.63, 6.63),
    13.7: (1.69, 3.69, 5.69, 7.69, 9.69, 11.69),
}
"""The bends (degrees) the leg and the arm started at in ``STIFF_STRAIGHTER_NEEDS``."""

# fmt: off
_FAST_BETWEEN_LEG = (
    (0.305, ((0.7, 16),)), (0.33, ((0.7, 14),)), (0.355, ((0.7, 13),)), (0.38, ((0.7, 12),)),
    (0.405, ((0.7, 11),)), (0.43, ((0.7, 10),)), (0.455, ((0.7, 10),)),
)
_FAST_BETWEEN_ARM = (
    (0.305, ((0.7, 16),)), (0.33, ((0.7, 15),)), (0.355, ((0.7, 14),)), (0.38, ((0.7, 12),)),
    (0.405, ((0.7, 12),)), (0.43, ((0.7, 11),)), (0.455, ((0.7, 10),)),
)
_FAST_STRETCH_LEG = tuple(sorted(
    ((0.3, ((0.7, 16),)), (0.4, ((0.7, 11),)), (0.5, ((0.7, 9),)), *_FAST_BETWEEN_LEG)
))
_FAST_STRETCH_ARM = tuple(sorted(
    ((0.3, ((0.7, 17),)), (0.4, ((0.7, 12),)), (0.5, ((0.7, 9),)), *_FAST_BETWEEN_ARM)
))
STIFF_STRETCH_NEEDS = {
    "root": (
        (7.63, (
            *((at, ((0.7, 25), (0.75, 27), (0.8, 30), (0.85, 37), (0.9, 43), (0.925, 45),
                    (0.95, 47))) for at in (0.01, 0.1)),
            (0.15, ((0.7, 27), (0.75, 29), (0.8, 31), (0.85, 33), (0.9, 34), (0.95, 35))),
            (0.2, ((0.7, 24), (0.8, 25), (0.9, 26))), *_FAST_STRETCH_LEG,
        )),
        (13.7, (
            *((at, ((0.7, 19), (0.75, 21), (0.8, 24), (0.85, 29), (0.9, 38), (0.925, 43),
                    (0.95, 47))) for at in (0.01, 0.1)),
            (0.15, ((0.7, 21), (0.75, 23), (0.8, 26), (0.85, 30), (0.9, 34), (0.925, 35),
                    (0.95, 36))),
            (0.2, ((0.7, 22), (0.8, 24), (0.9, 26), (0.95, 27))), (0.3, ((0.7, 16), (0.8, 17))),
            *_FAST_STRETCH_ARM[1:],
        )),
    ),
    "joint": (
        (7.63, (
            *((at, ((0.7, 39), (0.75, 42), (0.8, 44), (0.85, 46), (0.9, 47), (0.95, 48)))
              for at in (0.01, 0.1)),
            (0.15, ((0.7, 33), (0.75, 34), (0.85, 35))), (0.2, ((0.7, 25), (0.8, 26))),
            *_FAST_STRETCH_LEG,
        )),
        (13.7, (
            *((at, ((0.7, 30), (0.75, 35), (0.8, 40), (0.85, 45), (0.9, 48), (0.925, 49),
                    (0.95, 50))) for at in (0.01, 0.1)),
            (0.15, ((0.7, 31), (0.75, 33), (0.8, 35), (0.85, 36), (0.925, 37))),
            (0.2, ((0.7, 26), (0.8, 27))), *_FAST_STRETCH_ARM,
        )),
    ),
    "even": (
        (7.63, (
            *((at, ((0.7, 41), (0.725, 42), (0.75, 43), (0.775, 44), (0.8, 45), (0.85, 46),
                    (0.9, 47), (0.95, 48))) for at in (0.01, 0.1)),
            (0.15, ((0.7, 34), (0.85, 35))), (0.2, ((0.7, 25), (0.8, 26))),
            (0.3, ((0.7, 16),)), *_FAST_BETWEEN_LEG[:4], (0.4, ((0.7, 11), (0.95, 12))),
            _FAST_BETWEEN_LEG[4], (0.43, ((0.7, 10), (0.95, 11))), _FAST_BETWEEN_LEG[6],
            (0.5, ((0.7, 9),)),
        )),
        (13.7, (
            *((at, ((0.7, 33), (0.725, 35), (0.75, 38), (0.775, 40), (0.8, 42), (0.85, 46),
                    (0.9, 49), (0.95, 50))) for at in (0.01, 0.1)),
            (0.15, ((0.7, 32), (0.75, 34), (0.8, 35), (0.85, 36), (0.9, 37))),
            (0.2, ((0.7, 26), (0.8, 27))), (0.3, ((0.7, 17),)), (0.305, ((0.7, 16), (0.8, 17))),
            (0.33, ((0.7, 15), (0.95, 16))), (0.355, ((0.7, 14),)),
            (0.38, ((0.7, 13), (0.95, 14))), (0.4, ((0.7, 12), (0.95, 13))),
            (0.405, ((0.7, 12), (0.95, 13))), (0.43, ((0.7, 11), (0.95, 12))),
            (0.455, ((0.7, 10), (0.95, 12))), (0.5, ((0.7, 9), (0.95, 11))),
        )),
    ),
}
# fmt: on
"""Iterations a two-bone limb with a pole needs by its joint's bend at rest (degrees), with both
bones stretching (the greater IK Stretch; a tenth of it on the other bone) and IK stiffness at
least this, on the upper bone alone ("root"), the lower alone ("joint") or both ("even", the
lesser), every count below failing: measured on 4.2 on the leg and the arm at stiffness 0.7 to
0.95 (every 0.025 or 0.05) and stretch 0.01 to 0.5. The two together need far more than either
alone: at stretch 0.1 and stiffness 0.9 the arm needs 38 to 49 and the leg 43 to 47 (fresh seed
245: the upper arm at 0.89 under stretch 0.055 stopped 1.2% short at 16, a warning), where the
stretch alone needs 11 and 16; 0.01 needs what 0.1 does; from 0.3 the stretch decides (16 at
0.3, 9 at 0.5, at any stiffness from 0.7 to 0.9, falling evenly: read every 0.025 between on
4.2, where the rows either side had said 11 and a leg stiff 0.725 at 0.355 stopped 0.2% short
at 11, fresh seed 315; it needs 13). Both bones stiff need more than one: the arm at 0.725 under
stretch 0.055 needs 35 (fresh seed 262: 0.3% short at 26 with no finding, where the upper arm
alone needs 19). The count rises faster than a straight line between rows (the upper arm at
0.85 needs 29, between 24 and 38), so a stiffness between two reads the lower row. Between two
stretches, the fewer of both rows."""


MOST_STIFF_NEEDED = max(
    n
    for limbs in STIFF_STRETCH_NEEDS.values()
    for _bend, rows in limbs
    for _at, row in rows
    for _least, n in row
)
"""The most iterations ``STIFF_STRETCH_NEEDS`` gives."""


def stretching_and_stiff(stretched: Need, stiff: Need) -> Need:
    """IK Stretch and stiffness together where ``STIFF_STRETCH_NEEDS`` has no row (one bone
    stretching, a stiffness below 0.7, a stretch past 0.5): the fewer of their counts,
    below which both say the chain stops short (seed 163: the leg stiff 0.95 on both bones with
    IK Stretch 0.5 lands from 10 iterations, where stiffness alone needs 20, and fails at 8, where
    the stretch alone lands; at stretch 0.1 and stiffness 0.8 it fails at 16, where each alone
    lands). At or above it the solver check warns, and Verify by Solving solves it."""
    return Need(
        min(stretched.count, stiff.count),
        f"{stretched.measured}; {stiff.measured}; the two together were not measured",
        "stretch_and_stiffness",
    )


def stiff_and_stretching_need(
    rig: RigView, chain: IKChain, stretching: tuple[str, ...], starts: float
) -> Need | None:
    """The count ``STIFF_STRETCH_NEEDS`` gives a limb with both bones stretching and a bone
    IK-stiff from 0.7; None for a bend, a stretch or a stiffness no row measured."""
    stiff = _chain_stiffness(rig, chain)
    if len(stretching) != 2 or stiff is None:
        return None
    kind, stiffness, where = stiff
    stretch = max(round(rig.pose_bone(name).ik_stretch, 4) for name in stretching)

    def count(rows: tuple[tuple[float, tuple[tuple[float, int], ...]], ...]) -> int:
        counts = tuple((at, at_least(row, stiffness)) for at, row in rows)
        return fewer_either_side(counts, stretch) if rows[0][0] <= stretch else 0

    need = by_bend(STIFF_STRETCH_NEEDS[kind], starts, count)
    if not need:
        return None
    return Need(
        need,
        f"IK Stretch {stretch:g} on {' and '.join(stretching)} and IK stiffness {stiffness:g} "
        f"on {where}; two-bone limbs with a pole bent {starts:g}° so stretching and so stiff "
        f"need at least {need}, measured",
        "stretch_and_stiffness",
    )


def stiffness_need(rig: RigView, chain: IKChain, bend: float, count: int, limb: str) -> Need | None:
    """The count the two bones' IK stiffness raises (or, mild on both, lowers) the bend table's
    to (``STIFF_NEEDS``), None when it does not change it. A bone is as stiff as its freer swing
    axis: one axis alone was not measured, nor two bones stiff unevenly (evenly, they need less
    than one alone)."""
    stiff = _chain_stiffness(rig, chain)
    if stiff is None:
        return None
    kind, stiffness, where = stiff
    rolled = folds_about_z(rig, chain)
    need = _stiff_count((ROLLED_STIFF_NEEDS if rolled else STIFF_NEEDS)[kind], bend, stiffness)
    if not need or need == count:
        return None
    return Need(
        need,
        f"IK stiffness {stiffness:g} on {where}; {limb} bent {bend:g}° need {count}, and {need} "
        + ("so stiff with the joint rolled to fold about Z" if rolled else "so stiff")
        + ", measured",
        "stiffness",
    )


def _unrolled_stiffness(rig: RigView, chain: IKChain) -> tuple[str, float, str] | None:
    """``_chain_stiffness`` of a limb whose joint folds about X: the posed starts' stiff tables
    were measured unrolled."""
    stiff = _chain_stiffness(rig, chain)
    return None if stiff is None or folds_about_z(rig, chain) else stiff


def _chain_stiffness(rig: RigView, chain: IKChain) -> tuple[str, float, str] | None:
    """(kind, stiffness, where) of the two bones' IK stiffness as the tables read it: "even"
    (both, the lesser), "joint" (the lower bone alone) or "root"; None where neither is stiff."""
    joint, root = (swing_stiffness(rig.pose_bone(name)) for name in chain.moving_bones)
    if joint and root:
        return "even", min(joint, root), "both bones"
    if joint or root:
        kind, stiffness = ("joint", joint) if joint else ("root", root)
        return kind, stiffness, chain.moving_bones[0 if joint else 1]
    return None


def _stiff_count(
    rows: tuple[tuple[float, tuple[tuple[float, int], ...]], ...], bend: float, stiffness: float
) -> int:
    """The count the rows give a limb so bent and stiff (0: none measured)."""
    return by_bend(rows, bend, lambda row: at_least(row, stiffness))


def stiff_folded_need(rig: RigView, chain: IKChain, bend: float, further: float) -> Need | None:
    """The count ``STIFF_FOLDED_NEEDS`` gives a stiff limb started ``further`` degrees folded
    further than its ``bend`` at rest; None where neither bone is stiff, for a stiffness or a
    bend no row measured, or a joint rolled to fold about Z (measured unrolled)."""
    stiff = _unrolled_stiffness(rig, chain)
    if stiff is None:
        return None
    kind, stiffness, where = stiff
    rows_by_stiffness = reversed(STIFF_FOLDED_NEEDS[kind])
    folds = next((row for least, row in rows_by_stiffness if stiffness >= least), None)
    if folds is None:
        return None
    rows = tuple(zip(_FOLDS, folds, strict=True))
    limbs = tuple((measured, rows) for measured in STIFF_FOLDED_BENDS)
    need = by_bend(limbs, bend, lambda row: fewer_either_side(row, further))
    if not need:
        return None
    return Need(
        need,
        f"IK stiffness {stiffness:g} on {where}, its joint posed folded {further:.0f}° further "
        f"than its {bend:.1f}° at rest, where the solver starts; two-bone limbs with a pole so "
        f"stiff and so posed need at least {need}, measured",
        "stiff_folded",
    )


def stiff_straighter_need(rig: RigView, chain: IKChain, bend: float, start: float) -> Need | None:
    """The count ``STIFF_STRAIGHTER_NEEDS`` gives a stiff limb bent ``bend`` at rest that starts
    bent ``start`` degrees, straighter; None where neither bone is stiff, for a stiffness, bend
    or start no row measured, or a joint rolled to fold about Z (measured unrolled)."""
    stiff = _unrolled_stiffness(rig, chain)
    if stiff is None:
        return None
    kind, stiffness, where = stiff

    def count(limb: tuple[float, tuple[tuple[float, tuple[int, ...]], ...]]) -> int:
        rest, rows = limb
        below = [row for least, row in rows if least <= stiffness + 1e-6]
        around = below[-1:] + [row for least, row in rows if least > stiffness + 1e-6][:1]
        starts = STRAIGHTER_STARTS[rest]
        found = [
            next((n for at, n in zip(starts, row, strict=True) if at >= start), 0) for row in around
        ]
        return min(found) if below else 0

    limbs = tuple((rest, (rest, rows)) for rest, rows in STIFF_STRAIGHTER_NEEDS[kind])
    need = by_bend(limbs, bend, count)
    if not need:
        return None
    return Need(
        need,
        f"IK stiffness {stiffness:g} on {where}, its joint posed straighter than its {bend:.1f}° "
        f"at rest, starting bent {start:.1f}°; two-bone limbs with a pole so stiff and so posed "
        f"need at least {need}, measured",
        "stiff_straighter",
    )
