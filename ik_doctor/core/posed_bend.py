"""Whether a leftover pose bends a limb's joint the other way before its IK runs: the side the
solver starts each joint on, read from the posed rotations (forward kinematics), which decides
which way a pole chain folds; how far the pose turns the bend about the root-tip line, which
the pole angle's turn adds to; and how much further folded or straighter than at rest the joint
starts, which decides how many iterations it needs and how far a stiff limb lags."""

from __future__ import annotations

import math

import bpy
from mathutils import Matrix, Vector

from .geometry import ROUNDING, offset_from_line
from .limb import bend_from_x, chain_joints, forward_pose, forward_tip, rest_bend_from_x
from .rig import IKChain, RigView
from .started import folds_past_its_x_hold, started_pose

FOLDED_FURTHER = 1.0
"""Degrees a posed joint may fold beyond its rest bend before the solver's start counts as posed
folded further (the solver check's ``FOLDED_FURTHER_NEEDS``)."""
HALF_TURN_W = math.sin(math.radians(0.01) / 2.0)
"""The quaternion ``w`` below which a rotation is a half turn to within 0.01°."""


def pose_flips_bend(rig: RigView, chain: IKChain, posed: dict[str, Matrix] | None = None) -> bool:
    """Whether the posed rotations (forward kinematics, before IK, within the IK limits) bend a
    joint the other way: its offset from the root-tip line turns to the other side, or it folds
    back past its parent (``_folded_past_its_parent``), or a bone IK-limited on a swing axis
    is posed a half turn, which has no side to hold within the limits (measured: the leg posed
    180° at the knee with an X IK limit of ±24° stops 2.8% short, ±60° bends 180° from its
    pole, keyed +180° or -180° alike; at 170° it lands, at -170° it fails). Not a joint held
    on X by a narrow limit and posed turned about Z, which folds about Z either way
    (``folds_past_its_x_hold``: the forearm and shin keyed 3 rad about Z land). ``posed``:
    the chain's posed matrices to read instead of its channels'.
    """
    if any(_limited_half_turn(rig.pose_bone(name)) for name in chain.moving_bones):
        return True
    posed = posed or forward_pose(rig, chain, within_limits=True)
    rest_root, rest_tip = rig.bone(chain.root).head, rig.chain_tip(chain)
    joints = chain_joints(rig, chain)
    # The root's own turn swings the whole chain, which the solver re-aims: read the shape in
    # the root's rest frame (measured: the upper arm keyed 54° round, the elbow posed 130°
    # further lands, as it does unturned).
    root_matrix = posed[chain.root]
    rest_frame = rig.raw_bone(chain.root).matrix_local.to_3x3()
    unturn = (root_matrix.to_3x3() @ rest_frame.inverted_safe()).to_quaternion().inverted()
    posed_points = [root_matrix.translation, *(posed[j].translation for j in joints)]
    posed_points.append(forward_tip(rig, chain, posed))
    points = [rest_root + unturn @ (point - root_matrix.translation) for point in posed_points]
    root, tip = points[0], points[-1]
    rest_points = [rest_root, *(rig.bone(joint).head for joint in joints), rest_tip]
    for index, joint in enumerate(joints, start=1):
        if folds_past_its_x_hold(rig, chain, joint, posed):
            continue  # held on X, it folds about the Z it is posed turned about, either way
        rest_side = offset_from_line(rig.bone(joint).head, rest_root, rest_tip)
        if offset_from_line(points[index], root, tip).dot(rest_side) < 0.0:
            return True
        if _folded_past_its_parent(points, rest_points, index):
            return True
    return False


def posed_joints(rig: RigView, chain: IKChain) -> list[str]:
    """The chain's bones below its root that are posed: each turns the bend where the solver
    starts (a thigh keyed under a leg's chain rooted in the hips, measured: 56°)."""
    return [
        name
        for name in chain.moving_bones[:-1]
        if rig.pose_bone(name).matrix_basis.to_quaternion().angle > 1e-4
    ]


def posed_turn(rig: RigView, chain: IKChain) -> float | None:
    """Radians the posed rotations of the chain's inner joints (forward kinematics) turn its
    bend about the root-tip line, measured from the root's X axis as the pole angle turns it;
    None where no joint below the root is posed, or the chain is too straight to say."""
    if not posed_joints(rig, chain):
        return None
    joints = chain_joints(rig, chain)
    posed = forward_pose(rig, chain)
    rest_root = rig.raw_bone(chain.root).matrix_local
    before = rest_bend_from_x(rig, chain)
    after = bend_from_x(
        posed[chain.root],
        forward_tip(rig, chain, posed),
        [posed[j].translation for j in joints],
    )
    if before is None or after is None:
        return None
    turn = math.remainder(after - before, math.tau)
    if rest_root.col[1].xyz.dot(rig.chain_tip(chain) - rest_root.translation) < 0.0:
        turn = -turn  # as the pole angle turns a root pointing away from the tip (bend_at_rest)
    return turn


