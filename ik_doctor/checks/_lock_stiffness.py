"""IK stiffness judged for the locks check: how far short of a target in reach the solver
stops on a chain this stiff, read from the measured tables (``_stiffness_tables``) for the limb
the chain is like, with or without a pole.

The tables were measured on two-bone limbs; how far a chain of another shape lags is its own
(issue 25: an insect leg, a short coxa under a femur and a tibia, every bone at 0.9 stops 0.12%
of its reach short where the tables said 0.046%, and with the coxa alone at 0.99 it lands where
a thigh stops 1.1% short). There a stiff chain is a warning for Verify by Solving, which solves
this chain without its stiffness (``verify.animation``) and makes it an error where it falls
short, with the miss measured on it. A chain of one bone has a table of its own
(``SINGLE_BONE_SHORTFALL``), which holds whatever its shape: it only swings; a chain of three
whose two lower bones are stiff below a free root one read from two shapes
(``_three_bone_stiffness``)."""

from __future__ import annotations

from collections.abc import Iterator

import bpy

from ..core.finding import STIFFNESS, Finding, Severity, chain_finding, lowered
from ..core.limb import PRE_BENT, bend_offset, fold_off_x
from ..core.names import readable
from ..core.reach import REACH_TOLERANCE, limb_bones
from ..core.rig import AXES, IKChain, RigView
from ._limited_stiffness import (
    EVEN_POINTS,
    LIMITED_EVEN_SHORTFALL,
    LIMITED_JOINT_SHORTFALL,
    LIMITED_ROOT_SHORTFALL,
    ONE_BONE_POINTS,
    limited_table,
    limited_width,
)
from ._no_pole_stiffness import stiff_without_pole
from ._posed_stiffness import posed_past_limit_finding, posed_stiff_finding
from ._stiffness_findings import (
    Grown,
    against_tolerance,
    aimed_by_a_pole,
    bone_mobility,
    evenly_stiff_finding,
    limb_kind,
    mobilities,
    severity_of_shortfall,
    stiff_bone_finding,
    stiff_bones,
    stiffest_axis,
    tree_partner,
)
from ._stiffness_tables import (
    EVEN_SHORTFALL,
    EVEN_WARNING,
    GROWN_EVEN_SHORTFALL,
    GROWN_ROOT,
    GROWN_ROOT_SHORTFALL,
    HALF_SHORTFALL,
    JOINT_SHORTFALL,
    PRE_BENT_EVEN_SHORTFALL,
    PRE_BENT_JOINT_SHORTFALL,
    PRE_BENT_ROOT_SHORTFALL,
    ROLLED,
    ROLLED_EVEN_SHORTFALL,
    ROOT_SHORTFALL,
    SHORT_ROOT,
    SHORT_ROOT_SHORTFALL,
    SINGLE_BONE_SHORTFALL,
    UNEVEN_MARGIN,
    UNEVEN_RATIOS,
    UNEVEN_SHORTFALL,
    shortfall,
)
from ._three_bone_stiffness import lower_pair_findings, lower_pair_stiffness
from ._tip_motion import TipMotion, blocked


def _needed_mobility(
    motion: TipMotion, free: set[tuple[str, str]], mobility: dict[str, float]
) -> float:
    """The mobility of the stiffest bone the chain cannot do without: bones added from the most
    mobile down move the tip every way only once this one joins (the free axes reach, so one
    level does)."""
    for level in sorted(set(mobility.values()), reverse=True):
        if not motion.cannot_reach({key for key in free if mobility.get(key[0], 0.0) >= level}):
            return level
    return min(mobility.values())


def stiff_findings(
    rig: RigView,
    chain: IKChain,
    motion: TipMotion,
    free: set[tuple[str, str]],
    bones: dict[str, bpy.types.PoseBone],
    threshold: float,
) -> Iterator[Finding]:
    """The tables' stiffness findings, or where they say nothing, a stiff limb posed past its
    IK limit (``posed_past_limit_finding``)."""
    found = list(_table_stiff_findings(rig, chain, motion, free, bones, threshold))
    yield from found
    if not found and (past := posed_past_limit_finding(rig, chain)) is not None:
        yield past


