"""How many Standard-solver iterations a limb needs, by tables measured on two-bone limbs.

The solver check asks ``iterations_needed`` for a chain's count: each table was measured by
solving the oracle's goals on the reference rig's leg and arm in 4.2 and 5.3, so a limb the
tables do not describe gets no count, and the check leaves it a warning.
"""

from __future__ import annotations

import math
from dataclasses import replace

import bpy

from ..core.geometry import is_identity
from ..core.limb import bend_limit, fold_off_x, one_way_fold
from ..core.posed_bend import joint_bends
from ..core.reach import posed_longer, stretching_bones
from ..core.rig import IKChain, RigView
from ._aimed_start import tracking_target
from ._frozen_needs import frozen_stretch_need
from ._need_tables import Need, at_least, by_bend, fewer_either_side
from ._one_bone_needs import ONE_BONE_MOST, one_bone_stretch_need
from ._one_way_starts import one_way_needs, past_one_way_limit
from ._shrunk_needs import SHRUNK_STRETCH_NEEDS, shrunk_stretch_need
from ._stiff_needs import (
    MOST_STIFF_NEEDED,
    stiff_and_stretching_need,
    stiff_folded_need,
    stiff_straighter_need,
    stiffness_need,
    stretching_and_stiff,
)
from ._stiffness_findings import stiff_bones, swing_stiffness
from ._straight_no_pole import against_the_fold_need, opposed_hinges_need
from ._stretch_needs import stretch_need
from ._swung_root_needs import swung_root_need
from ._three_bone_needs import three_bone_need

