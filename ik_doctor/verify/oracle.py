"""The oracle: judge every IK chain of a rig by letting Blender solve it, never by its settings.

For each chain the target is pulled toward the chain root to a point clearly within reach
(the tip of the limb posed by hand: folded, then folded less and swung sideways, then folded
with the bone the limb hangs from turned 40° either way, as an animator turns the hips), the
depsgraph is evaluated and the chain passes when its tip reaches the target (error under 1e-3
of the chain's reach), no bone other limbs hang from turns with it (a leg of chain length 3
turns the hips: the tip lands, the body moves) and, with a pole, unless its joint bends away
from the pole where the limb was not built to. Everything moved is put back exactly (transform
channels, not a decomposed matrix). A chain with no length to reach with is ``untested``.

Real rigs need more than moving the target bone:

- The target may be held by a constraint (Rigify's ``MCH-…_ik_target`` copies a stretch bone's
  location): the oracle then moves whatever drives it (a constraint's subtarget, a parent, never
  the chain's bones or their parents) and keeps the first move that lands the target on the
  goal. A target that cannot be made to stay there (the chain it moves carries it: parented or
  constrained to the chain) fails: the animator cannot place it. A target bone hanging from a
  chain bone above the owner fails without a solve: that dependency cycle is resolved in an
  order that changed from one process to the next.
- The goal is placed in the pose as evaluated, so an animated hip or spine does not push it out
  of reach, and scaled by the object's and the parents' scale.
- A pole is judged against the pole and the rest pose together: the chain fails when its joint
  bends away from the pole (more than 90° from the pole's side) *and* that is not how the limb
  rests (its bend turned more than 90° from its rest bend relative to the pole), as a knee that
  flips backwards does. A frog's front leg modelled bending away from its pole (158° at rest,
  with a pole angle that keeps it there) keeps that bend and passes; a leg that swings round
  180° to face a pole placed behind it bends toward the pole and passes too (twisted: a
  warning, not a failure).
- A muted (or zero-influence) IK that is half of a switch pair (another active IK on the same
  bone, as Rigify's pole/no-pole pair) or whose mute or influence is driven or keyed is switched
  off on purpose: it is reported as ``off`` and judged through its active partner. A muted IK
  with no partner is solved like any other, and fails, because it does nothing.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import bpy
from mathutils import Matrix, Quaternion, Vector

from ..core.armature import armature_data, pose_bone_of
from ..core.finding import Finding, Severity
from ..core.geometry import offset_from_line, signed_angle
from ..core.limb import MAX_BEND_TURN, NOISE_LENGTH, built_bend, parent_motion
from ..core.reach import BODY_TURNS, landing_tolerance, limb_bones, reachable_tips
from ..core.rig import BoneChain, IKChain, RigView, posed_point, posed_tip
from ..core.spline import spline_chains
from ..core.switches import built_in_while_off, switched_by
from .settle import evaluate
from .solve import channels, set_channels
from .target_moves import everything_restored, lands_without, target_moved, target_point

MAX_CARRIER_TURN = 1.0
"""Degrees a bone other limbs hang from (``RigView.limb_carriers``) may turn when the target
moves to a goal. Measured on the reference rig: a leg with chain length 3 turns the hips 23° at
most over the goals (28° with IK stiffness 0.99 on the hips, 15° with every hips IK axis locked:
neither holds the top of a chain), an arm with length 4 the chest 32°; a limb that stops below
the body turns nothing there. One degree is well clear of both."""


@dataclass(frozen=True)
class ChainVerdict:
    """What the solver did with one chain, and whether that counts as working."""

    armature: str
    owner: str
    constraint: str
    state: str
    """``pass``; ``fail``; ``off`` (switched off on purpose, judged through its partner); or
    ``untested`` (its target is held by something else, or the chain has no length: no goal
    could be set)."""
    reason: str
    """One sentence: why it fails, why it is off, or what it did when it passes."""
    reach: float
    """World length the chain can reach over."""
    tip_error: float | None
    """Worst world distance from tip to target over the goals; None when nothing could move."""
    bend_turn: float | None
    """Turn (degrees) of the bend away from its rest side relative to the pole."""
    bend_from_pole: float | None
    """Angle (degrees) between the joint's bend and the pole's side of the root-target line."""
    upstream: tuple[tuple[str, str], ...] = ()
    """Other active chains that move this chain's root or its target, or turn its bones with it
    (a fault there shows here)."""

    @property
    def key(self) -> tuple[str, str]:
        return (self.owner, self.constraint)

    @property
    def fails(self) -> bool:
        return self.state == "fail"


@dataclass(frozen=True)
class Disagreement:
    """A chain where the findings and the solver tell different stories."""

    armature: str
    owner: str | None
    constraint: str | None
    problem: str
    kind: str = "unexplained"
    """``unexplained`` (a chain fails and no finding names a cause) or ``false alarm`` (an error
    finding on a chain that works)."""
    check_id: str | None = None
    """The check that raised a false alarm."""


def judge_chains(
    obj: bpy.types.Object, keys: Collection[tuple[str, str]] | None = None
) -> list[ChainVerdict]:
    """Solve every IK chain of ``obj`` (or those whose (owner, constraint) ``keys`` names)
    toward reachable goals and judge it; restore everything."""
    with everything_restored():
        evaluate(obj)
        rig = RigView(obj)
        return [
            _judge(obj, rig, chain) for chain in rig.chains if keys is None or chain.key in keys
        ]


def disagreements(
    verdicts: Iterable[ChainVerdict],
    findings: Iterable[Finding],
    explained_by: Collection[Severity] = (Severity.ERROR,),
) -> list[Disagreement]:
    """Chains that fail with no error finding, and error findings on chains that work.

    An error finding belongs to a chain by its ``chain`` key, or, without one, when its bone is
    the chain's owner; an error that belongs to no failing (or untested) chain is a false
    alarm. A chain that fails is explained by an error of its own or of an upstream chain (one
    that moves its root or its target: a leg with chain length 0 swings the arms' targets too;
    or a twin that turns the same bones);
    ``explained_by`` widens that to other severities (a warning at least: no silent failure).
    """
    verdicts = list(verdicts)
    findings = list(findings)
    errors = [f for f in findings if f.severity == Severity.ERROR]
    explaining = [f for f in findings if f.severity in explained_by]
    by_key = {verdict.key: verdict for verdict in verdicts}
    result = []
    failing = set()
    for verdict in verdicts:
        causes = [verdict, *(by_key[key] for key in verdict.upstream if key in by_key)]
        owned = [f for f in explaining if any(_belongs_to(f, cause) for cause in causes)]
        if verdict.state == "untested":
            failing.add(verdict.key)  # no goal could be set: an error there is not contradicted
        if verdict.fails:
            failing.add(verdict.key)
            if not owned:
                result.append(
                    Disagreement(
                        verdict.armature,
                        verdict.owner,
                        verdict.constraint,
                        f"fails the solver ({verdict.reason}) but no error finding names a cause",
                    )
                )
    for finding in errors:
        if not any(_belongs_to(finding, v) for v in verdicts if v.key in failing):
            result.append(
                Disagreement(
                    finding.armature,
                    finding.bone,
                    finding.constraint,
                    f"error from '{finding.check_id}' but the chain works: {finding.message}",
                    kind="false alarm",
                    check_id=finding.check_id,
                )
            )
    return result


def _belongs_to(finding: Finding, verdict: ChainVerdict) -> bool:
    if finding.armature != verdict.armature:
        return False
    if finding.chain is not None:
        return tuple(finding.chain) == verdict.key
    return finding.bone in (None, verdict.owner)


# --- judging one chain -------------------------------------------------------------------------


def _judge(obj: bpy.types.Object, rig: RigView, chain: IKChain) -> ChainVerdict:
    reach = _world_reach(obj, rig, chain)

    upstream = _upstream(rig, chain)

    def verdict(
        state: str, reason: str, error: float | None = None, bend: tuple[Any, Any] = (None, None)
    ) -> ChainVerdict:
        turn, away = bend
        return ChainVerdict(
            rig.name,
            chain.owner,
            chain.constraint,
            state,
            reason,
            reach,
            error,
            turn,
            away,
            upstream,
        )

    unsolvable = _unsolvable(obj, rig, chain, reach)
    if unsolvable is not None:
        return verdict(*unsolvable)
    solves = _solve_under_turns(obj, rig, chain, reach)
    if isinstance(solves, _Unsettable):
        return verdict(solves.state, solves.reason)
    errors, bends, carried = solves
    error, error_when = max(errors)
    if error >= landing_tolerance(reach, obj.matrix_world @ rig.bone(chain.root).head):
        muted = "it is muted or without influence and nothing switches it on: " * (
            chain.mute or chain.influence < 1.0
        )
        return verdict(
            "fail",
            f"{muted}its tip stops {error:.3g} from a target within reach ({error / reach:.1%} "
            f"of the reach){error_when}",
            error,
        )
    carried_turn, carrier, carried_when = max(carried)
    if carried_turn > MAX_CARRIER_TURN:
        return verdict(
            "fail",
            f"moving its target turns {carrier} {carried_turn:.0f}°{carried_when}, a bone other "
            "limbs hang from: the body moves with the limb",
            error,
        )
    judged = [
        (turn, away, when) for turn, away, when in bends if turn is not None and away is not None
    ]
    flipped = [b for b in judged if min(b[0], b[1]) > MAX_BEND_TURN]
    worst = max(judged, key=lambda b: min(b[0], b[1]), default=(None, None, ""))
    if flipped:
        turn, away, when = flipped[0]
        return verdict(
            "fail",
            f"its joint bends {away:.0f}° away from the pole, {turn:.0f}° from its rest bend{when}",
            error,
            (turn, away),
        )
    return verdict("pass", "it reaches its target and bends as built", error, worst[:2])


def _unsolvable(
    obj: bpy.types.Object, rig: RigView, chain: IKChain, reach: float
) -> tuple[str, str] | None:
    """The verdict (state, reason) of a chain judged without solving: switched off on purpose,
    nothing to solve with, or a target it carries; None when it is to be solved."""
    if not chain.live:
        partner = switched_by(rig, chain)
        if partner is not None:
            return ("off", f"switched off on purpose: {partner}")
    if armature_data(obj).pose_position == "REST":
        return ("fail", "the armature shows its rest position: no pose, no IK")
    if chain.target is None or chain.target_bone_missing:
        return ("fail", "it has no target Blender can resolve")
    if _target_hangs_from_chain(rig, chain):
        # A dependency cycle: whether the target is read before or after the solve moves it is
        # Blender's evaluation order, which changed from one process to the next (measured on a
        # leg whose chain reaches the root its target hangs from), and, for a target under the
        # owner, with what was evaluated before: with the hips turned 40° about Z a foot
        # control under the shin ended 0.105 off in a fresh process and on its goal after two
        # other rigs were solved.
        return ("fail", "its target hangs from a bone the chain turns: the chain carries it")
    if not reach > NOISE_LENGTH:  # NaN too: no tolerance can be measured against no length
        return ("untested", f"the chain has no length to reach with ({reach:.3g})")
    return None


_Solves = tuple[
    list[tuple[float, str]],
    list[tuple[float | None, float | None, str]],
    list[tuple[float, str, str]],
]
"""Each solve's (tip error, when), first-goal (bend, when) and (carried turn, carrier, when)."""


