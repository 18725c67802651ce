"""Verify by solving on the animator's own frames: IK that fails where it was animated.

A chain that works at rest can leave its foot beside the control on frame 31 of a walk, and no
setting read at rest says so. ``scan_animation`` plays every action of an armature on its own
(the active one and those in NLA tracks, stashed ones included), measures every live IK chain
on every frame, and reports each problem once per chain and cause, listing every action it
shows in with its frames (``verify.scan_findings``). For a tip that misses a target within
reach it then solves the worst frames again with one suspect removed at a time (an IK lock or
limit axis, stiffness, solver iterations, stretch, a constraint the IK overrides, the keyed
rotation the solver starts from) and names the one that makes the chain land on every failing
frame, with the fix for it. A chain no frame tested (a rig without animation) is judged at the
oracle's reachable goals instead, so a failing chain is never silent, and its cause searched
the same way, each suspect removed in turn at those goals: what a check could weigh only by
tables measured on other chains (an insect leg's stiffness) is proved on this one.

Nothing is left changed: the frame, the active action and slot, the NLA switches, every pose
and object channel are put back, and the scene is evaluated again.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import bpy
from mathutils import Vector

from ..core.armature import pose_of
from ..core.editing import FixError, constraint_on, current_view_layer, require_armature
from ..core.finding import (
    Finding,
    Occurrence,
    Severity,
    chain_finding,
    sort_findings,
)
from ..core.geometry import mean_scale, offset_from_line
from ..core.limb import FULL_INFLUENCE, MAX_BEND_TURN
from ..core.names import readable
from ..core.registry import Check
from ..core.rig import IKChain, RigView, posed_point
from .oracle import (
    bend_angle,
    degrees_apart,
    judge_chains,
)
from .playback import (
    chosen_actions,
    current_scene,
    frames_to_play,
    play_alone,
    pose_channels,
    scene_kept,
    set_pose_channels,
)
from .scan_findings import UNEXPLAINED, Shown, Suspect, scan_findings
from .suspects import SOLVER_ITERATIONS, suspects

CHECK_ID = "verify"
MISS = 0.01
"""A tip further than this share of the chain's reach from a target it can reach has missed:
the issue that asked for this scan measured real misses of 1% to 25%."""
STRAIGHT = 0.97
"""A target beyond this share of the reach asks the limb to straighten: where the tip lands
then depends on the solver's tolerance more than on the rig, so such frames are not judged."""
BENT = 0.05
"""A chain whose joints stand further than this share of its reach off the root-tip line is
bent clearly enough for its side to count: a flip is judged only between two such frames."""
PROOF_FRAMES = 24
"""The worst failing frames a suspect must fix to be named: enough to cover a walk's contact
poses, few enough that the cause search costs a fraction of the scan."""

ProgressCallback = Callable[[int, int], None]


@dataclass
class _Track:
    """One chain over the frames of one action: the Blender data it reads on every frame,
    looked up once, and what each frame measured."""

    chain: IKChain
    reach: float
    """World length the chain reaches over."""
    fold: float
    """The nearest (world) the chain folds its tip to its root: its longest bone less the rest."""
    constraint: Any
    root: Any
    owner: Any
    joints: list[Any]
    """Pose bones whose heads are the inner joints."""
    stretches: bool
    rest_bend: float | None
    """The rest bend's angle from the pole's side (radians), or None without a pole."""
    misses: dict[int, float] = field(default_factory=dict)
    """Frames whose target lay within reach, with the tip's miss as a share of the reach."""
    beyond: dict[int, float] = field(default_factory=dict)
    """Frames whose target lay beyond the reach, with how far beyond (share of the reach)."""
    away: dict[int, float] = field(default_factory=dict)
    """Frames where the joint bent away from its pole, with the degrees it turned."""
    flips: dict[int, float] = field(default_factory=dict)
    """Frames where the bend turned more than 90° from the frame before, with the degrees."""
    blended: dict[int, float] = field(default_factory=dict)
    """Frames where a part influence left the tip between FK and IK, with the miss."""
    last_bend: float | None = None


