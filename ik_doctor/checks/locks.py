"""IK locks: the axes Blender's solver may turn each chain bone about.

The solver turns a bone only about the axes its IK locks (``lock_ik_x/y/z``) leave free and
within its IK limits; an IK limit whose minimum equals its maximum is a lock. Lock the axis a
limb bends on and the chain cannot fold: the tip stops short. Locks on other axes are how
hinges are built (a knee locked on Y and Z, an elbow on its twist) and are fine as long as the
chain can still move its tip every way: that is what this check measures, from the rest pose,
with the chain's Jacobian (how each free axis moves the tip). An IK limit that lets a joint fold
only a few degrees, or only away from its bend, holds the limb nearly straight: measured by
posing the limb by hand within its limits (``core.reach``), as the oracle does; a joint rolled
off its bend axis folds about its other free axis instead and still lands, and so does a chain
without a pole with one bone locked on its bend axis (it folds out of its plane and the limb
swings round): warnings, measured. IK stiffness
slows the solver: spread evenly over the axes a chain folds with, from 0.975 its 500 iterations
run out short of the target (0.99 on a leg: 0.17% of the reach, past the oracle's 0.1%); on the
chain's root far above the rest, from 0.75 on a leg and 0.82 on an arm (1.1% at 0.99). The
message carries the shortfall measured for the setting found, on the limb the chain is like (a
leg when it hangs down from its root, else an arm; evenly stiff chains, the lesser of the two),
and the severity is what the oracle says of that. A two-bone limb without a pole, which the
solver must also swing toward the target, has tables of its own: the thigh or both leg bones
at 0.75 already leave it 0.1% short; a chain solved as one tree with a live IK that has a pole
(a twin on the same bones, control and tip) is aimed by that pole and judged with it. An evenly
stiff two-bone limb with a bone posed longer than at rest lags further: tables of its own.
Transform locks (``lock_rotation``) are another matter: the solver ignores them, so they are
reported as information only.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

import bpy
import numpy as np
from mathutils import Vector

from ..core.armature import pose_of
from ..core.finding import Finding, Severity, chain_finding
from ..core.geometry import bend_normal, offset_from_line
from ..core.limb import hangs_down, has_degenerate_bone
from ..core.names import readable
from ..core.reach import (
    REACH_TOLERANCE,
    ClampedFold,
    clamped_folds,
    solved_by_itasc,
    stretching_bones,
)
from ..core.registry import Check
from ..core.rig import AXES, IKChain, RigView
from ._stiffness_tables import (
    EVEN_SHORTFALL,
    EVEN_WARNING,
    GROWN_EVEN_SHORTFALL,
    JOINT_SHORTFALL,
    NO_POLE_SHORTFALL,
    ROOT_SHORTFALL,
    shortfall,
)

BLOCKED_RATIO = 0.1
"""A chain whose free axes move the tip less than this share of what all its axes could, in
its weakest direction, cannot reach: 0 for every failing setup measured, 0.37 and more on every
working real rig (hinged horse, frog and spider legs included)."""


def find_lock_problems(rig: RigView, options: Mapping[str, Any]) -> Iterator[Finding]:
    reported: set[tuple[str | None, str | None, Severity]] = set()
    restricted = _restricted_bones(rig)
    for chain in rig.chains:
        if restricted.isdisjoint(chain.bones):
            continue  # every axis free and flexible: the tip moves every way, no lock to note
        findings = [*_blocked_chain(rig, chain, options["stiffness"])]
        if _has_ik_limits(rig, chain) and not any(f.severity == Severity.ERROR for f in findings):
            findings += [_narrow_finding(rig, chain, clamp) for clamp in clamped_folds(rig, chain)]
        findings = _weighed_against_stretch(rig, chain, findings)
        findings += _transform_locks(rig, chain)
        for finding in findings:
            # Chains that share bones (a Rigify switch pair) would report a bone twice.
            where = (finding.bone, finding.fix_id, finding.severity)
            if where not in reported:
                reported.add(where)
                yield finding


def _weighed_against_stretch(
    rig: RigView, chain: IKChain, findings: list[Finding]
) -> list[Finding]:
    """Errors made warnings on a chain that reaches by IK Stretch what its locks, limits and
    stiffness keep it from turning to: any stretching bone makes up a blocked bend axis, a
    narrow limit or stiffness, but a chain with a bone locked on every axis needs every bone to
    stretch (measured on the leg and the arm, ``stretching_bones``)."""
    stretching = stretching_bones(rig, chain)
    if not stretching or not any(f.severity == Severity.ERROR for f in findings):
        return findings
    frozen = any(
        all(_blocked(rig.pose_bone(name), axis) for axis in AXES) for name in chain.moving_bones
    )
    if frozen and set(stretching) != set(chain.moving_bones):
        return findings
    made_up = (
        f" IK Stretch on {', '.join(stretching)} makes up for it: the chain reaches by "
        "stretching (measured)."
    )
    return [
        replace(f, severity=Severity.WARNING, message=f.message + made_up)
        if f.severity == Severity.ERROR
        else f
        for f in findings
    ]


def _restricted_bones(rig: RigView) -> set[str]:
    """Bones with an IK lock, IK limit, IK stiffness or transform lock: all this check reports.

    Read in bulk, so a rig whose chains are all free costs a few array reads, not a Jacobian
    per chain.
    """
    settings = [
        rig.pose_values(f"{setting}_{axis}")
        for setting in ("lock_ik", "use_ik_limit", "ik_stiffness")
        for axis in AXES
    ]
    flagged = np.any(np.stack(settings) != 0, axis=0)
    return rig.pose_bones_where(flagged | rig.pose_values("lock_rotation", 3).any(axis=1))


def _has_ik_limits(rig: RigView, chain: IKChain) -> bool:
    """Whether a bone of the chain has an IK limit: the only way a fold can be cut short."""
    return any(
        getattr(rig.pose_bone(name), f"use_ik_limit_{axis}")
        for name in chain.bones
        for axis in AXES
    )


def _blocked(pose_bone: bpy.types.PoseBone, axis: str) -> bool:
    """The solver cannot turn this bone about ``axis``: an IK lock or a zero-width IK limit."""
    if getattr(pose_bone, f"lock_ik_{axis}"):
        return True
    return getattr(pose_bone, f"use_ik_limit_{axis}") and math.isclose(
        getattr(pose_bone, f"ik_min_{axis}"), getattr(pose_bone, f"ik_max_{axis}"), abs_tol=1e-6
    )


def _bone_mobility(pose_bone: bpy.types.PoseBone, free: set[tuple[str, str]]) -> float:
    """How freely the solver turns a bone: 1 less its IK stiffness on its freest swing axis.

    Measured on the reference leg: stiffness on X alone (its bend axis) changes nothing, the
    solver folds by swinging about Z and twisting; on X and Z it stops as short as on all three,
    since a twist does not move the bone's own tail. Only a bone that cannot swing counts its twist.
    """
    axes = [axis for axis in AXES if (readable(pose_bone), axis) in free]
    swings = [axis for axis in axes if axis != "y"] or axes
    return max(1.0 - float(getattr(pose_bone, f"ik_stiffness_{axis}")) for axis in swings)


def _needed_mobility(
    motion: _TipMotion, free: set[tuple[str, str]], mobility: dict[str, float]
) -> float:
    """The mobility of the stiffest bone the chain cannot do without: bones added from the most
    mobile down move the tip every way only once this one joins (the free axes reach, so one
    level does)."""
    for level in sorted(set(mobility.values()), reverse=True):
        if not motion.cannot_reach({key for key in free if mobility.get(key[0], 0.0) >= level}):
            return level
    return min(mobility.values())


class _TipMotion:
    """How each bone axis of a chain moves the tip at rest: one Jacobian column per axis."""

    def __init__(self, rig: RigView, chain: IKChain) -> None:
        tip = rig.chain_tip(chain)
        self.columns: dict[tuple[str, str], Vector] = {}
        for name in chain.bones:
            bone = rig.bone(name)
            for axis, direction in zip(AXES, (bone.x_axis, bone.y_axis, bone.z_axis), strict=True):
                self.columns[(name, axis)] = direction.cross(tip - bone.head)
        root = rig.bone(chain.root).head
        joint = max(
            (rig.bone(name).head for name in chain.bones[:-1]),
            key=lambda point: offset_from_line(point, root, tip).length,
        )
        self.normal = bend_normal(root, joint, tip)
        self._free: dict[bool, float] = {}

    def weakest(self, usable: set[tuple[str, str]], in_plane: bool = False) -> float:
        """Smallest singular value of the usable columns: how well the tip moves every way."""
        columns = [list(self.columns[key].to_tuple()) for key in self.columns if key in usable]
        size = 3
        if in_plane and self.normal is not None:
            first = self.normal.orthogonal().normalized()
            second = self.normal.cross(first)
            columns = [[Vector(c).dot(first), Vector(c).dot(second)] for c in columns]
            size = 2
        if len(columns) < size:
            return 0.0
        return float(np.linalg.svd(np.array(columns).T, compute_uv=False)[-1])

    def free_motion(self, in_plane: bool = False) -> float:
        """``weakest`` with every axis usable: what each restriction is measured against."""
        if in_plane not in self._free:
            self._free[in_plane] = self.weakest(set(self.columns), in_plane)
        return self._free[in_plane]

    def cannot_reach(self, usable: set[tuple[str, str]], in_plane: bool = False) -> bool:
        return self.weakest(usable, in_plane) < BLOCKED_RATIO * self.free_motion(in_plane)

    def bend_axis(self, rig: RigView, name: str) -> str | None:
        """The bone's local axis nearest the bend plane's normal: the axis it folds about."""
        normal = self.normal
        if normal is None:
            return None
        bone = rig.bone(name)
        axes = (bone.x_axis, bone.y_axis, bone.z_axis)
        return AXES[max(range(3), key=lambda i: abs(axes[i].dot(normal)))]


def lock_that_holds_a_pole(rig: RigView, chain: IKChain) -> str | None:
    """Why giving this chain a pole would stop it folding: a bone locked on the axis it bends
    on, which it now folds around out of its plane (a warning without a pole, measured: it
    lands; an error with one: 3.3% to 6.5% of the reach short)."""
    for finding in _blocked_chain(rig, replace(chain, pole=rig.object), 1.0):
        if finding.severity == Severity.ERROR and finding.fix_id == "free_axes":
            return (
                f"{finding.bone} is locked on the axis the chain bends on, which it folds around "
                "only while it has no pole: with a pole it would stop short; free that axis first"
            )
    return None


def _blocked_chain(rig: RigView, chain: IKChain, stiffness: float) -> Iterator[Finding]:
    if len(chain.bones) < 2 or has_degenerate_bone(rig, chain):
        # A bone with next to no length (the degenerate check reports it) has no direction:
        # the Jacobian of bones 2e-6 long is float noise, and unlocking one axis may leave the
        # same verdict (found by the property tests).
        return
    motion = _TipMotion(rig, chain)
    bones = {name: rig.pose_bone(name) for name in chain.bones}
    free = {key for key in motion.columns if not _blocked(bones[key[0]], key[1])}
    if motion.free_motion() <= 1e-6 * rig.chain_reach(chain):
        # A straight chain: no rank to compare against. Without a pole a two-bone limb's
        # stiffness is weighed by tables that need none (measured on the straight leg and arm,
        # the lower bone limited to fold one way or not: 0.1% to 1.3% of the reach short where
        # the tables say 0.1% to 1.4%); not with its root's swing limited, which changes it
        # (measured: the root at 0.9 passes, both bones at 0.7 fail).
        root_limited = any(getattr(bones[chain.root], f"use_ik_limit_{axis}") for axis in "xz")
        if len(chain.moving_bones) == 2 and not root_limited and not _aimed_by_a_pole(rig, chain):
            yield from _stiff_findings(rig, chain, motion, free, bones, stiffness)
        return
    if motion.cannot_reach(free):
        yield from _locked_findings(rig, chain, motion, free, bones)
        return
    yield from _stiff_findings(rig, chain, motion, free, bones, stiffness)


def _stiff_findings(
    rig: RigView,
    chain: IKChain,
    motion: _TipMotion,
    free: set[tuple[str, str]],
    bones: dict[str, bpy.types.PoseBone],
    threshold: float,
) -> Iterator[Finding]:
    """IK stiffness that keeps the solver short of targets in reach, with the shortfall measured.

    Stiffness weighs how far the solver turns each axis per step. Spread evenly over the axes
    the chain needs it only slows the solve (0.9 on a leg still reaches); one bone much stiffer
    than the rest, which the rest cannot reach without, leaves the tip short sooner.
    """
    turning = {name for name, _axis in free if name in chain.moving_bones}
    mobility = {name: _bone_mobility(bones[name], free) for name in turning}
    if not mobility:
        return
    if not _aimed_by_a_pole(rig, chain) and len(mobility) == 2 and len(chain.moving_bones) == 2:
        yield from _stiff_without_pole(rig, chain, mobility, threshold)
        return
    needed = _needed_mobility(motion, free, mobility)
    stiffness = 1.0 - needed
    most = max(mobility.values())
    if needed >= most / 2.0 - 1e-6:
        grown, table = _even_table(rig, chain)
        share = shortfall(table, stiffness)
        if stiffness >= EVEN_WARNING - 1e-6 or share >= REACH_TOLERANCE:
            yield _evenly_stiff_finding(rig, chain, stiffness, share, grown)
        return
    if stiffness < threshold - 1e-6:
        return
    for name in chain.bones:
        value = mobility.get(name)
        if value is not None and needed - 1e-6 <= value < most / 2.0:
            tables = ROOT_SHORTFALL if name == chain.root else JOINT_SHORTFALL
            table = tables[_limb_kind(rig, chain)]
            share = shortfall(table, 1.0 - value)
            yield _stiff_bone_finding(rig, chain, bones[name], 1.0 - value, share)


def _aimed_by_a_pole(rig: RigView, chain: IKChain) -> bool:
    """Whether a pole aims the chain: its own, or that of a live IK turning the same bones toward
    the same control from the same tip, which Blender solves with it as one tree. Measured: a
    second IK without a pole on the shin, on the foot control, stops exactly as short as the
    leg's IK with one (0.02% of the reach with both bones at 0.8, 0.11% at 0.975, as
    ``EVEN_SHORTFALL``), and a hand IK without its tail beside the forearm's IK no shorter than
    it (0.0% with the upper arm at 0.8); judged without a pole, both were false errors."""
    if chain.pole is not None:
        return True
    tip = rig.chain_tip(chain)
    return any(
        other.pole is not None
        and other.live
        and other.key != chain.key
        and set(other.moving_bones) == set(chain.moving_bones)
        and (other.target, other.subtarget) == (chain.target, chain.subtarget)
        and (rig.chain_tip(other) - tip).length <= 1e-4 * rig.chain_reach(chain)
        for other in rig.chains_with_bone(chain.root)
    )


def _stiff_without_pole(
    rig: RigView, chain: IKChain, mobility: dict[str, float], threshold: float
) -> Iterator[Finding]:
    """A two-bone limb without a pole, judged by ``NO_POLE_SHORTFALL``: the worse of its root's
    and its joint's stiffness, or the even table when both are as stiff."""
    limb = _limb_kind(rig, chain)
    stiffness = {name: 1.0 - value for name, value in mobility.items()}
    shares = {
        name: shortfall(NO_POLE_SHORTFALL["root" if name == chain.root else "joint"][limb], value)
        for name, value in stiffness.items()
    }
    if max(stiffness.values()) - min(stiffness.values()) < 1e-3:
        shares[chain.root] = shortfall(NO_POLE_SHORTFALL["even"][limb], stiffness[chain.root])
    worst = max(shares, key=lambda name: shares[name])
    share = shares[worst]
    if stiffness[worst] < threshold - 1e-6 and share < REACH_TOLERANCE:
        return
    stiff = tuple(name for name in reversed(chain.bones) if stiffness.get(name, 0.0) > 0.0)
    said = " and ".join(f"{name} {stiffness[name]:.3g}" for name in stiff)
    yield chain_finding(
        "locks",
        rig,
        chain,
        bone=worst,
        severity=_severity(rig, share),
        title="Stiff, no pole",
        message=(
            f"The chain of IK '{chain.constraint}' on {chain.owner} has no pole and IK "
            f"stiffness on {said}: the solver stops about {share:.2%} of the reach short of "
            f"targets in reach ({_against_tolerance(share)})."
        ),
        why=(
            "Without a pole the solver swings the limb toward the target as well as folding it, "
            "and stiffness holds back both (measured on a two-bone leg and arm: the thigh or "
            "upper arm at 0.75, or both bones, leave it 0.1% to 0.13% of the reach short; with "
            "a pole, evenly stiff chains reach up to 0.975)."
        ),
        fix_id="clear_stiffness",
        fix_label=f"Set the IK stiffness of {', '.join(stiff)} to 0",
        fix_args=(("bones", stiff),),
    )


