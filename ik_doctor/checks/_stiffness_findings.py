"""The findings the locks check's stiffness judgements give: one bone too stiff, or the whole
chain, with the shortfall the tables measured and the oracle's tolerance beside it; and what
every stiffness judgement reads of a chain first: how freely each bone turns, which measured
limb it is like, and whether a pole aims it."""

from __future__ import annotations

from typing import Any

import bpy

from ..core.finding import STIFFNESS, Finding, Severity, chain_finding
from ..core.limb import hangs_down, solved_with
from ..core.names import readable
from ..core.reach import REACH_TOLERANCE, solved_by_itasc
from ..core.rig import AXES, IKChain, RigView


def stiffest_axis(rig: RigView, name: str) -> float:
    return max(float(getattr(rig.pose_bone(name), f"ik_stiffness_{axis}")) for axis in AXES)


def swing_stiffness(pose_bone: bpy.types.PoseBone) -> float:
    """The bone's IK stiffness on its freer swing axis, as set (0.7 reads 0.699999988)."""
    return round(min(pose_bone.ik_stiffness_x, pose_bone.ik_stiffness_z), 3)


def severity_of_shortfall(rig: RigView, share: float) -> Severity:
    """What the oracle says of a tip that stops this share of the reach short. The shortfalls
    were measured with the Standard solver: under iTaSC, which weighs stiffness its own way
    (a forearm at 0.9 still reached), the finding stays a warning."""
    standard = not solved_by_itasc(rig)
    return Severity.ERROR if share >= REACH_TOLERANCE and standard else Severity.WARNING


Grown = tuple[str, float] | None
"""The bone that grew a limb, and how many times its rest length it is posed."""


def evenly_stiff_finding(
    rig: RigView, chain: IKChain, stiffness: float, share: float, grown: Grown
) -> Finding:
    names = tuple(name for name in reversed(chain.bones) if name in chain.moving_bones)
    posed = f", {grown[0]} posed at {grown[1]:.3g} times its rest length" if grown else ""
    return chain_too_stiff(
        rig,
        chain,
        share,
        f"{stiffness:.3g} on every bone of the chain of IK '{chain.constraint}' on "
        f"{chain.owner}{posed}",
        why=(
            "Stiffness slows every step the solver takes; near 1 on every axis the chain needs, "
            "its iterations run out before the tip arrives (measured on a two-bone leg at 500 "
            "iterations: 0.065% of the reach short at 0.95, 0.17% at 0.99; an arm 0.2%; with "
            "a bone posed 1.5 times its length, 0.1% already at 0.9)."
        ),
        cleared=names,
        facts=(("stiffness", stiffness), ("shortfall", share), ("posed_longer", grown)),
    )


def chain_too_stiff(
    rig: RigView,
    chain: IKChain,
    share: float,
    stiff: str,
    why: str,
    cleared: tuple[str, ...],
    facts: tuple[tuple[str, Any], ...],
) -> Finding:
    """The finding "Chain too stiff": IK stiffness (``stiff``, in words) that leaves the tip
    ``share`` of the reach short, with the fix that clears it from ``cleared``."""
    return chain_finding(
        "locks",
        rig,
        chain,
        severity=severity_of_shortfall(rig, share),
        title="Chain too stiff",
        message=(
            f"IK stiffness {stiff}: the solver stops about {share:.2%} of the reach short of "
            f"targets in reach ({against_tolerance(share)})."
        ),
        why=why,
        fix_id="clear_stiffness",
        fix_label=f"Set the IK stiffness of {', '.join(cleared)} to 0",
        fix_args=(("cause", STIFFNESS), ("bones", cleared)),
        facts=facts,
    )


def stiff_bones(rig: RigView, chain: IKChain) -> tuple[str, ...]:
    """The chain's turning bones with any IK stiffness, root first."""
    return tuple(name for name in reversed(chain.moving_bones) if stiffest_axis(rig, name) > 0.0)


