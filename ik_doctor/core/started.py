"""What a constraint the IK overrides gives its bone where Blender's IK solver starts.

Blender runs a bone's other constraints before its IK, and the solver starts from the pose they
leave: a Copy Rotation or a Damped Track replaces the bone's own rotation there. ``core.start``
asks whether that start flips the bend; the solver check, how far it folds the joint.
"""

from __future__ import annotations

import math

import bpy
from mathutils import Matrix, Vector

from .geometry import signed_angle
from .limb import FULL_INFLUENCE, forward_pose, parent_motion, pole_behind_bend, pole_turn
from .names import readable
from .reach import limb_bones, reachable_tips
from .rig import AXES, IKChain, RigView
from .track_to import tracked_to

COPIES = (bpy.types.CopyRotationConstraint, bpy.types.CopyTransformsConstraint)
"""Constraints whose rotation the solver starts from as copied from their target."""
TRACKS = (bpy.types.DampedTrackConstraint, bpy.types.LockedTrackConstraint)
"""Constraints that swing the bone toward their target, where the solver starts."""
SWING_THAT_FOLDS = (0.0034, 3.0)
"""Radians (least, most) about its own Z with which an inner joint held on X by a narrow IK
limit alone was measured to start and fold the limb about Z (``folds_past_its_x_hold``)."""
NARROW_X_LIMIT = math.radians(6.0)
"""Radians either way within which an X IK limit was measured to hold the joint so: 0°, ±3°,
±4° and ±6° alike (at ±20° the joint folds about X, and a start turned 90° about Z bends it
away from its pole)."""
Z_FOLD_X_LIMIT = math.radians(18.0)
"""Radians either way up to which an X IK limit wider than ``NARROW_X_LIMIT`` still holds a joint
started turned about Z so that it folds about Z: fresh seed 375, a false alarm, the arm whose
forearm a Track To at the hand control starts 90° about Z, limited ±12° without a pole, landed under
the locks check's "IK limit too narrow". Measured on 4.5 (its tests hold on 4.2 and 5.3), the arm
and the leg limited ±10°, ±15° and ±18°, keyed 0.006 to 3.1 rad about Z either way, with and without
a pole: all land (the arm without a pole keyed 0.004 stops 3.4% to 5% short:
``WIDE_SWING_THAT_FOLDS``); with the pole angle turned 5° to 90° only a start turned the pole's way
lands."""
WIDE_SWING_THAT_FOLDS = 0.006
"""Radians about Z from which a joint held within ``Z_FOLD_X_LIMIT`` was measured to fold so."""
EITHER_WAY_TURN = 10.0
"""Degrees the pole angle may turn the chain from rest for that fold to bend toward the pole
whichever way the joint starts turned about Z (measured at 2°, 5° and 10°; at 15° the leg
started -0.5 and -1.6 rad fails)."""
SAME_WAY_TURN = 120.0
"""Degrees up to which the pole angle turned further still lets the fold bend toward the pole
where the joint starts turned about Z the same way as the angle turns (measured on the arm and
the leg, limited at 0° or locked on X, started ±0.5, ±1.6 and ±3 rad: turned 15° to 120° either
way, the same way lands and the other way bends away; at 150° and 170° some of the same way
fail)."""


def start_set_by(
    rig: RigView, chain: IKChain, bone: str, without: bpy.types.Constraint | None = None
) -> bpy.types.Constraint | None:
    """The constraint that sets the rotation the solver starts ``bone`` from, whatever the bones
    above it do (a Copy Rotation or Copy Transforms of a target the chain does not move, a
    Damped Track at one), the last of them in the stack, which runs in order; None when the
    bone's own channels and what it inherits set it. ``without``: as if that one were muted."""
    posed = forward_pose(rig, chain)[bone]
    setting = [
        c for c in rig.constraints(bone) if c != without and sets_the_start(rig, chain, c, posed)
    ]
    return setting[-1] if setting else None