def _limb_kind(rig: RigView, chain: IKChain) -> str:
    """Which measured limb a chain is judged as: a leg when it hangs down from its root
    (``hangs_down``, as rest_pose tells knees from elbows), else an arm."""
    return "leg" if hangs_down(rig, chain) else "arm"


def _locked_findings(
    rig: RigView,
    chain: IKChain,
    motion: _TipMotion,
    free: set[tuple[str, str]],
    bones: dict[str, bpy.types.PoseBone],
) -> Iterator[Finding]:
    if not motion.cannot_reach(free, in_plane=True):
        if chain.pole is None:  # with a pole, it turns the root toward the target
            yield from _plane_only_findings(rig, chain, free)
        return
    findings = []
    for name in chain.bones:
        axis = motion.bend_axis(rig, name)
        if axis is not None and (name, axis) not in free:
            findings.append(_bend_finding(rig, chain, bones[name], axis, bend=True))
    if chain.pole is None and len(findings) == 1:
        # Measured on the leg and the arm: the shin, forearm, thigh or upper arm locked on X
        # alone lands every goal without a pole, folding about Z out of its plane while the
        # solver swings the limb round; with a pole, or both bones locked, 3.3% to 36% short.
        (bend,) = findings
        axis = str(bend.args["axes"])
        other = {"x": "z", "z": "x"}.get(axis)
        if other is not None and (bend.bone or "", other) in free:
            findings = [_bend_finding(rig, chain, bones[bend.bone or ""], axis, True, other)]
    if not findings:
        # No single bend axis is to blame (a twisted or straight chain): free every lock.
        for name in chain.bones:
            axes = "".join(axis for axis in AXES if (name, axis) not in free)
            if axes:
                findings.append(_bend_finding(rig, chain, bones[name], axes, bend=False))
        yield from findings
        return
    # Freed on its bend axes alone, the chain may still fold only in its plane: say so now, as
    # one finding per bone, so that unlocking the bend axis does not leave the root's finding.
    freed = free | {(f.bone or "", axis) for f in findings for axis in str(f.args["axes"])}
    if chain.pole is None and motion.cannot_reach(freed):
        for plane_only in _plane_only_findings(rig, chain, freed):
            at_root = [i for i, f in enumerate(findings) if f.bone == chain.root]
            if at_root:
                findings[at_root[0]] = _also_off_plane(findings[at_root[0]], plane_only)
            else:
                findings.append(plane_only)
    yield from findings