def _track(obj: bpy.types.Object, rig: RigView, chain: IKChain) -> _Track:
    pose_bone = rig.pose_bone
    moving = chain.moving_bones
    reach = rig.chain_reach(chain) * mean_scale(obj.matrix_world)
    lengths = [rig.bone(name).length for name in moving]
    total = sum(lengths)
    fold = max(0.0, 2.0 * max(lengths) - total) * reach / total if total > 0.0 else 0.0
    constraint = constraint_on(obj, chain.owner, chain.constraint, bpy.types.KinematicConstraint)
    rest_pole = rig.joint_point(chain.pole, chain.pole_subtarget)
    rest_bend = None
    if rest_pole is not None and len(moving) > 1:
        rest_bend = bend_angle(
            [rig.bone(name).head for name in moving[:-1]],
            rig.bone(chain.root).head,
            rig.chain_tip(chain),
            rest_pole,
        )
    return _Track(
        chain=chain,
        reach=reach,
        fold=fold,
        constraint=constraint,
        root=pose_bone(chain.root),
        owner=pose_bone(chain.owner),
        joints=[pose_bone(name) for name in moving[:-1]],
        stretches=constraint.use_stretch and any(pose_bone(n).ik_stretch > 0.0 for n in moving),
        rest_bend=rest_bend,
    )


def scan_animation(
    obj: bpy.types.Object,
    actions: Iterable[bpy.types.Action | str] | None = None,
    frames: Iterable[int] | None = None,
    progress: ProgressCallback | None = None,
    solve_untested: bool = True,
) -> list[Finding]:
    """Play each action of ``obj`` on its own, frame by frame, and report where its IK fails.

    ``actions`` (objects or names) defaults to the active action and every action in the NLA
    tracks; ``frames`` defaults to each action's own frame range. ``progress(done, total)`` is
    called after every frame. Chains no frame judged are solved at the oracle's goals unless
    ``solve_untested`` is False. Changes nothing: see the module's docstring.
    """
    return scan_with_curves(obj, actions, frames, progress, solve_untested)[0]


@dataclass(frozen=True)
class MissCurve:
    """One chain over the frames of one action, for a report to plot: the tip's miss as a
    share of the reach on each frame whose target lay within reach."""

    owner: str
    constraint: str
    action: str
    misses: tuple[tuple[int, float], ...]
    """(frame, miss) for every frame judged; aims in radians."""
    beyond: tuple[int, ...]
    """Frames whose target was keyed beyond the reach."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "owner": self.owner,
            "constraint": self.constraint,
            "action": self.action,
            "misses": [[frame, miss] for frame, miss in self.misses],
            "beyond": list(self.beyond),
            "limit": MISS,
        }


def scan_with_curves(
    obj: bpy.types.Object,
    actions: Iterable[bpy.types.Action | str] | None = None,
    frames: Iterable[int] | None = None,
    progress: ProgressCallback | None = None,
    solve_untested: bool = True,
) -> tuple[list[Finding], list[MissCurve]]:
    """``scan_animation``, with each chain-action's miss on every frame for the reports."""
    require_armature(obj)
    if obj.library is not None:
        raise ValueError(
            f"'{readable(obj)}' is linked from {readable(obj.library, 'filepath')}: its actions "
            "cannot be switched "
            "here. Verify it in its own file, or make a library override."
        )
    chosen = chosen_actions(obj, actions)
    frame_lists = [frames_to_play(action, frames) for action in chosen]
    total, done = sum(len(frames_) for frames_ in frame_lists), 0
    shown: list[Shown] = []
    curves: list[MissCurve] = []
    judged: set[tuple[str, str]] = set()
    with scene_kept(obj):
        rig = RigView(obj)
        start_pose = pose_channels(obj)
        for action, action_frames in zip(chosen, frame_lists, strict=True):
            set_pose_channels(obj, start_pose)  # what one action leaves unkeyed is not its own
            play_alone(obj, action)
            tracks = {chain.key: _track(obj, rig, chain) for chain in rig.chains}
            for frame in action_frames:
                current_scene().frame_set(frame)
                for track in tracks.values():
                    _measure(obj, track, frame)
                done += 1
                if progress is not None:
                    progress(done, total)
            for track in tracks.values():
                if track.misses:
                    judged.add(track.chain.key)
                shown.extend(_shown(obj, rig, readable(action), track))
                if track.misses or track.blended or track.beyond:
                    misses = {**track.misses, **track.blended}
                    curves.append(
                        MissCurve(
                            *track.chain.key,
                            readable(action),
                            tuple(sorted(misses.items())),
                            tuple(sorted(track.beyond)),
                        )
                    )
    findings = scan_findings(rig, shown)
    untested = [chain for chain in RigView(obj).chains if chain.key not in judged]
    if untested and solve_untested:
        findings.extend(_oracle_findings(obj, rig, {chain.key for chain in untested}))
    return sort_findings(findings), curves