def start_felt_once_joined(rig: RigView, chain: IKChain, bone: str) -> str | None:
    """The constraint the IK overrides that sets where the solver starts ``bone`` of a chain
    landing as one stretching bone (cut from its parent, or of length 1), unless it is a Damped
    Track at the chain's own target: joined to the bone above (parented back, or the length
    set to the limb's), the joint bends from that start. Measured on 5.3, the cut forearm
    (shin) landing by IK Stretch 0.1 or 0.5, parented back: a Track To at the control or a
    Damped Track at the pole bends the joint 106° to 180° from its pole on arm and leg, a Copy
    Rotation of the hips or of the other limb's control 180° and 91° (the leg); a Damped Track
    at the control lands on both, a Copy Rotation on the arm lands (not told apart here: the
    fix waits). Fresh seed 369: the shin IK of length 1 so copying, stretching 0.205, set to
    length 2 ends 91° from its pole too."""
    constraint = start_set_by(rig, chain, bone)
    if constraint is None:
        return None
    aims = getattr(constraint, "target", None), readable(constraint, "subtarget", "")
    if constraint.type == "DAMPED_TRACK" and aims == (chain.target, chain.subtarget):
        return None
    return readable(constraint)


def sets_the_start(
    rig: RigView, chain: IKChain, constraint: bpy.types.Constraint, posed: Matrix
) -> bool:
    """Whether this constraint sets the whole rotation of its bone where the solver starts
    (``started_rotation``: not a Locked Track, which turns it about one axis)."""
    sets_all = not isinstance(constraint, bpy.types.LockedTrackConstraint)
    active = not constraint.mute and constraint.is_valid
    return sets_all and active and started_rotation(rig, chain, constraint, posed) is not None


def turns_with_the_body(rig: RigView, chain: IKChain, constraint: bpy.types.Constraint) -> bool:
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