def _plane_only_findings(
    rig: RigView, chain: IKChain, free: set[tuple[str, str]]
) -> Iterator[Finding]:
    """The chain folds in its bend plane but nothing swings it off: free its root's locks."""
    root = chain.root
    axes = "".join(axis for axis in AXES if (root, axis) not in free)
    if not axes:
        return  # the root swings freely already: nothing here to unlock
    yield chain_finding(
        "locks",
        rig,
        chain,
        bone=root,
        severity=Severity.WARNING,
        title="Locked to its bend plane",
        message=(
            f"The IK locks leave the chain of IK '{chain.constraint}' on {chain.owner} free to "
            "move only in its bend plane: a target off that plane is missed."
        ),
        why=(
            "Every bone of the chain is locked to its bend axis, so nothing swings the "
            f"limb sideways; the chain's root ({root}) is the joint that usually does."
        ),
        fix_id="free_axes",
        fix_label=f"Free the {_axis_list(axes)} IK axes of {root}",
        fix_args=(("axes", axes),),
    )


def _also_off_plane(bend: Finding, plane_only: Finding) -> Finding:
    """The root's bend finding, extended to free the axes that swing the chain off its plane."""
    axes = str(bend.args["axes"]) + str(plane_only.args["axes"])
    return replace(
        bend,
        message=f"{bend.message} Freed on that axis alone, it would still fold only in its plane.",
        fix_label=f"Free the {_axis_list(axes)} IK axes of {bend.bone} (unlock, drop zero limits)",
        fix_args=(("axes", axes),),
    )


