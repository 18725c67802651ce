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
stiff two-bone limb with a bone posed longer than at rest lags further: tables of its own. So
does one whose joint a narrow X IK limit holds (±20° to ±28° of rest): it reaches only goals near
its rest bend, and lags less evenly stiff (the leg at 0.975 held to ±20° lands) but, one bone
stiff, by amounts of its own (a thigh at 0.7 held to ±28° stops 0.106% of the reach short).
Transform locks (``lock_rotation``) are another matter: the solver ignores them, so they are
reported as information only.

What it reports:

- IK locks, or zero-width IK limits, on the axis a limb bends on, when the free axes can no
  longer move the tip every way: an error. It is measured with the chain's Jacobian at rest, so
  hinge knees and elbows that do not twist stay quiet. A warning on a chain without a pole where
  one bone alone is locked so and keeps its other swing axis: it folds about that one, out of
  its plane, and the limb swings round (measured to land; with a pole, or both bones locked, it
  stops 3.3% to 36% short). A warning too where a Damped Track on the chain's first turning
  bone aims it at the chain's own target and that bone keeps X or Z free: the solver starts it
  pointing at the target and lands (measured on the arm and the leg with the lower, the upper
  or both bones locked on their bend axis, or the upper bone on every axis; with the lower bone
  free about Y alone, or both bones locked on every axis, it still fails). Not where the tracked
  bone's swing is held by a zero-width IK limit rather than a lock: the solver clamps the start
  back to rest, and the leg stops 5.1% short, the arm 6.5%; nor where a bone of the chain is
  posed scaled along its length (0.95 to 1.1: 2.1% to 7.5% short).
