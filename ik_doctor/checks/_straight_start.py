"""What starts a chain straight at rest bent where the solver starts, for the rest_pose and
pole checks: a constraint the IK overrides, a Damped Track at its target, or the posed rotations,
and whether that start points it toward its pole, as its pole angle turns it."""

from __future__ import annotations

import math
from typing import NamedTuple

from mathutils import Matrix, Vector

from ..core.geometry import offset_from_line
from ..core.limb import (
    STRAIGHT_RATIO,
    bend_offset,
    built_bend,
    chain_joints,
    forward_pose,
    forward_tip,
    limits_fold,
    one_way_on_x,
    pole_turn,
    root_folds_against,
)
from ..core.names import readable
from ..core.rig import IKChain, RigView
from ..core.start import (
    clamped_by_limit_rotations,
    flat_copied_start,
    straight_start,
    target_tracking_joint,
)
from ..core.started import start_set_by, started_pose
from ._tip_motion import axis_nearest

SIDE_ON_TURN = 1.5
"""Degrees off a quarter turn within which the pole angle turns a posed start side-on (measured
every degree: 89° to 91° land either way, 88° and 92° not)."""
ALONG_POLE = 10.0
"""Degrees within which the side a straight chain's IK limits fold it to counts as the pole's
side, or (from 180°) as opposite it. Opposite, a bend turns within 90° of the pole or of that
side wherever it ends (but for a sliver as wide as this), so it never flips, as the oracle
judges a pole."""


def built_side_from_pole(rig: RigView, chain: IKChain) -> float | None:
    """The side a chain straight at rest is built to fold to by its IK limits, as an angle from
    its pole's side: 0 along it, pi opposite it (``ALONG_POLE``); None for other chains."""
    pole = rig.joint_point(chain.pole, chain.pole_subtarget)
    if pole is None or limits_fold(rig, chain) is None:
        return None
    built = built_bend(rig, chain)
    side = offset_from_line(pole, rig.bone(chain.root).head, rig.chain_tip(chain))
    if built is None or side.length < STRAIGHT_RATIO * rig.chain_reach(chain):
        return None
    apart = math.degrees(built.angle(side))
    return 0.0 if apart < ALONG_POLE else math.pi if apart > 180.0 - ALONG_POLE else None


class StartBend(NamedTuple):
    """What bends a chain straight at rest where the solver starts (``start_bend``)."""

    shown: str
    """It, in words for the message."""
    toward: bool
    """Whether it bends the chain toward its pole, as the solver ends."""
    by: tuple[str, ...]
    """The names of what bends it: the bone and its constraint, or the turned bones."""
    posed: bool
    """Whether it is the posed rotations."""
    as_built: bool = False
    """Whether it bends the chain the way its IK limits fold it, away from its pole
    (``_posed_as_built``): the joint then bends as built."""
    turned_by_angle: bool = False
    """Whether only the pole angle's turn (round, or side-on) points the posed rotations toward
    the pole: the rest angle alone would start them away (never set for a constraint's start)."""
    bend: Vector | None = None
    """The posed rotations' bend off the line from root to tip (``_posed_bend``), where they
    are the start."""


