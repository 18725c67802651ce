"""Pole target: the control that decides which way a knee or elbow points.

Blender turns the whole chain about the line from its root to the target until the root bone's
X axis sits ``pole_angle`` away from the plane through root, target and pole. So the pole must
name something that exists (a pole bone missing from the armature itself makes the constraint
invalid: the IK does nothing), must stand clear of that line (near it, a small move of the
target swings the plane around: the knee flips), must sit on the side the limb bends to (else
the knee points away from it and turns the wrong way when the pole moves), and the angle must be
the one that leaves the chain where it was modelled (any other angle twists the limb at rest;
past 90° the knee bends away from its pole: the chain fails). A bending two-bone limb with no
pole at all reaches its target, but nothing aims its knee: it turns as the target moves.

What it reports:

- A pole bone missing from the armature itself, or an armature pole with no bone: an error, the
  IK does nothing. A warning for another armature, whose origin is used.
- A pole on the chain root's head, at rest or put there by a constraint of the root that copies
  the pole's location: an error, the solve falls short (no fix for the latter, since the root
  follows the pole).
- A pole that is the chain's own target: an error. It lies on the root-target line wherever the
  target goes, so there is no side to bend to (the arm stops 6.5%, the leg 5.1% of its reach
  short). The fix creates a pole; moving the target would move where the chain reaches.
- A pole that is a bone of its own chain: a warning, a dependency cycle.
- A pole within 20% of the reach of the root-target line: a warning, the knee flips.
- A pole behind the bend: a warning. The joint points away from it and turns the wrong way with
  it.
- A pole angle more than 15° from the one that keeps the rest pose: a warning. An error when it
  turns the joint more than 90° away from both its pole and its built bend, as the solver fails
  it. This counts the turn that the posed rotations of a longer chain's inner bones give the
  bend where the solver starts: an arm IK reaching into the shoulder, its angle 90° off, with
  the upper arm keyed 17°, bends 100° from its pole. A posed rotation that bends the joint the
  other way where the solver starts mirrors the bend, so an angle turned 95° to 180° turns it
  back toward the pole: a warning (the leg and the arm land 86° to 0° from it), with no fix,
  since either change alone leaves the joint bent away. Posed about an axis the lower bone's
  roll tilts out of the bend plane, the mirrored bend is short of a half turn and the angle
  turns that (``core.posed_bend.flipped_turn``: rolled -40° to 45°, 40 such starts each end
  within 8° of it, the arm rolled 10° and posed -60° lands with its angle turned 80°). So does
  an overridden constraint that starts the joint bent the other way
  (``core.start.start_turned_back``): a Damped Track at the pole on the forearm or the shin
  lands with the angle turned 120° to 180°, a warning with no fix; at 100° and 110° it fails.
  And so does a lower bone whose IK locks (or an X limit within ±6°) leave it one fold axis off
  the bend plane's normal (held on X, it folds about Z; on Y and Z, about X): the bend turns 0.7
  of that axis's angle (``_hinge_turn``; the arm locked on X and rolled 130°, its angle turned
  80°, bends 109°); past 90°, an error, and an angle past 90° that it turns back, a warning.
- A bending two-bone limb with no pole: a warning. Not for chains of 3 or more bones, nor when a
  twin IK on the bone has one, nor when the root's IK locks leave it one axis (a hinge keeps the
  joint on its plane: Rigify's quadruped rear legs).

What its fixes do:

- Set the computed pole angle: the chain stays at rest to 1e-4 (not on a chain cut off its limb).
- Move the pole bone in front of the bend, with the computed angle. A moved pole bone is a rest-
  pose edit of a bone that deforms nothing.
- Or add a new non-deforming pole bone there, parented to the rig's top bone.
- No new pole for a joint that does not inherit rotation, or that an overridden constraint or
  a leftover pose starts bent the other way (with a pole it would flip: the leg and the arm
  posed -20° or -70° at the joint land without one and bend 180° from a new one); nor for a
  chain with a bone locked on its bend axis (without a pole it folds out of its plane and lands;
  with one it stops short), nor one whose IK stiffness or iterations the tables of limbs with a
  pole call too few (the leg at 12 iterations, its thigh at stiffness 0.7, lands without and
  stops 0.14% short with one).
- No pole is moved that is the chain's target, nor in front of a joint that does not inherit
  rotation, that a constraint aimed at the pole turns, or that a leftover pose bends toward the
  pole behind it.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

import bpy
from mathutils import Vector

from ..core.controls import add_control_bone, control_parent
from ..core.editing import constraint_on, edit_bones
from ..core.finding import Finding, Severity, chain_finding
from ..core.geometry import offset_from_line
from ..core.limb import pole_behind_bend
from ..core.names import readable
from ..core.registry import Check
from ..core.rig import IKChain, RigView
from ..core.start import start_turned_back
from ._pole_limb import POLE_DISTANCE, Limb, control_point, limb_at_rest, pole_point
from ._pole_moves import kept_behind_the_bend, pole_bone_is_movable
from ._pole_turn import PoleTurn, angle_waits, pole_turn
from ._pole_would_break import root_hinged, what_a_pole_would_break

WHY_TWIST = (
    "Blender turns the chain until the root's X axis sits at the pole angle from the plane "
    "through root, target and pole; only one angle leaves the limb where it was modelled "
    "and skinned."
)
"""Why a pole angle off the rest angle matters: said by every pole-angle finding."""
ON_ROOT = 1e-6
"""A pole closer than this share of the reach to the root's head gives the solver no direction.
Measured: exactly on it the tip stops 5% of the reach short; a thousandth of the reach off, the
chain works."""
SUBTARGET_TYPES = ("ARMATURE", "MESH", "LATTICE")
"""Objects whose target names a part of them: a bone, or a vertex group."""


@dataclass(frozen=True)
class _Problem:
    severity: Severity
    title: str
    message: str
    why: str
    fix: str
    """The fix id: ``set_angle``, ``move_pole`` or ``create_pole``."""
    no_fix: str | None = None
    """Why no fix applies, when moving or making a pole would not help."""
    blocked_by: str | None = None  # what keeps the fix back, in a word: the finding's fact
    facts: tuple[tuple[str, Any], ...] = ()
    """What the message states, as the finding's facts: names and angles (degrees)."""