def _table_stiff_findings(
    rig: RigView,
    chain: IKChain,
    motion: TipMotion,
    free: set[tuple[str, str]],
    bones: dict[str, bpy.types.PoseBone],
    threshold: float,
) -> Iterator[Finding]:
    """IK stiffness that keeps the solver short of targets in reach, with the shortfall measured.

    Stiffness weighs how far the solver turns each axis per step. Spread evenly over the axes
    the chain needs it only slows the solve (0.9 on a leg still reaches); one bone much stiffer
    than the rest, which the rest cannot reach without, leaves the tip short sooner.
    """
    mobility = mobilities(chain, free, bones)
    if not mobility:
        return
    partner = tree_partner(rig, chain)
    if partner is None and (lower := lower_pair_stiffness(rig, chain)) is not None:
        yield from lower_pair_findings(rig, chain, lower, threshold)
        return
    if len(chain.moving_bones) != 2 or partner is not None:
        yield from stiff_unmeasured(rig, chain, mobility, threshold, partner)
        return
    if not aimed_by_a_pole(rig, chain) and len(mobility) == 2 and len(chain.moving_bones) == 2:
        yield from stiff_without_pole(rig, chain, mobility, threshold)
        return
    needed = _needed_mobility(motion, free, mobility)
    stiffness = 1.0 - needed
    most = max(mobility.values())
    if needed > most / 2.0 + 1e-6:
        if needed < most - 1e-6 and _measured_uneven(rig, chain):
            yield from _unevenly_stiff(rig, chain, mobility, needed / most, bones)
        else:
            yield from _evenly_stiff(rig, chain, stiffness)
        return
    for name in chain.bones:
        value = mobility.get(name)
        if value is not None and needed - 1e-6 <= value <= most / 2.0 + 1e-6:
            half = value >= most / 2.0 - 1e-6
            table = _one_bone_table(rig, chain, name, half)
            share = shortfall(table, 1.0 - value)
            posed = (
                posed_stiff_finding(rig, chain, bones[name], 1.0 - value, share)
                if table is ROOT_SHORTFALL[limb_kind(rig, chain)]
                else None
            )
            if posed is not None:
                yield posed
                continue
            if stiffness < threshold - 1e-6 and share < REACH_TOLERANCE:
                continue  # below the check's threshold, said only where it fails the chain
            # Half as mobile, the other bone is stiff too: cleared alone, this one would leave
            # the other's own shortfall (a shin at 0.9 once the thigh at 0.95 is cleared).
            cleared = stiff_bones(rig, chain) if half else (readable(bones[name]),)
            yield stiff_bone_finding(rig, chain, bones[name], 1.0 - value, share, cleared)


def straight_stiff_findings(
    rig: RigView,
    chain: IKChain,
    free: set[tuple[str, str]],
    bones: dict[str, bpy.types.PoseBone],
    threshold: float,
) -> Iterator[Finding]:
    """A stiff two-bone limb straight at rest with a pole, judged as it bends once pre-bent
    (``rest_pose``'s fix) or from the start its pose bends: straight it misses anyway, and its
    stiffness, which no Jacobian measures there, would show only after the pre-bend (measured:
    evenly stiff at 0.99 it then stops 0.147% of the reach short, as short as posed 20°, 0.140%;
    one bone stiff, the other free, by ``PRE_BENT_ROOT_SHORTFALL`` and its joint twin). Two
    bones stiff unevenly were not measured straight: nothing is said of them."""
    mobility = mobilities(chain, free, bones)
    if len(mobility) != 2:
        return
    least, most = min(mobility.values()), max(mobility.values())
    if least > most / 2.0 + 1e-6:
        yield from _evenly_stiff(rig, chain, 1.0 - least)
    elif most >= 1.0 - 1e-6:
        name = min(mobility, key=mobility.__getitem__)
        stiffness = 1.0 - least
        share = shortfall(_one_bone_table(rig, chain, name, False), stiffness)
        if stiffness >= threshold - 1e-6 or share >= REACH_TOLERANCE:
            yield stiff_bone_finding(rig, chain, bones[name], stiffness, share, (name,))


def _evenly_stiff(rig: RigView, chain: IKChain, stiffness: float) -> Iterator[Finding]:
    grown, table = _even_table(rig, chain)
    share = shortfall(table, stiffness)
    unlimited = (grown, table) == (None, EVEN_SHORTFALL)
    if unlimited and (width := limited_width(rig, chain)) is not None:
        rows = LIMITED_EVEN_SHORTFALL[limb_kind(rig, chain)]
        share = shortfall(limited_table(width, EVEN_POINTS, rows, table), stiffness)
    if stiffness >= EVEN_WARNING - 1e-6 or share >= REACH_TOLERANCE:
        yield evenly_stiff_finding(rig, chain, stiffness, share, grown)


