"""Verify by solving on the animator's own frames: IK that fails where it was animated.

A chain that works at rest can leave its foot beside the control on frame 31 of a walk, and no
setting read at rest says so. ``scan_animation`` plays every action of an armature on its own
(the active one and those in NLA tracks, stashed ones included), measures every live IK chain
on every frame, and reports each problem once per chain and action with the frames it shows
on. For a tip that misses a target within reach it then solves the worst frames again with one
suspect removed at a time (an IK lock or limit axis, stiffness, solver iterations, stretch, a
constraint the IK overrides, the keyed rotation the solver starts from) and names the one that
makes the chain land on every failing frame, with the fix for it. A chain no frame tested (a rig
without animation) is judged at the oracle's reachable goals instead, so a failing chain is
never silent.

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
from mathutils import Euler, Quaternion, Vector

from ..core.armature import pose_of
from ..core.editing import FixError, constraint_on, current_view_layer, require_armature
from ..core.finding import Finding, Severity, chain_finding, sort_findings
from ..core.geometry import offset_from_line
from ..core.limb import FULL_INFLUENCE, MAX_BEND_TURN
from ..core.names import find, readable
from ..core.registry import Check, register
from ..core.rig import IKChain, RigView, posed_point
from .oracle import (
    bend_angle,
    degrees_apart,
    everything_restored,
    judge_chains,
)

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
SOLVER_ITERATIONS = 500
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
    scale = obj.matrix_world.to_scale()
    reach = rig.chain_reach(chain) * (abs(scale.x) + abs(scale.y) + abs(scale.z)) / 3.0
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
    chosen = _actions(obj, actions)
    frame_lists = [_frame_list(action, frames) for action in chosen]
    total, done = sum(len(frames_) for frames_ in frame_lists), 0
    findings: list[Finding] = []
    curves: list[MissCurve] = []
    judged: set[tuple[str, str]] = set()
    with _scene_kept(obj):
        rig = RigView(obj)
        start_pose = _pose_channels(obj)
        for action, action_frames in zip(chosen, frame_lists, strict=True):
            _set_pose_channels(obj, start_pose)  # what one action leaves unkeyed is not its own
            _play_alone(obj, action)
            tracks = {chain.key: _track(obj, rig, chain) for chain in rig.chains}
            for frame in action_frames:
                _scene().frame_set(frame)
                for track in tracks.values():
                    _measure(obj, track, frame)
                done += 1
                if progress is not None:
                    progress(done, total)
            for track in tracks.values():
                if track.misses:
                    judged.add(track.chain.key)
                findings.extend(_findings(obj, rig, action, track))
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
    untested = [chain for chain in RigView(obj).chains if chain.key not in judged]
    if untested and solve_untested:
        findings.extend(_oracle_findings(obj, rig, {chain.key for chain in untested}))
    return sort_findings(findings), curves


# --- playing one action on its own, and putting everything back ------------------------------


def _actions(
    obj: bpy.types.Object, wanted: Iterable[bpy.types.Action | str] | None
) -> list[bpy.types.Action]:
    animation = obj.animation_data
    if wanted is not None:
        found = []
        for item in wanted:
            action = find(bpy.data.actions, item) if isinstance(item, str) else item
            if action is None:
                raise ValueError(f"There is no action named '{item}'.")
            found.append(action)
        return found
    if animation is None:
        return []
    found = [animation.action] if animation.action is not None else []
    for track in animation.nla_tracks:
        for strip in track.strips:
            if strip.action is not None and strip.action not in found:
                found.append(strip.action)
    return found


def _frame_list(action: bpy.types.Action, frames: Iterable[int] | None) -> list[int]:
    if frames is not None:
        return sorted({int(frame) for frame in frames})
    first, last = action.frame_range[0], action.frame_range[1]
    return list(range(math.floor(first), math.ceil(last) + 1))


def _play_alone(obj: bpy.types.Object, action: bpy.types.Action) -> None:
    """Make ``action`` the only animation the armature plays (NLA off, full influence)."""
    animation = obj.animation_data or obj.animation_data_create()
    if animation.use_tweak_mode:
        raise ValueError(f"'{readable(obj)}' is in NLA tweak mode: leave it to scan its actions.")
    animation.use_nla = False
    animation.action = action
    animation.action_influence = 1.0
    animation.action_blend_type = "REPLACE"
    slots = getattr(animation, "action_suitable_slots", None)  # Blender 4.4+: action slots
    if slots is not None and getattr(animation, "action_slot", None) is None and len(slots):
        setattr(animation, "action_slot", slots[0])  # noqa: B010  (not in the 4.2 stubs)


POSE_CHANNELS = (
    ("location", 3),
    ("rotation_quaternion", 4),
    ("rotation_euler", 3),
    ("rotation_axis_angle", 4),
    ("scale", 3),
)


def _scene() -> bpy.types.Scene:
    """The context's scene: Blender always has one, though the stubs make it optional."""
    scene = bpy.context.scene
    assert scene is not None
    return scene