def _solve_under_turns(
    obj: bpy.types.Object, rig: RigView, chain: IKChain, reach: float
) -> _Solves | _Unsettable:
    """Solve toward every goal with the body as modelled, and toward the first with it turned
    each way (``BODY_TURNS``); a target that cannot be put on a goal ends it."""
    errors: list[tuple[float, str]] = []
    bends: list[tuple[float | None, float | None, str]] = []
    carried: list[tuple[float, str, str]] = []
    for body_turn, axis in BODY_TURNS:
        when = f" with the body turned {body_turn:+.0f}° about {axis}" if body_turn else ""
        with _body_turned(obj, rig, chain, body_turn, axis) as turned:
            if not turned:
                continue
            goals = _goals(obj, rig, chain)
            for index, goal in enumerate(goals if not body_turn else goals[:1]):
                solved = _solve_toward(obj, rig, chain, goal, reach)
                if isinstance(solved, _Unsettable) and solved.state == "untested" and body_turn:
                    # Another chain holds the target once the body turns (a foot of the other
                    # leg as target): the goals set without the turn judge this chain.
                    continue
                if isinstance(solved, _Unsettable):
                    return _Unsettable(solved.state, solved.reason + when)
                errors.append((solved.error, when))
                carried.append((*solved.carried, when))
                if index == 0:
                    # The bend is judged on folded goals: they stay in the limb's own plane.
                    bends.append((*solved.bend, when))
    return errors, bends, carried


