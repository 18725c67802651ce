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

from .geometry import signed_angle, twist_about
from .limb import (
    FULL_INFLUENCE,
    MAX_BEND_TURN,
    PRE_BENT,
    STRAIGHT_RATIO,
    bend_offset,
    forward_pose,
    one_way_fold,
    pole_behind_bend,
    pole_turn,
)
from .limit_rotation import limited_by_its_stack, limited_later
from .names import readable
from .posed_bend import flipped_turn, pose_flips_bend
from .reach import BODY_TURN
from .rig import IKChain, RigView
from .start_bends import (
    FLAT_FOLD,
    body_turns,
    faces_the_pole,
    hinge_axis,
    start_bends,
    tracks_the_target,
)
from .started import (
    COPIES,
    folds_past_its_x_hold,
    sets_the_start,
    start_set_by,
    started_rotation,
    swung_to,
    turns_with_the_body,
)


def start_flips_the_bend(
    rig: RigView,
    chain: IKChain,
    bone: str,
    constraint: bpy.types.Constraint,
    hinged: bool = True,
    rested: Collection[str] = (),
    without: bpy.types.Constraint | None = None,
    cleared: Collection[str] = (),
    limited: bool = True,
) -> bool:
    """Whether the rotation this constraint gives an inner joint's bone, where the solver
    starts, makes a pole chain bend the wrong way or not at all.

    Measured on the reference leg: a start bent the other way from the rest bend, or straight,
    or turned more than 45° out of the bend plane (a Track To's: to a side more than 91° from
    the rest side, ``_side_turn``), flips or stalls the knee, and so does a copied rotation
    bent the rest way by less than the body turns (it does not turn with the hips); Track To
    on the shin did in every case. Without a pole the start decides the bend
    plane anyway, and the chain root's rotation is replaced by the pole's. A hinge keeps only
    its angle of the start (``_kept_by_a_hinge``); without ``hinged``, as if its axes were free;
    with ``rested``, as if those bones' rotation were at rest, with ``cleared`` their rotation
    and scale (``forward_pose``); ``without``: as if that constraint were muted; without
    ``limited``, as if a one-sided IK limit that keeps the joint's side (``one_way_fold``) were
    freed.
    """
    parent = rig.raw_bone(bone).parent
    if chain.pole is None or bone not in chain.moving_bones[:-1] or parent is None:
        return False  # not an inner joint the solver turns (an owner without Use Tail follows)
    if limited and one_way_fold(rig, chain, bone) is not None:
        # Its IK limit keeps its side: the leg and the arm limited 0° to 30° up to 0° to 150°
        # land under a Copy Rotation, a Track To or a Damped Track that starts them flipped.
        return False
    posed = forward_pose(rig, chain, rested=rested, cleared=cleared)
    if _replaced_later(rig, chain, bone, constraint, posed[bone], without):
        return False  # the start is what the later constraint sets: it is judged on its own
    if not (rested or cleared or without):
        nearly_straight = _nearly_straight_start(rig, chain, bone, constraint)
        if nearly_straight is not None:
            return not nearly_straight
    if constraint.type == "TRACK_TO":
        # Its up axis is the world's, which the body does not carry: read under every turn.
        starts = [
            started_rotation(rig, chain, constraint, posed[bone], turn)
            for turn in body_turns(rig, chain)
        ]
        starts = [limited_later(rig, bone, constraint, posed, start) for start in starts]
        modelled = [start for start in starts if start is not None]
        if len(modelled) < len(starts):
            return True  # not modelled: on the reference leg it flipped or stalled the knee
        return any(
            _bent_the_other_way(rig, chain, bone, parent, constraint, posed, start, hinged)
            for start in modelled
        )
    start = started_rotation(rig, chain, constraint, posed[bone])
    start = limited_later(rig, bone, constraint, posed, start)
    if start is None:
        return False  # blended, in local spaces, other axes: not modelled, left a warning
    return _bent_the_other_way(rig, chain, bone, parent, constraint, posed, start, hinged)