BEND_NEEDS = (
    (2.0, 20),
    (4.0, 16),
    (6.0, 13),
    (7.63, 12),
    (10.0, 11),
    (12.0, 10),
    (13.7, 9),
    (15.0, 9),
    (20.0, 8),
    (25.0, 7),
    (30.0, 6),
    (40.0, 6),
    (50.0, 5),
    (60.0, 5),
)
"""Iterations a two-bone limb with a pole needs to land on the oracle's goals, by its joint's bend
at rest (degrees), every count below failing: measured on legs and arms of equal bones, and the
fewest a limb whose upper bone is shorter needs (half the lower: 17 at 7.6°)."""
LONG_ROOT_BEND_NEEDS = (
    (2.0, 16),
    (4.0, 12),
    (6.0, 11),
    (7.6, 10),
    (10.0, 8),
    (13.7, 7),
    (15.0, 7),
    (20.0, 6),
    (30.0, 5),
    (40.0, 5),
    (50.0, 4),
    (60.0, 4),
)
"""The same for an upper bone up to twice the lower's length, measured at twice: it lands sooner."""
LONG_ROOT = 2.0
EQUAL = 1.01
"""Upper to lower bone lengths: up to ``EQUAL`` the first table holds, up to ``LONG_ROOT`` the
second; longer upper bones were not measured."""
NO_POLE_BEND_NEEDS = ((0.0, 14), (3.8, 10), (7.63, 9), (15.2, 7), (29.9, 5))
"""A limb of equal bones without a pole: the solver chooses the bend plane, and lands sooner;
straight at rest, it needs 14 (12 leave the arm 0.31% of its reach short, with the body turned
40° about X), its IK limits or none alike. The reference leg, bent 7.63°, needs 9 (8 leave it
0.13% short, 7 0.71%, on 4.2 and 5.3; its row read 7.6 and the leg fell to the next)."""
ROLLED_OFF_FOLD = (6.5, 22.5)
"""Degrees off its X axis (``fold_off_x``) within which a limb with a pole whose lower bone is
rolled needs one iteration more than ``BEND_NEEDS`` says: measured on 4.2, 4.5 and 5.3, the leg
at 12 stops 0.10% to 0.13% of its reach short rolled 7° to 24° (and 156° to 173°), the arm at 9
rolled 7° to 22°, and one more lands them; 6° lands both, 23° the arm. Rolled 30° to 90° they
need as many or fewer, unevenly (the leg at 11 lands rolled 40°, 50°, 80° and 90° and stops
short at 60° and 70°), which is left to the table (and ``ROLLED_FEWER``)."""
ROLLED_FEWER = ((37.9, 1), (58.5, 0), (77.9, 1))
"""Iterations fewer than ``BEND_NEEDS`` says that a limb with a pole needs with its lower bone
rolled at least this many degrees off its X axis (``fold_off_x``). Fresh seed 479, a trade: the
arm rolled 50° at 8 iterations under a chain length of 1; set to 2 it landed under the error
that 9 were needed. Measured on 4.2 and 5.3 alike, rolled every 1° to 10° either way: the leg
(7.63°, 12) and the arm (13.7°, 9) each need one fewer from 38° to 58° and from 78° to 90°;
from 60° to 75° the leg needs its 12 (the arm 8); the arm needs 7 from 85°, the leg 10 at 45°
and 90°, which this does not count. Read only for the rows measured (``ROLLED_ROWS``)."""
ROLLED_ROWS = (7.63, 13.7)
"""The ``BEND_NEEDS`` rows the rolled counts were measured on: the leg's and the arm's."""
TAIL_OFF_NEEDS = 15
TAIL_OFF_STRETCHING_NEEDS = 12
"""The same chain stretching: measured on the arm with IK Stretch 0.01 to 1 on the forearm (a
tenth of it on the upper arm), 8 stop 0.3% short, 11 0.12%, 12 land."""
TAIL_OFF_GROWN_NEEDS = (
    (1.02, 16), (1.05, 18), (1.1, 20), (1.2, 23), (1.3, 26), (1.5, 31), (1.75, 37), (2.0, 44)
)  # fmt: skip
"""Iterations the same chain needs with a bone posed at least this many times its rest length
(fresh seed 326, a miss: the arm without Use Tail, its upper arm scaled 1.5, at 20 iterations
28% of its reach short under a warning, where ``GROWN_NEEDS`` gave it 16). Measured on the arm,
the upper arm scaled evenly or along its length, on 4.2, 4.5 and 5.3 alike: one fewer stops
0.11% to 0.26% short. The leg without Use Tail turns the hips (``chain_length``'s error)."""
TAIL_OFF_BEND = 6.84
"""A chain without Use Tail that a pole turns: measured on the arm, its shoulder and upper arm
bent this much (see the module doc)."""
GROWN_NEEDS = ((1.02, 1), (1.1, 2), (1.2, 3), (1.5, 4))
"""Iterations more than its table a limb needs with a bone posed this many times its rest length
(pose scale, its own or inherited): measured on the leg and the arm, a thigh or upper arm scaled
with the lower bone not inheriting it, both scaled, or the lower bone alone, the fewest of the
three. 2% longer, the leg needs 13 where the table gives 12 and the arm 10 for 9; at 1.01 the leg
still lands at 12. Scaled 2, the leg needs 16 to 29 and the arm 14 to 24."""
# fmt: off
FOLDED_FURTHER_NEEDS = (
    (0.0, (
        (2, 19), (5, 13), (10, 8), (15, 6), (20, 4), (25, 3), (30, 4), (35, 5), (40, 6),
        (45, 7), (50, 7), (55, 8), (60, 8), (65, 9), (70, 9), (75, 10), (85, 10), (90, 11),
        (100, 11), (110, 12), (120, 12), (130, 13), (150, 13), (160, 14), (170, 14),
    )),
    (7.63, (
        (2, 10), (5, 9), (10, 6), (15, 5), (20, 3), (25, 3), (30, 4), (35, 5), (40, 5), (45, 6),
        (50, 6), (55, 7), (60, 7), (65, 8), (75, 8), (80, 9), (90, 9), (95, 10), (110, 10),
        (120, 11), (140, 11), (150, 12), (160, 12), (170, 13),
    )),
    (13.7, (
        (2, 8), (5, 7), (10, 5), (15, 4), (20, 3), (25, 3), (30, 4), (35, 4), (40, 5), (45, 5),
        (50, 6), (55, 6), (60, 7), (70, 7), (75, 8), (85, 8), (90, 9), (110, 9), (120, 10),
        (130, 10), (140, 11), (160, 11),
    )),
)
# fmt: on
"""Iterations a two-bone limb with a pole needs by its joint's bend at rest (degrees) and how
many degrees further than that it is posed folded, where the solver starts: measured on the leg
(7.63°) and the arm (13.7°), the same in 4.2, 4.5 and 5.3, and on both straight at rest (0°,
posed toward the pole; alike on 4.2 and 5.3, and every count below the row's fails: seed 127's
straight arm started by a copied rotation stopped 6.6% short at 5 under a warning); between two
measured folds, the fewer of both. A little further the start is nearer the goals (posed 20°,
3 land where the leg at rest needs 12); further still, the solver must unfold it (posed 70°: the
arm needs 7, the leg 8). The rest bends hold as ``STIFF_NEEDS``'s do. Measured on limbs of
equal bones, neither stiff nor stretching nor posed longer; the arm folded 170° further starts
past the line."""