def _bend_finding(
    rig: RigView,
    chain: IKChain,
    pose_bone: bpy.types.PoseBone,
    axes: str,
    bend: bool,
    folds_about: str | None = None,
) -> Finding:
    """A blocked bend axis: an error, or a warning when the chain has no pole and the bone folds
    about ``folds_about`` instead, out of its plane, the limb swung round to the target."""
    name = readable(pose_bone)
    causes = []
    for axis in axes:
        if getattr(pose_bone, f"lock_ik_{axis}"):
            causes.append(f"an IK lock on {axis.upper()}")
        else:
            angle = math.degrees(getattr(pose_bone, f"ik_min_{axis}"))
            causes.append(f"an {axis.upper()} IK limit from {angle:.3g}° to {angle:.3g}°")
    what = (
        f"the axis the chain of IK '{chain.constraint}' bends on"
        if bend
        else f"so the chain of IK '{chain.constraint}' cannot move its tip every way"
    )
    return chain_finding(
        "locks",
        rig,
        chain,
        bone=name,
        severity=Severity.WARNING if folds_about else Severity.ERROR,
        title="Locked, folds off plane"
        if folds_about
        else "Bend axis locked"
        if bend
        else "Locks block the tip",
        message=(
            f"{name} cannot turn about {_axis_list(axes)} ({' and '.join(causes)}), {what}: "
            + (
                f"without a pole it folds about {folds_about.upper()} instead, out of its "
                "plane, and the limb swings round to the target (measured: it lands), bent "
                "where no pole aims it."
                if folds_about
                else "the tip stops short of the target."
            )
        ),
        why=(
            "Blender's solver turns a bone only about the axes its IK locks and IK limits leave "
            "free; with the bend axis blocked the limb cannot fold to reach the target."
        ),
        fix_id="free_axes",
        fix_label=f"Free the {_axis_list(axes)} IK axis of {name} (unlock, drop the zero limit)",
        fix_args=(("axes", axes),),
    )