def _nearly_straight_start(
    rig: RigView, chain: IKChain, bone: str, constraint: bpy.types.Constraint
) -> bool | None:
    """Whether a start set on a chain bent at rest less than ``PRE_BENT`` ends facing
    the pole, read as a straight chain's (``faces_the_pole``): its rest bend is too slight to
    give the start a side. Measured (seed 114): the straight leg copying the hand control's
    rotation starts 90° from its pole and lands; pre-bent, it lands too, where the bent chain's
    model called that start out of the bend plane. None for a chain bent further, or a start
    not modelled."""
    offset = bend_offset(rig, chain)
    if not STRAIGHT_RATIO <= offset < PRE_BENT:
        return None
    turn = pole_turn(rig, chain)
    bends = start_bends(rig, chain, bone, constraint)
    if turn is None or bends is None:
        return None
    return faces_the_pole(chain, turn, bends, constraint)


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
    if folds_past_its_x_hold(rig, chain, bone, swung_to(posed, chain, bone, start)):
        return False  # held on X alone, it folds about the Z it starts turned
    # The bend the start shows: the bone's direction from its parent's, signed by the rest side.
    side = (parent_rotation @ rest_parent.inverted_safe() @ rest_normal).normalized()
    direction, parent_axis = start.col[1], parent_rotation.col[1]
    if abs(direction.dot(side)) > math.sqrt(0.5):
        if constraint.type == "TRACK_TO":
            return _side_turn(direction, parent_axis, side) > MAX_BEND_TURN
        return True  # turned more than 45° out of its bend plane: no side of it to keep
    bend = math.degrees(signed_angle(parent_axis, direction, side))
    if abs(bend) > FLAT_FOLD and constraint.type == "DAMPED_TRACK":
        # Folded nearly flat, the side the bone lies on says little. A Damped Track swings the
        # bone the shortest way from its own pose: that swing about the rest bend's axis (what
        # the joint's channels would hold) says whether it folded on or unfolded past straight.
        joint = (parent_rotation @ rest_parent.inverted_safe() @ rest_bone).inverted_safe() @ start
        axis = (rest_bone.inverted_safe() @ rest_normal).normalized()
        extra = twist_about(joint.to_quaternion(), axis)
        bend = math.degrees(rest_parent.col[1].angle(rest_bone.col[1])) + extra
    if not 0.0 < bend < 180.0:
        return True
    if not isinstance(constraint, COPIES):
        return False
    return bend < BODY_TURN and not turns_with_the_body(rig, chain, constraint)


def _side_turn(direction: Vector, parent_axis: Vector, normal: Vector) -> float:
    """Degrees the side a bone starts bent to lies from its rest side, about its parent's axis:
    the solver keeps that side and the pole does not turn it back (measured on 4.2, the forearm
    and shin posed swung 30° to 150° out of the bend plane and bent ±10° to ±30° in it: each
    ends that far from its pole, to a degree or three). A Track To is read so: its starts are
    read under every body turn (seed 169: the forearm's, swung 90° out of the plane by the
    world's up axis and 49° with the body turned, lands)."""
    rest_way = direction.dot(normal.cross(parent_axis))
    return math.degrees(math.atan2(abs(direction.dot(normal)), rest_way))


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
    axis = hinge_axis(pose_bone)
    if axis is None:
        return start
    turn = rest.inverted_safe() @ start
    along, across = (turn[1][2], turn[2][2]) if axis == "x" else (turn[0][1], turn[0][0])
    if math.hypot(along, across) < HINGE_UNDECIDED:
        return None
    return rest @ Matrix.Rotation(-math.atan2(along, across), 3, axis.upper())


def pose_flips_the_start(rig: RigView, chain: IKChain) -> bool:
    """Whether the posed rotations bend a joint the other way where the solver starts
    (``pose_flips_bend``), unless a constraint sets the start rotation of every turned bone of
    the chain below its root (``start_set_by``): it replaces their pose before the solver runs,
    and the constraint's start, which reads the root's pose, decides. Measured on the arm and
    the leg, the lower bone posed ±20° and ±70° under a Copy Rotation or a Damped Track: the
    chain does what the constraint's start says, whatever the pose, and so with the root keyed
    0.05 to 0.8 rad too (fresh seed 287's false error)."""
    if not pose_flips_bend(rig, chain):
        return False
    turned = [
        name
        for name in chain.moving_bones
        if rig.pose_bone(name).matrix_basis.to_quaternion().angle > 1e-4
    ]
    inner = [name for name in turned if name != chain.root] or turned
    if inner and all(start_set_by(rig, chain, name) is not None for name in inner):
        return False
    clamped = clamped_by_limit_rotations(rig, chain, turned)
    return clamped is None or pose_flips_bend(rig, chain, clamped)