def started_rotation(
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
        carried = {subtarget, *rig.ancestors(subtarget)}
        if carried.intersection(chain.bones) or _turned_toward_the_goal(rig, chain, carried):
            return None  # the IK moves the target too: where it starts is not where it was
        matrix = rig.pose_bone(subtarget).matrix
    elif target is not None and target != rig.object and not subtarget:
        matrix = rig.object.matrix_world.inverted_safe() @ target.matrix_world
    else:
        return None
    if body_turn is not None and not turns_with_the_body(rig, chain, constraint):
        # A bone another IK holds on its own target stays as the body turns. Measured: the shin
        # copying the other shin's rotation bends 180° from its pole with the body turned +40°
        # about X, as read so; read turned with the hips, it seemed to land.
        matrix = body_turn.inverted_safe() @ matrix
    # ``posed`` keeps the chain's root where it rests: read the target in that frame, without
    # what has moved the bone the chain hangs from (measured: a thigh IK without Use Tail turns
    # the hips 174°, and with them the shoulder a forearm's Copy Rotation copies and the upper
    # arm alike; the arm lands).
    above = parent_motion(rig, chain.root, chain)
    matrix = above.inverted_safe() @ matrix
    own = posed.to_3x3().normalized()
    if isinstance(constraint, bpy.types.TrackToConstraint):
        aim = _aim_within_reach(rig, chain, constraint, matrix.translation) - posed.translation
        world_up = rig.object.matrix_world.to_3x3().inverted_safe() @ Vector((0.0, 0.0, 1.0))
        if body_turn is not None:
            world_up = body_turn.to_3x3().inverted_safe() @ world_up
        world_up = above.to_3x3().inverted_safe() @ world_up
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


def _turned_toward_the_goal(rig: RigView, chain: IKChain, bones: set[str]) -> bool:
    """Whether another live IK aimed at the chain's own control turns one of ``bones``: the
    target they carry then turns with every goal, and the start with it. Measured (seed 112):
    the forearm copying the shoulder's rotation, which an upper-arm IK without Use Tail on the
    hand control turns, lands where the start read at rest bent the joint away."""
    return any(
        other != chain
        and other.live
        and other.shares_control(chain)
        and bones.intersection(other.moving_bones)
        for other in rig.chains
    )


def swung_to(
    posed: dict[str, Matrix], chain: IKChain, bone: str, start: Matrix
) -> dict[str, Matrix]:
    """``posed`` with ``bone`` turned about its head to the armature-space rotation ``start``,
    and the chain's bones it carries with it."""
    swing = Matrix.Translation(posed[bone].translation) @ start.to_4x4()
    swing = swing @ posed[bone].normalized().inverted_safe()
    below = chain.bones[: chain.bones.index(bone) + 1]  # the bone and those it carries
    return {name: swing @ m if name in below else m for name, m in posed.items()}


def started_pose(
    rig: RigView,
    chain: IKChain,
    without: bpy.types.Constraint | None = None,
    rested: tuple[str, ...] = (),
) -> dict[str, Matrix]:
    """The chain's ``forward_pose`` with each turning bone whose start another constraint sets
    (``start_set_by``) turned as it sets it, root first: where the solver starts (``without``:
    as if that constraint were muted; ``rested``: those bones' rotation at rest, as once their
    keys are cleared). Measured on the arm with a Damped Track on the forearm at the hand
    control: it starts folded 30° further than at rest, and lands from 4 iterations, as the arm
    posed so folded does."""
    posed = forward_pose(rig, chain, rested=rested)
    for bone in reversed(chain.moving_bones):
        constraint = start_set_by(rig, chain, bone, without)
        if constraint is None:
            continue
        start = started_rotation(rig, chain, constraint, posed[bone])
        if start is not None:
            posed = swung_to(posed, chain, bone, start)
    return posed


def folds_past_its_x_hold(
    rig: RigView,
    chain: IKChain,
    bone: str,
    started: dict[str, Matrix],
    reaching: bool = False,
) -> float | None:
    """The swing about its own Z (radians) of an inner joint held on X alone (a narrow IK limit
    or an IK lock), started where ``started`` (armature-space matrices of the chain's bones)
    puts it and its parent, where that swing folds the limb (within ``SWING_THAT_FOLDS``); None
    otherwise.

    Blender builds a bone held so by a limit as a ball joint with X clamped. Started straight
    about Z, a turn about Z only moves the tip across the limb's plane, and the solver stops
    short (the arm 5.7% to 6.5%, the leg 4.6% to 5.1%); started turned about Z, it folds about Z
    and lands. Measured on the arm and the leg limited 0°, ±3° and ±6°, keyed 0.0034 to 3.1 rad
    about Z either way (0.0033 fails the leg held at 0°, 0.003 every limb), the zero limit also
    turned 0.5 or 2.1 rad about X as well (which the limit clamps), with the pole behind the
    limb or no pole, and the arm whose forearm a Track To at the hand control starts 90° about
    Z: all land (seed 111: a forearm copying the foot control's rotation starts 0.0036 rad about
    Z, lands). A lock keeps what the start turns about X: ``_lock_folds``. ``reaching``: whether
    the tip reaches, whichever side the joint then bends to (a lock started by a constraint).
    """
    limited = held_on_x_by_a_narrow_limit(rig, bone)
    wide = not limited and held_on_x_by_a_narrow_limit(rig, bone, Z_FOLD_X_LIMIT)
    locked = not (limited or wide) and locked_on_x_alone(rig.pose_bone(bone))
    if bone == chain.root or bone not in chain.moving_bones or not (limited or wide or locked):
        return None
    rest = rig.raw_bone(bone)
    if rest.parent is None or readable(rest.parent) not in started:
        return None
    turn: float | None = 0.0
    if chain.pole is not None and not pole_behind_bend(rig, chain):
        turn = pole_turn(rig, chain)
    if turn is None or abs(math.degrees(turn)) > SAME_WAY_TURN + 1e-6:
        return None
    if locked and not _lock_folds(rig, chain, bone, reaching):
        return None
    rest_local = rest.parent.matrix_local.to_3x3().inverted_safe() @ rest.matrix_local.to_3x3()
    parent = started[readable(rest.parent)].to_3x3().normalized()
    local = parent.inverted_safe() @ started[bone].to_3x3().normalized()
    swing = (rest_local.inverted_safe() @ local).to_quaternion().to_swing_twist("Y")[0]
    about_z = swing.axis.z * swing.angle
    either_way = 1.0 if wide else EITHER_WAY_TURN
    if abs(math.degrees(turn)) > either_way + 1e-6 and about_z * turn <= 0.0:
        return None  # turned one way, started the other: it bends away from the pole
    least, most = SWING_THAT_FOLDS
    least = WIDE_SWING_THAT_FOLDS if wide else least
    return about_z if least - 1e-4 <= abs(about_z) <= most + 1e-4 else None


def _lock_folds(rig: RigView, chain: IKChain, bone: str, reaching: bool) -> bool:
    """Whether a joint held on X by an IK lock alone folds as a limit's does: with a pole, posed
    so (no constraint sets its start). Measured on the arm and the leg locked on X: posed 0.002
    to 3 rad about Z either way, with or without ±1.6 rad about X (which the lock keeps), every
    one lands, and with the pole angle turned it lands and fails where the zero limit does
    (``SAME_WAY_TURN``). Started by a constraint, its tip reaches (``reaching``) but the side
    is not read: the arm's Track To at the hand control lands 71° from its pole, the leg's 93°,
    and the leg copying the hand control's rotation 79° (measured on 4.2 and 5.3, beside a
    Damped Track at the control, at the pole, a Limit Rotation and copied rotations: the tip
    lands wherever this reads a swing, and stops 3.3% short where it reads none)."""
    return chain.pole is not None and (reaching or start_set_by(rig, chain, bone) is None)


def locked_on_x_alone(pose_bone: bpy.types.PoseBone) -> bool:
    """Whether an IK lock on X is all that holds the bone: Blender builds it as a joint turning
    about Y and Z."""
    held = [getattr(pose_bone, f"lock_ik_{axis}") for axis in "yz"]
    held += [getattr(pose_bone, f"use_ik_limit_{axis}") for axis in "yz"]
    return pose_bone.lock_ik_x and not any(held)


def held_on_x_by_a_narrow_limit(rig: RigView, bone: str, within: float = NARROW_X_LIMIT) -> bool:
    """Whether only a narrow IK limit on X (``within`` radians either way) holds the bone
    (``limited_on_x_alone``)."""
    pose_bone = rig.pose_bone(bone)
    narrow = max(abs(pose_bone.ik_min_x), abs(pose_bone.ik_max_x)) <= within + 1e-6
    return limited_on_x_alone(pose_bone) and narrow


def limited_on_x_alone(pose_bone: bpy.types.PoseBone) -> bool:
    """Whether an IK limit on X is all that holds the bone (no IK lock, no limit on Y or Z):
    Blender then builds it as a ball joint with X clamped, which folds about Z."""
    held = [getattr(pose_bone, f"lock_ik_{axis}") for axis in AXES]
    held += [getattr(pose_bone, f"use_ik_limit_{axis}") for axis in "yz"]
    return pose_bone.use_ik_limit_x and not any(held)


def started_bend(
    rig: RigView,
    chain: IKChain,
    without: bpy.types.Constraint | None = None,
    rested: tuple[str, ...] = (),
) -> float:
    """Degrees a two-bone chain's joint is bent where the solver starts (``started_pose``, with
    its ``without`` and ``rested``): the lower bone's direction off the upper's, signed by the
    side it rests bent to (negative: bent the other way), read in the upper bone's turned
    frame."""
    posed = started_pose(rig, chain, without, rested)
    root, owner = chain.moving_bones[-1], chain.moving_bones[0]
    rest_root = rig.raw_bone(root).matrix_local.to_3x3()
    rest_owner = rig.raw_bone(owner).matrix_local.to_3x3()
    upper = posed[root].to_3x3().normalized()
    side = upper @ rest_root.inverted_safe() @ rest_root.col[1].cross(rest_owner.col[1])
    lower = posed[owner].to_3x3().col[1]
    return math.degrees(signed_angle(upper.col[1], lower, side.normalized()))