def _target_hangs_from_chain(rig: RigView, chain: IKChain) -> bool:
    """Whether the target bone is, or hangs from, a bone of the chain."""
    if chain.target != rig.object or not rig.has_bone(chain.subtarget):
        return False
    carriers = [chain.subtarget, *rig.ancestors(chain.subtarget)]
    return any(name in chain.bones for name in carriers)


@dataclass(frozen=True)
class _Unsettable:
    """The target could not be put on a goal: why, and what that says about the chain."""

    state: str
    reason: str


@dataclass(frozen=True)
class _Solved:
    """What one solve toward a goal did."""

    error: float
    """World distance from the tip to the target."""
    bend: tuple[float | None, float | None]
    """``_bend``: degrees from the rest bend and from the pole's side."""
    carried: tuple[float, str]
    """The most any bone other limbs hang from turned (degrees), and its name ("" for none)."""


def _solve_toward(
    obj: bpy.types.Object, rig: RigView, chain: IKChain, goal: Vector, reach: float
) -> _Solved | _Unsettable:
    """Put the target on ``goal``, solve, and measure the tip error, the bend and how far the
    bones other limbs hang from turned."""
    carriers = rig.limb_carriers(chain)
    before = _orientations(obj, carriers)
    with target_moved(obj, rig, chain, goal, reach) as miss:
        if miss is None:
            return _Unsettable("fail", "nothing but the armature carrying it moves its target")
        if miss <= landing_tolerance(reach, goal):
            turns = [
                (degrees_apart(rest.rotation_difference(now).angle, 0.0), name)
                for (name, rest), now in zip(
                    before.items(), _orientations(obj, carriers).values(), strict=True
                )
            ]
            return _Solved(
                _tip_error(obj, chain), _bend(obj, rig, chain), max(turns, default=(0.0, ""))
            )
    if lands_without(obj, rig, chain, goal, reach):
        return _Unsettable(
            "fail",
            f"its target does not stay where it is put: the chain it moves carries it "
            f"{miss:.3g} off ({miss / reach:.1%} of the reach)",
        )
    return _Unsettable(
        "untested", "something else holds its target (another IK, a constraint): no goal was set"
    )