def clamped_by_limit_rotations(
    rig: RigView, chain: IKChain, turned: list[str], posed: dict[str, Matrix] | None = None
) -> dict[str, Matrix] | None:
    """The chain's posed matrices (``posed``, by default its forward pose within its IK limits)
    with each turned bone's rotation as its Limit Rotations leave it where the solver starts
    (``limited_by_its_stack``), root first; None where none holds a turned bone back (seed 117:
    the leg posed -20° against its bend, its shin's local X held to 0..0.1 rad, starts at rest
    and lands, where its pose alone read as a flip)."""
    posed = forward_pose(rig, chain, within_limits=True) if posed is None else posed
    clamped = False
    for name in reversed(chain.moving_bones):  # root first: a swing carries the bones below
        if name not in turned:
            continue
        start = posed[name].to_3x3().normalized()
        limited = limited_by_its_stack(rig, name, posed, start)
        if limited.to_quaternion().rotation_difference(start.to_quaternion()).angle > 1e-6:
            posed, clamped = swung_to(posed, chain, name, limited), True
    return posed if clamped else None


def pole_turns_the_flip_back(rig: RigView, chain: IKChain) -> bool:
    """Whether the posed rotations flip the start (``pose_flips_the_start``) and the pole angle
    turns the chain far enough round that the mirrored bend faces the pole again: Blender
    settles on the mirrored bend and the pole angle only turns its plane, so what was 180° from
    the pole ends within the oracle's ``MAX_BEND_TURN`` of it. Measured on the leg and the arm
    posed -20° and -70° at the joint: the angle turned 95° to 180° lands them 86° to 0° from
    the pole; 60° and 85° leave them 120° and 95° away."""
    return pole_turns_round(rig, chain) and pose_flips_the_start(rig, chain)


def flip_lands(rig: RigView, chain: IKChain) -> bool:
    """Whether a chain whose start flips lands all the same: bent toward a pole behind the bend
    it was built with (``pole_behind_bend``), or turned round to face the pole by the pole angle
    (``pole_turns_round``); else it bends away from its pole, the rest_pose check's error."""
    return pole_behind_bend(rig, chain) or pole_turns_round(rig, chain)


def pole_turns_round(rig: RigView, chain: IKChain) -> bool:
    """Whether the pole angle turns the chain far enough round from rest that a flipped start's
    mirrored bend (``flipped_turn``: a half turn, or short of one where the pose tilts out of
    the bend plane) faces the pole (``pole_turns_the_flip_back``, for callers that know the
    start flips)."""
    turn = pole_turn(rig, chain)
    if turn is None:
        return False
    settled = math.remainder(turn + flipped_turn(rig, chain), math.tau)
    return abs(math.degrees(settled)) <= MAX_BEND_TURN


def overridden_constraints(
    rig: RigView, bones: Iterable[str]
) -> Iterator[tuple[str, bpy.types.Constraint]]:
    """(bone, constraint) of each live constraint other than an IK on these bones: what the IK
    overrides, which still sets where the solver starts. Not a Spline IK without a curve, which
    does nothing (fresh seed 272: one on the forearm left the upper arm's twisted start, keyed
    0.8 rad, unread, and its X lock an error where the arm lands)."""
    for bone in bones:
        for constraint in rig.constraints(bone):
            if constraint.type == "IK" or constraint.mute or constraint.influence <= 0.0:
                continue
            if constraint.type == "SPLINE_IK" and not _has_a_curve(constraint):
                continue
            yield bone, constraint


def _has_a_curve(constraint: bpy.types.Constraint) -> bool:
    target = getattr(constraint, "target", None)
    return target is not None and target.type == "CURVE"