# --- measuring one chain on one frame --------------------------------------------------------


def _measure(obj: bpy.types.Object, track: _Track, frame: int) -> None:
    chain, constraint = track.chain, track.constraint
    if constraint.mute or constraint.influence <= 0.0 or track.reach <= 0.0:
        return
    target = posed_point(chain.target, chain.subtarget, chain.target_bone_missing)
    if target is None:
        return
    world = obj.matrix_world
    root = world @ track.root.head
    tip = world @ (track.owner.tail if chain.use_tail else track.owner.head)
    if not track.joints:  # an aim: judged by the angle between the bone and its target
        aim, wanted = tip - root, target - root
        miss = aim.angle(wanted, 0.0) if aim.length and wanted.length else 0.0
        _record(track, frame, miss, constraint.influence)
        return
    distance = (target - root).length
    if distance > track.reach and not track.stretches:
        if distance - track.reach > MISS * track.reach:  # closer, the tip lands within MISS
            track.beyond[frame] = (distance - track.reach) / track.reach
        return
    if distance < track.fold or distance > STRAIGHT * track.reach:
        return
    _record(track, frame, (tip - target).length / track.reach, constraint.influence)
    joints = [world @ joint.head for joint in track.joints]
    bent = sum((offset_from_line(joint, root, tip) for joint in joints), Vector()).length
    pole = posed_point(chain.pole, chain.pole_subtarget, chain.pole_bone_missing)
    if bent < BENT * track.reach or pole is None or track.rest_bend is None:
        track.last_bend = None  # near straight, the bend's side is float noise
        return
    bend = bend_angle(joints, root, tip, pole)
    if bend is None:
        return
    from_pole = degrees_apart(bend, 0.0)
    if degrees_apart(bend, track.rest_bend) > MAX_BEND_TURN and from_pole > MAX_BEND_TURN:
        track.away[frame] = from_pole
    if track.last_bend is not None and degrees_apart(bend, track.last_bend) > 90.0:
        track.flips[frame] = degrees_apart(bend, track.last_bend)
    track.last_bend = bend


def _record(track: _Track, frame: int, miss: float, influence: float) -> None:
    if influence < FULL_INFLUENCE:
        if miss > MISS:
            track.blended[frame] = miss
        return
    track.misses[frame] = miss


# --- findings ------------------------------------------------------------------------------


def _shown(obj: bpy.types.Object, rig: RigView, action: str, track: _Track) -> list[Shown]:
    """Each fault the chain showed in this action, with the frames and the worst of them."""
    found = []
    failing = {frame: miss for frame, miss in track.misses.items() if miss > MISS}
    if failing:
        proof_frames = sorted(failing, key=failing.__getitem__, reverse=True)[:PROOF_FRAMES]
        cause = next(
            (
                suspect
                for suspect in suspects(obj, rig, track.chain)
                if _lands_without(obj, rig, track, suspect, proof_frames)
            ),
            UNEXPLAINED,
        )
        occurrence = _occurrence(action, failing, lambda miss: _miss_text(track, miss))
        found.append(Shown(track.chain, "miss", occurrence, cause, len(proof_frames)))
    for problem, frames, measured in (
        ("beyond_reach", track.beyond, lambda share: _share_text(track, share, "beyond")),
        ("away_from_pole", track.away, lambda turn: f"{turn:.0f}° from its pole's side"),
        ("flip", track.flips, lambda turn: f"turned {turn:.0f}° since the frame before"),
        ("half_switch", track.blended, lambda miss: _share_text(track, miss, "from the target")),
    ):
        if frames:
            found.append(Shown(track.chain, problem, _occurrence(action, frames, measured)))
    return found


def _occurrence(
    action: str, frames: dict[int, float], measured: Callable[[float], str]
) -> Occurrence:
    worst = max(frames, key=frames.__getitem__)
    return Occurrence(action, frame_ranges(frames), worst, frames[worst], measured(frames[worst]))