def _orientations(obj: bpy.types.Object, names: Iterable[str]) -> dict[str, Quaternion]:
    """The posed orientation of each bone in armature space, as last evaluated."""
    return {name: pose_bone_of(obj, name).matrix.to_quaternion() for name in names}


@contextmanager
def _body_turned(
    obj: bpy.types.Object, rig: RigView, chain: IKChain, degrees: float, axis: str
) -> Iterator[bool]:
    """Turn the bone the limb hangs from (a leg's hips) about its own ``axis``, as an animator
    does.

    A chain bone that does not inherit rotation only shows its fault then: the knee flips once
    the hips turn, and a forearm once the shoulder turns about Z (about X it still bends toward
    the pole). Yields False when there is nothing to turn (the limb hangs from no bone).
    """
    if not degrees:
        yield True
        return
    parent = rig.pose_bone(limb_bones(rig, chain)[-1]).parent
    if parent is None:
        yield False
        return
    saved = channels(parent)
    try:
        parent.matrix = parent.matrix @ Matrix.Rotation(math.radians(degrees), 4, axis)
        evaluate(obj)
        yield True
    finally:
        set_channels(parent, saved)
        evaluate(obj)


def _upstream(rig: RigView, chain: IKChain) -> tuple[tuple[str, str], ...]:
    """Other active chains (IK or Spline IK) whose bones carry this chain's root or its target
    (a Spline IK whose chain count reaches the rig's root drags every limb onto its curve), or
    that turn a bone this chain turns: Blender solves IKs that share bones as one tree, so a
    fault of one bone (a lock, a straight joint), reported once on the first IK, shows in both."""
    carried = set(rig.ancestors(chain.root))
    if chain.target == rig.object and rig.has_bone(chain.subtarget):
        carried.update([chain.subtarget, *rig.ancestors(chain.subtarget)])
    turned = set(chain.moving_bones)
    others: list[BoneChain] = [*rig.chains, *spline_chains(rig)]
    return tuple(
        other.key
        for other in others
        if other is not chain
        and not other.mute
        and (
            carried.intersection(_solved_bones(rig, other))
            or (isinstance(other, IKChain) and turned.intersection(other.moving_bones))
        )
    )