FLAT_SIDE_ON_TURN = 62.5
"""Degrees the pole angle turned from rest, either way, past which a start copied folded flat
(``flat_start_side_on``) ends side-on, inside the oracle's bar. Measured on the leg copying the
hips' rotation (folded 176°): turned 65° to 180° either way it ends 86.7° to 90.9° from its
pole and lands; turned 10° to 60° it ends 91.1° to 101° away and fails. Either way the knee
ends nearly square to its pole: the oracle's 91° decides, and the finding says so."""
FLAT_SIDE_ON = (
    "the solver starts from the rotation it sets, folded flat against the bone above, and the "
    "pole angle turned this far from rest leaves the joint about 90° from its pole: it lands "
    "side-on (measured: 86.7° to 90.9° with the angle turned 65° to 180° either way; 91.1° to "
    "101°, away, within 60°)."
)
"""What ``constraint_order`` says of a flat start that ends side-on."""


def flat_start_side_on(rig: RigView, chain: IKChain) -> tuple[str, str] | None:
    """(bone, constraint) of a Copy Rotation or Copy Transforms the IK overrides that starts an
    inner joint of a pole chain folded flat (past ``FLAT_FOLD``), with the pole angle turned at
    least ``FLAT_SIDE_ON_TURN`` from rest: the joint then ends about 90° from its pole, where
    the oracle passes it. None otherwise."""
    turn = pole_turn(rig, chain) if chain.pole is not None else None
    if turn is None or abs(math.degrees(turn)) < FLAT_SIDE_ON_TURN:
        return None
    return flat_copied_start(rig, chain)


def flat_copied_start(rig: RigView, chain: IKChain) -> tuple[str, str] | None:
    """(bone, constraint) of a Copy Rotation or Copy Transforms the IK overrides that starts an
    inner joint of the chain folded flat (past ``FLAT_FOLD``: the shin copying the hips'
    rotation starts folded 176°), whose side ``start_bends`` does not read; None otherwise."""
    posed = forward_pose(rig, chain)
    for bone, constraint in overridden_constraints(rig, chain.moving_bones[:-1]):
        if not isinstance(constraint, COPIES) or start_set_by(rig, chain, bone) != constraint:
            continue
        start = started_rotation(rig, chain, constraint, posed[bone])
        parent = rig.raw_bone(bone).parent
        if start is None or parent is None or readable(parent) not in posed:
            continue
        above = posed[readable(parent)].to_3x3().normalized().col[1]
        if math.degrees(above.angle(start.col[1])) > FLAT_FOLD:
            return bone, readable(constraint)
    return None


def side_on_mute_waits(rig: RigView, chain: IKChain) -> str | None:
    """Why the copy that starts a chain side-on (``flat_start_side_on``) must not be muted
    alone: its pole angle, turned past ``MAX_BEND_TURN`` from rest, then bends the joint away
    (measured: the leg with the copy muted and the angle turned 100° fails, the pole check's
    error; turned 65° to 90° it lands)."""
    turn = pole_turn(rig, chain)
    if turn is None or abs(math.degrees(turn)) <= MAX_BEND_TURN:
        return None
    return (
        f"muted alone, the pole angle, turned {abs(math.degrees(turn)):.0f}° from rest, would "
        "bend the joint away from its pole: mute it and set the rest angle together"
    )


def start_that_flips_a_pole(rig: RigView, chain: IKChain, limited: bool = True) -> str | None:
    """Why giving this chain a pole would break it: a constraint the IK overrides starts the
    solver bent the other way, which with a pole flips the joint away from it (the
    constraint_order check's error, measured; without a pole the limb still reaches). Without
    ``limited``, as if its one-sided IK limits were freed with it (``start_flips_the_bend``)."""
    with_pole = replace(chain, pole=rig.object)
    for bone, constraint in overridden_constraints(rig, chain.bones):
        if start_flips_the_bend(rig, with_pole, bone, constraint, limited=limited):
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