- A chain without a pole locked to its bend plane: a warning.
- A chain straight at rest whose free axes do not move its tip at all (every axis locked): an
  error on every lock (it stays put, 36.8% of the reach short, measured on the leg and the arm
  with and without a pole); straight, it has no bend axis to blame. Unless its pose, or a
  constraint the IK overrides, starts it bent (``rest_pose``'s "Straight, bent at start"): the
  axis that bend turns about is its bend axis, and an IK lock there is the error above (the leg
  and the arm posed ±20° or ±70° about X, locked on X on either bone, stop 1.9% to 14.9% short,
  started so by a Damped Track at the pole or a copied rotation 3.4% to 38%; freed, they land;
  a Damped Track at the target points the bone at it wherever it goes, and lands). Without a
  pole, a straight limb's root locked on X folds it off its plane only at its built lengths:
  with a bone posed scaled the lock is that error (``_posed_scale``: 0.93% to 74% short).
- An IK limit that lets a joint fold only a few degrees toward its bend, or only away from it,
  so that the limb posed by hand within its limits folds less than half as far as it does free:
  an error (a ±6° knee leaves the foot 4.7% of the reach short). A warning when the chain still
  folds in its plane about its other free axes, by the lock's own measure, as a joint rolled off
  its bend axis does: rolled 1.5° to 40°, a leg or an arm with a 0° or ±6° X limit lands 27° to
  77° off its pole's plane, and so does one locked on X (``_tip_motion.BLOCKED_RATIO``: "Lock
  folds off plane", a warning, ``_rolled_lock``: rolled up to 40°, 35° to 86° off it); with
  the joint's Z IK-limited too (±5.7°) it stops short, an error. Nothing, without a pole, where
  a limit that lets the joint fold only against its rest bend is met by a start that folds it
  that way: posed or constrained bent that way 8.5° to 165°, or off the bend plane by 0.05 rad
  (the root twisted or swung, the lower bone swung) with 40 iterations
  (``_narrow_limits.folds_the_limits_way``). A chain straight at rest has no bend: the side its
  one-sided limits allow is its bend, for this check, the oracle's goals, ``rest_pose``,
  ``roll`` and the pole's side. So a straight robot arm hinged -60° to 0° and -126° to 0° on Z,
  which lands where it is posed by hand within them, is no error. A bent chain of three or more
  turning bones without a pole (a robot arm) is judged as the oracle sets its goals: a limit is
  an error where the arm posed by hand within its limits is held back, a warning where it still
  folds or two other joints turn either way (``_other_joints``; measured on generated arms).
- A chain of one bone without a pole whose IK limit holds its swing (posed by hand within its
  locks and limits its tip moves less than half as far as free): an error, as its tip does not
  move at all (``_narrow_limits``, measured on the shin and the forearm: 34.7% of the reach
  short; with a pole, or the limit off, they land).
- IK stiffness that leaves the solver short, with the shortfall measured on a two-bone leg in
  the message, and the severity the oracle gives it (an error from 0.1% of the reach):
    - on every bone of the chain's swing axes: 0.95 gives 0.065%, a warning; an error from
      0.975; 0.99 gives 0.17%, where the foot stopped 3.3 mm short unreported. On a two-bone
      limb with a bone posed at least 1.25 times its rest length (scaled, or under a scale it
      does not inherit), from 0.95, and at 1.5 times from 0.9 (0.1%); rest proportions change
      nothing. A limb nearly straight (its joint at most 1% of the reach off the line, as the
      rest_pose pre-bend leaves it) lags less: at 0.975 it lands (0.09%), at 0.99 it fails
      (0.147%); a straight one with a pole, which no Jacobian measures, is weighed so, as it
      bends once pre-bent. A limb whose joint folds within 15° of its Z axis (rolled about 90°)
      lags less too: at 0.975 it lands (0.093% to 0.100%), at 0.99 it fails (0.145% to 0.17%),
      and ``roll``'s fix waits while rolling it back would leave it short;
    - on a bone far stiffer than the rest of the chain, which cannot reach without it. Measured
      per limb, a chain hanging down from its root judged as the leg and any other as the arm:
      the root from 0.75 on a leg and 0.82 on an arm (1.1% at 0.99); an inner joint at 0.85 and
      from 0.9 on a leg, which passes at 0.86, and from 0.86 on an arm. A warning from the
      ``stiffness`` option, 0.7. With the other bone half as mobile (0.9 over 0.8), by tables
      measured so: nearly as short as alone (the upper arm 0.22%), and the fix clears both. A
      chain whose root is at most 0.6 of its joint's length (an arm IK without Use Tail: the
      shoulder under the upper arm) lags further, by its own tables: the upper arm at 0.8
      stops 0.105% short. So does a stiff root with a bone posed 1.1 times its length or more
      (``GROWN_ROOT_SHORTFALL``: from 0.725 on a leg and 0.75 on an arm). Both bones stiff,
      the stiffer more than half as mobile as the other, by a table measured at mobility
      ratios 0.6 to 0.9 (``UNEVEN_SHORTFALL``): the forearm at 0.875 under an upper arm at
      0.905 stops 0.116% short, where the even table said 0.05%; within 0.02% of the
      tolerance, how far reading between its rows erred, a warning;
    - on a two-bone limb without a pole, which the solver must also swing toward the target: the
      worse of its root's and its joint's stiffness by their own tables (the root from 0.75 on
      either limb; the joint from 0.9, and at 0.85 on a leg; both equally stiff from 0.75 on a
      leg, 0.8 on an arm: both leg bones at 0.9 leave it 0.34% short, where with a pole they
      reach). With one bone locked on its bend axis, folding around it, by the locked limb's
      own tables (``LOCKED_FOLD_SHORTFALL``: the arm with both bones at 0.8 lands, at 0.85
      stops 0.12% short), and the lock's fix waits where, freed, the free tables would leave it
      short. Not when a live IK with a pole on the same bones, control and tip is solved with
      it as one tree: a twin IK stops exactly as short as the leg's IK with its pole. A straight
      one, which no Jacobian measures, is judged by the same tables: straight, the leg and the
      arm stop 0.1% to 1.3% of the reach short where they say 0.1% to 1.4%, leaving out a root
      whose swing is IK-limited too, which changes it;
    - on a chain of one bone (chain length 1, Use Tail), which reaches only by swinging that
      bone: by a table of its own, the same on the thigh and the upper arm at any iterations
      (a single bone's shortfall is its swing's angle and its stiffness), an error from 0.77
      on both axes it swings about (1.06% of the reach at 0.99), a warning on one (targets it
      turns about the other land) or beside another live IK turning the bone (one tree, not
      measured), whose fix clears the other chain's stiff bones too (freed alone, the upper
      arm leaves an arm evenly stiff at 0.9 0.13% short). Of two chains sharing a stiff bone,
      a live one keeps the finding;
    - on a chain of another shape (three bones: no table measured it), or straight at rest
      with its root held by an IK limit otherwise than against its fold (the arm and the leg
      so held stop short or land by amounts of their own), a bone from the ``stiffness``
      option: a warning that Verify by Solving proves on this chain. The tables
      are a guess there: an insect leg (a short coxa under a femur and a tibia) evenly at 0.9
      stops 0.12% of its reach short where they say 0.046%, at 0.95 0.2%; with its coxa alone
      at 0.99 it lands. Solved without its stiffness at the oracle's goals, the chain that
      then lands has its miss measured on it, and the warning becomes that error.