def stiff_bone_finding(
    rig: RigView,
    chain: IKChain,
    pose_bone: bpy.types.PoseBone,
    stiffness: float,
    share: float,
    cleared: tuple[str, ...],
    as_freely: float | None = None,
) -> Finding:
    """One bone stiffer than the rest of its chain: at most half as free, or ``as_freely``."""
    freedom = "at most half as" if as_freely is None else f"{as_freely:.0%} as"
    lags = "it barely moves, and " if as_freely is None else "it lags, and "
    return chain_finding(
        "locks",
        rig,
        chain,
        bone=readable(pose_bone),
        severity=severity_of_shortfall(rig, share),
        title="One bone too stiff",
        message=(
            f"{readable(pose_bone)} has IK stiffness {stiffness:.3g} on axes the chain of IK "
            f"'{chain.constraint}' cannot do without, turning {freedom} freely as the rest "
            f"of the chain: {lags}the solver stops about {share:.2%} of the "
            f"reach short ({against_tolerance(share)})."
        ),
        why=(
            "Stiffness weighs the solver against turning a bone: one much stiffer than the rest "
            "of its chain barely turns, the other bones cannot reach alone, and the solver "
            "stops short (measured on a leg and an arm with the other bone free: 0.09% to 0.12% "
            "of the reach with the thigh or upper arm at 0.8, 1.1% at 0.99; half as much with "
            "the shin or forearm that stiff)."
        ),
        fix_id="clear_stiffness",
        fix_label=f"Set the IK stiffness of {', '.join(cleared)} to 0",
        fix_args=(("cause", STIFFNESS), ("bones", cleared)),
        facts=(("stiffness", stiffness), ("shortfall", share)),
    )


def against_tolerance(share: float) -> str:
    allowed = f"{REACH_TOLERANCE:.1%} the oracle allows"
    return f"more than the {allowed}" if share >= REACH_TOLERANCE else f"within the {allowed}"


def bone_mobility(pose_bone: bpy.types.PoseBone, free: set[tuple[str, str]]) -> float:
    """How freely the solver turns a bone: 1 less its IK stiffness on its freest swing axis.

    Measured on the reference leg: stiffness on X alone (its bend axis) changes nothing, the
    solver folds by swinging about Z and twisting; on X and Z it stops as short as on all three,
    since a twist does not move the bone's own tail. Only a bone that cannot swing counts its twist.
    """
    axes = [axis for axis in AXES if (readable(pose_bone), axis) in free]
    swings = [axis for axis in axes if axis != "y"] or axes
    return max(1.0 - float(getattr(pose_bone, f"ik_stiffness_{axis}")) for axis in swings)


def mobilities(
    chain: IKChain, free: set[tuple[str, str]], bones: dict[str, bpy.types.PoseBone]
) -> dict[str, float]:
    """``bone_mobility`` of each of the chain's turning bones that has a free axis."""
    turning = {name for name, _axis in free if name in chain.moving_bones}
    return {name: bone_mobility(bones[name], free) for name in turning}


def aimed_by_a_pole(rig: RigView, chain: IKChain) -> bool:
    """Whether a pole aims the chain: its own, or that of a live IK turning the same bones toward
    the same control from the same tip, which Blender solves with it as one tree. Measured: a
    second IK without a pole on the shin, on the foot control, stops exactly as short as the
    leg's IK with one (0.02% of the reach with both bones at 0.8, 0.11% at 0.975, as
    ``EVEN_SHORTFALL``), and a hand IK without its tail beside the forearm's IK no shorter than
    it (0.0% with the upper arm at 0.8); judged without a pole, both were false errors."""
    if chain.pole is not None:
        return True
    return any(
        other.pole is not None and other.live and one_solve(rig, chain, other)
        for other in rig.chains_with_bone(chain.root)
    )


def one_solve(rig: RigView, chain: IKChain, other: IKChain) -> bool:
    """Whether ``other`` is another IK turning the same bones toward the same control from the
    same tip: solved with this one as one tree, it lands or stops short just as this one."""
    return (
        other.key != chain.key
        and set(other.moving_bones) == set(chain.moving_bones)
        and other.shares_control(chain)
        and (rig.chain_tip(other) - rig.chain_tip(chain)).length <= 1e-4 * rig.chain_reach(chain)
    )


def tree_partner(rig: RigView, chain: IKChain) -> IKChain | None:
    """Another IK Blender solves (``solved_with``) that turns a bone this chain turns toward a
    goal of its own (not ``one_solve``): the two are one tree, and what was measured on chains
    solved alone does not hold for it (seed 94: a hand IK over the forearm's, the forearm at 0.8
    to 0.85 stiff, lands where the stiffness table says 0.23% short; seed 155: the shin copying
    the hips' rotation lands under a thigh IK with Use Tail at the foot control, where alone it
    flips)."""
    return next(
        (other for other in solved_with(rig, chain) if not one_solve(rig, chain, other)), None
    )


def limb_kind(rig: RigView, chain: IKChain) -> str:
    """Which measured limb a chain is judged as: a leg when it hangs down from its root
    (``hangs_down``, as rest_pose tells knees from elbows), else an arm."""
    return "leg" if hangs_down(rig, chain) else "arm"