def start_bend(rig: RigView, chain: IKChain) -> StartBend | None:
    """What bends a chain that is straight at rest where the solver starts: a Damped Track on
    an inner joint aimed at the chain's own target (it points the bone at the target wherever
    the target goes: the leg and the arm then land, measured), another constraint the IK
    overrides, whose bend the pole angle turns (``core.start.straight_start``), or the posed
    rotations (forward kinematics); None when the start is straight too."""
    overriding = straight_start(rig, chain)
    if overriding is not None:
        bone, name, lands = overriding
        return StartBend(f"'{name}' on {bone}, which the IK overrides,", lands, (bone, name), False)
    tracking = target_tracking_joint(rig, chain)
    if tracking is not None:
        shown = f"Damped Track '{tracking[1]}' on {tracking[0]}, aimed at the target,"
        return StartBend(shown, True, tracking, False)
    flat = flat_start_away(rig, chain)
    if flat is not None:
        shown = f"'{flat[1]}' on {flat[0]}, which the IK overrides, folding it flat,"
        return StartBend(shown, False, flat, False, as_built=True)
    joints = chain_joints(rig, chain)
    posed = forward_pose(rig, chain, within_limits=True, hinged=True)
    # A Limit Rotation holds a posed bone back where the solver starts (fresh seed 292, a miss:
    # the straight arm folding away from its pole, its forearm posed -70° that way, held to 0°
    # to 5.7° about X, starts straight and stops 3.4% short under this start's warning).
    posed = clamped_by_limit_rotations(rig, chain, list(chain.moving_bones)) or posed
    bend = _posed_bend(rig, chain, posed)
    pole = rig.joint_point(chain.pole, chain.pole_subtarget)
    if bend.length < STRAIGHT_RATIO * rig.chain_reach(chain) or pole is None:
        return None
    side = offset_from_line(pole, rig.bone(chain.root).head, rig.chain_tip(chain))
    turned = [name for name in joints if turned_off_rest(rig, name)]
    if turned and all(start_set_by(rig, chain, name) is not None for name in turned):
        # A constraint the IK overrides sets their start and replaces the pose (seed 245: the
        # shin posed 10° toward the pole but copying the hips' rotation, folded flat, which no
        # model reads, stopped 3.4% short under this start's warning; unposed, the error).
        return None
    shown = f"the posed rotation of {', '.join(turned) or 'its bones'}"
    # A pole angle that turns the chain more than a quarter turn from its rest pose turns the
    # started bend round with it: toward the pole becomes away, and away toward (measured: the
    # straight leg and arm posed ±20° or ±70°, the angle turned 100° or 180°, land posed away).
    # Turned a quarter turn, within SIDE_ON_TURN, it starts side-on and folds toward the pole
    # either way (fresh seed 209: posed ±20° or ±70°, the arm lands from 89° to 91°, and one
    # way fails at 88° and 92°; the arm of chain length 3 turns exactly 90°).
    # The pole keeps the bones' posed twist about their own Y, which turns the start further
    # about the root-tip line (fresh seed 265: the straight arm without Use Tail, its upper arm
    # keyed 0.3 to 0.8 rad, twisted 9° to 23°, turned 90° by the angle, ends 98° to 111° away
    # one way and lands the other; turned 80° and twisted 9° it lands, 100° ends 108° away).
    twist = _kept_twist(rig, chain)
    turn = abs(math.remainder((pole_turn(rig, chain) or 0.0) + twist, math.tau))
    side_on = abs(math.degrees(turn) - 90.0) <= SIDE_ON_TURN
    turned_round = turn > math.pi / 2 and not side_on
    if turned_round or side_on:
        how = "side-on" if side_on else "round"
        by = "the pole angle and the posed twist" if abs(twist) > 1e-3 else "the pole angle"
        shown += f", turned {math.degrees(turn):.0f}° {how} by {by},"
    posed_toward = bend.dot(side) > 0.0
    if _folded_back(rig, chain, posed):
        # A half turn has no side: rounding picks one (fresh seed 273, a miss: the straight arm
        # posed -180° at the elbow, 180° from its pole under this start's warning; measured
        # at ±180° the arm fails either way, the leg at -180°, and lands at +180°; 178° and
        # 175° go the way they point).
        shown += " folded back a half turn, which gives it no side,"
        posed_toward = turned_round
    toward = side_on or posed_toward != turned_round
    as_built = not toward and _posed_as_built(rig, chain, bend, posed)
    turned_by_angle = toward and not posed_toward
    return StartBend(shown, toward, tuple(turned), True, as_built, turned_by_angle, bend)


def flat_start_away(rig: RigView, chain: IKChain) -> tuple[str, str] | None:
    """(bone, constraint) of a copy the IK overrides that starts a pole chain straight at rest
    folded flat (``flat_copied_start``) where its IK limits fold it away from its pole, its
    root free to follow: the limits take that start as their fold and it bends as built (fresh
    seed 298, a trade: the straight leg whose shin copies the hips' rotation, folded 176°,
    lands at pole angles 0° to 180° where it read as unbending, and muting the copy left it
    so). Folding toward its pole it ends 118° to 178° from it but at 100° (no rule); the arm so
    copying is not folded flat (3.4% short, held straight); a root limited the other way fails."""
    if chain.pole is None or built_side_from_pole(rig, chain) != math.pi:
        return None
    if root_folds_against(rig, chain):
        return None
    return flat_copied_start(rig, chain)


