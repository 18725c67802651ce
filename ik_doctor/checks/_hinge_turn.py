"""How far a lower bone held by its IK locks to fold about one axis, off the bend plane's
normal, turns a two-bone limb's bend, for the pole check (``_pole_turn``): the joint folds out of
the limb's plane, the root turns the plane after it, and that turn adds to the pole angle's."""

from __future__ import annotations

import math

from mathutils import Vector

from ..core.limb import bend_plane
from ..core.rig import IKChain, RigView

HINGE_TURN_SHARE = 0.7
"""The share of its fold axis's angle off the bend plane's normal that the bend turns (the least
measured). Fresh seed 337, a miss under warnings: the arm, its forearm locked on X and rolled
130°, under a pole angle turned 80°, bent 109° from its pole. Measured on 4.2, rolled 20° to
160°, locked on X (folding about Z) or on Y and Z (folding about X), the pole angle at rest and
turned ±40° and ±80°: the arm's bend turns 0.70 to 0.73 of the axis's angle, the leg's 0.80 to
0.83, and the pole angle's turn adds (the arm rolled 130° under 80°: 80° + 28° = 109°)."""
MEASURED_OFF = math.radians(75.0)
"""The fold axes measured lay 20° to 71° off the normal (the leg rolled 20° and locked on X);
further off, unmeasured, and at 90° the locks check speaks."""


def hinge_turn(rig: RigView, chain: IKChain) -> float:
    """Radians the lower bone's locked fold axis turns the bend about the root-tip line, signed
    as the pole angle's twist; 0 for a free bone, a longer chain, or an axis not measured."""
    if len(chain.moving_bones) != 2:
        return 0.0
    axis = _fold_axis(rig, chain.owner)
    normal = bend_plane(rig, chain)
    if axis is None or normal is None:
        return 0.0
    along = rig.bone(chain.owner).y_axis
    across = normal - along * normal.dot(along)
    if across.length < 1e-3:
        return 0.0
    off = math.atan2(along.dot(across.cross(axis)), across.dot(axis))
    # An axis and its reverse are one hinge: the angle between the lines, within a quarter turn.
    off = math.remainder(off, math.pi)
    return HINGE_TURN_SHARE * off if abs(off) <= MEASURED_OFF + 1e-6 else 0.0


def _fold_axis(rig: RigView, name: str) -> Vector | None:
    """The one axis the bone's IK locks leave it to fold about: Z when X is locked, X when Y and
    Z are; None for a bone free to fold about any axis across it, or held on both."""
    pose_bone, bone = rig.pose_bone(name), rig.bone(name)
    if pose_bone.lock_ik_x and not pose_bone.lock_ik_z:
        return bone.z_axis
    if pose_bone.lock_ik_y and pose_bone.lock_ik_z and not pose_bone.lock_ik_x:
        return bone.x_axis
    return None