- A two-bone limb stiff from 0.7 (both bones, or the upper) whose lower bone is posed 5° or
  more past its X IK limit, where the tables say nothing: a warning (limited 0° to 30° or ±20°
  and posed past, both at 0.8 stop 0.16% short; at the limit, or limited 0° to 60°, most land).
- Stiffness on the bend axis alone is fine: the solver swings and twists instead.
- Transform locks on chain bones: information, IK ignores them.
- Each of these errors is a warning when IK Stretch on a chain bone makes up for it (measured:
  the leg and the arm then land; a chain with every bone locked on every axis needs every bone
  to stretch, and one bone so locked lands with any one stretching). Not on a two-bone limb
  locked on both bend axes with one bone alone stretching from 0.36: the solver stretches it
  instead of folding (the leg 0.23%, the arm 0.40% of the reach short; from 0.27 a warning that
  says so). Stiffness stays a warning under iTaSC.
- A bend-axis lock is a warning on a bone posed twisted about its own Y, which the solver keeps
  and folds the limb by (``_twisted_start``, measured); clearing the keys that twist it waits,
  and freeing it waits for a joint's IK limit below that lets it fold only away from the bend.
- A zero-width or narrow (to ±6°) X limit on a forearm or shin is a warning where the solver
  starts it turned about Z, posed so or by a constraint the IK overrides (a Track To at the
  hand control): held on X alone it folds about Z and lands (``_swung_start``, measured on the
  arm and the leg from 0.0034 rad; limited up to ±18° from 0.006 rad, started the pole's way
  where the pole angle turns the chain); freeing the limit waits where that start would then
  bend the joint away (set by a constraint, or posed more than 1.5 rad about Z). So too without
  a pole where the root is posed turned about its own Y (0.05 to 3 rad) or Z (0.5 to 1): the
  joint folds about Z by that turn; clearing the keys and giving a pole wait.
- Stiffness is a warning where a hand's IK pulls the same bones to the same point and alone it
  stops under 0.46% short, 0.58% where the stiff bone is the root (the two goals turn it the
  harder: the upper arm lands to 0.97, 0.57%); a lock's fix waits while freeing it would make
  a foot's IK below miss (``_lock_pairs``, measured). Every error is a warning on a chain whose
  tip another IK on its control puts at the same point moving these bones and more (a foot's IK
  without Use Tail under the leg's): solved as one tree, it lands wherever that one does.

What its fixes do:

- Free the blocked bend axis: unlock it, or drop the zero limit.
- Turn off the narrow limit, or the one holding a single bone's swing (its range is kept).
- Free the root's swing.
- Set the stiff bone's IK stiffness to 0 (every bone's, for an evenly stiff chain).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

import bpy
import numpy as np

from ..core.armature import pose_of
from ..core.finding import Finding, Severity, chain_finding
from ..core.limb import has_degenerate_bone, one_way_on_x, root_folds_against
from ..core.names import readable
from ..core.registry import Check
from ..core.rig import AXES, IKChain, RigView
from ._aimed_start import weighed_against_aim
from ._lock_pairs import weighed_against_other_iks
from ._lock_stiffness import (
    single_bone_findings,
    stiff_findings,
    stiff_unmeasured,
    straight_stiff_findings,
)
from ._lock_stretch import BEND_LOCKED_TITLE, weighed_against_stretch
from ._narrow_limits import (
    held_swing_finding,
    limit_behind_the_lock,
    narrow_clamps,
    narrow_finding,
)
from ._no_pole_stiffness import locked_fold_findings, straight_no_pole_findings
from ._other_joints import weighed_against_other_joints
from ._posed_off_axis import weighed_against_posed_parent
from ._posed_scale import posed_scaled
from ._rolled_lock import blocked_args, rolled_lock_findings
from ._stiffness_findings import aimed_by_a_pole, mobilities
from ._straight_start import posed_bend_locked
from ._swung_start import weighed_against_swing
from ._tip_motion import TipMotion, blocked
from ._transform_locks import axis_list, transform_lock_findings
from ._twisted_start import weighed_against_twist


