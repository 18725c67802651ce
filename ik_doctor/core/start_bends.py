"""Where an overridden constraint's start leaves a pole chain's bend, and whether the pole angle
turns that bend back near enough to the pole to land (``core.start`` asks, for a flipped start
or a straight chain's): the bend the start gives the chain under each of the body's turns, and
how far from the pole Blender may end it by the kind of constraint that sets it.
"""

from __future__ import annotations

import math

import bpy
from mathutils import Matrix

from .limb import (
    bend_from_x,
    chain_joints,
    forward_pose,
    forward_tip,
    pole_rest_angle,
    rest_bend_from_x,
)
from .names import readable
from .reach import BODY_TURNS, limb_bones
from .rig import AXES, IKChain, RigView
from .started import COPIES, started_rotation, swung_to

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
COPIED_TURNED_BACK_BEND = 91.5
"""``TURNED_BACK_BEND`` for a start a Copy Rotation or Copy Transforms sets: the rotation it
copies is where Blender starts, and the joint ends as the model says. Measured on the straight
leg and arm copying the other limb's control: started 80°, 85°, 88° and 90° from the pole they
land, 92°, 95° and 100° fail (the arm at -95° lands); seed 114's leg, started 90° from its pole
at the rest angle, was an error and lands, and pre-bent (90° but 89.5° and 91.1° with the body
turned) lands too."""
AIMED_TURNED_BACK_BEND = 91.5
"""``TURNED_BACK_BEND`` for a Damped Track aimed at the chain's own target: the joint ends where
the model says, 1° to 3° nearer the pole (fresh seed 271, a false error: the arm of chain length
3, its forearm tracking the hand control, the angle turned a quarter turn either way past the
flip, modelled 90°, lands; measured turned 60° to 110°, the model's 92°, 94°, 95°, 100°, 110° and
120° end 92°, 94°, 95°, 99°, 108° and 117° and fail, 80° and 70° land)."""
TRACKED_TURNED_BACK_BEND = 95.5
"""``TURNED_BACK_BEND`` for a start a Track To sets, read under each of the body's turns (its up
axis is the world's): Blender ends about 4.4° nearer the pole than the model's furthest.
Measured on 4.5 on the arm, a Track To on the forearm at the hand control, the pole angle turned
10° to 180° either way: the model's 95.2° at 19° ends 90.8° and lands, its 96.2° at 18° ends
91.6° and fails (seed 160: at 20°, its 94.2° ends 90.0°, and the error was a false alarm). On the
leg every such start ends 99° or more from the pole at any angle, as the model says."""


def start_bends(
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
    if hinge_axis(rig.pose_bone(bone)) is not None:
        return None  # a hinge keeps only its angle of the start (``_kept_by_a_hinge``)
    posed = forward_pose(rig, chain)
    joints = chain_joints(rig, chain)
    before = rest_bend_from_x(rig, chain)
    if before is None:
        # Straight at rest: the bend the pole angle that keeps the rest pose would face the
        # pole with (on a bent chain it is the rest bend: -90° and 90° on the leg and the arm).
        rest = pole_rest_angle(rig, chain)
        if rest is None:
            return None
        before = -rest
    parent = posed[readable(rig.raw_bone(bone).parent)].to_3x3().col[1]
    bends = []
    for turn in body_turns(rig, chain):
        start = started_rotation(rig, chain, constraint, posed[bone], turn)
        if start is None or math.degrees(parent.angle(start.col[1])) > FLAT_FOLD:
            return None
        started = swung_to(posed, chain, bone, start)
        tip = forward_tip(rig, chain, started)
        after = bend_from_x(started[chain.root], tip, [started[j].translation for j in joints])
        if after is None:
            return None
        bends.append(math.remainder(after - before, math.tau))
    return bends


def body_turns(rig: RigView, chain: IKChain) -> list[Matrix | None]:
    """The armature-space turns of the bone the limb hangs from that the oracle solves under
    (``BODY_TURNS``), None for the body as modelled; only that for a limb hanging from none."""
    body = rig.pose_bone(limb_bones(rig, chain)[-1]).parent
    turns: list[Matrix | None] = [None]
    for degrees, axis in BODY_TURNS:
        if degrees and body is not None:
            rotation = Matrix.Rotation(math.radians(degrees), 4, axis)
            turns.append(body.matrix @ rotation @ body.matrix.inverted_safe())
    return turns


def hinge_axis(pose_bone: bpy.types.PoseBone) -> str | None:
    """The one axis, X or Z, that the bone's IK locks leave free (None: any other case)."""
    free = [axis for axis in AXES if not getattr(pose_bone, f"lock_ik_{axis}")]
    return free[0] if free in (["x"], ["z"]) else None


def tracks_the_target(chain: IKChain, constraint: bpy.types.Constraint) -> bool:
    """Whether ``constraint`` is a Damped Track aimed at the chain's own target."""
    aims = getattr(constraint, "target", None), readable(constraint, "subtarget", "")
    return constraint.type == "DAMPED_TRACK" and aims == (chain.target, chain.subtarget)


def faces_the_pole(
    chain: IKChain, turn: float, bends: list[float], constraint: bpy.types.Constraint
) -> bool:
    """Whether the pole angle turned by ``turn`` (radians) from its rest angle leaves each of
    these started bends (``start_bends``) that ``constraint`` sets within the degrees of the
    pole such a start may end and land (``COPIED_TURNED_BACK_BEND``, ``AIMED_TURNED_BACK_BEND``,
    ``TRACKED_TURNED_BACK_BEND`` or ``TURNED_BACK_BEND``)."""
    limit = (
        COPIED_TURNED_BACK_BEND
        if isinstance(constraint, COPIES)
        else AIMED_TURNED_BACK_BEND
        if tracks_the_target(chain, constraint)
        else TRACKED_TURNED_BACK_BEND
        if constraint.type == "TRACK_TO"
        else TURNED_BACK_BEND
    )
    return all(
        abs(math.degrees(math.remainder(turn + bend, math.tau))) <= limit + 1e-3 for bend in bends
    )
