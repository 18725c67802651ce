"""IK stiffness of a two-bone limb without a pole, for the locks check.

Without a pole the solver swings the limb toward the target as well as folding it, and
stiffness holds back both: bent at rest, the limb is read by ``NO_POLE_SHORTFALL``; straight at
rest, by the table of the way its hinge limits fold it (``STRAIGHT``). How far short such a limb
stops is not smooth in its stiffness (it climbs, then drops by a fifth to a third every 0.03 to
0.06), so the tables keep each drop, measured every 0.005.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import bpy

from ..core.finding import STIFFNESS, Finding, chain_finding
from ..core.reach import REACH_TOLERANCE, solved_by_itasc
from ..core.rig import AXES, IKChain, RigView
from ._opposed_both_stiff import both_stiff_shortfall
from ._stiffness_findings import (
    against_tolerance,
    aimed_by_a_pole,
    limb_kind,
    mobilities,
    severity_of_shortfall,
)
from ._stiffness_tables import NO_POLE_SHORTFALL, STRAIGHT_OPPOSED_SHORTFALL, shortfall
from ._tip_motion import blocked

STRAIGHT_ONE_SIDED_SHORTFALL: dict[str, tuple[tuple[float, float], ...]] = {
    "root": (
        (0.5, 0.000117),
        (0.52, 8.48e-05),
        (0.58, 0.000117),
        (0.64, 0.000291),
        (0.695, 0.0007),
        (0.725, 0.00114),
        (0.74, 0.00146),
        (0.745, 0.000959),
        (0.775, 0.00164),
        (0.78, 0.00114),
        (0.805, 0.00185),
        (0.81, 0.00135),
        (0.835, 0.00216),
        (0.84, 0.00162),
        (0.86, 0.00238),
        (0.865, 0.00188),
        (0.88, 0.00261),
        (0.885, 0.00215),
        (0.895, 0.00275),
        (0.9, 0.00236),
        (0.91, 0.00311),
        (0.925, 0.003),
        (0.97, 0.0058),
        (0.995, 0.0113),
    ),
    "joint": (
        (0.5, 0.000295),
        (0.52, 0.000398),
        (0.525, 0.00032),
        (0.555, 0.00043),
        (0.56, 0.000356),
        (0.58, 0.000467),
        (0.585, 0.000277),
        (0.66, 0.000605),
        (0.665, 0.00035),
        (0.71, 0.000706),
        (0.72, 0.000641),
        (0.725, 0.000679),
        (0.73, 0.000532),
        (0.76, 0.000808),
        (0.765, 0.000646),
        (0.805, 0.000937),
        (0.81, 0.00101),
        (0.815, 0.000777),
        (0.845, 0.00112),
        (0.85, 0.000851),
        (0.875, 0.0013),
        (0.88, 0.00109),
        (0.935, 0.00197),
        (0.94, 0.00178),
        (0.955, 0.00242),
        (0.98, 0.0038),
        (0.99, 0.00609),
        (0.995, 0.00609),
    ),
    "even": (
        (0.5, 5.38e-05),
        (0.565, 6.59e-05),
        (0.625, 0.000158),
        (0.685, 0.000394),
        (0.745, 0.000989),
        (0.775, 0.00158),
        (0.78, 0.00107),
        (0.805, 0.00165),
        (0.81, 0.00118),
        (0.83, 0.00173),
        (0.835, 0.00129),
        (0.85, 0.00178),
        (0.855, 0.00138),
        (0.865, 0.00175),
        (0.87, 0.0014),
        (0.88, 0.00182),
        (0.885, 0.00152),
        (0.895, 0.00202),
        (0.9, 0.00175),
        (0.94, 0.00232),
        (0.965, 0.00553),
        (0.99, 0.0131),
        (0.995, 0.0131),
    ),
}
"""Share of the reach a two-bone limb without a pole stops short, straight at rest, its lower
bone's X IK limit letting it fold one way only (toward or away from where a pole would sit; its
root unlimited), with its root, its joint or both bones this stiff: measured every 0.005 from 0.5
to 0.995 on the leg (4.2) and the arm (5.3), which stop alike to three figures either way; the
rows keep every drop and read each measured limb's verdict. Read by the bent limb's tables
(``NO_POLE_SHORTFALL``), the thigh at 0.725 and the upper arm at 0.74 stopped 0.11% and 0.1%
short under a warning (fresh seeds 119 and 122); such a limb fails from 0.72 on its root, 0.81
on its joint and 0.75 on both, and lands at 0.745 on its root between drops."""
LOCKED_FOLD_SHORTFALL: dict[str, dict[str, dict[str, tuple[tuple[float, float], ...]]]] = {
    "joint": {
        "joint": {
            "arm": (
                (0.5, 0.00028),
                (0.56, 0.000419),
                (0.57, 0.000259),
                (0.655, 0.000553),
                (0.66, 0.000349),
                (0.835, 0.000994),
                (0.84, 0.001069),
                (0.845, 0.000902),
                (0.875, 0.001274),
                (0.94, 0.001731),
                (0.985, 0.004543),
                (0.995, 0.005509),
            ),
            "leg": (
                (0.5, 0.000271),
                (0.545, 0.00041),
                (0.555, 0.000236),
                (0.595, 0.000469),
                (0.61, 0.000376),
                (0.66, 0.000574),
                (0.665, 0.000354),
                (0.72, 0.000683),
                (0.725, 0.000425),
                (0.83, 0.001002),
                (0.835, 0.000967),
                (0.84, 0.00105),
                (0.85, 0.000883),
                (0.87, 0.001219),
                (0.875, 0.000993),
                (0.95, 0.002234),
                (0.995, 0.005475),
            ),
        },
        "root": {
            "arm": (
                (0.5, 0.000138),
                (0.705, 0.000157),
                (0.825, 0.000998),
                (0.95, 0.003952),
                (0.985, 0.008657),
                (0.995, 0.01133),
            ),
            "leg": (
                (0.5, 0.000129),
                (0.62, 0.000627),
                (0.655, 0.000999),
                (0.66, 0.001067),
                (0.665, 0.000622),
                (0.7, 0.001049),
                (0.71, 0.001224),
                (0.715, 0.000768),
                (0.735, 0.001077),
                (0.75, 0.001384),
                (0.755, 0.000921),
                (0.785, 0.001613),
                (0.795, 0.001258),
                (0.885, 0.002342),
                (0.95, 0.004338),
                (0.985, 0.00892),
                (0.995, 0.01076),
            ),
        },
        "even": {
            "arm": (
                (0.5, 6.2e-05),
                (0.715, 0.000286),
                (0.735, 0.000388),
                (0.745, 0.00027),
                (0.825, 0.001099),
                (0.84, 0.000989),
                (0.9, 0.003647),
                (0.96, 0.004941),
                (0.995, 0.01311),
            ),
            "leg": (
                (0.5, 5.8e-05),
                (0.65, 0.000413),
                (0.695, 0.00081),
                (0.7, 0.000491),
                (0.735, 0.000873),
                (0.74, 0.000561),
                (0.765, 0.000878),
                (0.775, 0.000652),
                (0.815, 0.000941),
                (0.82, 0.001048),
                (0.83, 0.000873),
                (0.84, 0.001103),
                (0.845, 0.000851),
                (0.855, 0.001104),
                (0.86, 0.000885),
                (0.87, 0.001181),
                (0.875, 0.000979),
                (0.88, 0.001143),
                (0.885, 0.000974),
                (0.89, 0.00115),
                (0.93, 0.001914),
                (0.965, 0.005529),
                (0.995, 0.01311),
            ),
        },
    },
    "root": {
        "joint": {
            "arm": (
                (0.5, 0.000134),
                (0.685, 0.000222),
                (0.765, 0.000776),
                (0.775, 0.000566),
                (0.8, 0.000881),
                (0.81, 0.000687),
                (0.845, 0.00095),
                (0.85, 0.001061),
                (0.86, 0.000932),
                (0.87, 0.00119),
                (0.875, 0.000967),
                (0.96, 0.002479),
                (0.985, 0.004393),
                (0.995, 0.005736),
            ),
            "leg": (
                (0.5, 0.000127),
                (0.665, 0.000164),
                (0.76, 0.000717),
                (0.78, 0.000618),
                (0.845, 0.000951),
                (0.85, 0.001062),
                (0.86, 0.000932),
                (0.87, 0.001191),
                (0.875, 0.000968),
                (0.96, 0.002504),
                (0.985, 0.004506),
                (0.995, 0.005725),
            ),
        },
        "root": {
            "arm": (
                (0.5, 0.000266),
                (0.875, 8e-05),
                (0.955, 0.000466),
                (0.98, 0.000962),
                (0.995, 0.001601),
            ),
            "leg": (
                (0.5, 0.000196),
                (0.865, 9.1e-05),
                (0.955, 0.000484),
                (0.98, 0.000977),
                (0.995, 0.001546),
            ),
        },
        "even": {
            "arm": (
                (0.5, 1.3e-05),
                (0.7, 0.00028),
                (0.765, 0.000776),
                (0.775, 0.000566),
                (0.8, 0.000881),
                (0.81, 0.000687),
                (0.845, 0.00095),
                (0.85, 0.001061),
                (0.86, 0.000931),
                (0.87, 0.00119),
                (0.875, 0.000967),
                (0.96, 0.00246),
                (0.975, 0.002393),
                (0.995, 0.001992),
            ),
            "leg": (
                (0.5, 1.4e-05),
                (0.7, 0.000281),
                (0.765, 0.000777),
                (0.775, 0.000566),
                (0.8, 0.000882),
                (0.81, 0.000688),
                (0.845, 0.000951),
                (0.85, 0.001062),
                (0.86, 0.000932),
                (0.87, 0.001191),
                (0.875, 0.000968),
                (0.96, 0.002458),
                (0.995, 0.004189),
            ),
        },
    },
}
"""Share of the reach a two-bone limb without a pole stops short with one bone locked on its bend
axis, which it folds around (the locks check's "Locked, folds off plane"): by the locked bone
(its root or its joint), then the stiff one (the root, the joint, both evenly), then the limb.
Measured every 0.005 from 0.5 to 0.995 on the leg and the arm, alike in 4.2 and 5.3 to the last
figure; the rows read each measured verdict and the shortfall within 30%. Locked, a limb lags
otherwise than free (``NO_POLE_SHORTFALL``): the arm with both bones at 0.8 lands locked (0.07%)
and stops 0.14% short freed; the forearm locked, both at 0.935, stops 0.36% short (fresh seed
196, where no error said so)."""
LOCKED_FOLD_MEASURED = (
    "measured on a two-bone leg and arm with one bone locked on its bend axis: the lower bone "
    "locked, they fail from 0.82 to 0.84 (the thigh alone from 0.66); the upper bone locked, from "
    "0.85 (that bone alone from 0.985)"
)
STRAIGHT = {
    "opposed": (
        STRAIGHT_OPPOSED_SHORTFALL,
        "measured on a two-bone leg and arm straight at rest, their hinges limited to turn "
        "opposite ways: unstiff they stop 0.05% of the reach short, and fail from 0.61 on both "
        "bones, 0.91 on the upper, 0.875 on the lower; stiff unevenly, further short than "
        "either alone",
    ),
    "one_sided": (
        STRAIGHT_ONE_SIDED_SHORTFALL,
        "measured on a two-bone leg and arm straight at rest, the lower bone limited to fold "
        "one way: they fail from 0.72 on the upper bone, 0.81 on the lower, 0.75 on both",
    ),
}
"""The tables of a straight limb without a pole, by the way its hinge limits fold it, with what
was measured in words for the finding's why."""


def straight_no_pole_findings(
    rig: RigView,
    chain: IKChain,
    free: set[tuple[str, str]],
    bones: dict[str, bpy.types.PoseBone],
    threshold: float,
    straight: str,
) -> Iterator[Finding]:
    """A two-bone limb without a pole, straight at rest, judged by the table of the way its
    hinge limits fold it (``STRAIGHT``): fresh seeds 89 and 90 drew such limbs, their hinges
    limited opposite ways, and 119 and 122 with the lower one limited, stiff and stopping short
    under a warning only."""
    mobility = mobilities(chain, free, bones)
    if len(mobility) == 2:
        yield from stiff_without_pole(rig, chain, mobility, threshold, straight)


def stiff_without_pole(
    rig: RigView,
    chain: IKChain,
    mobility: dict[str, float],
    threshold: float,
    straight: str | None = None,
    locked: str | None = None,
) -> Iterator[Finding]:
    """A two-bone limb without a pole, judged by ``NO_POLE_SHORTFALL`` (or, straight at rest,
    by ``STRAIGHT``'s table; with its ``locked`` bone folding around its bend axis, by
    ``LOCKED_FOLD_SHORTFALL``): the worse of its root's and its joint's stiffness, or the even
    table when both are as stiff."""
    stiffness, worst, share = _no_pole_shortfall(rig, chain, mobility, straight, locked)
    if stiffness[worst] < threshold - 1e-6 and share < REACH_TOLERANCE:
        return
    stiff, said = _stiff_said(chain, stiffness)
    measured = (
        STRAIGHT[straight][1]
        if straight is not None
        else LOCKED_FOLD_MEASURED
        if locked is not None
        else "measured on a two-bone leg and arm: the thigh or upper arm at 0.75, or both bones, "
        "leave it 0.1% to 0.13% of the reach short"
    )
    yield chain_finding(
        "locks",
        rig,
        chain,
        bone=worst,
        severity=severity_of_shortfall(rig, share),
        title="Stiff, no pole",
        message=(
            f"The chain of IK '{chain.constraint}' on {chain.owner} has no pole and IK "
            f"stiffness on {said}: the solver stops about {share:.2%} of the reach short of "
            f"targets in reach ({against_tolerance(share)})."
        ),
        why=(
            "Without a pole the solver swings the limb toward the target as well as folding it, "
            f"and stiffness holds back both ({measured}; with a pole, evenly stiff chains reach "
            "up to 0.975)."
        ),
        fix_id="clear_stiffness",
        fix_label=f"Set the IK stiffness of {', '.join(stiff)} to 0",
        fix_args=(("cause", STIFFNESS), ("bones", stiff)),
        facts=(("shortfall", share),),
    )


def _no_pole_shortfall(
    rig: RigView,
    chain: IKChain,
    mobility: dict[str, float],
    straight: str | None = None,
    locked: str | None = None,
) -> tuple[dict[str, float], str, float]:
    """Each turning bone's stiffness, the bone that leaves the limb shortest and the share of
    the reach it does (``NO_POLE_SHORTFALL``, or the straight limb's table, ``STRAIGHT``, or the
    locked one's, ``LOCKED_FOLD_SHORTFALL``)."""
    limb = limb_kind(rig, chain)

    def table(role: str) -> tuple[tuple[float, float], ...]:
        if straight is not None:
            return STRAIGHT[straight][0][role]
        if locked is not None:
            return LOCKED_FOLD_SHORTFALL[locked][role][limb]
        return NO_POLE_SHORTFALL[role][limb]

    stiffness = {name: 1.0 - value for name, value in mobility.items()}
    shares = {
        name: shortfall(table("root" if name == chain.root else "joint"), value)
        for name, value in stiffness.items()
    }
    if max(stiffness.values()) - min(stiffness.values()) < 1e-3:
        shares[chain.root] = shortfall(table("even"), stiffness[chain.root])
    elif straight == "opposed" and len(stiffness) == 2:
        # Two bones stiff unevenly stop further short than either alone (fresh seed 448).
        lower = next(name for name in stiffness if name != chain.root)
        both = both_stiff_shortfall(stiffness[chain.root], stiffness[lower])
        if both is not None:
            stiffer = max(stiffness, key=lambda name: stiffness[name])
            shares[stiffer] = max(shares[stiffer], both)
    worst = max(shares, key=lambda name: shares[name])
    return stiffness, worst, shares[worst]


def _stiff_said(chain: IKChain, stiffness: dict[str, float]) -> tuple[tuple[str, ...], str]:
    """The chain's stiff bones, root first, and their stiffness in words ("thigh.L 0.9")."""
    stiff = tuple(name for name in reversed(chain.bones) if stiffness.get(name, 0.0) > 0.0)
    return stiff, " and ".join(f"{name} {stiffness[name]:.3g}" for name in stiff)


def short_once_bent_without_pole(rig: RigView, chain: IKChain) -> tuple[str, float] | None:
    """For a straight two-bone limb without a pole whose stiffness ``locks`` cannot weigh
    straight (its root's swing limited): the stiff bones and the share of the reach the tables
    say it stops short once bent, where that fails the chain. Fresh seeds 89 and 90: the
    straight arm, both hinges one-sided and the upper arm at 0.9, lands; pre-bent by
    ``rest_pose``'s fix it stops 0.11% of its reach short (the table: 0.36%)."""
    if len(chain.moving_bones) != 2 or aimed_by_a_pole(rig, chain) or solved_by_itasc(rig):
        return None
    bones = {name: rig.pose_bone(name) for name in chain.moving_bones}
    free = {(name, axis) for name in bones for axis in AXES if not blocked(bones[name], axis)}
    mobility = mobilities(chain, free, bones)
    if len(mobility) != 2 or max(mobility.values()) <= 0.0:
        return None
    stiffness, _worst, share = _no_pole_shortfall(rig, chain, mobility)
    if share < REACH_TOLERANCE:
        return None
    return _stiff_said(chain, stiffness)[1], share


def locked_fold_findings(
    rig: RigView,
    chain: IKChain,
    free: set[tuple[str, str]],
    bones: dict[str, bpy.types.PoseBone],
    folded: list[Finding],
    threshold: float,
) -> list[Finding]:
    """A two-bone limb without a pole folding around the one bend axis a lock holds (``folded``,
    the locks check's warning): its stiffness weighed by ``LOCKED_FOLD_SHORTFALL``, and the
    lock's fix waiting where, freed, the bent limb's table would leave it short (fresh seed 196:
    the arm with both bones at 0.8 lands locked; freed, it stopped 0.14% short, a trade)."""
    if len(folded) != 1 or len(chain.moving_bones) != 2 or aimed_by_a_pole(rig, chain):
        return folded
    lock = folded[0]
    mobility = mobilities(chain, free, bones)
    if len(mobility) != 2:
        return folded
    locked = "root" if lock.bone == chain.root else "joint"
    stiff = list(stiff_without_pole(rig, chain, mobility, threshold, locked=locked))
    freed = free | {(lock.bone or "", axis) for axis in str(lock.args["axes"])}
    share = _no_pole_shortfall(rig, chain, mobilities(chain, freed, bones))[2]
    if share >= REACH_TOLERANCE:
        lock = replace(
            lock,
            fix_id=None,
            fix_label=None,
            no_fix_reason=(
                f"freed, the limb folds in its plane, where its IK stiffness leaves it about "
                f"{share:.2%} of the reach short without a pole: lower the stiffness first"
            ),
        )
    return [lock, *stiff]