def _narrow_finding(rig: RigView, chain: IKChain, clamp: ClampedFold) -> Finding:
    axis = clamp.axis.upper()
    limit = f"{math.degrees(clamp.low):.3g}° to {math.degrees(clamp.high):.3g}°"
    how_far = (
        f"only {clamp.folded:.2g}°" if clamp.folded > 0.0 else "only away from the chain's bend"
    )
    elsewhere = _folds_without(rig, chain, clamp)
    effect = (
        "but the chain still folds in its plane about its other free axes (a joint rolled off "
        "the bend axis folds about the one the roll tilts into the plane): it reaches, its "
        "joint bent off the pole's plane (measured on "
        "the leg and the arm with ±6° and 0° limits: rolled 2° to 40° they land 27° to 77° off "
        "the pole's plane, rolled 90° in it; unrolled they stop 4.6% to 6.5% of the reach "
        "short)."
        if elsewhere
        else f"the chain of IK '{chain.constraint}' can barely fold and misses targets nearer "
        "its root."
    )
    return chain_finding(
        "locks",
        rig,
        chain,
        bone=clamp.bone,
        severity=Severity.WARNING if elsewhere else Severity.ERROR,
        title="Limit folds off plane" if elsewhere else "IK limit too narrow",
        message=f"The {axis} IK limit of {clamp.bone} ({limit}) lets it fold {how_far}: {effect}",
        why=(
            "IK limits are angles from the rest pose that the solver never leaves; a joint "
            "that cannot fold toward its bend leaves the limb nearly straight, so its tip "
            "stops short of any target it would have to bend to reach."
        ),
        fix_id="drop_limit",
        fix_label=f"Turn off the {axis} IK limit of {clamp.bone}",
        fix_args=(("axis", clamp.axis),),
    )