def _measured_uneven(rig: RigView, chain: IKChain) -> bool:
    """Whether the limb is as ``UNEVEN_SHORTFALL`` was measured: not grown, rolled, nearly
    straight or short-rooted, which only the even tables describe."""
    joint, root = (rig.bone(bone).length for bone in chain.moving_bones)
    return root > SHORT_ROOT * joint and _even_table(rig, chain) == (None, EVEN_SHORTFALL)


def _unevenly_stiff(
    rig: RigView,
    chain: IKChain,
    mobility: dict[str, float],
    ratio: float,
    bones: dict[str, bpy.types.PoseBone],
) -> Iterator[Finding]:
    """Both bones stiff, the stiffer more than half as mobile as the other (``ratio``): its
    shortfall read between ``HALF_SHORTFALL``, ``UNEVEN_SHORTFALL`` and ``EVEN_SHORTFALL``."""
    name = min(mobility, key=mobility.__getitem__)
    stiffness = 1.0 - mobility[name]
    role, kind = ("root" if name == chain.root else "joint"), limb_kind(rig, chain)
    rows = UNEVEN_SHORTFALL[role][kind]
    columns = [(0.5, shortfall(HALF_SHORTFALL[role][kind], stiffness))]
    for index, at in enumerate(UNEVEN_RATIOS):
        columns.append((at, shortfall(tuple((s, shares[index]) for s, shares in rows), stiffness)))
    columns.append((1.0, shortfall(EVEN_SHORTFALL, stiffness)))
    share = shortfall(tuple(columns), ratio)  # ratio lies between the half and even columns
    if stiffness < EVEN_WARNING - 1e-6 and share < REACH_TOLERANCE:
        return
    cleared = stiff_bones(rig, chain)
    finding = stiff_bone_finding(rig, chain, bones[name], stiffness, share, cleared, ratio)
    if share >= REACH_TOLERANCE * UNEVEN_MARGIN:
        yield finding
        return
    yield from lowered(
        [finding],
        " Read between the ratios measured, that figure may be off by 0.02% of the reach: "
        "near the tolerance, a warning.",
        ("near_tolerance", True),
        lambda f: True,
    )


def _one_bone_table(
    rig: RigView, chain: IKChain, name: str, half: bool
) -> tuple[tuple[float, float], ...]:
    """The shortfalls measured on a two-bone chain with ``name`` stiff: its root or its joint,
    the other bone free or, with ``half``, half as stiff (``HALF_SHORTFALL``); a chain whose
    root is short (``SHORT_ROOT``) by its own table, measured with the other bone free; a limb
    nearly straight (``PRE_BENT``) by the tables of the pre-bent leg and arm; a stiff root with
    a bone posed longer (``GROWN_ROOT``) by ``GROWN_ROOT_SHORTFALL``."""
    role = "root" if name == chain.root else "joint"
    joint, root = (rig.bone(bone).length for bone in chain.moving_bones)
    if root <= SHORT_ROOT * joint:
        return SHORT_ROOT_SHORTFALL[role]
    if half:
        return HALF_SHORTFALL[role][limb_kind(rig, chain)]
    if _nearly_straight(rig, chain):
        return PRE_BENT_ROOT_SHORTFALL if role == "root" else PRE_BENT_JOINT_SHORTFALL
    kind = limb_kind(rig, chain)
    table = (ROOT_SHORTFALL if role == "root" else JOINT_SHORTFALL)[kind]
    width = limited_width(rig, chain)
    if width is None:
        grown = (
            role == "root"
            and max(_posed_scale(rig, bone) for bone in chain.moving_bones) >= GROWN_ROOT - 1e-3
        )
        return GROWN_ROOT_SHORTFALL[kind] if grown else table
    rows = (LIMITED_ROOT_SHORTFALL if role == "root" else LIMITED_JOINT_SHORTFALL)[kind]
    return limited_table(width, ONE_BONE_POINTS, rows, table)


def _nearly_straight(rig: RigView, chain: IKChain) -> bool:
    """Whether the limb is bent no further than ``rest_pose``'s pre-bend leaves it (``PRE_BENT``),
    or straight: it lags as the pre-bent leg and arm were measured to."""
    return bend_offset(rig, chain) <= PRE_BENT + 1e-6