def _miss_text(track: _Track, miss: float) -> str:
    if len(track.chain.moving_bones) == 1:  # an aim: its miss is an angle
        return f"{math.degrees(miss):.1f}° off its aim"
    return _share_text(track, miss, "from the target")


def _share_text(track: _Track, share: float, what: str) -> str:
    return f"{share * track.reach:.3g} {what}, {share:.1%} of the reach"


def frame_ranges(frames: Iterable[int]) -> tuple[tuple[int, int], ...]:
    """Frames as (first, last) runs: 1, 2, 3, 7 become (1, 3), (7, 7)."""
    runs: list[list[int]] = []
    for frame in sorted(frames):
        if runs and frame == runs[-1][1] + 1:
            runs[-1][1] = frame
        else:
            runs.append([frame, frame])
    return tuple((first, last) for first, last in runs)


# --- the cause, proved by solving ------------------------------------------------------------


def _lands_without(
    obj: bpy.types.Object, rig: RigView, track: _Track, suspect: Suspect, frames: Sequence[int]
) -> bool:
    """Whether the chain lands on every one of ``frames`` with the suspect removed."""
    probe = _track(obj, rig, track.chain)
    with _removed(suspect):
        for frame in frames:
            current_scene().frame_set(frame)
            if suspect.per_frame or frame == frames[0]:
                _remove(suspect)
                current_view_layer().update()
            _measure(obj, probe, frame)
            if probe.misses.get(frame, 0.0) > MISS or frame in probe.blended:
                return False
        return True


def _passes_without(obj: bpy.types.Object, chain: IKChain, suspect: Suspect) -> bool:
    """Whether the chain passes the oracle (lands on every one of its goals) with the suspect
    removed."""
    with _removed(suspect):
        return [verdict.state for verdict in judge_chains(obj, {chain.key})] == ["pass"]


@contextmanager
def _removed(suspect: Suspect) -> Iterator[None]:
    """The suspect removed for the duration, its settings put back exactly after."""
    saved = [(owner, name, _copy(getattr(owner, name))) for owner, name, _ in suspect.changes]
    try:
        _remove(suspect)
        yield
    finally:
        for owner, name, value in saved:
            setattr(owner, name, value)
        current_view_layer().update()


def _remove(suspect: Suspect) -> None:
    for owner, name, value in suspect.changes:
        setattr(owner, name, value)


def _copy(value: Any) -> Any:
    return value.copy() if hasattr(value, "copy") else value


# --- chains no frame judged: the oracle's goals ----------------------------------------------


def _oracle_findings(
    obj: bpy.types.Object, rig: RigView, keys: set[tuple[str, str]]
) -> list[Finding]:
    """A finding for each of these chains that fails the oracle, with the setting proved to
    cause it: solved at the oracle's goals again without each suspect in turn, the first that
    makes the chain pass (a stiffness, iteration count or lock that a check could only weigh by
    tables measured on other chains, proved on this one)."""
    found = []
    for verdict in judge_chains(obj, keys):
        chain = rig.chain(verdict.owner, verdict.constraint)
        if not verdict.fails or chain is None:
            continue
        cause = next(
            (
                suspect
                for suspect in suspects(obj, rig, chain)
                if _passes_without(obj, chain, suspect)
            ),
            UNEXPLAINED,
        )
        found.append(_oracle_finding(rig, chain, verdict.reason, cause))
    return found


def _oracle_finding(rig: RigView, chain: IKChain, measured: str, cause: Suspect) -> Finding:
    subject = f"IK '{chain.constraint}' on {chain.owner}"
    why = (
        "No animation tested this chain, so it was solved toward points the limb reaches when "
        "posed by hand (folded, swung, with the body turned): the tip did not land on them."
    )
    if cause is UNEXPLAINED:
        return chain_finding(
            CHECK_ID,
            rig,
            chain,
            severity=Severity.ERROR,
            title="Fails when posed",
            message=f"{subject} fails the solver at a goal it can reach: {measured}.",
            why=why,
            no_fix_reason="see the other findings on this chain for the cause",
        )
    return chain_finding(
        CHECK_ID,
        rig,
        chain,
        severity=Severity.ERROR,
        title=cause.title,
        message=f"{subject} fails the solver at a goal it can reach because of {cause.label}: "
        f"{measured}.",
        why=f"{why} Solved again without {cause.label}, it lands on every one.",
        fix_args=(("problem", "miss"), ("cause", cause.kind), *cause.fix_args),
        # The scan's fixes rescan an action; the checks' findings on this cause carry theirs.
        no_fix_reason=cause.no_fix_reason or f"to make it land: {cause.fix_label}",
    )