def _folds_without(rig: RigView, chain: IKChain, clamp: ClampedFold) -> bool:
    """Whether the chain still folds in its bend plane with the clamped axis held, by the same
    measure as a lock (``BLOCKED_RATIO`` of its free motion in the plane): a joint rolled off
    the bend axis folds about its other free axis, which the roll tilts into the plane."""
    if len(chain.bones) < 2 or has_degenerate_bone(rig, chain):
        return False
    motion = _TipMotion(rig, chain)
    if motion.normal is None or motion.free_motion(in_plane=True) <= 1e-6 * rig.chain_reach(chain):
        return False  # straight: nothing folds in a plane
    free = {key for key in motion.columns if not _blocked(rig.pose_bone(key[0]), key[1])}
    return not motion.cannot_reach(free - {(clamp.bone, clamp.axis)}, in_plane=True)


def _severity(rig: RigView, share: float) -> Severity:
    """What the oracle says of a tip that stops this share of the reach short. The shortfalls
    were measured with the Standard solver: under iTaSC, which weighs stiffness its own way
    (a forearm at 0.9 still reached), the finding stays a warning."""
    standard = not solved_by_itasc(rig)
    return Severity.ERROR if share >= REACH_TOLERANCE and standard else Severity.WARNING


def _even_table(rig: RigView, chain: IKChain) -> tuple[str, tuple[tuple[float, float], ...]]:
    """The evenly stiff chain's table, and what grew the limb ("" for ``EVEN_SHORTFALL``): a
    two-bone limb with a bone posed longer than at rest lags further
    (``GROWN_EVEN_SHORTFALL``)."""
    if len(chain.moving_bones) != 2:
        return "", EVEN_SHORTFALL
    scale, name = max((_posed_scale(rig, name), name) for name in chain.moving_bones)
    grown: tuple[str, tuple[tuple[float, float], ...]] = ("", EVEN_SHORTFALL)
    for least, table in GROWN_EVEN_SHORTFALL:
        if scale >= least - 1e-3:
            grown = (f"{name} posed at {scale:.3g} times its rest length", table)
    return grown