def flat_start_by_rounding(rig: RigView, chain: IKChain) -> tuple[str, str] | None:
    """(bone, constraint) of a copy the IK overrides that starts a pole chain straight at rest
    folded flat (``flat_copied_start``): a half turn gives the fold no side, and rounding
    decides which way it ends. Measured on 4.2 (fresh seed 323, a chance landing that muting
    the copy undid): the straight leg whose shin copies the hips' rotation, rolled every 15°,
    free, ends 101° to 180° from its built bend at all 24 rolls; its shin's hinge one-sided
    (either way), it lands at 17 of 48 and ends 91° to 180° from it at the rest."""
    if chain.pole is None or bend_offset(rig, chain) >= STRAIGHT_RATIO:
        return None
    return flat_copied_start(rig, chain)


def _posed_as_built(rig: RigView, chain: IKChain, bend: Vector, posed: dict[str, Matrix]) -> bool:
    """Whether a posed start bends a chain whose IK limits fold it away from its pole
    (``built_side_from_pole``) the way they fold it, its root free to follow: measured on the
    leg and the arm, posed 20° or 70° that way, they land. With the root limited to turn the
    other way, only the root's own turn starts them so (posed at the joint, they stop short).
    Not where a bone below the root ignores its parent's turn: the body's turn then moves the
    start (posed at the lower bone, the leg and the arm stop short). Posed at the joint alone,
    with the root limited the other way, up to ``POSED_AGAINST_THE_ROOT`` they land too (the
    joint read in ``posed``, the start ``start_bend`` reads)."""
    if any(not rig.raw_bone(name).use_inherit_rotation for name in chain.moving_bones[:-1]):
        return False
    built = built_bend(rig, chain)
    if built is None or built_side_from_pole(rig, chain) != math.pi or bend.dot(built) <= 0.0:
        return False
    if not root_folds_against(rig, chain) or turned_off_rest(rig, chain.root):
        return True
    if len(chain.moving_bones) != 2:
        return False
    lower, root = chain.moving_bones
    fold = posed[root].to_3x3().col[1].angle(posed[lower].to_3x3().col[1], 0.0)
    return math.degrees(fold) <= POSED_AGAINST_THE_ROOT + 1e-3


POSED_AGAINST_THE_ROOT = 15.0
"""Degrees a straight two-bone chain on opposed hinges may be posed folded at its joint, the way
they fold it and away from its pole, and still land with its root unturned. Fresh seed 429, a
false alarm: the leg posed 10° so. Measured on 4.2 and 5.3, the leg and the arm: 5° to 15°
land bent as built; 16° stops 0.1% short, 20° 0.7%, 70° 15% (the root, limited the other way,
cannot turn back to meet the goals)."""


HALF_TURN = 179.0
"""Degrees past which a posed joint is folded back on the bone above it (``_folded_back``)."""


def _folded_back(rig: RigView, chain: IKChain, posed: dict[str, Matrix]) -> bool:
    """Whether the pose (``posed``, the chain's forward pose within its limits) folds a joint of
    the chain back on the bone above it, within a degree of a half turn."""
    for name in chain.moving_bones[:-1]:
        parent = rig.raw_bone(name).parent
        if parent is None or readable(parent) not in posed:
            continue
        below, above = posed[name].col[1].xyz, posed[readable(parent)].col[1].xyz
        if math.degrees(below.angle(above, 0.0)) > HALF_TURN:
            return True
    return False


def _kept_twist(rig: RigView, chain: IKChain) -> float:
    """Radians the chain bones' posed rotations twist them about their own Y, summed as turns
    about the root-tip line (the way the pole angle turns the chain)."""
    line = rig.chain_tip(chain) - rig.bone(chain.root).head
    twist = 0.0
    for name in chain.moving_bones:
        _swing, turn = rig.pose_bone(name).matrix_basis.to_quaternion().to_swing_twist("Y")
        along = rig.raw_bone(name).matrix_local.col[1].xyz.dot(line)
        twist += turn if along >= 0.0 else -turn
    return twist


def turned_off_rest(rig: RigView, name: str) -> bool:
    """Whether the bone's posed rotation turns it off rest (its scale aside)."""
    return rig.pose_bone(name).matrix_basis.to_quaternion().angle > 1e-4