def find_lock_problems(rig: RigView, options: Mapping[str, Any]) -> Iterator[Finding]:
    reported: set[tuple[str | None, str | None, Severity]] = set()
    restricted = restricted_bones(rig)
    # Live chains first: of two that share a bone, the one Blender solves keeps the finding (a
    # thigh's own IK beside the leg's muted one fails by its own stiffness).
    for chain in sorted(rig.chains, key=lambda chain: not chain.live):
        if restricted.isdisjoint(chain.bones):
            continue  # every axis free and flexible: the tip moves every way, no lock to note
        findings = [*chain_lock_findings(rig, chain, options["stiffness"])]
        if _has_ik_limits(rig, chain) and not any(f.severity == Severity.ERROR for f in findings):
            findings += [narrow_finding(rig, chain, clamp) for clamp in narrow_clamps(rig, chain)]
        findings = weighed_against_stretch(rig, chain, findings)
        findings = weighed_against_aim(rig, chain, findings)
        findings = weighed_against_twist(rig, chain, findings)
        findings = weighed_against_posed_parent(rig, chain, findings)
        findings = weighed_against_swing(rig, chain, findings)
        findings = weighed_against_other_iks(rig, chain, findings)
        findings = weighed_against_other_joints(rig, chain, findings)
        findings += transform_lock_findings(rig, chain)
        for finding in findings:
            # Chains that share bones (a Rigify switch pair) would report a bone twice.
            where = (finding.bone, finding.fix_id, finding.severity)
            if where not in reported:
                reported.add(where)
                yield finding


def restricted_bones(rig: RigView) -> set[str]:
    """Bones with an IK lock, IK limit, IK stiffness or transform lock: all this check reports.

    Read in bulk, once per pass, so a rig whose chains are all free costs a few array reads,
    not a Jacobian per chain.
    """

    def read() -> set[str]:
        settings = [
            rig.pose_values(f"{setting}_{axis}")
            for setting in ("lock_ik", "use_ik_limit", "ik_stiffness")
            for axis in AXES
        ]
        flagged = np.any(np.stack(settings) != 0, axis=0)
        return rig.pose_bones_where(flagged | rig.pose_values("lock_rotation", 3).any(axis=1))

    return rig.remember("locks: restricted bones", read)


def _has_ik_limits(rig: RigView, chain: IKChain) -> bool:
    """Whether a bone of the chain has an IK limit: the only way a fold can be cut short."""
    return any(
        getattr(rig.pose_bone(name), f"use_ik_limit_{axis}")
        for name in chain.bones
        for axis in AXES
    )


def chain_lock_findings(rig: RigView, chain: IKChain, stiffness: float) -> Iterator[Finding]:
    """The chain's lock, limit and stiffness findings before what else the rig does (stretch,
    an aim, a twist, other IKs) is weighed: also what ``_locks_what_if`` asks of a changed
    chain."""
    if has_degenerate_bone(rig, chain):
        # A bone with next to no length (the degenerate check reports it) has no direction:
        # the Jacobian of bones 2e-6 long is float noise, and unlocking one axis may leave the
        # same verdict (found by the property tests).
        return
    if len(chain.bones) < 2:
        only = rig.pose_bone(chain.owner)
        if chain.use_tail and all(blocked(only, axis) for axis in "xz"):
            yield _bend_finding(rig, chain, only, "xz", bend=False)  # it cannot swing at all
            return
        held = held_swing_finding(rig, chain)
        if held is not None:
            yield held
            return
        yield from single_bone_findings(rig, chain, stiffness)  # no Jacobian rank to compare
        return
    motion = TipMotion(rig, chain)
    bones = {name: rig.pose_bone(name) for name in chain.bones}
    free = {key for key in motion.columns if not blocked(bones[key[0]], key[1])}
    if motion.free_motion() <= 1e-6 * (reach := rig.chain_reach(chain)):
        # A straight chain: no rank to compare against. Without a pole a two-bone limb's
        # stiffness is weighed by the table of the way its hinge limits fold it: the lower
        # bone's alone (``_no_pole_stiffness``: the root fails from 0.72), or its root's swing
        # limited the other way (the root at 0.9 passes, both bones at 0.7 fail); unlimited,
        # by the bent limb's tables; with the root limited otherwise, a warning that this
        # was not measured. With a pole, as it bends once pre-bent.
        root_limited = _root_limited(bones, chain)
        if max((motion.columns[key].length for key in free), default=0.0) <= 1e-6 * reach:
            yield from _every_lock(rig, chain, free, bones)  # nothing free moves the tip
            return
        if len(chain.moving_bones) != 2:
            return
        if chain.pole is None and bones[chain.root].lock_ik_x and posed_scaled(bones, chain):
            yield _bend_finding(rig, chain, bones[chain.root], "x", bend=True)  # _posed_scale
            return
        aimed = aimed_by_a_pole(rig, chain)
        posed_lock = posed_bend_locked(rig, chain) if aimed else None
        if posed_lock is not None:
            yield _bend_finding(rig, chain, bones[posed_lock[0]], posed_lock[1], bend=True)
            return
        if root_limited:
            if not aimed and root_folds_against(rig, chain):
                yield from straight_no_pole_findings(rig, chain, free, bones, stiffness, "opposed")
            else:
                unweighed = (
                    f"straight at rest, {chain.root} held by its IK limit, how far short it "
                    "stops was not measured"
                )
                yield from stiff_unmeasured(
                    rig, chain, mobilities(chain, free, bones), stiffness, unmeasured=unweighed
                )
            return
        if aimed:
            yield from straight_stiff_findings(rig, chain, free, bones, stiffness)
        elif one_way_on_x(lower := bones[chain.moving_bones[0]]) and not lower.lock_ik_x:
            yield from straight_no_pole_findings(rig, chain, free, bones, stiffness, "one_sided")
        else:
            yield from stiff_findings(rig, chain, motion, free, bones, stiffness)
        return
    if motion.cannot_reach(free):
        yield from _locked_findings(rig, chain, motion, free, bones, stiffness)
        return
    yield from rolled_lock_findings(rig, chain, motion, free)
    yield from stiff_findings(rig, chain, motion, free, bones, stiffness)