def find_pole_problems(rig: RigView, options: Mapping[str, Any]) -> Iterator[Finding]:
    # Rigify pairs a pole and a no-pole IK on one bone and mutes one: the pair has a pole.
    owners_with_pole = {chain.owner for chain in rig.chains if chain.pole is not None}
    for chain in rig.chains:
        limb = limb_at_rest(rig, chain)
        problem = (
            _unresolved_pole(rig, chain)
            or _pole_on_the_chain(rig, chain, limb)
            or _missing_pole(rig, chain, limb, owners_with_pole)
            or _misplaced_pole(rig, chain, limb, options)
        )
        if problem is None:
            continue
        fix_label, no_fix_reason = (
            (None, problem.no_fix) if problem.no_fix else _fix_label(rig, chain, limb, problem.fix)
        )
        yield chain_finding(
            "pole",
            rig,
            chain,
            severity=problem.severity,
            title=problem.title,
            message=problem.message,
            why=problem.why,
            fix_id=problem.fix if fix_label else None,
            fix_label=fix_label,
            facts=(*problem.facts, ("blocked_by", problem.blocked_by)),
            no_fix_reason=no_fix_reason,
            # Moving the pole edits its rest position; it deforms nothing (pole_bone_is_movable).
            changes_rest_pose=fix_label is not None and problem.fix == "move_pole",
        )


def _where(chain: IKChain) -> str:
    return f"IK '{chain.constraint}' on {chain.owner}"


def _unresolved_pole(rig: RigView, chain: IKChain) -> _Problem | None:
    """A pole armature without a usable bone name."""
    pole = chain.pole
    if pole is None or pole.type != "ARMATURE":
        return None
    if chain.pole_subtarget and not chain.pole_bone_missing:
        return None
    what = (
        f"names pole bone '{chain.pole_subtarget}', which does not exist in '{readable(pole)}'"
        if chain.pole_subtarget
        else f"has the armature '{readable(pole)}' as pole but names none of its bones"
    )
    if pole == rig.object:
        return _Problem(
            Severity.ERROR,
            _missing_bone_title(chain),
            f"{_where(chain)} {what}.",
            "A pole on the armature itself must name one of its bones: without one Blender "
            "marks the constraint invalid (red in the constraint panel) and the IK does nothing.",
            "create_pole",
            facts=(("pole_bone", chain.pole_subtarget),),
        )
    return _Problem(
        Severity.WARNING,
        _missing_bone_title(chain),
        f"{_where(chain)} {what}.",
        f"Blender then aims the chain at the origin of '{readable(pole)}', which no pole control "
        "moves: the knee turns with that whole object instead.",
        "create_pole",
        facts=(("pole_bone", chain.pole_subtarget),),
    )