def _pose_channels(obj: bpy.types.Object) -> dict[str, list[float]]:
    """Every pose bone's transform channels, read in bulk."""
    bones = pose_of(obj).bones
    channels = {}
    for name, size in POSE_CHANNELS:
        values = [0.0] * (len(bones) * size)
        bones.foreach_get(name, values)
        channels[name] = values
    return channels


def _set_pose_channels(obj: bpy.types.Object, channels: dict[str, list[float]]) -> None:
    for name, values in channels.items():
        pose_of(obj).bones.foreach_set(name, values)


@contextmanager
def _scene_kept(obj: bpy.types.Object) -> Iterator[None]:
    """Put back the frame, the armature's animation switches and every transform channel."""
    scene = _scene()
    frame = (scene.frame_current, scene.frame_subframe)
    animation = obj.animation_data
    switches = None
    if animation is not None:
        switches = {
            name: getattr(animation, name)
            for name in ("action", "use_nla", "action_influence", "action_blend_type")
        }
        slot = getattr(animation, "action_slot", None)
    with everything_restored():
        try:
            yield
        finally:
            if animation is None:
                if obj.animation_data is not None:
                    obj.animation_data_clear()
            else:
                assert switches is not None
                for name, value in switches.items():
                    setattr(animation, name, value)
                if slot is not None and getattr(animation, "action_slot", None) != slot:
                    setattr(animation, "action_slot", slot)  # noqa: B010  (4.4+, not in the stubs)
            scene.frame_set(frame[0], subframe=frame[1])


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


def _findings(
    obj: bpy.types.Object, rig: RigView, action: bpy.types.Action, track: _Track
) -> list[Finding]:
    found = []
    chain, name = track.chain, readable(action)
    failing = {frame: miss for frame, miss in track.misses.items() if miss > MISS}
    if failing:
        found.append(_miss_finding(obj, rig, action, track, failing))
    if track.beyond:
        worst = max(track.beyond, key=track.beyond.__getitem__)
        found.append(
            _finding(
                rig,
                chain,
                name,
                "beyond_reach",
                track.beyond,
                Severity.WARNING,
                title="Target keyed out of reach",
                message=(
                    f"In '{name}', the target of IK '{chain.constraint}' on {chain.owner} is "
                    f"keyed beyond the chain's reach on frames {_ranges_text(track.beyond)}: "
                    f"{track.beyond[worst] * track.reach:.3g} beyond on frame {worst} "
                    f"({track.beyond[worst]:.1%} of the reach)."
                ),
                why=(
                    "Out of reach, IK straightens the limb and points it at the target: the "
                    "limb snaps straight and the tip stops short. Key the control within reach, "
                    "or turn on IK Stretch if the limb may stretch."
                ),
                no_fix_reason="the keys are the animator's: move the control within reach",
            )
        )
    for problem, frames, severity, title, what, why in (
        (
            "away_from_pole",
            track.away,
            Severity.ERROR,
            "Bends away from pole",
            "bends away from its pole",
            "The joint points away from the pole there although the limb rests bent toward "
            "it: the knee or elbow pops backwards on those frames.",
        ),
        (
            "flip",
            track.flips,
            Severity.WARNING,
            "Bend flips",
            "flips its bend between one frame and the next",
            "The joint swings more than 90° about the root-target line in one frame: the "
            "target passes near the line from the root to the pole, where the bend plane is "
            "undecided. Move the pole further out or key it along.",
        ),
        (
            "half_switch",
            track.blended,
            Severity.WARNING,
            "Switch keyed halfway",
            "leaves its tip between FK and IK",
            "The IK's influence is between 0 and 1 on those frames, so the tip lands between "
            "where FK puts it and the target: a switch keyed half-way.",
        ),
    ):
        if frames:
            worst = max(frames, key=frames.__getitem__)
            found.append(
                _finding(
                    rig,
                    chain,
                    name,
                    problem,
                    frames,
                    severity,
                    title=title,
                    message=(
                        f"In '{name}', IK '{chain.constraint}' on {chain.owner} {what} on frames "
                        f"{_ranges_text(frames)} (worst on frame {worst})."
                    ),
                    why=why,
                    no_fix_reason="no single setting explains it: see why",
                )
            )
    return found