# fmt: off
STRAIGHTER_NEEDS = (
    (7.63, ((1.63, 23), (2.63, 19), (3.63, 17), (4.63, 15), (5.63, 14), (6.63, 13))),
    (13.7, ((1.69, 23), (3.69, 18), (5.69, 15), (7.69, 13), (9.69, 12), (11.69, 10))),
)
# fmt: on
"""Iterations a two-bone limb with a pole needs by its joint's bend at rest (degrees) and the bend
it starts at when posed straighter on the same side, every count below failing: the leg posed 1°
to 6° and the arm 2° to 12° straighter, on 4.5. Such a start needs more than a limb built that
straight (``BEND_NEEDS``: the arm starting at 7.7° needs 13, the leg at 4.6° 15, where their rows
say 12 and 13), so the row at the first measured start as bent or more is the least it needs
(seed 106: the forearm copying the shoulder's rotation starts the arm at 6.8°, and 12 iterations
leave it 1.3% of its reach short)."""


MOST_NEEDED = max(
    ONE_BONE_MOST, MOST_STIFF_NEEDED, *(n for _, row in SHRUNK_STRETCH_NEEDS for _, n in row)
)
"""The most iterations a table gives (``ONE_BONE_MOST`` 100, ``SHRUNK_STRETCH_NEEDS`` 70,
``STIFF_STRETCH_NEEDS`` 50, every other 25 at most): a count at or above it needs no reading
(the solver check skips it)."""


def iterations_needed(
    rig: RigView,
    chain: IKChain,
    without: bpy.types.Constraint | None = None,
    at_rest: bool = False,
) -> Need | None:
    """The fewest iterations the chain needs by the tables measured on two-bone limbs as straight
    as it is, or straighter, or posed folded as far; None for a chain no table measured (one or
    three bones, a bend past the tables). ``without``: as if that constraint were muted;
    ``at_rest``: as if the chain's pose were cleared (it starts at its rest bend, unscaled)."""
    if len(chain.moving_bones) == 3:
        found = three_bone_need(rig, chain)
        return None if found is None else Need(*found, "three_bones")
    if len(chain.moving_bones) == 1:
        return one_bone_stretch_need(rig, chain)
    frozen = frozen_stretch_need(rig, chain)
    if frozen is not None:
        return frozen
    bends = joint_bends(rig, chain, without)
    if bends is None:
        return None
    bend, further, straighter = (bends[0], 0.0, None) if at_rest else bends
    with_pole = chain.pole is not None and not chain.pole_bone_missing
    # Limited to fold only further, the joint starts no straighter (``one_way_needs``).
    clamped = straighter is not None and one_way_fold(rig, chain, chain.owner) is not None
    straighter = None if clamped else straighter
    if further and not with_pole:
        return against_the_fold_need(rig, chain, further) if bend == 0.0 else None
    if further:
        return _folded_start_need(rig, chain, bend, _within_its_limit(rig, chain, further))
    table = _bend_table(rig, chain, with_pole)
    # Posed straighter, it needs what a limb that straight at rest needs, or more (measured: the
    # arm posed 4° to 12° straighter needs 12 to 23 where its start's row gives 11 to 20).
    starts = bend if straighter is None else straighter
    measured = next(((b, n) for b, n in table if b >= starts), None)
    if measured is None:
        return None
    limb = _limb_words(table, with_pole)
    needs = [_bend_need(measured, limb, bend, straighter)]
    stretching = stretching_bones(rig, chain)
    if stretching and not chain.use_tail:
        return _tail_off_stretching(rig, chain, bend, with_pole)
    shrunk = None if at_rest else shrunk_stretch_need(rig, chain, stretching)
    if stretching:
        stretched = (
            stretch_need(rig, chain, stretching, table is BEND_NEEDS, starts)
            if table in (BEND_NEEDS, NO_POLE_BEND_NEEDS)
            else None
        )
        if stretched is None:
            return shrunk  # a stretching limb no table measured, but for its shortened pose
        needs[0] = stretched  # in place of the bend table's count: the stretch decides
    if straighter is not None and with_pole:
        posed = _straighter_need(rig, chain, bend, straighter)
        if posed is not None:
            needs.append(posed)
    longest = None if at_rest else _longest_posed(rig, chain)
    grown = _grown_need(longest, measured, limb) if longest else None
    if grown is not None:
        needs.append(grown)
    if with_pole:
        needs += one_way_needs(rig, chain, measured, limb, clamped)
    stiff = stiffness_need(rig, chain, bend, measured[1], limb) if with_pole else None
    both = stiff_and_stretching_need(rig, chain, stretching, starts) if with_pole else None
    if both is not None:
        needs[0] = both
    elif stiff is not None and stretching:
        needs[0] = stretching_and_stiff(needs[0], stiff)
    elif stiff is not None and stiff.count < measured[1]:
        needs[0] = stiff  # mild stiffness on both bones steadies the leg: it lands sooner
    elif stiff is not None:
        needs.append(stiff)
    if with_pole and table is BEND_NEEDS and not stretching and stiff is None:
        _weigh_the_roll(rig, chain, needs, measured, limb)
    needs += _setup_needs(rig, chain, bend, with_pole, longest)
    if table is NO_POLE_BEND_NEEDS and straighter is None and not at_rest:
        needs += _swung_root(rig, chain, bend)
    if shrunk is not None:
        needs.append(shrunk)  # after the stiffness, which may lower the stretch's count
    return max(needs, key=lambda need: need.count)