def _posed_scale(rig: RigView, name: str) -> float:
    """How many times its rest length a bone is posed: its own or an inherited scale."""
    pose_bone = rig.pose_bone(name)
    rest = rig.bone(name).length
    return (pose_bone.tail - pose_bone.head).length / rest if rest > 0.0 else 1.0


def _evenly_stiff_finding(
    rig: RigView, chain: IKChain, stiffness: float, share: float, grown: str
) -> Finding:
    names = [name for name in reversed(chain.bones) if name in chain.moving_bones]
    return chain_finding(
        "locks",
        rig,
        chain,
        severity=_severity(rig, share),
        title="Chain too stiff",
        message=(
            f"IK stiffness {stiffness:.3g} on every bone of the chain of IK '{chain.constraint}' "
            f"on {chain.owner}{f', {grown}' if grown else ''}: the solver stops about "
            f"{share:.2%} of the reach short of targets in reach ({_against_tolerance(share)})."
        ),
        why=(
            "Stiffness slows every step the solver takes; near 1 on every axis the chain needs, "
            "its iterations run out before the tip arrives (measured on a two-bone leg at 500 "
            "iterations: 0.065% of the reach short at 0.95, 0.17% at 0.99; an arm 0.2%; with "
            "a bone posed 1.5 times its length, 0.1% already at 0.9)."
        ),
        fix_id="clear_stiffness",
        fix_label=f"Set the IK stiffness of {', '.join(names)} to 0",
        fix_args=(("bones", tuple(names)),),
    )