def _finding(
    rig: RigView,
    chain: IKChain,
    action: str,
    problem: str,
    frames: dict[int, float],
    severity: Severity,
    fix_args: tuple[tuple[str, Any], ...] = (),
    **fields: Any,
) -> Finding:
    """A finding about one chain in one action; ``problem`` names which of the scan's kinds."""
    return chain_finding(
        CHECK_ID,
        rig,
        chain,
        severity=severity,
        action=action,
        frames=frame_ranges(frames),
        fix_args=(("problem", problem), *fix_args),
        **fields,
    )


def frame_ranges(frames: Iterable[int]) -> tuple[tuple[int, int], ...]:
    """Frames as (first, last) runs: 1, 2, 3, 7 become (1, 3), (7, 7)."""
    runs: list[list[int]] = []
    for frame in sorted(frames):
        if runs and frame == runs[-1][1] + 1:
            runs[-1][1] = frame
        else:
            runs.append([frame, frame])
    return tuple((first, last) for first, last in runs)


def _ranges_text(frames: Iterable[int]) -> str:
    return ", ".join(
        str(first) if first == last else f"{first}-{last}" for first, last in frame_ranges(frames)
    )


# --- the cause, proved by solving ------------------------------------------------------------


@dataclass(frozen=True)
class Suspect:
    """One setting that may stop a chain reaching, and the fix that removes it."""

    label: str
    """What it is, as the finding names it: "its IK lock on Z (BackLowLeg.R)"."""
    title: str
    """The miss it causes, in a few words: the finding's title."""
    changes: tuple[tuple[Any, str, Any], ...]
    """(owner, attribute, value) that remove it for a solve."""
    fix_id: str | None
    fix_label: str | None
    fix_args: tuple[tuple[str, Any], ...] = ()
    per_frame: bool = False
    """Keyed channels: set again after every frame change."""
    needs_confirmation: bool = False


UNEXPLAINED = Suspect(
    label="", title="Misses, cause unknown", changes=(), fix_id=None, fix_label=None
)
"""What a miss no suspect explains is put down to: nothing to change, no fix to offer."""