def _root_limited(bones: dict[str, bpy.types.PoseBone], chain: IKChain) -> bool:
    """Whether the root of a straight chain has IK limits that change how stiffness holds it
    back. Not an X limit letting it turn only negatively about X while the lower bone's X is
    IK-locked (the limb folds about Z): measured on the straightened leg and arm without a
    pole, the root, the lower bone or both stiff 0.7 to 0.99, each lands or fails as with the
    root unlimited (the arm to the same 0.001%), where the other way round changes 8 of 18
    (fresh seed 219: the upper arm limited so, stiff 0.95, stopped 0.4% short unreported)."""
    root = bones[chain.root]
    limited = [axis for axis in "xz" if getattr(root, f"use_ik_limit_{axis}")]
    if limited == ["x"] and one_way_on_x(root) < 0:
        return not bones[chain.moving_bones[0]].lock_ik_x
    return bool(limited)


def _locked_findings(
    rig: RigView,
    chain: IKChain,
    motion: TipMotion,
    free: set[tuple[str, str]],
    bones: dict[str, bpy.types.PoseBone],
    threshold: float,
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
    if chain.pole is None and (len(findings) == 1 or len(chain.moving_bones) == 2):
        # Measured on the leg and the arm: the shin, forearm, thigh or upper arm locked on X
        # alone lands every goal without a pole, folding about Z out of its plane while the
        # solver swings the limb round, and so do both bones locked on X, or the lower one
        # locked and the upper one held by a zero-width limit (seed 147); with a pole they stop
        # 3.3% to 6.5% short, locked on every axis 36%. An inner joint held by a zero-width
        # limit instead stays straight about Z (4.6% to 6.5% short, 25.9% with the upper bone
        # held too); a root so held alone lands or stops 0.115% short (the leg, the arm).
        folding = [_folds_about(chain, bones, free, bend) for bend in findings]
        if posed_scaled(bones, chain):
            # ... but the root folds so only at the built lengths (fresh seed 276, a miss: the
            # thigh posed 1.5 over a shin not inheriting it, 16% short under this warning;
            # measured on the leg and the arm, the root or the lower bone posed 1.01 to 1.5,
            # evenly or along its length: 0.4% to 41% short; the hips scaled evenly, or the
            # lower bone locked, still land).
            rooted = [f.bone == chain.root for f in findings]
            folding = [None if root else fold for root, fold in zip(rooted, folding, strict=True)]
        axes = [fold for fold in folding if fold is not None]
        if len(axes) == len(findings):
            findings = [
                _bend_finding(rig, chain, bones[bend.bone or ""], axis, True, other)
                for bend, (axis, other) in zip(findings, axes, strict=True)
            ]
    if not findings:
        yield from _every_lock(rig, chain, free, bones)
        return
    # Freed on its bend axes alone, the chain may still fold only in its plane: say so now, as
    # one finding per bone, so that unlocking the bend axis does not leave the root's finding.
    freed = free | {(f.bone or "", axis) for f in findings for axis in str(f.args["axes"])}
    if chain.pole is None and motion.cannot_reach(freed):
        for plane_only in _plane_only_findings(rig, chain, freed):
            at_root = [i for i, f in enumerate(findings) if f.bone == chain.root]
            if at_root:
                findings[at_root[0]] = _also_off_plane(
                    findings[at_root[0]], plane_only, bones[chain.root]
                )
            else:
                findings.append(plane_only)
    if chain.pole is None and all(f.stated.get("folds_about") for f in findings):
        findings = locked_fold_findings(rig, chain, free, bones, findings, threshold)
    yield from findings


def _folds_about(
    chain: IKChain,
    bones: dict[str, bpy.types.PoseBone],
    free: set[tuple[str, str]],
    bend: Finding,
) -> tuple[str, str] | None:
    """(held axis, the swing axis it folds about instead) of a bend finding whose bone, without
    a pole, folds about its other swing axis: an IK lock on an inner joint, or any hold on the
    root, with that other axis free; None otherwise."""
    axis = str(bend.args["axes"])
    other = {"x": "z", "z": "x"}.get(axis)
    name = bend.bone or ""
    locked = getattr(bones[name], f"lock_ik_{axis}") or name == chain.root
    return (axis, other) if locked and other is not None and (name, other) in free else None


def _every_lock(
    rig: RigView, chain: IKChain, free: set[tuple[str, str]], bones: dict[str, bpy.types.PoseBone]
) -> Iterator[Finding]:
    """No single bend axis is to blame (a twisted chain, or a straight one whose free axes do
    not move its tip: locked on every axis, it stays where it is, 36.8% of the reach short,
    measured on the leg and the arm): free every lock."""
    for name in chain.bones:
        axes = "".join(axis for axis in AXES if (name, axis) not in free)
        if axes:
            yield _bend_finding(rig, chain, bones[name], axes, bend=False)


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
        fix_label=f"Free the {axis_list(axes)} IK axes of {root}",
        fix_args=blocked_args(rig.pose_bone(root), axes),
    )


