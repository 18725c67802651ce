"""How far a lower bone that its IK locks (or a narrow IK limit) leave one fold axis, off the
bend plane's normal, turns a two-bone limb's bend, for the pole check (``_pole_turn``): the joint
folds out of the limb's plane, the root turns the plane after it, and that turn adds to the pole
angle's."""

from __future__ import annotations

import math

from mathutils import Vector

from ..core.geometry import signed_angle
from ..core.limb import MAX_BEND_TURN, bend_plane, pole_turn
from ..core.rig import IKChain, RigView
from ._posed_off_axis import held_on

HINGE_TURN_SHARE = 0.7
"""The share of its fold axis's angle off the bend plane's normal that the bend turns (the least
measured). Fresh seed 337, a miss under warnings: the arm, its forearm locked on X and rolled
130°, under a pole angle turned 80°, bent 109° from its pole. Measured on 4.2, rolled 20° to
160°, locked on X (folding about Z) or on Y and Z (folding about X), the pole angle at rest and
turned ±40° and ±80°: the arm's bend turns 0.70 to 0.73 of the axis's angle, the leg's 0.80 to
0.83, and the pole angle's turn adds (the arm rolled 130° under 80°: 80° + 28° = 109°)."""
PLAY_COST = 1.6
"""Degrees of turn each degree of play either way takes off, where an IK limit rather than a
lock holds the bone on X (``core.started.NARROW_X_LIMIT`` at most). Measured on 4.2, limited
0°, ±3° and ±6°, rolled -40° to 160° at rest: the arm and the leg turn as locked at 0°, about
4.5° less at ±3° and 9° to 10° less at ±6° (the arm rolled 130°: 28°, 23°, 18°)."""
MEASURED_OFF = math.radians(75.0)
"""The fold axes measured lay 20° to 71° off the normal (the leg rolled 20° and locked on X);
further off, unmeasured, and at 90° the locks check speaks."""


def hinge_turn(rig: RigView, chain: IKChain) -> float:
    """Radians the lower bone's locked fold axis turns the bend about the root-tip line, signed
    as the pole angle's twist; 0 for a free bone, a longer chain, or an axis not measured."""
    if len(chain.moving_bones) != 2:
        return 0.0
    held = _fold_axis(rig, chain.owner)
    normal = bend_plane(rig, chain)
    if held is None or normal is None:
        return 0.0
    axis, play = held
    along = rig.bone(chain.owner).y_axis
    across = normal - along * normal.dot(along)
    if across.length < 1e-3:
        return 0.0
    off = signed_angle(across, axis, along)
    # An axis and its reverse are one hinge: the angle between the lines, within a quarter turn.
    off = math.remainder(off, math.pi)
    if abs(off) > MEASURED_OFF + 1e-6:
        return 0.0
    turn = max(HINGE_TURN_SHARE * abs(off) - PLAY_COST * play, 0.0)
    return math.copysign(turn, off)


def _fold_axis(rig: RigView, name: str) -> tuple[Vector, float] | None:
    """The one axis the bone's IK locks leave it to fold about, and the play (radians either
    way) left about the axis held: Z when X is locked or held by a narrow limit, X when Y and Z
    are locked; None for a bone free to fold about any axis across it, or held on both."""
    pose_bone, bone = rig.pose_bone(name), rig.bone(name)
    if held_on(rig, name, "x") and not pose_bone.lock_ik_z:
        play = 0.0 if pose_bone.lock_ik_x else max(abs(pose_bone.ik_min_x), abs(pose_bone.ik_max_x))
        return bone.z_axis, play
    if pose_bone.lock_ik_y and pose_bone.lock_ik_z and not pose_bone.lock_ik_x:
        return bone.x_axis, 0.0
    return None


def angle_turned_back(rig: RigView, chain: IKChain, change: str) -> str | None:
    """Why ``change`` (freeing or rolling the held bone) waits for the pole angle: an angle that
    turns the chain past 90°, which the held fold axis turns back within it. Changed first, the
    bone folds in the plane and the angle flips the joint (measured: the arm and the leg held on X
    by a limit of 0° to ±6°, rolled 20°, or hinged on Y and Z, rolled 130°, under an angle turned
    100°, land 42° to 59° from their pole; freed or rolled into line, 100°)."""
    twist = pole_turn(rig, chain)
    if twist is None:
        return None
    hinge = hinge_turn(rig, chain)
    turned = abs(math.degrees(math.remainder(twist + hinge, math.tau)))
    if abs(math.degrees(twist)) <= MAX_BEND_TURN or turned > MAX_BEND_TURN:
        return None
    return (
        f"{change}, the pole angle's turn of {math.degrees(twist):+.0f}° would bend the joint "
        f"away from its pole, which the fold {chain.owner} is held to now turns back by "
        f"{math.degrees(hinge):+.0f}°: set the pole angle first (the pole check's fix)"
    )