def single_bone_findings(rig: RigView, chain: IKChain, threshold: float) -> Iterator[Finding]:
    """IK stiffness on the only bone of a chain of length 1 with Use Tail, posed on itself,
    judged by ``SINGLE_BONE_SHORTFALL``: the bone must swing to every target, so the freer of the
    axes it swings about (X and Z, those not locked) slows every one, the stiffer the targets
    that need that turn (a warning). An error only solved alone: another live IK turning the
    bone makes them one tree, which the table does not measure."""
    if not chain.use_tail or limb_bones(rig, chain) != chain.bones:
        return  # posed on the limb around it: the chain length check's matter
    pose_bone = rig.pose_bone(chain.owner)
    swings = {
        axis: float(getattr(pose_bone, f"ik_stiffness_{axis}"))
        for axis in "xz"
        if not blocked(pose_bone, axis)
    }
    if not swings:
        return
    stiffest = max(swings, key=lambda axis: swings[axis])
    freest = min(swings.values())
    every_way = shortfall(SINGLE_BONE_SHORTFALL, freest)
    some_way = shortfall(SINGLE_BONE_SHORTFALL, swings[stiffest])
    if swings[stiffest] < threshold - 1e-6 and some_way < REACH_TOLERANCE:
        return
    share = every_way if every_way >= REACH_TOLERANCE else some_way
    tree = [
        other
        for other in rig.chains_with_bone(chain.owner)
        if other.live and other.key != chain.key and chain.owner in other.moving_bones
    ]
    said = " and ".join(f"{axis.upper()} {value:.3g}" for axis, value in swings.items())
    reached = (
        "targets in reach"
        if share == every_way
        else f"targets it turns about {stiffest.upper()} to reach"
    )
    cleared = tuple(dict.fromkeys((chain.owner, *(b for o in tree for b in stiff_bones(rig, o)))))
    shared = (
        f" IK '{tree[0].constraint}' on {tree[0].owner} turns it too: Blender solves the two as "
        "one tree, where this was not measured."
        if tree
        else ""
    )
    if len(cleared) > 1:
        # Freed alone, the bone would leave the tree's other stiff bones far stiffer than it.
        shared += (
            f" Its fix clears {', '.join(cleared[1:])} too: freed alone, {chain.owner} would "
            "leave them barely turning (measured: an arm evenly stiff at 0.9 reaches, and stops "
            "0.13% of the reach short with the upper arm freed)."
        )
    yield chain_finding(
        "locks",
        rig,
        chain,
        severity=severity_of_shortfall(rig, every_way) if not tree else Severity.WARNING,
        title="Stiff single bone",
        message=(
            f"{chain.owner}, the only bone of the chain of IK '{chain.constraint}', has IK "
            f"stiffness {said} on the axes it swings about: the solver stops about {share:.2%} "
            f"of the reach short of {reached} ({against_tolerance(share)}).{shared}"
        ),
        why=(
            "A chain of one bone reaches a target only by swinging it, and stiffness slows each "
            "step of that swing; more iterations do not make up for it (measured on the thigh "
            "and the upper arm alike, at 100 to 5,000 iterations: 0.1% of the reach short from "
            "0.77, 1.06% at 0.99)."
        ),
        fix_id="clear_stiffness",
        fix_label=f"Set the IK stiffness of {', '.join(cleared)} to 0",
        fix_args=(("cause", STIFFNESS), ("bones", cleared)),
        facts=(("stiffness", freest), ("shortfall", share)),
    )