def _bend_need(
    measured: tuple[float, int], limb: str, bend: float, straighter: float | None
) -> Need:
    """The count of the bend table's row ``measured`` (bend, count) for a joint bent ``bend``
    at rest, or posed ``straighter``."""
    joint = (
        f"its joint is bent {bend:.1f}° at rest"
        if straighter is None
        else f"its joint is posed straighter than at rest, starting bent {straighter:.1f}°"
    )
    return Need(
        measured[1],
        f"{joint}, and {limb} bent up to {measured[0]:g}° need at least {measured[1]}, measured",
    )


def _swung_root(rig: RigView, chain: IKChain, bend: float) -> list[Need]:
    """``swung_root_need`` for a limb as the posed starts were measured, not stiff."""
    if not _posed_as_measured(rig, chain) or _stiff_limb(rig, chain):
        return []
    return swung_root_need(rig, chain, bend)


def _limb_words(table: tuple[tuple[float, int], ...], with_pole: bool) -> str:
    """The limbs ``table`` was measured on, for a count's words."""
    limb = "two-bone limbs" + (" with a pole" if with_pole else " without a pole")
    if table is LONG_ROOT_BEND_NEEDS:
        return f"{limb}, the upper bone up to twice the lower,"
    return limb


def _tail_off_stretching(rig: RigView, chain: IKChain, bend: float, with_pole: bool) -> Need | None:
    """A chain without Use Tail under a pole that stretches (fresh seed 306, a miss: the arm at 5
    iterations with stretch 0.1, 0.8% short under "not measured"): it reaches sooner than
    unstretched (``TAIL_OFF_STRETCHING_NEEDS``). None (not measured) posed, or stiff."""
    if not with_pole or bend > TAIL_OFF_BEND or _posed_or_stiff(rig, chain):
        return None
    return Need(
        TAIL_OFF_STRETCHING_NEEDS,
        "without Use Tail under a pole, stretching (measured: 11 leave an arm 0.12% of its "
        f"reach short at stretch 0.01 to 1; it needs {TAIL_OFF_STRETCHING_NEEDS})",
        "tail_off_stretching",
    )


def _posed_or_stiff(rig: RigView, chain: IKChain) -> bool:
    posed = any(
        not is_identity(rig.pose_bone(name).matrix_basis, 1e-6) for name in chain.moving_bones
    )
    return posed or bool(stiff_bones(rig, chain))


