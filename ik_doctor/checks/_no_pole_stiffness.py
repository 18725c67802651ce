"""IK stiffness of a two-bone limb without a pole, for the locks check.

Without a pole the solver swings the limb toward the target as well as folding it, and
stiffness holds back both: bent at rest, the limb is read by ``NO_POLE_SHORTFALL``; straight at
rest, by the table of the way its hinge limits fold it (``STRAIGHT``). How far short such a limb
stops is not smooth in its stiffness (it climbs, then drops by a fifth to a third every 0.03 to
0.06), so the tables keep each drop, measured every 0.005.
"""

from __future__ import annotations

from collections.abc import Iterator

import bpy

from ..core.finding import STIFFNESS, Finding, chain_finding
from ..core.reach import REACH_TOLERANCE, solved_by_itasc
from ..core.rig import AXES, IKChain, RigView
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
STRAIGHT = {
    "opposed": (
        STRAIGHT_OPPOSED_SHORTFALL,
        "measured on a two-bone leg and arm straight at rest, their hinges limited to turn "
        "opposite ways: unstiff they stop 0.05% of the reach short, and fail from 0.61 on both "
        "bones, 0.91 on the upper, 0.875 on the lower",
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
) -> Iterator[Finding]:
    """A two-bone limb without a pole, judged by ``NO_POLE_SHORTFALL`` (or, straight at rest,
    by ``STRAIGHT``'s table): the worse of its root's and its joint's stiffness, or the even
    table when both are as stiff."""
    stiffness, worst, share = _no_pole_shortfall(rig, chain, mobility, straight)
    if stiffness[worst] < threshold - 1e-6 and share < REACH_TOLERANCE:
        return
    stiff, said = _stiff_said(chain, stiffness)
    measured = (
        "measured on a two-bone leg and arm: the thigh or upper arm at 0.75, or both bones, "
        "leave it 0.1% to 0.13% of the reach short"
        if straight is None
        else STRAIGHT[straight][1]
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
    rig: RigView, chain: IKChain, mobility: dict[str, float], straight: str | None = None
) -> tuple[dict[str, float], str, float]:
    """Each turning bone's stiffness, the bone that leaves the limb shortest and the share of
    the reach it does (``NO_POLE_SHORTFALL``, or the straight limb's table, ``STRAIGHT``)."""
    limb = limb_kind(rig, chain)

    def table(role: str) -> tuple[tuple[float, float], ...]:
        if straight is not None:
            return STRAIGHT[straight][0][role]
        return NO_POLE_SHORTFALL[role][limb]

    stiffness = {name: 1.0 - value for name, value in mobility.items()}
    shares = {
        name: shortfall(table("root" if name == chain.root else "joint"), value)
        for name, value in stiffness.items()
    }
    if max(stiffness.values()) - min(stiffness.values()) < 1e-3:
        shares[chain.root] = shortfall(table("even"), stiffness[chain.root])
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