def suspects(obj: bpy.types.Object, rig: RigView, chain: IKChain) -> list[Suspect]:
    """Every setting of the chain that could keep its tip off a target within reach, each axis
    on its own first, then each kind's axes together."""
    bones = [rig.pose_bone(name) for name in chain.moving_bones]
    constraint = constraint_on(obj, chain.owner, chain.constraint, bpy.types.KinematicConstraint)
    found: list[Suspect] = []
    for attribute, fix_id, what in (
        ("lock_ik_{}", "free_ik_locks", "IK lock"),
        ("use_ik_limit_{}", "drop_ik_limits", "IK limit"),
    ):
        axes = [axis for axis in "xyz" if any(getattr(b, attribute.format(axis)) for b in bones)]
        for chosen in [[axis] for axis in axes] + ([axes] if len(axes) > 1 else []):
            on = [
                (b, attribute.format(axis))
                for axis in chosen
                for b in bones
                if getattr(b, attribute.format(axis))
            ]
            names = sorted({readable(b) for b, _ in on})
            axes_text = "/".join(axis.upper() for axis in chosen)
            found.append(
                Suspect(
                    label=f"its {what}{'s' if len(chosen) > 1 else ''} on {axes_text} "
                    f"({', '.join(names)})",
                    title=f"Misses: {what}",
                    changes=tuple((b, name, False) for b, name in on),
                    fix_id=fix_id,
                    fix_label=f"Turn off the {what} on {axes_text} of {', '.join(names)}",
                    fix_args=(("axes", "".join(chosen)), ("bones", tuple(names))),
                )
            )
    stiff = [b for b in bones if any(getattr(b, f"ik_stiffness_{a}") > 0.0 for a in "xyz")]
    if stiff:
        stiff_names = tuple(readable(b) for b in stiff)
        found.append(
            Suspect(
                label=f"the IK stiffness of {', '.join(stiff_names)}",
                title="Misses: too stiff",
                changes=tuple((b, f"ik_stiffness_{a}", 0.0) for b in stiff for a in "xyz"),
                fix_id="clear_stiffness",
                fix_label=f"Set the IK stiffness of {', '.join(stiff_names)} to 0",
                fix_args=(("bones", stiff_names),),
            )
        )
    if pose_of(obj).ik_solver == "LEGACY" and constraint.iterations < SOLVER_ITERATIONS:
        found.append(
            Suspect(
                label=f"its {constraint.iterations} solver iterations",
                title="Misses: few iterations",
                changes=((constraint, "iterations", SOLVER_ITERATIONS),),
                fix_id="more_iterations",
                fix_label=f"Set the IK's iterations to {SOLVER_ITERATIONS}",
            )
        )
    if constraint.use_stretch and any(b.ik_stretch > 0.0 for b in bones):
        found.append(
            Suspect(
                label="its IK Stretch",
                title="Misses: IK Stretch",
                changes=((constraint, "use_stretch", False),),
                fix_id=None,
                fix_label=None,
            )
        )
    for other_chain in _overlapping(rig, chain):
        nested = rig.ik_constraint(other_chain)
        if not nested.mute and nested.influence > 0.0:
            shared = [name for name in chain.moving_bones if name in other_chain.bones]
            found.append(
                Suspect(
                    label=f"IK '{other_chain.constraint}' on {other_chain.owner}, whose chain "
                    f"also moves {', '.join(shared)}",
                    title="Nested IK misses",
                    changes=((nested, "mute", True),),
                    # Muting either IK breaks the other: which one owns the bone is the
                    # rigger's choice (shorten a chain), not a fix to make for them.
                    fix_id=None,
                    fix_label=None,
                )
            )
    for name in chain.moving_bones:
        for other in rig.constraints(name):
            if other.type != "IK" and not other.mute and other.influence > 0.0:
                found.append(
                    Suspect(
                        label=f"{other.type.replace('_', ' ').title()} '{readable(other)}' on "
                        f"{name}, which the IK overrides",
                        title="Misses: a constraint",
                        changes=((other, "mute", True),),
                        fix_id="mute_constraint",
                        fix_label=f"Mute '{readable(other)}' on {name}",
                        fix_args=(("bone", name), ("constraint", readable(other))),
                        needs_confirmation=True,
                    )
                )
    found.append(
        Suspect(
            label="the keyed rotation of the chain's bones, where the solver starts",
            title="Misses: keyed rotation",
            changes=tuple(
                (b, channel, value)
                for b in bones
                for channel, value in (
                    ("rotation_quaternion", Quaternion()),
                    ("rotation_euler", Euler()),
                    ("rotation_axis_angle", (0.0, 0.0, 1.0, 0.0)),
                )
            ),
            fix_id=None,
            fix_label=None,
            per_frame=True,
        )
    )
    return found


def _overlapping(rig: RigView, chain: IKChain) -> list[IKChain]:
    """Other IKs whose chains turn a bone this chain turns: the later solve wins that bone."""
    found: list[IKChain] = []
    for name in chain.moving_bones:
        for other in rig.chains_with_bone(name):
            if other.key != chain.key and other not in found and name in other.moving_bones:
                found.append(other)
    return found