def _setup_needs(
    rig: RigView, chain: IKChain, bend: float, with_pole: bool, longest: tuple[str, float] | None
) -> list[Need]:
    """What the IK's own setup needs whatever the bend table says: no Use Tail under a pole
    (stretching, ``_tail_off_stretching`` decides before; ``longest``, the bone posed longest,
    ``TAIL_OFF_GROWN_NEEDS``), or a straight chain without a pole on hinges limited opposite
    ways, unstretched."""
    needs = []
    if not chain.use_tail and with_pole and bend <= TAIL_OFF_BEND:
        grown, times = longest or ("", 1.0)
        count = at_least(TAIL_OFF_GROWN_NEEDS, times)
        needs.append(
            Need(
                count,
                f"without Use Tail under a pole and {grown} posed {times:g} times its rest "
                "length: measured, one fewer leaves an arm 0.11% to 0.26% of its reach short; "
                f"it needs {count}",
                "tail_off",
            )
            if count
            else Need(
                TAIL_OFF_NEEDS,
                "without Use Tail under a pole (measured: 12 leave an arm 2.1% of its reach "
                "short, 14 0.19%; it needs 15)",
                "tail_off",
            )
        )
    if not with_pole and bend == 0.0:
        needs += opposed_hinges_need(rig, chain)
    return needs


def _longest_posed(rig: RigView, chain: IKChain) -> tuple[str, float] | None:
    """The bone of the limb posed longest past its rest length (``posed_longer``), and how many
    times; None where none is."""
    longer = posed_longer(rig, chain)
    if not longer:
        return None
    grown = max(longer, key=longer.__getitem__)
    return grown, round(longer[grown], 3)  # a scale of 1.5 reads 1.4999993


def _grown_need(longest: tuple[str, float], measured: tuple[float, int], limb: str) -> Need | None:
    """What a bone posed longer than at rest adds to the bend table's ``measured`` row
    (``GROWN_NEEDS``), None when none is."""
    grown, times = longest
    extra = at_least(GROWN_NEEDS, times)
    if not extra:
        return None
    return Need(
        measured[1] + extra,
        f"{grown} is posed {times:g} times its rest length; {limb} bent up to "
        f"{measured[0]:g}° need {measured[1]} at rest and, measured, one more posed 2% "
        "longer, two at 10%, three at 20%, four at 50%",
        "posed_longer",
    )


def _rolled_need(
    rig: RigView, chain: IKChain, measured: tuple[float, int], limb: str
) -> Need | None:
    """One more than the bend table's ``measured`` row for a lower bone rolled a little off the
    axis its joint folds about (``ROLLED_OFF_FOLD``), or fewer rolled further
    (``ROLLED_FEWER``); None otherwise."""
    off_fold = fold_off_x(rig, chain)
    if off_fold is None:
        return None
    if ROLLED_OFF_FOLD[0] <= off_fold <= ROLLED_OFF_FOLD[1]:
        return Need(
            measured[1] + 1,
            f"its lower bone is rolled {off_fold:.0f}° off the axis its joint folds about, and "
            f"{limb} so rolled need one more than the {measured[1]} of the unrolled, measured",
            "rolled",
        )
    fewer = at_least(ROLLED_FEWER, off_fold)
    if not fewer:
        return None
    return Need(
        measured[1] - fewer,
        f"its lower bone is rolled {off_fold:.0f}° off the axis its joint folds about, and "
        f"{limb} bent up to {measured[0]:g}° so rolled need at least {measured[1] - fewer}, "
        f"one fewer than unrolled, measured",
        "rolled",
    )


def _weigh_the_roll(
    rig: RigView, chain: IKChain, needs: list[Need], measured: tuple[float, int], limb: str
) -> None:
    """Add to ``needs`` the one more a lower bone rolled a little off its fold needs, or, with
    only the bend table's count in them, put the one fewer of a bone rolled further in its place
    (``_rolled_need``), on a plain limb with a pole read by ``BEND_NEEDS``."""
    rolled = _rolled_need(rig, chain, measured, limb)
    if rolled is not None and rolled.count > measured[1]:
        needs.append(rolled)
    elif rolled is not None and len(needs) == 1 and _as_rolled_measured(rig, chain, measured):
        needs[0] = rolled  # rolled further, it folds sooner: fewer, as measured on its row


def rolled_saves_an_iteration(rig: RigView, chain: IKChain) -> str | None:
    """Why rolling the lower bone onto its fold would leave the chain too few iterations: rolled
    within ``ROLLED_FEWER`` it lands with one fewer than unrolled, and has no more (the trade
    the roll check's fix made on the arm rolled 50° at 8, which aligned needs 9)."""
    need = iterations_needed(rig, chain)
    off_fold = fold_off_x(rig, chain)
    if need is None or need.kind != "rolled" or off_fold is None:
        return None
    fewer = at_least(ROLLED_FEWER, off_fold)
    iterations = rig.ik_constraint(chain).iterations
    if not fewer or not need.count <= iterations < need.count + fewer:
        return None  # enough either way, or too few rolled too (the solver check's error)
    return (
        f"rolled {off_fold:.0f}° off its fold, the chain lands with {iterations} iterations; "
        f"rolled onto it, it would need {need.count + fewer} (the solver check's error): raise "
        "its iterations first"
    )