# --- the fixes the cause search offers, and finding the fault again ---------------------------


def rescan(obj: bpy.types.Object, finding: Finding) -> Finding | None:
    """The same fault found again by scanning the finding's (worst) action, or None when it is
    gone: the same chain, problem and kind of cause, whose axes or bones may have changed since
    (a lock on X/Y/Z is one on X/Y once another finding's fix freed Z)."""
    if finding.action is None or bpy.data.actions.get(finding.action) is None:
        return None
    wanted = _fault(finding)
    for fresh in scan_animation(obj, [finding.action], solve_untested=False):
        if _fault(fresh) == wanted:
            return fresh
    return None


def _fault(finding: Finding) -> tuple[Any, ...]:
    return (finding.armature, finding.chain, finding.args.get("problem"), finding.args.get("cause"))


def _after(obj: bpy.types.Object, finding: Finding, done: str) -> str:
    """The fix's sentence, with what a rescan of the action now measures."""
    assert finding.action is not None  # only scan findings carry these fixes
    left = [
        fresh
        for fresh in scan_animation(obj, [finding.action], solve_untested=False)
        if fresh.chain == finding.chain and fresh.args.get("problem") == "miss"
    ]
    if left:
        return f"{done} A rescan of '{finding.action}' still finds: {left[0].message}"
    return f"{done} A rescan of '{finding.action}' finds the tip on its target on every frame."


def _bones(obj: bpy.types.Object, finding: Finding) -> list[bpy.types.PoseBone]:
    missing = [name for name in finding.args["bones"] if name not in pose_of(obj).bones]
    if missing:
        raise FixError(f"'{readable(obj)}' has no bone named {', '.join(missing)} any more.")
    return [pose_of(obj).bones[name] for name in finding.args["bones"]]


def _set_on_bones(
    obj: bpy.types.Object, finding: Finding, attribute: str, value: Any, axes: str
) -> None:
    """Set ``attribute`` (with ``{}`` for the axis) on each axis of the finding's bones."""
    for pose_bone in _bones(obj, finding):
        for axis in axes:
            setattr(pose_bone, attribute.format(axis), value)


def free_ik_locks(obj: bpy.types.Object, finding: Finding) -> str:
    _set_on_bones(obj, finding, "lock_ik_{}", False, str(finding.args["axes"]))
    return _after(obj, finding, f"{finding.fix_label}.")


def drop_ik_limits(obj: bpy.types.Object, finding: Finding) -> str:
    _set_on_bones(obj, finding, "use_ik_limit_{}", False, str(finding.args["axes"]))
    return _after(obj, finding, f"{finding.fix_label} (their ranges are kept).")


def clear_stiffness(obj: bpy.types.Object, finding: Finding) -> str:
    _set_on_bones(obj, finding, "ik_stiffness_{}", 0.0, "xyz")
    return _after(obj, finding, f"{finding.fix_label}.")


def more_iterations(obj: bpy.types.Object, finding: Finding) -> str:
    constraint = constraint_on(obj, finding.bone, finding.constraint, bpy.types.KinematicConstraint)
    constraint.iterations = SOLVER_ITERATIONS
    return _after(obj, finding, f"{finding.fix_label}.")


def mute_constraint(obj: bpy.types.Object, finding: Finding) -> str:
    bone = pose_of(obj).bones.get(str(finding.args["bone"]))
    other = bone.constraints.get(str(finding.args["constraint"])) if bone else None
    if other is None:
        raise FixError(f"{finding.args['constraint']} on {finding.args['bone']} is gone.")
    other.mute = True
    return _after(obj, finding, f"{finding.fix_label}.")


FIXES = {
    "free_ik_locks": free_ik_locks,
    "drop_ik_limits": drop_ik_limits,
    "clear_stiffness": clear_stiffness,
    "more_iterations": more_iterations,
    "mute_constraint": mute_constraint,
}


CHECK = Check(
    id=CHECK_ID,
    title="Verify by solving",
    doc=__doc__ or "",
    find=lambda rig, options: (),
    fixes=FIXES,
    order=60,
    refind=rescan,
)