def start_kept_out_by_a_limit(rig: RigView, chain: IKChain) -> str | None:
    """Why freeing a joint's one-sided IK limit (``one_way_fold``) would break the chain: a
    constraint the IK overrides starts it bent the other way, which the limit keeps out
    (measured: the leg and the arm limited 0° to 30° up to 0° to 150° land under a Copy
    Rotation, a Track To or a Damped Track that starts them flipped; freed, they flip)."""
    for bone, constraint in overridden_constraints(rig, chain.moving_bones[:-1]):
        if one_way_fold(rig, chain, bone) is not None and start_flips_the_bend(
            rig, chain, bone, constraint, limited=False
        ):
            return (
                f"'{readable(constraint)}' on {bone} starts the solver bent the other way, "
                f"which the one-sided IK limit of {bone} keeps out: freed, the joint would flip "
                "away from the pole; mute that constraint first"
            )
    return None


def start_kept_by_a_lock(rig: RigView, chain: IKChain, locked: Collection[str]) -> str | None:
    """Why freeing the bend axes of the ``locked`` bones would break the chain: a constraint the
    IK overrides on one of them starts it bent the other way, which the lock keeps from showing
    (fresh seed 129: the forearm locked on X under a Damped Track at the hand control lands with
    the upper arm keyed 0.8 rad; freed, it bends 159° from its pole)."""
    for bone, constraint in overridden_constraints(rig, chain.moving_bones[:-1]):
        if bone in locked and start_flips_the_bend(rig, chain, bone, constraint):
            return (
                f"'{readable(constraint)}' on {bone} starts the solver bent the other way, which "
                "the lock keeps from showing: freed, the joint would flip away from the pole; "
                "free the axis and mute that constraint together"
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
        turned_back = faces_the_pole(chain, turn, started, constraint) and not faces_the_pole(
            chain, 0.0, started, constraint
        )
        return (bone, readable(constraint)) if turned_back else None
    flipping = [
        (bone, constraint)
        for bone, constraint in overridden_constraints(rig, chain.moving_bones[:-1])
        if start_flips_the_bend(rig, chain, bone, constraint)
    ]
    for bone, constraint in flipping:
        bends = start_bends(rig, chain, bone, constraint)
        if bends is None or not faces_the_pole(chain, turn, bends, constraint):
            return None
    return (flipping[0][0], readable(flipping[0][1])) if flipping else None


def straight_start(rig: RigView, chain: IKChain) -> tuple[str, str, bool] | None:
    """(bone, constraint, lands) of a constraint the IK overrides that sets where an inner joint
    of a pole chain straight at rest starts (``start_set_by``), bending it; ``lands`` when the
    pole angle turns that bend within ``TURNED_BACK_BEND`` of the pole with the body as
    modelled and turned each way (``start_bends``). Measured on the straight arm and leg with
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
    return bone, readable(constraint), faces_the_pole(chain, turn, bends, constraint)


def straight_start_bends(
    rig: RigView, chain: IKChain
) -> tuple[str, bpy.types.Constraint, list[float]] | None:
    """(bone, constraint, ``start_bends``) of the first constraint the IK overrides that sets
    the start of an inner joint of a pole chain straight at rest; None for a bent chain."""
    if chain.pole is None or bend_offset(rig, chain) >= STRAIGHT_RATIO:
        return None
    for bone, constraint in overridden_constraints(rig, chain.moving_bones[:-1]):
        if start_set_by(rig, chain, bone) != constraint:
            continue
        bends = start_bends(rig, chain, bone, constraint)
        if bends is not None:
            return bone, constraint, bends
    return None


def _replaced_later(
    rig: RigView,
    chain: IKChain,
    bone: str,
    constraint: bpy.types.Constraint,
    posed: Matrix,
    without: bpy.types.Constraint | None = None,
) -> bool:
    """Whether a constraint below this one in the bone's stack sets the bone's whole start
    rotation (``sets_the_start``) or, a Track To, its aim and roll: the stack runs in order,
    so the solver starts from that one's rotation, not this one's. Measured on the leg: the shin
    copying the hand control's rotation bends 91° from its pole; with a Damped Track at the foot
    control below the copy it starts 38° the rest way, as the track alone does, and lands."""
    stack = rig.constraints(bone)
    later = stack[stack.index(constraint) + 1 :] if constraint in stack else ()
    return any(
        sets_the_start(rig, chain, other, posed)
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
            if (
                tracks_the_target(chain, constraint)
                and not constraint.mute
                and constraint.influence >= FULL_INFLUENCE
            ):
                return name, readable(constraint)
    return None
