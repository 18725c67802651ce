"""Where Blender's IK solver starts: the pose the chain's other constraints leave it in.

Blender solves IK after every other constraint of the chain, starting from the pose they
leave; the pole then only turns the chain about its root-target line. So a Copy Rotation or a
Track constraint that the IK overrides still decides which way an inner joint bends. The
constraint order check asks this model whether such a start flips the bend.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Iterator
from dataclasses import replace

import bpy
from mathutils import Matrix, Vector

from .limb import (
    FULL_INFLUENCE,
    MAX_BEND_TURN,
    STRAIGHT_RATIO,
    bend_from_x,
    bend_offset,
    chain_joints,
    forward_pose,
    forward_tip,
    parent_motion,
    pole_rest_angle,
    pole_turn,
    pose_flips_bend,
)
from .limit_rotation import limited_later
from .names import readable
from .reach import BODY_TURN, BODY_TURNS, limb_bones, reachable_tips
from .rig import AXES, IKChain, RigView
from .track_to import tracked_to

COPIES = (bpy.types.CopyRotationConstraint, bpy.types.CopyTransformsConstraint)
"""Constraints whose rotation the solver starts from as copied from their target."""
TRACKS = (bpy.types.DampedTrackConstraint, bpy.types.LockedTrackConstraint)
"""Constraints that swing the bone toward their target, where the solver starts."""
FLAT_FOLD = 165.0
"""Degrees of bend past which a joint is folded nearly flat, and the side its bone lies on says
little (measured on the shin: Damped Track starts at 167° and 170° on the far side unfolded the
rest way, as the swing that put them there says; copied rotations at 176° flipped, as their
side says)."""
TURNED_BACK_BEND = 80.0
"""Degrees from the pole within which the model of a flipped start turned by the pole angle
(``start_turned_back``) must leave the joint, with the body as modelled and turned each way,
for the chain to land: Blender ends 5° to 16° further from the pole than the model says.
Measured on the arm and the leg with a Damped Track on the lower bone at the pole: the model's
88° and 86° at an angle turned 110° end 93° from the pole (they fail), its 78° and 76° at 120°
end 87° (they land), 48° and 46° at 150° end 64° and 66°, 18° and 21° at 180° end 34° and 38°."""


def start_flips_the_bend(
    rig: RigView,
    chain: IKChain,
    bone: str,
    constraint: bpy.types.Constraint,
    hinged: bool = True,
    rested: Collection[str] = (),
    without: bpy.types.Constraint | None = None,
    cleared: Collection[str] = (),
) -> bool:
    """Whether the rotation this constraint gives an inner joint's bone, where the solver
    starts, makes a pole chain bend the wrong way or not at all.

    Measured on the reference leg: a start bent the other way from the rest bend, or straight,
    or turned more than 45° out of the bend plane, flips or stalls the knee, and so does a
    copied rotation bent the rest way by less than the body turns (it does not turn with the
    hips); Track To on the shin did in every case. Without a pole the start decides the bend
    plane anyway, and the chain root's rotation is replaced by the pole's. A hinge keeps only
    its angle of the start (``_kept_by_a_hinge``); without ``hinged``, as if its axes were free;
    with ``rested``, as if those bones' rotation were at rest, with ``cleared`` their rotation
    and scale (``forward_pose``); ``without``: as if that constraint were muted.
    """
    parent = rig.raw_bone(bone).parent
    if chain.pole is None or bone not in chain.moving_bones[:-1] or parent is None:
        return False  # not an inner joint the solver turns (an owner without Use Tail follows)
    posed = forward_pose(rig, chain, rested=rested, cleared=cleared)
    if _replaced_later(rig, chain, bone, constraint, posed[bone], without):
        return False  # the start is what the later constraint sets: it is judged on its own
    if constraint.type == "TRACK_TO":
        # Its up axis is the world's, which the body does not carry: read under every turn.
        starts = [
            _started_rotation(rig, chain, constraint, posed[bone], turn)
            for turn in _body_turns(rig, chain)
        ]
        starts = [limited_later(rig, bone, constraint, posed, start) for start in starts]
        modelled = [start for start in starts if start is not None]
        if len(modelled) < len(starts):
            return True  # not modelled: on the reference leg it flipped or stalled the knee
        return any(
            _bent_the_other_way(rig, chain, bone, parent, constraint, posed, start, hinged)
            for start in modelled
        )
    start = _started_rotation(rig, chain, constraint, posed[bone])
    start = limited_later(rig, bone, constraint, posed, start)
    if start is None:
        return False  # blended, in local spaces, other axes: not modelled, left a warning
    return _bent_the_other_way(rig, chain, bone, parent, constraint, posed, start, hinged)


def _bent_the_other_way(
    rig: RigView,
    chain: IKChain,
    bone: str,
    parent: bpy.types.Bone,
    constraint: bpy.types.Constraint,
    posed: dict[str, Matrix],
    start: Matrix,
    hinged: bool,
) -> bool:
    """Whether this ``start`` rotation of ``bone`` (``start_flips_the_bend``) bends its joint
    under ``parent`` the other way, not at all, or out of the bend plane."""
    rest_parent = parent.matrix_local.to_3x3()
    rest_bone = rig.raw_bone(bone).matrix_local.to_3x3()
    rest_normal = rest_parent.col[1].cross(rest_bone.col[1])
    if rest_normal.length < 1e-4:
        return False  # straight at rest: the degenerate and pole checks judge it
    parent_rotation = posed[readable(parent)].to_3x3().normalized()
    kept: Matrix | None = start
    if hinged:
        kept = _kept_by_a_hinge(
            rig.pose_bone(bone), parent_rotation @ rest_parent.inverted_safe() @ rest_bone, start
        )
    if kept is None:
        return True  # a hinge whose angle the start leaves to rounding: it flipped on 3 of 5
    start = kept
    # The bend the start shows: the bone's direction from its parent's, signed by the rest side.
    side = (parent_rotation @ rest_parent.inverted_safe() @ rest_normal).normalized()
    direction, parent_axis = start.col[1], parent_rotation.col[1]
    if abs(direction.dot(side)) > math.sqrt(0.5):
        return True  # turned more than 45° out of its bend plane: no side of it to keep
    bend = math.degrees(
        math.atan2(parent_axis.cross(direction).dot(side), parent_axis.dot(direction))
    )
    if abs(bend) > FLAT_FOLD and constraint.type == "DAMPED_TRACK":
        # Folded nearly flat, the side the bone lies on says little. A Damped Track swings the
        # bone the shortest way from its own pose: that swing about the rest bend's axis (what
        # the joint's channels would hold) says whether it folded on or unfolded past straight.
        joint = (parent_rotation @ rest_parent.inverted_safe() @ rest_bone).inverted_safe() @ start
        turn = joint.to_quaternion()
        if turn.w < 0.0:
            turn.negate()
        axis = (rest_bone.inverted_safe() @ rest_normal).normalized()
        extra = math.degrees(2.0 * math.atan2(Vector(turn[1:]).dot(axis), turn.w))
        bend = math.degrees(rest_parent.col[1].angle(rest_bone.col[1])) + extra
    if not 0.0 < bend < 180.0:
        return True
    if not isinstance(constraint, COPIES):
        return False
    return bend < BODY_TURN and not _turns_with_the_body(rig, chain, constraint)


HINGE_UNDECIDED = 1e-3
"""Length below which what a hinge's start angle is read from (``_kept_by_a_hinge``) is rounding
(1e-8 on the arm whose forearm copies the shoulder's rotation)."""


def _kept_by_a_hinge(pose_bone: bpy.types.PoseBone, rest: Matrix, start: Matrix) -> Matrix | None:
    """What Blender's Standard solver keeps of the ``start`` rotation of a bone its IK locks
    leave free about X alone, or Z alone (a hinge): only the turn about that axis from ``rest``
    (the bone's rest rotation under its posed parent), read as the Euler angle of that axis, the
    rest of the start dropped, as its one-axis segment reads where it starts. None when the start
    turns the bone's other axes onto the hinge so that the angle is left to rounding. Any other
    bone keeps its start whole.

    Measured on the arm, the forearm locked on Y and Z under a Copy Rotation of the shoulder:
    that start is bent the rest way and lands free, but it turns the forearm's Z axis onto the
    hinge's X; the angle Blender reads from it ends the elbow folded flat on either side, and
    the arm bends 180° from its pole at three of the oracle's five body turns."""
    axis = _hinge_axis(pose_bone)
    if axis is None:
        return start
    turn = rest.inverted_safe() @ start
    along, across = (turn[1][2], turn[2][2]) if axis == "x" else (turn[0][1], turn[0][0])
    if math.hypot(along, across) < HINGE_UNDECIDED:
        return None
    return rest @ Matrix.Rotation(-math.atan2(along, across), 3, axis.upper())


def _hinge_axis(pose_bone: bpy.types.PoseBone) -> str | None:
    """The one axis, X or Z, that the bone's IK locks leave free (None: any other case)."""
    free = [axis for axis in AXES if not getattr(pose_bone, f"lock_ik_{axis}")]
    return free[0] if free in (["x"], ["z"]) else None


def pose_flips_the_start(rig: RigView, chain: IKChain) -> bool:
    """Whether the posed rotations bend a joint the other way where the solver starts
    (``pose_flips_bend``), unless a constraint sets the start rotation of every turned bone of
    the chain (``start_set_by``): it replaces their pose before the solver runs. Measured on the
    arm and the leg, the lower bone posed ±20° and ±70° under a Copy Rotation or a Damped Track:
    the chain does what the constraint's start says, whatever the pose."""
    if not pose_flips_bend(rig, chain):
        return False
    turned = [
        name
        for name in chain.moving_bones
        if rig.pose_bone(name).matrix_basis.to_quaternion().angle > 1e-4
    ]
    return not turned or any(start_set_by(rig, chain, name) is None for name in turned)


def pole_turns_the_flip_back(rig: RigView, chain: IKChain) -> bool:
    """Whether the posed rotations flip the start (``pose_flips_the_start``) and the pole angle
    turns the chain far enough round that the mirrored bend faces the pole again: Blender
    settles on the mirrored bend and the pole angle only turns its plane, so what was 180° from
    the pole ends within the oracle's ``MAX_BEND_TURN`` of it. Measured on the leg and the arm
    posed -20° and -70° at the joint: the angle turned 95° to 180° lands them 86° to 0° from
    the pole; 60° and 85° leave them 120° and 95° away."""
    turn = pole_turn(rig, chain)
    if turn is None or abs(math.degrees(turn)) < 180.0 - MAX_BEND_TURN:
        return False
    return pose_flips_the_start(rig, chain)


def overridden_constraints(
    rig: RigView, bones: Iterable[str]
) -> Iterator[tuple[str, bpy.types.Constraint]]:
    """(bone, constraint) of each live constraint other than an IK on these bones: what the IK
    overrides, which still sets where the solver starts."""
    for bone in bones:
        for constraint in rig.constraints(bone):
            if constraint.type != "IK" and not constraint.mute and constraint.influence > 0.0:
                yield bone, constraint


def start_that_flips_a_pole(rig: RigView, chain: IKChain) -> str | None:
    """Why giving this chain a pole would break it: a constraint the IK overrides starts the
    solver bent the other way, which with a pole flips the joint away from it (the
    constraint_order check's error, measured; without a pole the limb still reaches)."""
    with_pole = replace(chain, pole=rig.object)
    for bone, constraint in overridden_constraints(rig, chain.bones):
        if start_flips_the_bend(rig, with_pole, bone, constraint):
            return (
                f"'{readable(constraint)}' on {bone} starts the solver bent the other way: "
                "with a pole the joint would flip away from it; mute that constraint first"
            )
    return None


def start_held_by_a_hinge(rig: RigView, chain: IKChain) -> str | None:
    """Why freeing the IK locks of the chain's hinges would break it: a constraint the IK
    overrides starts a joint bent the other way, which a hinge reads only as its angle, folded
    the rest way (measured: the leg whose shin copies the hand control's rotation lands locked
    on Y and Z, and bends away from its pole free, the constraint_order check's error)."""
    for bone, constraint in overridden_constraints(rig, chain.moving_bones[:-1]):
        if start_flips_the_bend(
            rig, chain, bone, constraint, hinged=False
        ) and not start_flips_the_bend(rig, chain, bone, constraint):
            return (
                f"'{readable(constraint)}' on {bone} starts the solver bent the other way, "
                f"which the IK locks of {bone} leave only its angle of: with its axes free "
                "the joint would flip away from the pole; mute that constraint first"
            )
    return None


def start_held_by(
    rig: RigView,
    chain: IKChain,
    undone: str,
    cleared: Collection[str] = (),
    rested: Collection[str] = (),
) -> str | None:
    """Why undoing what ``undone`` names (the pose: ``cleared=bones``; the keys: ``rested=``)
    would break the chain: with it, no constraint the IK overrides starts a joint bent the other
    way; undone, one does (``start_flips_the_bend``). Measured: the leg whose thigh is scaled 1.5
    over a shin that inherits no scale, with a Track To on the shin at the foot control, starts
    154° the rest way under every body turn and lands; cleared, the track starts it 52° the
    other way with the hips turned -40° about X, and the knee bends 180° from its pole. The leg
    whose shin copies the hips' rotation starts folded 176° the other way and flips; with the
    thigh keyed 0.3 or 0.8 rad the start comes round the rest way, and the leg lands, to fail
    again once the keys are cleared."""
    for bone, constraint in overridden_constraints(rig, chain.moving_bones[:-1]):
        if not start_flips_the_bend(rig, chain, bone, constraint) and start_flips_the_bend(
            rig, chain, bone, constraint, rested=rested, cleared=cleared
        ):
            return (
                f"'{readable(constraint)}' on {bone} is overridden by the IK, and {undone} "
                "turns where it starts the solver the way the joint rests: undone, it would "
                "start the joint bent the other way, away from the pole; mute that constraint "
                "first"
            )
    return None


def start_turned_back(rig: RigView, chain: IKChain) -> tuple[str, str] | None:
    """(bone, constraint) of an overridden constraint that starts an inner joint bent the other
    way (``start_flips_the_bend``), or bends a chain straight at rest away from the pole at its
    rest angle (``straight_start``), where the pole angle turns the chain back round to face the
    pole: the two faults cancel, and either fixed alone leaves the joint bent away. None when no
    constraint flips the start, or one that does is not turned back within
    ``TURNED_BACK_BEND`` of the pole (a start that is not modelled is not)."""
    turn = pole_turn(rig, chain)
    if turn is None:
        return None
    straight = straight_start_bends(rig, chain)
    if straight is not None:
        bone, constraint, started = straight
        turned_back = _faces_the_pole(turn, started) and not _faces_the_pole(0.0, started)
        return (bone, readable(constraint)) if turned_back else None
    flipping = [
        (bone, constraint)
        for bone, constraint in overridden_constraints(rig, chain.moving_bones[:-1])
        if start_flips_the_bend(rig, chain, bone, constraint)
    ]
    for bone, constraint in flipping:
        bends = _start_bends(rig, chain, bone, constraint)
        if bends is None or not _faces_the_pole(turn, bends):
            return None
    return (flipping[0][0], readable(flipping[0][1])) if flipping else None


def _faces_the_pole(turn: float, bends: list[float]) -> bool:
    """Whether the pole angle turned by ``turn`` (radians) from its rest angle leaves each of
    these started bends (``_start_bends``) within ``TURNED_BACK_BEND`` of the pole."""
    return all(
        abs(math.degrees(math.remainder(turn + bend, math.tau))) <= TURNED_BACK_BEND
        for bend in bends
    )


def straight_start(rig: RigView, chain: IKChain) -> tuple[str, str, bool] | None:
    """(bone, constraint, lands) of a constraint the IK overrides that sets where an inner joint
    of a pole chain straight at rest starts (``start_set_by``), bending it; ``lands`` when the
    pole angle turns that bend within ``TURNED_BACK_BEND`` of the pole with the body as
    modelled and turned each way (``_start_bends``). Measured on the straight arm and leg with
    a Damped Track at the pole on the lower bone: the track starts the bend 90° from the root's
    X axis the wrong way round, and at the rest angle it ends 180° from the pole; with the angle
    turned 150° the model's 30° (46° and 14° with the body turned) ends 39° (65° and 9°), with
    180° its 0° (16°) ends 0° (35°), and they land; at 100°, 96° with the body turned ends 99°.
    Over the six overriding constraints at five angles, leg and arm, the model agrees with the
    oracle on 57 of 60, and the three it calls failing land. None without such a constraint,
    or where its start is not modelled."""
    turn = pole_turn(rig, chain)
    straight = straight_start_bends(rig, chain)
    if turn is None or straight is None:
        return None
    bone, constraint, bends = straight
    return bone, readable(constraint), _faces_the_pole(turn, bends)


def straight_start_bends(
    rig: RigView, chain: IKChain
) -> tuple[str, bpy.types.Constraint, list[float]] | None:
    """(bone, constraint, ``_start_bends``) of the first constraint the IK overrides that sets
    the start of an inner joint of a pole chain straight at rest; None for a bent chain."""
    if chain.pole is None or bend_offset(rig, chain) >= STRAIGHT_RATIO:
        return None
    for bone, constraint in overridden_constraints(rig, chain.moving_bones[:-1]):
        if start_set_by(rig, chain, bone) != constraint:
            continue
        bends = _start_bends(rig, chain, bone, constraint)
        if bends is not None:
            return bone, constraint, bends
    return None


def _start_bends(
    rig: RigView, chain: IKChain, bone: str, constraint: bpy.types.Constraint
) -> list[float] | None:
    """Radians the start this constraint gives ``bone`` turns the chain's bend about the
    root-tip line from its rest bend (from the root's X axis, as the pole angle turns it), with
    the body as modelled and turned each way as the oracle turns it (``BODY_TURNS``): a target
    the body does not carry swings the start with each turn. Blender settles on the started
    bend and the pole angle turns it further (``_pole_limb.start_turn``). None where the start
    is not modelled, too straight to say, or folded past ``FLAT_FOLD``, whose side says little
    (measured: the shin copying the hips' rotation starts folded 176°, and with the angle turned
    100° to 170° lands 87° to 90° from the pole, where this model says 80° to 10°; the connect
    fix of its thigh then flips it)."""
    if _hinge_axis(rig.pose_bone(bone)) is not None:
        return None  # a hinge keeps only its angle of the start (``_kept_by_a_hinge``)
    posed = forward_pose(rig, chain)
    joints = chain_joints(rig, chain)
    rest_root = rig.raw_bone(chain.root).matrix_local
    before = bend_from_x(rest_root, rig.chain_tip(chain), [rig.bone(j).head for j in joints])
    if before is None:
        # Straight at rest: the bend the pole angle that keeps the rest pose would face the
        # pole with (on a bent chain it is the rest bend: -90° and 90° on the leg and the arm).
        rest = pole_rest_angle(rig, chain)
        if rest is None:
            return None
        before = -rest
    below = chain.bones[: chain.bones.index(bone) + 1]  # the bone and those it carries
    parent = posed[readable(rig.raw_bone(bone).parent)].to_3x3().col[1]
    bends = []
    for turn in _body_turns(rig, chain):
        start = _started_rotation(rig, chain, constraint, posed[bone], turn)
        if start is None or math.degrees(parent.angle(start.col[1])) > FLAT_FOLD:
            return None
        swing = Matrix.Translation(posed[bone].translation) @ start.to_4x4()
        swing = swing @ posed[bone].normalized().inverted_safe()
        started = {name: swing @ m if name in below else m for name, m in posed.items()}
        tip = forward_tip(rig, chain, started)
        after = bend_from_x(started[chain.root], tip, [started[j].translation for j in joints])
        if after is None:
            return None
        bends.append(math.remainder(after - before, math.tau))
    return bends


def _body_turns(rig: RigView, chain: IKChain) -> list[Matrix | None]:
    """The armature-space turns of the bone the limb hangs from that the oracle solves under
    (``BODY_TURNS``), None for the body as modelled; only that for a limb hanging from none."""
    body = rig.pose_bone(limb_bones(rig, chain)[-1]).parent
    turns: list[Matrix | None] = [None]
    for degrees, axis in BODY_TURNS:
        if degrees and body is not None:
            rotation = Matrix.Rotation(math.radians(degrees), 4, axis)
            turns.append(body.matrix @ rotation @ body.matrix.inverted_safe())
    return turns


def start_set_by(rig: RigView, chain: IKChain, bone: str) -> bpy.types.Constraint | None:
    """The constraint that sets the rotation the solver starts ``bone`` from, whatever the bones
    above it do (a Copy Rotation or Copy Transforms of a target the chain does not move, a
    Damped Track at one), the last of them in the stack, which runs in order; None when the
    bone's own channels and what it inherits set it."""
    posed = forward_pose(rig, chain)[bone]
    setting = [c for c in rig.constraints(bone) if _sets_the_start(rig, chain, c, posed)]
    return setting[-1] if setting else None


def _sets_the_start(
    rig: RigView, chain: IKChain, constraint: bpy.types.Constraint, posed: Matrix
) -> bool:
    """Whether this constraint sets the whole rotation of its bone where the solver starts
    (``_started_rotation``: not a Locked Track, which turns it about one axis)."""
    sets_all = not isinstance(constraint, bpy.types.LockedTrackConstraint)
    active = not constraint.mute and constraint.is_valid
    return sets_all and active and _started_rotation(rig, chain, constraint, posed) is not None


def _replaced_later(
    rig: RigView,
    chain: IKChain,
    bone: str,
    constraint: bpy.types.Constraint,
    posed: Matrix,
    without: bpy.types.Constraint | None = None,
) -> bool:
    """Whether a constraint below this one in the bone's stack sets the bone's whole start
    rotation (``_sets_the_start``) or, a Track To, its aim and roll: the stack runs in order,
    so the solver starts from that one's rotation, not this one's. Measured on the leg: the shin
    copying the hand control's rotation bends 91° from its pole; with a Damped Track at the foot
    control below the copy it starts 38° the rest way, as the track alone does, and lands."""
    stack = rig.constraints(bone)
    later = stack[stack.index(constraint) + 1 :] if constraint in stack else ()
    return any(
        _sets_the_start(rig, chain, other, posed)
        or (other.type == "TRACK_TO" and not other.mute and other.is_valid)
        for other in later
        if other.influence >= FULL_INFLUENCE and other != without
    )


def start_left_to(
    rig: RigView, chain: IKChain, bone: str, constraint: bpy.types.Constraint
) -> bpy.types.Constraint | None:
    """A constraint above this one in the bone's stack whose start flips the bend
    (``start_flips_the_bend``) once this one, which replaces it, is muted: muting this one alone
    would break the chain (measured: muting the leg's Damped Track at the foot control below a
    Copy Rotation of the hand control leaves the knee 91° from its pole)."""
    stack = rig.constraints(bone)
    earlier = stack[: stack.index(constraint)] if constraint in stack else ()
    for other in earlier:
        active = other.type != "IK" and not other.mute and other.influence > 0.0
        if active and start_flips_the_bend(rig, chain, bone, other, without=constraint):
            return other
    return None


def target_tracking_joint(rig: RigView, chain: IKChain) -> tuple[str, str] | None:
    """(bone, constraint) of a Damped Track on an inner joint aimed at the chain's own target:
    it points the bone at the target wherever the target goes, so the solver starts a chain
    that is straight at rest bent toward it (measured: the straight leg and arm then land)."""
    for name in chain.moving_bones[:-1]:
        for constraint in rig.constraints(name):
            aims = getattr(constraint, "target", None), readable(constraint, "subtarget", "")
            if (
                constraint.type == "DAMPED_TRACK"
                and not constraint.mute
                and constraint.influence >= FULL_INFLUENCE
                and aims == (chain.target, chain.subtarget)
            ):
                return name, readable(constraint)
    return None


def _turns_with_the_body(rig: RigView, chain: IKChain, constraint: bpy.types.Constraint) -> bool:
    """Whether the bone a rotation is copied from (or a track aims at) turns with the bone the
    limb hangs from (a bone of another IK chain does not: its IK holds it on its own target)."""
    body = rig.raw_bone(limb_bones(rig, chain)[-1]).parent
    subtarget = readable(constraint, "subtarget")
    target = getattr(constraint, "target", None)
    if target != rig.object or body is None or not rig.has_bone(subtarget):
        return False
    carried = {subtarget, *rig.ancestors(subtarget)}
    in_ik = any(subtarget in other.bones for other in rig.chains if not other.mute)
    return readable(body) in carried and not in_ik


def _aim_within_reach(
    rig: RigView, chain: IKChain, constraint: bpy.types.Constraint, aim: Vector
) -> Vector:
    """Where a track aims, in the frame of ``forward_pose``; a track at the chain's own target
    aims where the limb folds (the first of ``reachable_tips``, the limb folded by hand). The
    track follows the target wherever it is put, and the side it starts the joint on shows
    where the limb bends; at the rest tip, or out of reach, the chain ends all but straight
    whatever its start. Measured on the leg, the thigh keyed 17° forward with a Damped Track on
    the shin at the foot control: aimed at the rest tip the shin starts 26° the other way, at
    the oracle's goals 3° the rest way, and it lands (keyed 46°: 54° the other way there, and
    it bends 163° from its pole); the leg's IK without Use Tail turns the hips 181°, leaving the
    hand control 2.9 reaches from the shoulder, and the forearm's Damped Track at it starts the
    elbow 174° the other way, at the goals 44° and 32° the rest way, and the arm lands."""
    aimed_at = getattr(constraint, "target", None), readable(constraint, "subtarget", "")
    if aimed_at == (chain.target, chain.subtarget):
        return reachable_tips(rig, chain)[0]
    return aim


def _started_rotation(
    rig: RigView,
    chain: IKChain,
    constraint: bpy.types.Constraint,
    posed: Matrix,
    body_turn: Matrix | None = None,
) -> Matrix | None:
    """The armature-space rotation a Copy Rotation, Copy Transforms, Damped Track or Locked
    Track gives its bone (posed by its own channels at ``posed``) before the IK runs, when it
    plainly sets it from a target the chain does not move; None for anything else (mixed,
    partial, local spaces, other axes, other kinds), which is not modelled. ``body_turn``: the
    armature-space turn of the bone the limb hangs from, which moves the chain and not a target
    that bone does not carry."""
    modelled = (*COPIES, *TRACKS, bpy.types.TrackToConstraint)
    if not isinstance(constraint, modelled) or constraint.influence < FULL_INFLUENCE:
        return None
    target, subtarget = constraint.target, readable(constraint, "subtarget")
    if target == rig.object and rig.has_bone(subtarget):
        if {subtarget, *rig.ancestors(subtarget)}.intersection(chain.bones):
            return None  # the IK moves the target too: where it starts is not where it was
        matrix = rig.pose_bone(subtarget).matrix
    elif target is not None and target != rig.object and not subtarget:
        matrix = rig.object.matrix_world.inverted_safe() @ target.matrix_world
    else:
        return None
    if body_turn is not None and not _turns_with_the_body(rig, chain, constraint):
        # A bone another IK holds on its own target stays as the body turns. Measured: the shin
        # copying the other shin's rotation bends 180° from its pole with the body turned +40°
        # about X, as read so; read turned with the hips, it seemed to land.
        matrix = body_turn.inverted_safe() @ matrix
    # ``posed`` keeps the chain's root where it rests: read the target in that frame, without
    # what has moved the bone the chain hangs from (measured: a thigh IK without Use Tail turns
    # the hips 174°, and with them the shoulder a forearm's Copy Rotation copies and the upper
    # arm alike; the arm lands).
    matrix = parent_motion(rig, chain.root).inverted_safe() @ matrix
    own = posed.to_3x3().normalized()
    if isinstance(constraint, bpy.types.TrackToConstraint):
        aim = _aim_within_reach(rig, chain, constraint, matrix.translation) - posed.translation
        world_up = rig.object.matrix_world.to_3x3().inverted_safe() @ Vector((0.0, 0.0, 1.0))
        if body_turn is not None:
            world_up = body_turn.to_3x3().inverted_safe() @ world_up
        world_up = parent_motion(rig, chain.root).to_3x3().inverted_safe() @ world_up
        return tracked_to(constraint, aim, matrix.to_3x3().col[2], world_up)
    if isinstance(constraint, TRACKS):
        if constraint.track_axis != "TRACK_Y" or constraint.head_tail != 0.0:
            return None
        aim = _aim_within_reach(rig, chain, constraint, matrix.translation) - posed.translation
        if isinstance(constraint, bpy.types.LockedTrackConstraint):
            # It turns the bone about its locked axis only: the aim, flattened across that axis.
            if constraint.lock_axis == "LOCK_Y":
                return None
            locked = own.col["XYZ".index(constraint.lock_axis[-1])]
            aim = aim - locked * aim.dot(locked)
        if aim.length < 1e-6:
            return None
        return own.col[1].rotation_difference(aim).to_matrix() @ own  # the shortest swing
    plain = constraint.mix_mode == "REPLACE" and (
        constraint.owner_space,
        constraint.target_space,
    ) == ("WORLD", "WORLD")
    if isinstance(constraint, bpy.types.CopyRotationConstraint):
        plain = plain and all(getattr(constraint, f"use_{axis}") for axis in AXES)
        plain = plain and not any(getattr(constraint, f"invert_{axis}") for axis in AXES)
    return matrix.to_3x3().normalized() if plain else None