def _stiff_bone_finding(
    rig: RigView, chain: IKChain, pose_bone: bpy.types.PoseBone, stiffness: float, share: float
) -> Finding:
    return chain_finding(
        "locks",
        rig,
        chain,
        bone=readable(pose_bone),
        severity=_severity(rig, share),
        title="One bone too stiff",
        message=(
            f"{readable(pose_bone)} has IK stiffness {stiffness:.3g} on axes the chain of IK "
            f"'{chain.constraint}' cannot do without, far above the rest of the chain: it barely "
            f"moves, and the solver stops about {share:.2%} of the reach short "
            f"({_against_tolerance(share)})."
        ),
        why=(
            "Stiffness weighs the solver against turning a bone: one much stiffer than the rest "
            "of its chain barely turns, the other bones cannot reach alone, and the solver "
            "stops short (measured on a leg and an arm with the other bone free: 0.09% to 0.12% "
            "of the reach with the thigh or upper arm at 0.8, 1.1% at 0.99; half as much with "
            "the shin or forearm that stiff)."
        ),
        fix_id="clear_stiffness",
        fix_label=f"Set the IK stiffness of {readable(pose_bone)} to 0",
    )


def _against_tolerance(share: float) -> str:
    allowed = f"{REACH_TOLERANCE:.1%} the oracle allows"
    return f"more than the {allowed}" if share >= REACH_TOLERANCE else f"within the {allowed}"


def _transform_locks(rig: RigView, chain: IKChain) -> Iterator[Finding]:
    for name in chain.bones:
        pose_bone = rig.pose_bone(name)
        axes = "".join(a for a, locked in zip(AXES, pose_bone.lock_rotation, strict=True) if locked)
        if not axes:
            continue
        yield chain_finding(
            "locks",
            rig,
            chain,
            bone=name,
            severity=Severity.INFO,
            title="Transform locks ignored",
            message=(
                f"The transform locks on {_axis_list(axes)} of {name} do not stop IK: the "
                "solver ignores them."
            ),
            why=(
                "Lock Rotation only stops rotating the bone by hand; IK still turns it. To keep "
                "the solver off an axis, use the bone's IK locks (Lock IK X/Y/Z)."
            ),
            no_fix_reason="nothing to fix: transform locks do not affect IK",
        )


def _axis_list(axes: str) -> str:
    return "/".join(axis.upper() for axis in axes)


def free_axes(obj: bpy.types.Object, finding: Finding) -> str:
    pose_bone = pose_of(obj).bones[finding.bone or ""]
    changed = []
    for axis in str(finding.args["axes"]):
        if getattr(pose_bone, f"lock_ik_{axis}"):
            setattr(pose_bone, f"lock_ik_{axis}", False)
            changed.append(f"unlocked IK {axis.upper()}")
        if _blocked(pose_bone, axis):
            setattr(pose_bone, f"use_ik_limit_{axis}", False)
            changed.append(f"turned off the zero-width {axis.upper()} IK limit")
    return f"On {readable(pose_bone)}: {', '.join(changed)}."


def drop_limit(obj: bpy.types.Object, finding: Finding) -> str:
    pose_bone = pose_of(obj).bones[finding.bone or ""]
    axis = str(finding.args["axis"])
    low, high = (math.degrees(getattr(pose_bone, f"ik_{end}_{axis}")) for end in ("min", "max"))
    setattr(pose_bone, f"use_ik_limit_{axis}", False)
    return (
        f"Turned off the {axis.upper()} IK limit of {readable(pose_bone)} (it was {low:.3g}° to "
        f"{high:.3g}°, kept in case you turn it back on)."
    )


def clear_stiffness(obj: bpy.types.Object, finding: Finding) -> str:
    said = []
    for name in finding.args.get("bones", (finding.bone or "",)):
        pose_bone = pose_of(obj).bones[name]
        before = ", ".join(
            f"{axis.upper()} {getattr(pose_bone, f'ik_stiffness_{axis}'):.3g}" for axis in AXES
        )
        for axis in AXES:
            setattr(pose_bone, f"ik_stiffness_{axis}", 0.0)
        said.append(f"{name} (was {before})")
    return f"Set the IK stiffness to 0 on X, Y and Z of {'; '.join(said)}."


CHECK = Check(
    id="locks",
    title="IK locks",
    doc=__doc__ or "",
    find=find_lock_problems,
    fixes={
        "free_axes": free_axes,
        "drop_limit": drop_limit,
        "clear_stiffness": clear_stiffness,
    },
    options={"stiffness": 0.7},
    order=50,
)