def _miss_finding(
    obj: bpy.types.Object,
    rig: RigView,
    action: bpy.types.Action,
    track: _Track,
    failing: dict[int, float],
) -> Finding:
    chain = track.chain
    worst = max(failing, key=failing.__getitem__)
    proof_frames = sorted(failing, key=failing.__getitem__, reverse=True)[:PROOF_FRAMES]
    cause = next(
        (s for s in suspects(obj, rig, chain) if _lands_without(obj, rig, track, s, proof_frames)),
        None,
    )
    aim = len(chain.moving_bones) == 1
    measured = (
        f"{math.degrees(failing[worst]):.1f}° off its aim on frame {worst}"
        if aim
        else f"{failing[worst] * track.reach:.3g} from the target on frame {worst} "
        f"({failing[worst]:.1%} of the reach)"
    )
    message = (
        f"In '{readable(action)}', IK '{chain.constraint}' on {chain.owner} misses its target on "
        f"frames {_ranges_text(failing)}, although the target is within reach: {measured}."
    )
    if cause is None:
        why = (
            "The animator keyed the control where the chain can reach it, and the solver "
            "leaves the tip off it. Solving those frames again without each of the chain's "
            "IK locks, limits, stiffness, iterations, stretch, overriding constraints and "
            "keyed start rotation did not make it land: no single setting explains it."
        )
        cause = UNEXPLAINED
        no_fix = "no single setting explains it (each suspect was solved without)"
    else:
        why = (
            f"Solved again on the {len(proof_frames)} worst of those frames without "
            f"{cause.label}, the tip lands on the target on every one: that setting keeps the "
            "chain from the pose the animator asked for."
        )
        message = f"{message[:-1]}, because of {cause.label}."
        no_fix = f"{cause.label} is the animator's to change"
    return _finding(
        rig,
        chain,
        readable(action),
        "miss",
        failing,
        Severity.ERROR,
        title=cause.title,
        message=message,
        why=why,
        fix_id=cause.fix_id,
        fix_label=cause.fix_label,
        fix_args=(*cause.fix_args, ("worst_frame", worst)),
        no_fix_reason=None if cause.fix_id else no_fix,
        needs_confirmation=cause.needs_confirmation,
    )


def _lands_without(
    obj: bpy.types.Object, rig: RigView, track: _Track, suspect: Suspect, frames: Sequence[int]
) -> bool:
    """Whether the chain lands on every one of ``frames`` with the suspect removed."""
    saved = [(owner, name, _copy(getattr(owner, name))) for owner, name, _ in suspect.changes]
    chain = track.chain
    probe = _track(obj, rig, chain)
    try:
        for frame in frames:
            _scene().frame_set(frame)
            if suspect.per_frame or frame == frames[0]:
                for owner, name, value in suspect.changes:
                    setattr(owner, name, value)
                current_view_layer().update()
            _measure(obj, probe, frame)
            if probe.misses.get(frame, 0.0) > MISS or frame in probe.blended:
                return False
        return True
    finally:
        for owner, name, value in saved:
            setattr(owner, name, value)
        current_view_layer().update()


def _copy(value: Any) -> Any:
    return value.copy() if hasattr(value, "copy") else value


# --- chains no frame judged: the oracle's goals ----------------------------------------------


def _oracle_findings(
    obj: bpy.types.Object, rig: RigView, keys: set[tuple[str, str]]
) -> list[Finding]:
    found = []
    for verdict in judge_chains(obj):
        chain = rig.chain(verdict.owner, verdict.constraint)
        if verdict.key not in keys or not verdict.fails or chain is None:
            continue
        found.append(
            chain_finding(
                CHECK_ID,
                rig,
                chain,
                severity=Severity.ERROR,
                title="Fails when posed",
                message=(
                    f"IK '{chain.constraint}' on {chain.owner} fails the solver at a goal it "
                    f"can reach: {verdict.reason}."
                ),
                why=(
                    "No animation tested this chain, so it was solved toward points the limb "
                    "reaches when posed by hand (folded, swung, with the body turned): the tip "
                    "did not land on them."
                ),
                no_fix_reason="see the other findings on this chain for the cause",
            )
        )
    return found


# --- the fixes the cause search offers, and finding the fault again ---------------------------


def rescan(obj: bpy.types.Object, finding: Finding) -> Finding | None:
    """The same fault found again by scanning the finding's action, or None when it is gone."""
    if finding.action is None or bpy.data.actions.get(finding.action) is None:
        return None
    for fresh in scan_animation(obj, [finding.action], solve_untested=False):
        if fresh.key == finding.key:
            return fresh
    return None


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


register(
    Check(
        id=CHECK_ID,
        title="Verify by solving",
        doc=__doc__ or "",
        find=lambda rig, options: (),
        fixes=FIXES,
        order=60,
        refind=rescan,
    )
)