def _missing_bone_title(chain: IKChain) -> str:
    return "Pole bone missing" if chain.pole_subtarget else "Pole names no bone"


def _pole_on_the_chain(rig: RigView, chain: IKChain, limb: Limb) -> _Problem | None:
    """A pole on the root's head (no direction to aim at) or a bone of the chain itself."""
    pole = pole_point(rig, chain)
    if pole is None:
        return None
    name = _pole_name(chain)
    if (pole - limb.root_head).length <= ON_ROOT * limb.reach:
        return _Problem(
            Severity.ERROR,
            "Pole on the chain root",
            f"Pole {name} of {_where(chain)} sits on the head of {chain.root}, the chain's root.",
            "Blender aims the chain from its root toward the pole; with no distance between "
            "them there is no direction, and the solve falls short of the target (measured: "
            "5% of the reach).",
            _relocation_fix(rig, chain),
        )
    placer = _root_placed_on_pole(rig, chain, limb)
    if placer is not None:
        return _Problem(
            Severity.ERROR,
            "Pole on the root as posed",
            f"Pole {name} of {_where(chain)} sits on the head of {chain.root}, the chain's "
            f"root, as posed: {placer} puts the root there.",
            "Blender aims the chain from its root toward the pole; with no distance between "
            "them there is no direction, and the solve falls short of the target.",
            "move_pole",
            no_fix=(
                f"moving the pole would move {chain.root} with it: take the pole's location "
                f"off {chain.root} ({placer}), or give it its own target"
            ),
        )
    if _pole_is_the_target(chain):
        return _Problem(
            Severity.ERROR,
            "Pole is the target",
            f"{_where(chain)} uses its own target, {name}, as its pole.",
            "Blender turns the bend toward the pole as seen across the line from the root to "
            "the target; a pole on the target lies on that line wherever the target goes, so "
            "there is no side to bend to and the solve stops short (measured: the arm 6.5% and "
            "the leg 5.1% of its reach).",
            "create_pole",
        )
    if chain.pole == rig.object and chain.pole_subtarget in chain.bones:
        return _Problem(
            Severity.WARNING,
            "Pole in its own chain",
            f"{_where(chain)} uses {name}, a bone of its own chain, as its pole.",
            "The pole moves whenever the solver moves the chain, so the chain aims at a point "
            "it drags along (Blender reports a dependency cycle): no control decides where the "
            "joint points.",
            "create_pole",
        )
    return None


def _pole_is_the_target(chain: IKChain) -> bool:
    """Whether the pole names the target itself; the name of a bone or vertex group counts only
    where the object has them (Blender keeps a stale one on an empty, and ignores it)."""
    if chain.pole is None or chain.pole != chain.target:
        return False
    return chain.pole.type not in SUBTARGET_TYPES or chain.pole_subtarget == chain.subtarget


def _root_placed_on_pole(rig: RigView, chain: IKChain, limb: Limb) -> str | None:
    """The constraint of the chain root that copies its pole bone's location onto it (the
    root then sits on its pole as posed, though not at rest), or None."""
    if chain.pole != rig.object or not rig.has_bone(chain.pole_subtarget):
        return None
    for constraint in rig.constraints(chain.root):
        copies = constraint.type in ("COPY_LOCATION", "COPY_TRANSFORMS", "CHILD_OF")
        if (
            copies
            and not constraint.mute
            and readable(constraint, "subtarget", "") == chain.pole_subtarget
            and (rig.pose_bone(chain.root).head - rig.pose_bone(chain.pole_subtarget).head).length
            <= ON_ROOT * limb.reach
        ):
            return f"{constraint.type.replace('_', ' ').title()} '{readable(constraint)}'"
    return None


def _pole_name(chain: IKChain) -> str:
    return chain.pole_subtarget or (readable(chain.pole) if chain.pole else "")