def _also_off_plane(bend: Finding, plane_only: Finding, root: bpy.types.PoseBone) -> Finding:
    """The root's bend finding, extended to free the axes that swing the chain off its plane."""
    axes = "".join(sorted(str(bend.args["axes"]) + str(plane_only.args["axes"])))
    return replace(
        bend,
        message=f"{bend.message} Freed on that axis alone, it would still fold only in its plane.",
        fix_label=f"Free the {axis_list(axes)} IK axes of {bend.bone} (unlock, drop zero limits)",
        fix_args=blocked_args(root, axes),
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
    held = limit_behind_the_lock(rig, chain, name) if folds_about else None
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
        else BEND_LOCKED_TITLE
        if bend
        else "Locks block the tip",
        message=(
            f"{name} cannot turn about {axis_list(axes)} ({' and '.join(causes)}), {what}: "
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
        fix_id=None if held else "free_axes",
        fix_label=None
        if held
        else f"Free the {axis_list(axes)} IK axis of {name} (unlock, drop the zero limit)",
        fix_args=blocked_args(pose_bone, axes),
        facts=(("folds_about", folds_about),),
        no_fix_reason=held,
    )


def free_axes(obj: bpy.types.Object, finding: Finding) -> str:
    pose_bone = pose_of(obj).bones[finding.bone or ""]
    changed = []
    for axis in str(finding.args["axes"]):
        if getattr(pose_bone, f"lock_ik_{axis}"):
            setattr(pose_bone, f"lock_ik_{axis}", False)
            changed.append(f"unlocked IK {axis.upper()}")
        if blocked(pose_bone, axis):
            setattr(pose_bone, f"use_ik_limit_{axis}", False)
            changed.append(f"turned off the zero-width {axis.upper()} IK limit")
    return f"On {readable(pose_bone)}: {', '.join(changed)}."


def drop_limit(obj: bpy.types.Object, finding: Finding) -> str:
    pose_bone = pose_of(obj).bones[finding.bone or ""]
    axis = str(finding.args["axes"])
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
