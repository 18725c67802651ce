"""Rest pose: the state the solver starts from must leave it a pose to solve and a side to bend.

An armature in Rest Position shows the rest pose and evaluates no pose at all: IK is dead. A
chain modelled perfectly straight gives the solver no bend direction (measured: with a pole it
does not bend at all, tip error 0.22 on a 0.9 leg; without one it cannot fold when the target
comes straight toward the root, and bends to whatever side the target leans), unless the
solver starts it bent: posed 20° toward the pole, or turned by a Damped Track at its own
target, the straight leg and arm land (a warning); posed away, they bend away from the pole.
Blender's solver starts from the chain's posed rotations: a leftover rotation on a chain bone
steers the bend of a chain without a pole, and one that bends a joint the other way makes a
chain with a pole bend away from it (toward it, and the leg lands, under a pole behind the
bend, or with a pole angle that turns the chain more than 89° round, back toward the pole: a
warning; a Copy Rotation or Damped Track that sets the bone's start rotation replaces its pose,
and the constraint order check judges that start); a leftover scale below 1 along a bone
shortens it, so the tip falls short (measured: a thigh scaled 0.8 along its length leaves the
foot 0.022 from the target), while a scale across the bone or a scale-up keeps the reach but no
longer matches the model. IK Stretch on a chain bone makes up both shortfalls (measured on the
leg and the arm: straight, or the upper bone scaled 0.5, they land with stretch 0.001 on one
bone): warnings then.
Bones whose transforms an action or NLA strip animates are left alone: that pose is animation.

What it reports:

- The armature in Rest Position: an error, IK does nothing.
- A chain straight in the rest pose: an error with a pole, it does not bend at all. A warning
  without one: it cannot fold when the target comes straight toward the root, and bends only the
  way its one-sided IK limits fold it, where they choose, as a robot arm's hinges do (the finding
  names them); an error where its root inherits a pose scale larger across that fold than along it:
  pre-bent, it lands no better. A warning too where the solver starts it bent toward its pole, by a
  posed rotation or by a Damped Track at its own target on the lower bone, and the leg and the arm
  land, or bent by another constraint the IK overrides whose bend the pole angle turns to face the
  pole (``core.start.straight_start``: a Damped Track at the pole with the angle turned 150° or
  180°); an error where a posed rotation or such a constraint bends it away.
- A leftover rotation under IK that bends a joint away from the pole, within its IK limits: an
  error (a pose beyond a one-sided limit is held back by it: the leg and the arm folding only
  toward their pole, posed -20° or -70° at the joint, land once pre-bent). A warning under
  a pole behind the bend, where that is toward the pole and the leg lands; a warning where the
  pole angle turns the chain more than 89° round, back toward the pole (the leg posed -20° with
  the angle turned 150° lands 30° from it), with no fix, since cleared alone the angle bends it
  away; a warning too where a Copy Rotation or Damped Track sets the bone's start rotation,
  replacing the pose until it is muted.
- A leftover rotation that steers a chain without a pole: a warning.
- A leftover scale that shortens or shears a bone: an error, on a straight chain too (beside
  its straight finding: folding by its limits, the upper bone at (1, 0.5, 1), the leg and the
  arm stop 49% of the reach short); one that lengthens it: a warning.
- A straight chain, or an evenly shortened bone, is a warning when IK Stretch on a chain bone
  makes up the reach; so is a shortened bone under iTaSC (measured: they land), and bones scaled
  evenly that still span the oracle's farthest goal (``spans_the_goals``: a shin at 0.97 lands).
- Animated channels are left alone, but a scale left on a bone keyed only in rotation is a
  leftover: an upper arm at 0.5 under a forearm that does not inherit scale stops 21.9% short.

What its fixes do:

- Switch to Pose Position.
- Pre-bend the joints by 1% of the bone length: the way a straight chain's one-sided IK limits fold
  it (measured: the leg and the arm then land with the pole on either side; pre-bent toward a pole
  against their limits they stop 3.7% short), else toward the pole, else knees to the front (-Y)
  and other limbs to the back (+Y). This changes the rest pose. Not offered while another live IK
  on the same control lies along the straight chain, which would then miss, or shares bones with it
  while the upper of the two lands straight, with no pole (pre-bent, the lower folds, takes the
  shared bones, and the upper misses), nor on a straight chain that lands (a warning) whose
  pre-bend would turn a bone against an uneven scale it inherits in full (measured: the leg and the
  arm folding by their limits, the upper bone scaled (1, 2, 1), land straight and stop 3.0% of the
  reach short pre-bent), nor where the pole angle turns an overridden constraint's start round to
  the pole (measured: then pre-bent, its angle set to keep the rest pose, the arm and the leg bend
  180° from the pole).
- Clear the chain bones' rotation and scale, keeping a keyed channel (asks first). Not where
  the pose turns the start a constraint the IK overrides gives a joint the rest way, and
  cleared it would start bent the other way (``core.start.start_held_by``).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import bpy
from mathutils import Matrix, Vector

from ..core.armature import armature_data, pose_of
from ..core.editing import edit_bones
from ..core.finding import Finding, Severity, chain_finding
from ..core.geometry import offset_from_line
from ..core.limb import (
    STRAIGHT_RATIO,
    animated_channels,
    bend_offset,
    built_bend,
    chain_joints,
    forward_pose,
    forward_tip,
    hangs_down,
    has_degenerate_bone,
    keep_pole_at_rest,
    limits_fold,
    pole_behind_bend,
    pose_flips_bend,
    switched_off,
)
from ..core.names import readable
from ..core.reach import evenly_scaled, solved_by_itasc, spans_the_goals, stretching_bones
from ..core.registry import Check
from ..core.rig import IKChain, RigView
from ..core.start import (
    pole_turns_the_flip_back,
    pose_flips_the_start,
    start_held_by,
    start_turned_back,
    straight_start,
    target_tracking_joint,
)
from ._shared_control import rival_on_the_control
from ._shear import shear_that_stops, stretch_across_the_fold

PRE_BEND = 0.01
"""The pre-bend moves each inner joint by this share of the length of the bone above it (or of
the chain's average bone, if that is longer, so a short bone still gives a clear bend)."""


def find_rest_pose_problems(rig: RigView, options: Mapping[str, Any]) -> Iterator[Finding]:
    live = [chain for chain in rig.chains if chain.live]
    if live and armature_data(rig.object).pose_position == "REST":
        yield _rest_position_finding(rig)
    animated = animated_channels(rig)
    seen: set[tuple[str, ...]] = set()
    # The live IK of a switch pair first: a twin switched off is judged through it.
    for chain in sorted(rig.chains, key=lambda chain: switched_off(rig, chain)):
        bones = chain.moving_bones
        if len(bones) < 2 or bones in seen:
            continue  # Rigify pairs a pole and a no-pole IK on the same bones
        seen.add(bones)
        if has_degenerate_bone(rig, chain):
            continue
        straight = bend_offset(rig, chain) < STRAIGHT_RATIO
        if straight:
            yield _straight_finding(rig, chain)
        if rig.turned_or_scaled.isdisjoint(bones) and options["pose_angle"] >= 0.0:
            continue  # the chain's rotation and scale are at rest: no pose left over
        leftover = _leftover_pose(rig, chain, animated, options["pose_angle"], straight)
        # Straight, the chain has no bend for a pose to steer or flip, but a bone scaled down
        # along its length still falls short (measured: the leg and the arm folding by their
        # limits, the upper bone at (1, 0.5, 1), stop 49% of the reach short).
        if leftover is not None and (not straight or leftover.severity == Severity.ERROR):
            yield leftover


def _rest_position_finding(rig: RigView) -> Finding:
    return Finding(
        check_id="rest_pose",
        severity=Severity.ERROR,
        armature=rig.name,
        title="Rig in Rest Position",
        message=f"'{rig.name}' is set to Rest Position: no pose is evaluated, so IK does nothing.",
        why=(
            "In Rest Position (Armature properties > Pose Position) Blender shows every bone at "
            "its rest pose and skips constraints: moving an IK target moves nothing."
        ),
        fix_id="pose_position",
        fix_label="Switch the armature to Pose Position",
    )


def _straight_finding(rig: RigView, chain: IKChain) -> Finding:
    where = f"IK '{chain.constraint}' on {chain.owner}"
    joint = chain_joints(rig, chain)[0]
    direction, side = _bend_direction(rig, chain)
    folded = limits_fold(rig, chain) is not None
    stretching = stretching_bones(rig, chain)
    start = _start_bend(rig, chain) if chain.pole is not None else None
    stretch = stretch_across_the_fold(rig, chain, direction) if chain.pole is None else None
    if chain.pole is not None and stretching:
        severity, title = Severity.WARNING, "Straight, lands by stretch"
        effect = (
            "with its pole it does not bend at all, and reaches only by IK Stretch on "
            f"{', '.join(stretching)} (measured: it lands, stretched straight)."
        )
    elif start is not None and start[1]:
        severity, title = Severity.WARNING, "Straight, bent at start"
        effect = (
            f"the solver starts from the bend {start[0]} gives it, and folds from there toward "
            "the pole (measured: the leg and the arm land with the lower bone posed 20° toward "
            "the pole, tracking the control, or tracking the pole with the pole angle turned "
            "150° or 180°); without it the limb would not bend."
        )
    elif start is not None:
        severity, title = Severity.ERROR, "Start bent from the pole"
        effect = (
            f"{start[0]} bends it away from its pole where the solver starts, so the joint "
            "bends away from the pole."
        )
    elif chain.pole is not None:
        severity, title = Severity.ERROR, "Straight limb won't bend"
        effect = "with its pole it does not bend at all and the tip stops short of the target" + (
            f"; pre-bent {side}, it lands whichever side its pole is on (measured on the leg "
            "and the arm; pre-bent toward a pole on the other side, against the limits, they "
            "stop 3.7% of the reach short)."
            if folded
            else "."
        )
    else:
        severity = Severity.ERROR if stretch else Severity.WARNING
        title = "Straight, sheared as it folds" if stretch else "Straight at rest"
        effect = "it cannot fold when the target comes straight toward the root, and bends " + (
            f"{side}." if folded else "to whatever side the target leans."
        )
    bent_by = start[2] if start else ()
    fix = _pre_bend_fix(rig, chain, (joint, side), direction, bent_by, severity.name == "WARNING")
    if stretch:
        effect += (
            f" Its root inherits a pose scale {stretch:.3g} times larger across that fold than "
            "along it: folding, it shears and stops short (measured on the leg and the arm: 2.0% "
            "to 3.1% of the reach; pre-bent, still 1.7% to 3.2%, with the shear then at rest)."
        )
        fix = dict(facts=fix["facts"], no_fix_reason="clear the scale it inherits first")
    return chain_finding(
        "rest_pose",
        rig,
        chain,
        severity=severity,
        title=title,
        message=f"{where} is perfectly straight in the rest pose: {effect}",
        why=(
            "The solver bends a chain the way its rest pose is already bent; a straight chain "
            f"gives it no direction. A slight pre-bend of {joint} tells it which way to go."
        ),
        **fix,
    )


def _pre_bend_fix(
    rig: RigView,
    chain: IKChain,
    where: tuple[str, str],
    direction: Vector,
    bent_by: Any,
    lands: bool,
) -> dict[str, Any]:
    """The pre-bend of the joint ``where`` names toward its side, unless another live IK aimed
    at the same control would then miss (``rival_on_the_control``), or, where the straight
    chain ``lands`` (a warning), it would shear a bone (``_shear_once_bent``). The facts: what
    bends the start ('start_bent_by'), that IK ('rival_ik': owner, name), and that shear
    ('shear': the bone, the bone whose scale shears it)."""
    joint, side = where
    sheared = _shear_once_bent(rig, chain, direction) if lands else None
    facts: tuple[tuple[str, Any], ...] = (("start_bent_by", bent_by), ("shear", sheared))
    rival = rival_on_the_control(rig, chain)
    if rival is not None:
        other, reason = rival
        return dict(
            no_fix_reason=f"pre-bent, {reason}: remove one of the two IKs first",
            facts=(*facts, ("rival_ik", (other.owner, other.constraint))),
        )
    turned_back = start_turned_back(rig, chain) if lands else None
    if turned_back is not None:
        return dict(
            no_fix_reason=f"pre-bent, the pole angle would be set to keep the rest pose, and "
            f"'{turned_back[1]}' on {turned_back[0]}, which its turn now brings round to the "
            "pole, would bend the joint away from it: mute that constraint first",
            facts=(*facts, ("rival_ik", None)),
        )
    if sheared is not None:
        return dict(
            no_fix_reason=f"pre-bent, {sheared[0]} would turn against the uneven scale of "
            f"{sheared[1]}, which it inherits in full, and the shear would leave the limb short: "
            f"clear that scale or set the Inherit Scale of {sheared[0]} to Aligned first",
            facts=(*facts, ("rival_ik", None)),
        )
    return dict(
        fix_id="pre_bend",
        fix_label=f"Pre-bend {joint} slightly {side} (changes the rest pose)",
        fix_args=(("direction", direction.to_tuple()), ("side", side)),
        changes_rest_pose=True,
        facts=(*facts, ("rival_ik", None)),
    )


def _shear_once_bent(rig: RigView, chain: IKChain, direction: Vector) -> tuple[str, str] | None:
    """(bone, scaled): a chain bone the pre-bend toward ``direction`` would turn against the
    uneven pose scale of a bone above it, inherited in full, which straight it shares an axis
    with (the inherit check's shear error, once bent; any turn about the bend's axis tells).
    Measured on the leg and the arm, straight and folding by their one-sided limits without a
    pole, the thigh or upper arm scaled (1, 2, 1), or the body (0.8, 1, 1.25): they land; pre-
    bent, the first stop 3.0% of the reach short with the body turned 40°."""
    axis = (rig.chain_tip(chain) - rig.bone(chain.root).head).cross(direction)
    turn = Matrix.Rotation(math.pi / 4.0, 3, axis)
    for name in chain.moving_bones:
        scaled = shear_that_stops(rig, chain, name, turn)
        if scaled is not None and shear_that_stops(rig, chain, name) is None:
            return name, scaled
    return None


def _start_bend(rig: RigView, chain: IKChain) -> tuple[str, bool, tuple[str, ...]] | None:
    """What bends a chain that is straight at rest where the solver starts, whether toward its
    pole, and the names of what bends it (the bone and its constraint, or the turned bones): a
    Damped Track on an inner joint aimed at the chain's own target (it points the
    bone at the target wherever the target goes: the leg and the arm then land, measured),
    another constraint the IK overrides, whose bend the pole angle turns
    (``core.start.straight_start``), or the posed rotations (forward kinematics); None when the
    start is straight too."""
    overriding = straight_start(rig, chain)
    if overriding is not None:
        bone, name, lands = overriding
        return f"'{name}' on {bone}, which the IK overrides,", lands, (bone, name)
    tracking = target_tracking_joint(rig, chain)
    if tracking is not None:
        return (
            f"Damped Track '{tracking[1]}' on {tracking[0]}, aimed at the target,",
            True,
            tracking,
        )
    joints = chain_joints(rig, chain)
    posed = forward_pose(rig, chain, within_limits=True)
    root, tip = posed[chain.root].translation, forward_tip(rig, chain, posed)
    bend = sum((offset_from_line(posed[name].translation, root, tip) for name in joints), Vector())
    pole = rig.joint_point(chain.pole, chain.pole_subtarget)
    if bend.length < STRAIGHT_RATIO * rig.chain_reach(chain) or pole is None:
        return None
    side = offset_from_line(pole, rig.bone(chain.root).head, rig.chain_tip(chain))
    turned = [
        name for name in joints if rig.pose_bone(name).matrix_basis.to_quaternion().angle > 1e-4
    ]
    shown = f"the posed rotation of {', '.join(turned) or 'its bones'}"
    return shown, bend.dot(side) > 0.0, tuple(turned)


def _bend_direction(rig: RigView, chain: IKChain) -> tuple[Vector, str]:
    """The way the chain's IK limits fold it (``built_bend``), else toward the pole when there
    is one, else the natural side: knees front, elbows back."""
    root, tip = rig.bone(chain.root).head, rig.chain_tip(chain)
    folded = built_bend(rig, chain)
    if folded is not None:
        return folded, f"toward {_axis_name(folded)}, the way its IK limits fold it"
    pole = rig.joint_point(chain.pole, chain.pole_subtarget)
    if pole is not None and not chain.pole_bone_missing:
        toward = offset_from_line(pole, root, tip)
        if toward.length > STRAIGHT_RATIO * rig.chain_reach(chain):
            return toward.normalized(), "toward its pole"
    choices = [(Vector((0.0, -1.0, 0.0)), "to the front (-Y)")] if hangs_down(rig, chain) else []
    choices += [(Vector((0.0, 1.0, 0.0)), "to the back (+Y)"), (Vector((0, 0, -1.0)), "down")]
    for axis, side in choices:
        toward = offset_from_line(root + axis, root, tip)
        if toward.length > 0.1:
            return toward.normalized(), side
    raise AssertionError("a line is perpendicular to Y or to Z")


def _axis_name(direction: Vector) -> str:
    """The armature axis a direction runs nearest, signed: "-Y"."""
    index = max(range(3), key=lambda i: abs(direction[i]))
    return f"{'-' if direction[index] < 0.0 else '+'}{'XYZ'[index]}"


def _leftover_pose(
    rig: RigView,
    chain: IKChain,
    animated: set[tuple[str, str]],
    max_angle: float,
    straight: bool = False,
) -> Finding | None:
    bones = chain.moving_bones
    rotated, scaled, shrunk = _posed(rig, bones, animated, max_angle)
    if not rotated and not scaled:
        return None
    where = f"IK '{chain.constraint}' on {chain.owner}"
    flips = chain.pole is not None and pose_flips_bend(rig, chain)
    flipped = flips and pose_flips_the_start(rig, chain)
    # A constraint that sets where the solver starts the turned bones replaces their pose: the
    # flip shows only once it is muted (the constraint order check then keeps its mute back).
    replaced = flips and not flipped
    if rotated and chain.pole is not None and not flips and not scaled:
        return None  # measured: the pole sets the plane and the solve is the same
    # Stretch makes up a bone scaled down evenly; one scaled down along its length alone shears
    # the bones below, which no stretching undoes (measured: a thigh at (1, 0.5, 1) still fails),
    # unless they lie along it: on a ``straight`` chain that scale shears nothing, and the leg
    # and the arm at (1, 0.5, 1) land with IK Stretch 0.01 to 0.5 on the upper bone.
    even = straight or all(evenly_scaled(rig, name) for name in shrunk)
    stretching = stretching_bones(rig, chain) if shrunk and even else ()
    # Under a pole behind the bend, bending the other way is bending toward the pole: the leg
    # posed -70° at the knee still lands, facing the pole (measured).
    behind = flipped and pole_behind_bend(rig, chain)
    turned_back = flipped and not behind and pole_turns_the_flip_back(rig, chain)
    bend_kind, bend_effect = _bend_effect(chain, rotated, flipped, replaced, behind, turned_back)
    effects = [
        effect for effect in (_scale_effect(shrunk, scaled, stretching), bend_effect) if effect
    ]
    facts = (
        ("scaled", tuple(scaled)),
        ("shrunk", tuple(shrunk)),
        ("stretching", tuple(stretching)),
        ("bend", bend_kind),
    )
    falls_short = shrunk and not (stretching or solved_by_itasc(rig) or spans_the_goals(rig, chain))
    wrong_way = flipped and not (behind or turned_back)
    severity = Severity.ERROR if wrong_way or falls_short else Severity.WARNING
    posed = sorted(set(rotated) | set(scaled), key=bones.index)
    keyed = tuple((n, c) for n in posed for c in ("rotation", "scale") if (n, c) in animated)
    # Cleared alone, the pose would leave the pole angle turning the chain away from its pole
    # (the pole check's error): the two undo each other, so both change by hand.
    no_fix = (
        "cleared alone, the pose would leave the pole angle turning the joint away from the "
        "pole: clear the pose and set the pole angle that keeps the rest pose together"
        if turned_back
        else start_held_by(rig, chain, "the pose", [n for n in posed if not _keyed(n, keyed)])
    )
    return chain_finding(
        "rest_pose",
        rig,
        chain,
        severity=severity,
        title="Pose flips the joint"
        if wrong_way
        else "Pose shortens the limb"
        if falls_short
        else "Leftover pose on chain",
        message=f"Chain bones of {where} keep a leftover pose: {'; '.join(effects)}.",
        why=(
            "Blender's solver starts from the chain's posed rotations and keeps its scale: a "
            "pose left on the bones under IK changes the solution."
        ),
        fix_id=None if no_fix else "clear_pose",
        fix_label=None if no_fix else f"Clear the {_cleared(posed, keyed)} (loses that pose)",
        fix_args=() if no_fix else (("bones", tuple(posed)), ("keyed", keyed)),
        facts=(*facts, ("blocked_by", "pole_angle" if turned_back else no_fix and "start")),
        no_fix_reason=no_fix,
        needs_confirmation=not no_fix,
    )


def _keyed(name: str, keyed: tuple[tuple[str, str], ...]) -> bool:
    """Whether a channel of this bone is keyed: clearing the pose keeps it (not modelled)."""
    return any(bone == name for bone, _channel in keyed)


def _posed(
    rig: RigView, bones: Sequence[str], animated: set[tuple[str, str]], max_angle: float
) -> tuple[list[str], list[str], list[str]]:
    """The chain bones left rotated, scaled, and scaled down along their length (not keyed)."""
    rotated: list[str] = []
    scaled: list[str] = []
    shrunk: list[str] = []
    for name in bones:
        basis = rig.pose_bone(name).matrix_basis
        _location, rotation, scale = basis.decompose()
        # A keyed channel is animation; another channel of the same bone is still left over
        # (measured: an upper arm keyed in rotation and scaled 0.5 leaves the arm 21.9% short).
        if math.degrees(rotation.angle) > max_angle and (name, "rotation") not in animated:
            rotated.append(name)
        if (name, "scale") in animated:
            continue
        if any(abs(s - 1.0) > 1e-3 for s in scale.to_tuple()):
            scaled.append(name)
            if scale.y < 1.0 - 1e-3:  # Y runs along the bone: only this shortens the reach
                shrunk.append(name)
    return rotated, scaled, shrunk


def _scale_effect(shrunk: list[str], scaled: list[str], stretching: Sequence[str]) -> str | None:
    """What the leftover scale does to the limb; None when no bone is scaled."""
    if shrunk and stretching:
        return (
            f"{', '.join(shrunk)} {'is' if len(shrunk) == 1 else 'are'} scaled down along "
            f"{'its' if len(shrunk) == 1 else 'their'} length: the limb reaches targets it was "
            f"built to reach only by IK Stretch on {', '.join(stretching)}"
        )
    if shrunk:
        return (
            f"{', '.join(shrunk)} {'is' if len(shrunk) == 1 else 'are'} scaled down along "
            f"{'its' if len(shrunk) == 1 else 'their'} length, so the tip falls short of targets "
            "the limb was built to reach"
        )
    if scaled:
        return (
            f"{', '.join(scaled)} {'is' if len(scaled) == 1 else 'are'} scaled up or across "
            f"{'its' if len(scaled) == 1 else 'their'} length: the limb still reaches but no "
            "longer matches its model"
        )
    return None


def _bend_effect(
    chain: IKChain,
    rotated: list[str],
    flipped: bool,
    replaced: bool,
    behind: bool,
    turned_back: bool,
) -> tuple[str | None, str | None]:
    """Which of the cases below the leftover rotation is, as the finding's ``bend`` fact names it,
    and what it does to the bend; (None, None) when it changes nothing said here."""
    if behind:
        return "behind", (
            "the posed rotation bends the joint the other way, toward its pole, which sits "
            "behind the bend (measured: the leg still lands, bent toward the pole)"
        )
    if turned_back:
        return "turned_back", (
            "the posed rotation bends the joint the other way, and the pole angle turns the "
            "chain round toward its pole again (measured: the leg posed -20° at the knee with "
            "the pole angle turned 150° lands 30° from its pole)"
        )
    if flipped:
        return "flipped", (
            "the posed rotation bends the joint the other way, so the chain bends away from "
            "its pole"
        )
    if replaced:
        return "replaced", (
            "the posed rotation would bend the joint the other way, but a constraint sets the "
            "rotation the solver starts it from instead (measured: the arm and the leg land); "
            "once that constraint is muted, the chain bends away from its pole"
        )
    if rotated and chain.pole is None:
        return "steers", (
            f"the rotation of {', '.join(rotated)} steers which way the chain bends: the same "
            "target gives a different pose"
        )
    return None, None


def set_pose_position(obj: bpy.types.Object, finding: Finding) -> str:
    armature = armature_data(obj)
    armature.pose_position = "POSE"
    return f"Switched '{readable(armature)}' to Pose Position: poses and IK are evaluated again."


def pre_bend(obj: bpy.types.Object, finding: Finding) -> str:
    rig = RigView(obj)
    chain = rig.chain_of(finding)
    direction = Vector(finding.args["direction"])
    joints = chain_joints(rig, chain)
    typical = rig.chain_reach(chain) / len(chain.moving_bones)
    moved = []
    with edit_bones(obj) as bones:
        for name in joints:
            bone, parent = bones[name], bones[name].parent
            assert parent is not None  # an inner joint: its bone hangs from the chain
            shift = direction * (PRE_BEND * max(parent.length, typical))
            head = bone.head + shift
            if bone.use_connect or (bone.head - parent.tail).length < 1e-6:
                parent.tail = head
            bone.head = head
            moved.append(f"{name} by {shift.length:.3g}")
    if obj.mode == "EDIT":
        obj.update_from_editmode()  # the bones the pole angle is computed from
    pole = keep_pole_at_rest(obj, chain.key)
    return (
        f"Pre-bent IK '{chain.constraint}' on {chain.owner} {finding.args['side']}: moved the "
        f"head of {', '.join(moved)} (rest pose changed; meshes bound to this rig keep their "
        f"rest shape).{pole}"
    )


def _cleared(names: list[str], keyed: tuple[tuple[str, str], ...]) -> str:
    """What clearing the pose of ``names`` clears, keeping the channels an action keys: "rotation
    and scale of shin.L, thigh.L", "scale of upper_arm.L (its rotation is keyed)"."""
    kept = dict(keyed)
    plain = [name for name in reversed(names) if name not in kept]
    parts = [f"rotation and scale of {', '.join(plain)}"] if plain else []
    for name, channel in reversed(keyed):
        other = "scale" if channel == "rotation" else "rotation"
        parts.append(f"{other} of {name} (its {channel} is keyed)")
    return "; the ".join(parts)


def clear_pose(obj: bpy.types.Object, finding: Finding) -> str:
    names = list(finding.args["bones"])
    keyed = tuple(finding.args.get("keyed", ()))
    kept = dict(keyed)
    for name in names:
        pose_bone = pose_of(obj).bones[name]
        if kept.get(name) == "rotation":
            pose_bone.scale = (1.0, 1.0, 1.0)
            continue
        scale = pose_bone.scale.copy()
        pose_bone.matrix_basis = Matrix.Translation(pose_bone.matrix_basis.translation)
        if kept.get(name) == "scale":
            pose_bone.scale = scale
    return f"Cleared the pose {_cleared(names, keyed)}."


CHECK = Check(
    id="rest_pose",
    title="Rest pose",
    doc=__doc__ or "",
    find=find_rest_pose_problems,
    fixes={
        "pose_position": set_pose_position,
        "pre_bend": pre_bend,
        "clear_pose": clear_pose,
    },
    options={"pose_angle": 1.0},
    order=45,
)