def flipped_turn(rig: RigView, chain: IKChain) -> float:
    """Radians a start that bends a joint the other way (``pose_flips_bend``) turns the chain's
    bend: Blender settles on that mirrored bend and the pole angle turns it further. The posed
    turn (``posed_turn``) where it lies past a quarter turn: a joint posed against its bend
    about an axis its roll tilts out of the bend plane starts short of a half turn. Else a half
    turn (folded back past its parent, a limited half turn). Measured on 4.2 on the leg and the
    arm posed -20° and -70° at the joint with the lower bone rolled -40°, 10°, 20° or 45° and the
    pole angle turned 20° to 180°: 40 flipped starts, each ends within 8° of where this turn and
    the pole angle's put it, on the same side of the oracle's 91° (the arm rolled 10°, posed
    -60°, turned 80°: 89° modelled, it lands; unrolled, 100°, it ends 99° away)."""
    turn = posed_turn(rig, chain)
    return turn if turn is not None and abs(turn) >= math.pi / 2.0 else math.pi


def _limited_half_turn(pose_bone: bpy.types.PoseBone) -> bool:
    """Whether the bone is posed a half turn (within 0.01°) and IK-limited on X or Z."""
    limited = any(getattr(pose_bone, f"use_ik_limit_{axis}") for axis in "xz")
    return limited and abs(pose_bone.matrix_basis.to_quaternion().w) < HALF_TURN_W


def _folded_past_its_parent(points: list[Vector], rest_points: list[Vector], index: int) -> bool:
    """Whether the joint at ``points[index]``, folded more than 90°, turns the other way round
    from its rest bend: folded on past lying back along its parent. The root-tip line then
    swings round behind the root, and the joint's offset from it no longer tells its side.
    Measured: the arm (bent 13.7° at rest) posed 166° further at the elbow lands, 168° on fails
    bent 180° from its pole; the leg (7.6°) lands at 172° and fails from 174°."""
    before = points[index] - points[index - 1]
    after = points[index + 1] - points[index]
    if before.dot(after) >= 0.0:
        return False  # folded less than 90°: the offset from the line says the side
    rest_before = rest_points[index] - rest_points[index - 1]
    rest_after = rest_points[index + 1] - rest_points[index]
    rest_turn = rest_before.cross(rest_after)
    if rest_turn.length <= ROUNDING * rest_before.length * rest_after.length:
        return False  # straight at rest: no side to turn from
    return before.cross(after).dot(rest_turn) < 0.0


def joint_bends(
    rig: RigView, chain: IKChain, without: bpy.types.Constraint | None = None
) -> tuple[float, float, float | None] | None:
    """The two-bone chain's bend at rest, how much further its joint is folded where the solver
    starts (``started_pose``: as posed, or as a constraint the IK overrides turns it; degrees;
    0 when it starts no further folded, straighter or bent the other way), and its bend there
    when it starts straighter on the same side (else None); None for other chains."""
    moving = chain.moving_bones
    if len(moving) != 2:
        return None
    root, joint, tip = rig.bone(moving[1]).head, rig.bone(moving[0]).head, rig.chain_tip(chain)
    posed = started_pose(rig, chain, without)
    posed_root, posed_joint = posed[moving[1]].translation, posed[moving[0]].translation
    posed_tip = forward_tip(rig, chain, posed)
    rest, start = joint_angle(root, joint, tip), joint_angle(posed_root, posed_joint, posed_tip)
    toward_rest_side = offset_from_line(posed_joint, posed_root, posed_tip).dot(
        offset_from_line(joint, root, tip)
    )
    further = start - rest if toward_rest_side >= 0.0 and start > rest + FOLDED_FURTHER else 0.0
    straighter = toward_rest_side >= 0.0 and start < rest - FOLDED_FURTHER
    # Rounded as the tables are written: the reference leg is bent 7.628°, posed 10° it reads
    # 10.000004° further.
    return round(rest, 2), round(further, 1), round(start, 2) if straighter else None


def joint_angle(root: Vector, joint: Vector, tip: Vector) -> float:
    """Degrees the joint turns the line from root to joint away from the line on to the tip."""
    upper, lower = joint - root, tip - joint
    if upper.length == 0.0 or lower.length == 0.0:
        return 0.0
    return math.degrees(upper.angle(lower))