def _as_rolled_measured(rig: RigView, chain: IKChain, measured: tuple[float, int]) -> bool:
    """Whether the limb is as ``ROLLED_FEWER`` was measured: on its rows, unposed and unstiff (the
    arm rolled 90° and stiff 0.8 on both bones stops short at 8, its unrolled row's count less
    one)."""
    return measured[0] in ROLLED_ROWS and not _posed_or_stiff(rig, chain)


def _bend_table(rig: RigView, chain: IKChain, with_pole: bool) -> tuple[tuple[float, int], ...]:
    """The table measured on limbs proportioned like this one (none: ``()``)."""
    lower, upper = (rig.bone(name).length for name in chain.moving_bones)
    ratio = upper / lower if lower > 0.0 else math.inf
    if not with_pole:
        return NO_POLE_BEND_NEEDS if ratio <= EQUAL else ()
    return BEND_NEEDS if ratio <= EQUAL else LONG_ROOT_BEND_NEEDS if ratio <= LONG_ROOT else ()


AIMED_START_NEEDS = ((0.0, 7), (7.63, 5), (13.7, 4))
"""Iterations a two-bone limb with a pole needs, by its joint's bend at rest, where a Damped
Track aims its lower bone at the chain's own target: that start moves with the target, so the
posed rows (30° further: 4) do not hold. Fresh seed 344, a miss: the straight arm so aimed, at 5
iterations, 0.7% short under a warning. Measured on 4.2, 4.5 and 5.3: straight, the arm and the
leg need 7 (6 stop 0.29% short); as built, the leg 5 (4: 0.25%) and the arm 4 (3: 0.26%)."""


LIMITED_FURTHER_MEASURED = 20.0
"""Degrees, the narrowest IK limit on the joint's fold that ``_within_its_limit`` reads."""


def _within_its_limit(rig: RigView, chain: IKChain, further: float) -> float:
    """Degrees further folded the joint starts, as far as its IK limit lets it fold: the count
    of a start posed past that limit is no more than the folded-further table's at the limit
    (fresh seed 428, a false alarm: the arm copying the foot control's rotation, folded 83°
    further, limited ±20°, landed at 5 where the table at 83° said 8). Measured on 4.2, the leg
    and the arm posed 30° to 150° further, limited 20° to 90°: each lands within the table's
    count at the limit's edge or its own posed fold, whichever is less; narrower limits hold
    the limb short (the locks check's error). A limit that lets it fold one way only has its
    own reading."""
    limit = bend_limit(rig, chain.moving_bones[0])
    if limit is None or math.degrees(limit[2]) < LIMITED_FURTHER_MEASURED - 1e-3:
        return further
    if limit[1] > -1e-3:
        return further  # one way only: ``past_one_way_limit`` reads a start past its edge
    return min(further, math.degrees(limit[2]))


def _folded_start_need(rig: RigView, chain: IKChain, bend: float, further: float) -> Need | None:
    """``_folded_further_need``, or where the pose starts the joint past the far edge of its
    one-way IK limit, the need at that edge and the few more the clamp costs
    (``_one_way_starts``); where a Damped Track aims the lower bone at the target,
    ``_aimed_start_need``."""
    aimed = _aimed_start_need(rig, chain, bend)
    if aimed is not None:
        return aimed
    past = past_one_way_limit(rig, chain, further)
    if past is None:
        return _folded_further_need(rig, chain, bend, further)
    edge, extra = past
    at_edge = _folded_further_need(rig, chain, bend, edge)
    if at_edge is None:
        return None
    return Need(
        at_edge.count + extra,
        f"its joint is posed folded {further:.0f}° further than its {bend:g}° at rest, past its "
        f"IK limit's {edge:g}°, where the solver clamps it on its first step; two-bone limbs "
        f"with a pole so posed need {at_edge.count} at that edge and, measured, {extra} more",
        "past_limit",
    )