def _missing_pole(
    rig: RigView, chain: IKChain, limb: Limb, owners_with_pole: set[str]
) -> _Problem | None:
    """A bending two-bone limb with no pole, unless another IK on the bone supplies one or its
    root is a hinge."""
    if chain.owner in owners_with_pole or limb.bend is None or not _is_two_bone_limb(rig, chain):
        return None
    if root_hinged(rig, chain):
        return None
    blocked_by, no_fix = what_a_pole_would_break(rig, chain)
    return _Problem(
        Severity.WARNING,
        "No pole",
        f"{_where(chain)} has no pole: nothing decides which way {limb.joint_label} points.",
        "Without a pole Blender swings the limb the shortest way from its rest pose, so the "
        "knee turns with the target and no control can aim it (measured on the reference leg: "
        "with the foot moved out and forward the knee turns about 60° inward of where a pole "
        "keeps it).",
        "create_pole",
        no_fix=no_fix,
        blocked_by=blocked_by,
    )


def _is_two_bone_limb(rig: RigView, chain: IKChain) -> bool:
    """Two bones that both move, the second starting on the first's tail: a leg or an arm."""
    if len(chain.bones) != 2 or not chain.use_tail:
        return False
    owner, parent = rig.bone(chain.owner), rig.bone(chain.bones[1])
    return owner.use_connect or (owner.head - parent.tail).length <= 1e-3 * parent.length


def _misplaced_pole(
    rig: RigView, chain: IKChain, limb: Limb, options: Mapping[str, Any]
) -> _Problem | None:
    pole = pole_point(rig, chain)
    if pole is None:
        return None
    return _pole_near_the_line(rig, chain, limb, pole, options) or _pole_off_its_bend(
        rig, chain, limb, pole, options
    )


def _pole_near_the_line(
    rig: RigView, chain: IKChain, limb: Limb, pole: Vector, options: Mapping[str, Any]
) -> _Problem | None:
    """A pole so near the root-target line that a small move of the target flips the bend."""
    target = control_point(rig, chain.target, chain.subtarget)
    line_end = target if target is not None else limb.tip
    distance = offset_from_line(pole, limb.root_head, line_end).length
    if distance >= options["min_pole_distance"] * limb.reach:
        return None
    return _Problem(
        Severity.WARNING,
        "Pole too near the line",
        f"Pole {_pole_name(chain)} of {_where(chain)} lies {distance:.3g} from the line from "
        f"{chain.root} to the target ({distance / limb.reach:.0%} of the chain's reach): "
        "the bend can flip from side to side.",
        "Blender aims the chain at the plane through root, target and pole; with the pole "
        "near that line a small move of the target turns the plane a lot (measured: a pole "
        "at 10% of the reach swings the knee 35° for a target moved 5% sideways).",
        _relocation_fix(rig, chain),
    )


def angle_fails_at_length(rig: RigView, chain: IKChain, count: int) -> str | None:
    """Why the chain, were its ``chain_count`` set to ``count``, would bend away from its pole:
    a pole angle that turns the longer chain's bend back (this check's error), or None. Asked
    before a length fix on a chain that lands as it is (seed 272's trade: the forearm IK of
    length 1 lands by IK Stretch 0.1 with its pole angle turned 150°; at length 2 it flips)."""
    longer = replace(
        chain, chain_count=count, bones=rig.chain_bones(chain.owner, count, chain.use_tail)
    )
    pole = pole_point(rig, longer)
    if pole is None:
        return None
    problem = _pole_off_its_bend(rig, longer, limb_at_rest(rig, longer), pole, CHECK.options)
    if problem is None or problem.severity != Severity.ERROR:
        return None
    rest = dict(problem.facts).get("rest_angle")
    return (
        f"at length {count} the pole angle {math.degrees(chain.pole_angle):.1f}° would bend the "
        "joint away from its pole (the pole check's error)"
        + (f": set the pole angle to {rest:.1f}° first" if rest is not None else "")
    )


def _pole_off_its_bend(
    rig: RigView, chain: IKChain, limb: Limb, pole: Vector, options: Mapping[str, Any]
) -> _Problem | None:
    """A pole angle that turns the limb off its rest pose, or a pole behind the bend."""
    rest = limb.rest_angle(pole)
    twist = math.remainder(chain.pole_angle - rest, math.tau)
    behind = pole_behind_bend(rig, chain, pole)
    twisted = abs(math.degrees(twist)) > options["max_rest_twist"]
    if not (twisted or behind):
        return None
    turn = pole_turn(rig, chain, limb, pole, rest, twist)
    if behind:
        return _pole_behind(rig, chain, limb, turn, twisted)
    return _start_turned_back(rig, chain, limb, turn) or _angle_off_rest(rig, chain, limb, turn)