def _posed_bend(rig: RigView, chain: IKChain, posed: dict[str, Matrix]) -> Vector:
    """How far the chain's posed rotations (``posed``, its forward pose within its IK limits)
    bend its joints off the line from root to tip, summed: the bend the solver starts from, as
    the root's own frame holds it. The solver aims the root and keeps only its twist, so the
    root's swing is undone (fresh seed 379, a false alarm: the straight arm, its upper arm
    keyed 37° about X and its forearm posed 160° toward the pole, landed; in the armature's
    frame the swing and half the fold passed a quarter turn and read as bent away)."""
    root, tip = posed[chain.root].translation, forward_tip(rig, chain, posed)
    joints = chain_joints(rig, chain)
    bend = sum((offset_from_line(posed[name].translation, root, tip) for name in joints), Vector())
    unswing = posed[chain.root].col[1].xyz.rotation_difference(rig.bone(chain.root).y_axis)
    return unswing @ bend


def posed_bend_locked(rig: RigView, chain: IKChain) -> tuple[str, str] | None:
    """(bone, axis) of a bone that an IK lock holds about the axis the posed start, or a
    constraint's the IK overrides (``started_bend_vector``), bends the straight chain about:
    the solver cannot fold it further from there. Measured on the straight leg and arm with
    their poles, the lower bone posed ±20° or ±70° about X and X IK-locked on either bone: they
    stop 1.9% to 14.9% of the reach short. Started about X by a Damped Track at the pole, a Copy
    Rotation of the other arm's control or (the leg) a Track To at the foot control, locked on
    X on either bone: 3.4% to 38% short (fresh seed 470); unlocked, those that land alone land.
    Started about Z the same locks leave the leg landing, and the arm whose Track To at the hand
    control rolls its forearm a quarter turn stops 1.0% short with the upper arm locked, which
    this does not read."""
    bend = started_bend_vector(rig, chain)
    if bend is None:
        return None
    shape = rig.chain_tip(chain) - rig.bone(chain.root).head
    normal = shape.cross(bend)
    if normal.length < 1e-9 * shape.length:
        return None
    for name in chain.moving_bones:
        axis = axis_nearest(rig, name, normal)
        if getattr(rig.pose_bone(name), f"lock_ik_{axis}"):
            return name, axis
    return None


def started_bend_vector(rig: RigView, chain: IKChain) -> Vector | None:
    """The bend off the root-tip line where the solver starts a chain straight at rest
    (``_posed_bend``): the posed rotations', or those a constraint the IK overrides sets
    (``core.started.started_pose``). None where nothing bends the start, or a Damped Track at
    the target does: it points the bone at the target wherever it goes (measured: locked on X
    on the upper bone the leg and the arm land)."""
    start = start_bend(rig, chain)
    if start is None:
        return None
    if start.bend is not None:
        return start.bend
    if start.as_built or target_tracking_joint(rig, chain) is not None:
        return None  # folded flat, or tracking the target: not a constraint's start to read
    return _posed_bend(rig, chain, started_pose(rig, chain))


ROOT_PAST_LIMIT = (0.002, 0.13)
"""Radians (least, most) past the closed end of its one-sided X IK limit that the root of a
straight chain on opposed one-sided hinges was measured posed and landing
(``root_past_its_limit``)."""


def root_past_its_limit(rig: RigView, chain: IKChain) -> float | None:
    """Radians the root of a chain straight at rest, whose one-sided IK limits fold its joint
    one way and turn its root the other (``root_folds_against``), is posed about X past the
    closed end of its own limit, within ``ROOT_PAST_LIMIT``: the solver turns it back into the
    limit, and that turn starts the fold. None otherwise. Measured on 4.2 (fresh seeds 401 and
    403, false errors of "Straight limb won't bend": the leg's thigh keyed 0.05 and 0.1 rad):
    the leg and the arm with a pole, their root posed 0.002 to 0.13 rad past, land, whichever
    side the hinges fold (turned about Y or Z as well, up to 0.5 rad, too); 0.001 past they do
    not bend (3.4% short), 0.14 past 0.12% short, 0.2 past 1.1%, and posed into the limit, 3.4%."""
    if limits_fold(rig, chain) is None or not root_folds_against(rig, chain):
        return None
    pose_bone = rig.pose_bone(chain.root)
    way = one_way_on_x(pose_bone)
    if not way:
        return None
    past = -way * pose_bone.matrix_basis.to_euler("XYZ").x
    least, most = ROOT_PAST_LIMIT
    return past if least <= past <= most else None