def stiff_unmeasured(
    rig: RigView,
    chain: IKChain,
    mobility: dict[str, float],
    threshold: float,
    partner: IKChain | None = None,
    unmeasured: str | None = None,
) -> Iterator[Finding]:
    """A chain of a shape no table measured (not two turning bones, or as ``unmeasured`` says),
    or solved together with ``partner``, with a bone at least ``threshold`` stiff: a warning
    naming every stiff bone, as the scan's stiffness suspect does, so that its proof by solving
    joins this finding (``core.scan_proofs``)."""
    stiffest = max(1.0 - value for value in mobility.values())
    if stiffest < threshold - 1e-6:
        return
    stiff = stiff_bones(rig, chain)
    said = " and ".join(f"{name} {stiffest_axis(rig, name):.3g}" for name in stiff)
    bones = len(chain.moving_bones)
    unmeasured = unmeasured or (
        f"solved together with IK '{partner.constraint}' on {partner.owner}, which turns its "
        "bones too, how far short it stops was not measured"
        if partner is not None
        else f"how far short a chain of {bones} bone{'s' * (bones != 1)} stops was not measured"
    )
    yield chain_finding(
        "locks",
        rig,
        chain,
        severity=Severity.WARNING,
        title="Stiff chain",
        message=(
            f"The chain of IK '{chain.constraint}' on {chain.owner} has IK stiffness on {said}: "
            f"{unmeasured} (two-bone limbs solved alone at 0.9 stop 0.05% to 0.24% of the "
            "reach short, an insect leg of three bones 0.12%); Verify by Solving solves it."
        ),
        why=(
            "Stiffness slows the solver's steps on a bone; how far short its iterations leave "
            "the tip depends on the chain's own shape, and the shortfalls here were measured on "
            "two-bone legs and arms. Solving this chain is what tells."
        ),
        fix_id="clear_stiffness",
        fix_label=f"Set the IK stiffness of {', '.join(stiff)} to 0",
        fix_args=(("cause", STIFFNESS), ("bones", stiff)),
    )


def _even_table(rig: RigView, chain: IKChain) -> tuple[Grown, tuple[tuple[float, float], ...]]:
    """The evenly stiff chain's table, and what grew the limb (None for ``EVEN_SHORTFALL``): a
    two-bone limb with a bone posed longer than at rest lags further
    (``GROWN_EVEN_SHORTFALL``), one nearly straight less (``PRE_BENT_EVEN_SHORTFALL``)."""
    if len(chain.moving_bones) != 2:
        return None, EVEN_SHORTFALL
    scale, name = max((_posed_scale(rig, name), name) for name in chain.moving_bones)
    straight = _nearly_straight(rig, chain)
    table: tuple[tuple[float, float], ...] = (
        ROLLED_EVEN_SHORTFALL if folds_about_z(rig, chain) else EVEN_SHORTFALL
    )
    grown: tuple[Grown, tuple[tuple[float, float], ...]] = (
        None,
        PRE_BENT_EVEN_SHORTFALL if straight else table,
    )
    for least, table in GROWN_EVEN_SHORTFALL:
        if scale >= least - 1e-3:
            grown = ((name, scale), table)
    return grown


def folds_about_z(rig: RigView, chain: IKChain) -> bool:
    """Whether the limb's joint folds within ``ROLLED`` of its own Z axis (rolled about 90°):
    evenly stiff, it lags less than folding about X (``ROLLED_EVEN_SHORTFALL``)."""
    off_x = fold_off_x(rig, chain)
    return off_x is not None and off_x >= 90.0 - ROLLED


def stiffness_held_by_roll(rig: RigView, chain: IKChain) -> str | None:
    """Why rolling the joint back onto X (``roll``'s fix) would stop the chain short: evenly
    stiff, it lands folding about Z (``ROLLED_EVEN_SHORTFALL``) where about X it stops short
    (``EVEN_SHORTFALL``; measured: the arm at 0.975 rolled 90° 0.093% of the reach, unrolled
    0.117%)."""
    if len(chain.moving_bones) != 2 or _even_table(rig, chain) != (None, ROLLED_EVEN_SHORTFALL):
        return None
    bones = {name: rig.pose_bone(name) for name in chain.moving_bones}
    free = {(name, axis) for name in bones for axis in AXES if not blocked(bones[name], axis)}
    mobility = [bone_mobility(bones[name], free) for name in {name for name, _axis in free}]
    if len(mobility) != 2 or min(mobility) <= max(mobility) / 2.0 + 1e-6:
        return None
    stiffness = 1.0 - min(mobility)
    if shortfall(ROLLED_EVEN_SHORTFALL, stiffness) >= REACH_TOLERANCE:
        return None
    if shortfall(EVEN_SHORTFALL, stiffness) < REACH_TOLERANCE:
        return None
    return (
        f"rolled to fold about X, the chain's IK stiffness {stiffness:.3g} would stop it short "
        "(the locks check's error; folding about Z it lands): clear the stiffness first"
    )


def _posed_scale(rig: RigView, name: str) -> float:
    """How many times its rest length a bone is posed: its own or an inherited scale."""
    pose_bone = rig.pose_bone(name)
    rest = rig.bone(name).length
    return (pose_bone.tail - pose_bone.head).length / rest if rest > 0.0 else 1.0