def _angle_off_rest(rig: RigView, chain: IKChain, limb: Limb, turn: PoleTurn) -> _Problem:
    """A pole angle that twists the limb at rest, or with a flipping pose turns the bend."""
    severity = Severity.ERROR if turn.fails else Severity.WARNING
    turns, facts = turn.described(rig, chain), turn.facts(rig, chain)
    if turn.flipped and not turn.fails:
        # Set alone, the rest angle would leave the flipped start bending the joint away.
        return _Problem(
            severity,
            "Pose turns the bend",
            f"In {_where(chain)} {turns}, and the chain's posed rotation bends the joint the "
            f"other way where the solver starts: the two together leave {limb.joint_label} "
            f"{turn.away:.0f}° from the pole.",
            WHY_TWIST,
            "set_angle",
            no_fix="set alone, the rest angle would leave the posed rotation bending the joint "
            "away from the pole: clear the pose and set the angle together",
            facts=(*facts, ("away", turn.away)),
        )
    consequence = f", so {limb.joint_label} bends away from the pole." if turn.fails else "."
    return _Problem(
        severity,
        "Pole angle flips joint" if turn.fails else "Pole angle off rest",
        f"In {_where(chain)} {turns}{consequence}",
        WHY_TWIST,
        "set_angle",
        no_fix=angle_waits(rig, chain, turn),
        facts=facts,
    )


def _pole_behind(
    rig: RigView, chain: IKChain, limb: Limb, turn: PoleTurn, twisted: bool
) -> _Problem:
    """A pole on the side the limb does not bend to, its angle turned or not."""
    turns = turn.described(rig, chain)
    what = f"Pole {_pole_name(chain)} of {_where(chain)} sits behind the bend at {limb.joint_label}"
    if turn.fails:
        message = f"{what}, and {turns}: the joint bends away from it."
    elif turn.away is not None and turn.away <= 90.0:
        message = f"{what}, and {turns} to face it."
    elif twisted:
        message = f"{what}: the joint points away from it, and {turns}."
    else:
        message = (
            f"{what}: the joint points away from it, so moving the pole swings it the other way."
        )
    return _Problem(
        Severity.ERROR if turn.fails else Severity.WARNING,
        "Bent away from pole" if turn.fails else "Pole behind the bend",
        message,
        "The pole marks the side the joint should point to, but the limb is modelled bending "
        "the other way. With the angle that keeps the rest pose Blender keeps that bend (the "
        "IK reaches) and the joint points away from the pole, so moving the pole turns the "
        "joint the opposite way; an angle that makes it face the pole turns the limb around. "
        + WHY_TWIST,
        _relocation_fix(rig, chain),
        **kept_behind_the_bend(rig, chain),
        facts=turn.facts(rig, chain),
    )


def _start_turned_back(rig: RigView, chain: IKChain, limb: Limb, turn: PoleTurn) -> _Problem | None:
    """A pole angle that turns back the flipped start an overridden constraint gives the joint
    (``core.start.start_turned_back``; measured: a Damped Track at the pole on the forearm or
    the shin, with the angle turned 120° to 180°, lands): a warning, and no fix alone."""
    overridden = start_turned_back(rig, chain)
    if overridden is None:
        return None
    bone, constraint = overridden
    return _Problem(
        Severity.WARNING,
        "Angle turns the start back",
        f"In {_where(chain)} {turn.described(rig, chain)}, and '{constraint}' on {bone}, which "
        f"the IK overrides, starts the solver bent the other way: together they turn "
        f"{limb.joint_label} back toward the pole.",
        WHY_TWIST,
        "set_angle",
        no_fix=f"set alone, the rest angle would leave '{constraint}' on {bone} starting the "
        "joint bent away from the pole (the constraint_order check's error): mute it and set "
        "the angle together",
        blocked_by="overridden_start",
        facts=turn.facts(rig, chain),
    )


def _relocation_fix(rig: RigView, chain: IKChain) -> str:
    return "move_pole" if pole_bone_is_movable(rig, chain) else "create_pole"