def _solved_bones(rig: RigView, chain: BoneChain) -> set[str]:
    """The bones a chain's solve moves: its own, and those of a switched-off IK Blender builds
    into it (``built_in_while_off``: a muted leg IK reaching the hips drags the arms)."""
    bones = set(chain.bones)
    if isinstance(chain, IKChain):
        for off in built_in_while_off(rig, chain):
            bones.update(off.bones)
    return bones


def _world_reach(obj: bpy.types.Object, rig: RigView, chain: IKChain) -> float:
    scale = obj.matrix_world.to_scale() * _mean(parent_motion(rig, chain.root).to_scale())
    return rig.chain_reach(chain) * _mean(scale)


def _mean(vector: Vector) -> float:
    return (abs(vector.x) + abs(vector.y) + abs(vector.z)) / 3.0


def _goals(obj: bpy.types.Object, rig: RigView, chain: IKChain) -> list[Vector]:
    """World points the chain can surely reach: the tip of the limb posed by hand (FK).

    Posing the chain's own joints, each only about an axis its IK locks leave free and within
    its IK limits, gives a point the solver can reach by construction, even for a hinge knee
    (a horse's legs lock all but one axis); see ``reach``.
    """
    limb_root = limb_bones(rig, chain)[-1]
    world = obj.matrix_world @ parent_motion(rig, limb_root)
    root_rest = rig.bone(limb_root).head
    root = obj.matrix_world @ rig.pose_bone(limb_root).head
    return [root + world.to_3x3() @ (tip - root_rest) for tip in reachable_tips(rig, chain)]


def _tip_error(obj: bpy.types.Object, chain: IKChain) -> float:
    return (posed_tip(obj, chain) - target_point(chain)).length


def _bend(obj: bpy.types.Object, rig: RigView, chain: IKChain) -> tuple[float | None, float | None]:
    """Degrees the bend turned from its rest side relative to the pole, and from the pole's side.

    The bend is the sum of the inner joints' offsets from the root-to-tip line, so a three-bone
    leg counts both its joints. None without a pole, or when the pose is too straight to say.
    A chain straight at rest bends, as built, the way its one-sided IK limits fold it.
    Posed and rest bends are both read in armature space, where Blender solves: in world space
    a mirrored object (scale -1 on an axis) turns every angle the other way round, and a pose
    the solver bends as it rested read 180° off (a leg resting 90° from its pole).
    """
    pole = posed_point(chain.pole, chain.pole_subtarget, chain.pole_bone_missing)
    rest_pole = rig.joint_point(chain.pole, chain.pole_subtarget)
    moving = chain.moving_bones
    if pole is None or rest_pole is None or len(moving) < 2:
        return None, None
    to_rig = obj.matrix_world.inverted_safe()
    posed = bend_angle(
        [rig.pose_bone(name).head for name in moving[:-1]],
        rig.pose_bone(chain.root).head,
        to_rig @ posed_tip(obj, chain),
        to_rig @ pole,
    )
    root, tip = rig.bone(chain.root).head, rig.chain_tip(chain)
    rest = bend_angle([rig.bone(name).head for name in moving[:-1]], root, tip, rest_pole)
    if rest is None:
        # Straight at rest: the side its one-sided IK limits fold it to is its bend
        # (``built_bend``), as for the goals and the checks; else none, and the pole's side.
        built = built_bend(rig, chain)
        if built is not None:
            rest = bend_angle([root + built * (tip - root).length], root, tip, rest_pole)
    if posed is None:
        return None, None
    return degrees_apart(posed, rest or 0.0), degrees_apart(posed, 0.0)


def degrees_apart(angle: float, other: float) -> float:
    turn = abs(math.degrees(angle - other)) % 360.0
    return min(turn, 360.0 - turn)


def bend_angle(joints: list[Vector], root: Vector, tip: Vector, pole: Vector) -> float | None:
    """Signed angle (radians) from the pole's side of the root-tip line to the chain's bend."""
    bend = sum((offset_from_line(joint, root, tip) for joint in joints), Vector())
    side = offset_from_line(pole, root, tip)
    scale = (tip - root).length
    if bend.length < 1e-4 * scale or side.length < 1e-9 * scale:
        return None
    axis = (tip - root).normalized()
    return signed_angle(side, bend, axis)
