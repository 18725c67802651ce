"""What the iteration tables share: a count and what was measured (``Need``), and how a row is
read between the bends and the amounts it was measured at."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

STIFF_BEND_SPAN = 1.0
"""Degrees from a measured bend a limb may be for that row to hold; between the two, the
fewer of both rows holds; outside, nothing was measured."""


@dataclass(frozen=True)
class Need:
    """The iterations a measured chain at least as bent as this one needs, and what was measured,
    in words for the message."""

    count: int
    measured: str
    kind: str = "bend"
    """Which measurement sets the count: "bend" (the tables by the joint's bend at rest),
    "tail_off" (no Use Tail under a pole), "opposed_hinges", "stretch" (IK Stretch),
    "posed_longer" (a bone posed longer than at rest), "shrunk_stretch" (posed shorter, reaching
    by IK Stretch alone, ``SHRUNK_STRETCH_NEEDS``), "stiffness", "stretch_and_stiffness"
    (both: ``_stiff_needs``), "folded_further" (the joint folded further than at rest where the
    solver starts) or "posed_straighter" (straighter, on the same side), "clamped_straighter"
    (straighter than a one-way IK limit lets it, ``CLAMPED_STRAIGHTER``), "past_limit" (folded
    further past that limit's far edge, ``_one_way_starts``), "kept_side" (a joint that inherits
    no rotation held on its side by that limit, ``KEPT_SIDE_UNINHERITED``), "aimed_start" (a
    Damped Track aiming the lower bone at the target, ``AIMED_START_NEEDS``), "swung_root"
    (without a pole, the root posed turned toward the fold, ``SWUNG_ROOT_NEEDS``), "rolled" (the
    lower bone rolled off its fold, ``ROLLED_OFF_FOLD``), "one_bone_stretch" (a chain of one
    bone cut from its limb, reaching by IK Stretch, ``ONE_BONE_STRETCH_PACE``), "frozen_stretch"
    (a limb locked on every axis reaching by IK Stretch alone, ``FROZEN_STRETCH_NEEDS``) or
    "three_bones" (an insect's leg, ``_three_bone_needs``); the finding's ``needed_for``."""


def by_bend(rows: tuple[tuple[float, T], ...], bend: float, count: Callable[[T], int]) -> int:
    """The count read from the row measured at this rest bend (within ``STIFF_BEND_SPAN``), or
    the fewest of the rows' between the first and the last; 0 outside them."""
    counts = [(abs(bend - at), count(row)) for at, row in rows]
    near = [n for off, n in counts if off <= STIFF_BEND_SPAN]
    if near:
        return near[0]
    return min(n for _off, n in counts) if rows[0][0] < bend < rows[-1][0] else 0


EXACT_BEND = 0.05
"""Degrees from a measured bend a limb may be for ``between_bends`` to read that row alone."""


def between_bends(rows: tuple[tuple[float, T], ...], bend: float, count: Callable[[T], int]) -> int:
    """The count of the row measured at this bend (within ``EXACT_BEND``), or the fewer of the
    two rows either side: for rows measured a degree or less apart, where ``by_bend``'s span
    would read a straighter row's count for a limb bent a little more. Past the first or the
    last row, that row within ``STIFF_BEND_SPAN``; 0 beyond."""
    for at, row in rows:
        if abs(bend - at) <= EXACT_BEND:
            return count(row)
    below = [row for at, row in rows if at < bend]
    above = [row for at, row in rows if at > bend]
    if below and above:
        return min(count(below[-1]), count(above[0]))
    end_at, end_row = rows[-1] if below else rows[0]
    return count(end_row) if abs(bend - end_at) <= STIFF_BEND_SPAN else 0


def fewer_either_side(rows: tuple[tuple[float, int], ...], at: float) -> int:
    """The count of the row at ``at``, or the fewer of the two around it (the first row's below
    it; 0 past the last)."""
    above = next((i for i, (row_at, _n) in enumerate(rows) if row_at >= at), None)
    if above is None:
        return 0
    if rows[above][0] == at:
        return rows[above][1]
    return min(rows[above][1], rows[max(above - 1, 0)][1])


def at_least(rows: tuple[tuple[float, int], ...], value: float) -> int:
    """The count of the last row whose threshold ``value`` reaches (0: below them all)."""
    return next((n for least, n in reversed(rows) if value >= least), 0)