def _fix_label(rig: RigView, chain: IKChain, limb: Limb, fix: str) -> tuple[str | None, str | None]:
    """The label of the fix (None if it cannot apply) and otherwise the reason why not."""
    if fix == "set_angle":
        pole = pole_point(rig, chain)
        assert pole is not None
        angle = math.degrees(limb.rest_angle(pole))
        return f"Set the pole angle to {angle:.1f}° (computed: the chain keeps its rest pose)", None
    if limb.bend is None:
        return None, (
            "the chain is straight at rest (or has one bone), so there is no bend side to put "
            "a pole on: give it a bend first"
        )
    angle = math.degrees(limb.rest_angle(limb.pole_spot()))
    distance = POLE_DISTANCE * limb.reach
    if fix == "move_pole":
        return (
            f"Move pole bone {chain.pole_subtarget} to {distance:.3g} in front of "
            f"{limb.joint_label}, on the side it bends to, and set the pole angle to "
            f"{angle:.1f}° (edits the pole bone's rest position, which deforms nothing; the "
            "limb keeps its rest pose)"
        ), None
    parent = control_parent(rig, chain)
    where = f"parented to {parent}" if parent else "with no parent"
    return (
        f"Create a non-deforming pole bone {distance:.3g} in front of {limb.joint_label}, "
        f"{where}, and make it the pole with angle {angle:.1f}° (the limb keeps its rest pose)"
    ), None


def _current(obj: bpy.types.Object, finding: Finding) -> tuple[RigView, IKChain, Limb]:
    rig = RigView(obj)
    chain = rig.chain_of(finding)
    return rig, chain, limb_at_rest(rig, chain)


def _constraint(obj: bpy.types.Object, chain: IKChain) -> bpy.types.KinematicConstraint:
    return constraint_on(obj, *chain.key, bpy.types.KinematicConstraint)


def set_rest_pole_angle(obj: bpy.types.Object, finding: Finding) -> str:
    rig, chain, limb = _current(obj, finding)
    pole = pole_point(rig, chain)
    assert pole is not None
    constraint = _constraint(obj, chain)
    before = math.degrees(constraint.pole_angle)
    constraint.pole_angle = limb.rest_angle(pole)
    return (
        f"Set the pole angle of IK '{chain.constraint}' on {chain.owner} from {before:.1f}° to "
        f"{math.degrees(constraint.pole_angle):.1f}°, the angle that keeps its rest pose."
    )


def move_pole_bone(obj: bpy.types.Object, finding: Finding) -> str:
    _rig, chain, limb = _current(obj, finding)
    name = chain.pole_subtarget
    spot = limb.pole_spot()
    with edit_bones(obj) as bones:
        bone = bones[name]
        shift = spot - bone.head
        bone.head += shift
        bone.tail += shift
    constraint = _constraint(obj, chain)
    constraint.pole_angle = limb.rest_angle(spot)
    return (
        f"Moved pole bone {name} by {shift.length:.3g} to the front of {limb.joint_label} "
        f"and set the pole angle of IK '{chain.constraint}' on {chain.owner} to "
        f"{math.degrees(constraint.pole_angle):.1f}° (rest position of {name} changed; it "
        "deforms nothing and the limb keeps its rest pose)."
    )


def create_pole_bone(obj: bpy.types.Object, finding: Finding) -> str:
    """Add a non-deforming pole bone in front of the bend, outside the chain, and assign it."""
    rig, chain, limb = _current(obj, finding)
    assert limb.bend is not None
    spot = limb.pole_spot()
    name, parent = add_control_bone(obj, rig, chain, f"POLE-{chain.owner}", spot, limb.bend)
    constraint = _constraint(obj, chain)
    previous = (chain.pole_subtarget or readable(chain.pole)) if chain.pole else None
    constraint.pole_target = obj
    constraint.pole_subtarget = name
    constraint.pole_angle = limb.rest_angle(spot)
    where = f"parented to {parent}" if parent else "with no parent"
    instead = f" instead of {previous}" if previous else ""
    return (
        f"Created pole bone '{name}' in front of {limb.joint_label} ({where}) and made it "
        f"the pole of IK '{chain.constraint}' on {chain.owner}{instead}, with pole angle "
        f"{math.degrees(constraint.pole_angle):.1f}° so the limb keeps its rest pose."
    )


CHECK = Check(
    id="pole",
    title="Pole target",
    doc=__doc__ or "",
    find=find_pole_problems,
    fixes={
        "set_angle": set_rest_pole_angle,
        "move_pole": move_pole_bone,
        "create_pole": create_pole_bone,
    },
    options={"min_pole_distance": 0.2, "max_rest_twist": 15.0},
    order=50,
)