def _aimed_start_need(rig: RigView, chain: IKChain, bend: float) -> Need | None:
    """What a limb whose lower bone a Damped Track aims at the target needs
    (``AIMED_START_NEEDS``), None for another start or a limb not as measured."""
    track = tracking_target(rig, chain)
    if track is None or not _as_aimed_measured(rig, chain):
        return None
    count = by_bend(AIMED_START_NEEDS, bend, lambda n: n)
    if not count:
        return None
    return Need(
        count,
        f"'{track}' aims {chain.owner} at the target where the solver starts, so its start "
        f"moves with the target, and two-bone limbs with a pole bent {bend:g}° so aimed need at "
        f"least {count}, measured",
        "aimed_start",
    )


def _as_aimed_measured(rig: RigView, chain: IKChain) -> bool:
    """Whether the limb is as ``AIMED_START_NEEDS`` was measured: posed as measured, not stiff,
    its lower bone rolled as the upper (measured: rolled 20° or -40°, it needs one fewer to two
    more)."""
    lower, upper = (rig.bone(name).x_axis for name in chain.moving_bones)
    rolled = math.degrees(lower.angle(upper, 0.0))
    if min(rolled, 180.0 - rolled) > ROLLED_OFF_FOLD[0]:
        return False
    return _posed_as_measured(rig, chain) and not _stiff_limb(rig, chain)


def _folded_further_need(rig: RigView, chain: IKChain, bend: float, further: float) -> Need | None:
    """What a limb posed folded further needs (``FOLDED_FURTHER_NEEDS``; stiff,
    ``STIFF_FOLDED_NEEDS``), None where the table was not measured: another rest bend or
    proportion, or a bone stretching or grown."""
    if not _posed_as_measured(rig, chain):
        return None
    if _stiff_limb(rig, chain):
        return stiff_folded_need(rig, chain, bend, further)
    count = by_bend(FOLDED_FURTHER_NEEDS, bend, lambda folds: fewer_either_side(folds, further))
    if not count:
        return None
    return Need(
        count,
        f"its joint is posed folded {further:.0f}° further than its {bend:g}° at rest, where the "
        f"solver starts, and two-bone limbs with a pole so posed need at least {count}, measured",
        "folded_further",
    )


def _straighter_need(rig: RigView, chain: IKChain, bend: float, start: float) -> Need | None:
    """What a limb posed straighter needs (``STRAIGHTER_NEEDS``; stiff,
    ``STIFF_STRAIGHTER_NEEDS``), None where the table was not measured: another rest bend or
    proportion, or a bone stretching or grown."""
    if not _posed_as_measured(rig, chain):
        return None
    if _stiff_limb(rig, chain):
        return stiff_straighter_need(rig, chain, bend, start)
    count = by_bend(
        STRAIGHTER_NEEDS, bend, lambda starts: next((n for at, n in starts if at >= start), 0)
    )
    if not count:
        return None
    return Need(
        count,
        f"its joint is posed straighter than its {bend:g}° at rest, starting bent {start:.1f}°, "
        f"and two-bone limbs with a pole so posed need at least {count}, measured",
        "posed_straighter",
    )


def _posed_as_measured(rig: RigView, chain: IKChain) -> bool:
    """Whether the limb is as the posed starts were measured (``FOLDED_FURTHER_NEEDS``,
    ``STRAIGHTER_NEEDS`` and their stiff twins): bones of equal length with Use Tail, none
    stretching or grown."""
    if _bend_table(rig, chain, True) is not BEND_NEEDS or not chain.use_tail:
        return False
    return not (stretching_bones(rig, chain) or posed_longer(rig, chain))


def _stiff_limb(rig: RigView, chain: IKChain) -> bool:
    """Whether a bone of the limb is IK-stiff on a swing axis: the posed starts' stiff tables
    hold, not the unstiff ones."""
    return any(swing_stiffness(rig.pose_bone(name)) for name in chain.moving_bones)


def iterations_short_with_a_pole(rig: RigView, chain: IKChain) -> str | None:
    """Why giving this chain a pole would leave it short: limbs with a pole need more
    iterations than those without (seed 101: the leg at 12 iterations, its thigh at IK
    stiffness 0.7, lands without a pole and stops 0.14% short with the pole fix's, where the
    table of limbs with a pole says 13)."""
    iterations = rig.ik_constraint(chain).iterations
    need = iterations_needed(rig, replace(chain, pole=rig.object))
    if need is None or iterations >= need.count:
        return None
    return (
        f"with a pole its {iterations} iterations would be too few (limbs with a pole need "
        f"{need.count}, the solver check's error): set more iterations first"
    )
