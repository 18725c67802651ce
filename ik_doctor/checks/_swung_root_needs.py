"""Iterations a two-bone limb without a pole needs when the pose swings its root toward its fold,
for the solver check's count (``_iteration_needs``): without a pole the solver starts the limb
where the pose leaves it, and the further the root starts from the goals' side, the more steps it
takes to come back."""

from __future__ import annotations

import math

from ..core.limb import bend_plane
from ..core.rig import AXES, IKChain, RigView
from ..core.started import started_pose
from ._need_tables import Need, by_bend, fewer_either_side

SWUNG_ROOT_NEEDS = (
    (7.63, ((0.1, 10), (0.2, 11), (0.4, 12), (0.6, 14), (0.8, 14))),
    (13.7, ((0.1, 8), (0.2, 9), (0.3, 10), (0.4, 11), (0.6, 13), (0.8, 13))),
)
"""Iterations a two-bone limb of equal bones without a pole needs, by its joint's bend at rest
(the leg's and the arm's) and how far (radians, ``root_swing``) its root is posed turned toward
its fold, where the rest rows give the leg 9 and the arm 7. Fresh seed 352, a miss: the leg
without a pole, its thigh keyed turned (0.8, 0.4, 0), at 12 iterations 4.4% of its reach short
under a warning; it needs 20 (19 on 5.3). Measured on 4.2, 5.3 alike at five: about X alone the leg
needs 10, 11, 15, 23 and 23 at 0.1, 0.2, 0.4, 0.6 and 0.8, the arm 8, 9, 11, 13 and 17; turned
sideways as well, up to ``SIDEWAYS``, as many or fewer (the leg 12 at 0.4, 14 at 0.8), which the
rows keep. Turned further than 0.8 the need falls again (the leg 16 at 1.0) and is not read; turned
the other way it falls (the leg 6 at -0.4), which the rest rows do not say."""
SWUNG_FROM = 0.1
SIDEWAYS = 0.3
"""The least swing toward the fold the rows read (fk keys of 0.05 leave the leg at its rest row),
and the most the root's direction may lean off the bend plane (the sine: 0.36 leaves the arm
turned 0.4 needing 10, one fewer than its row)."""


def swung_root_need(rig: RigView, chain: IKChain, bend: float) -> list[Need]:
    """What a limb without a pole, unheld (``_held``), needs with its root posed swung toward
    its fold (``SWUNG_ROOT_NEEDS``); none for another limb or swing. The caller asks that the
    limb be as the posed starts were measured (Use Tail, nothing stretching, grown or stiff)."""
    if _held(rig, chain):
        return []
    swing = root_swing(rig, chain)
    if swing is None:
        return []
    toward, sideways = swing
    if toward < SWUNG_FROM or sideways > SIDEWAYS:
        return []
    count = by_bend(SWUNG_ROOT_NEEDS, bend, lambda rows: fewer_either_side(rows, toward))
    if not count:
        return []
    root = chain.moving_bones[-1]
    return [
        Need(
            count,
            f"{root} is posed turned {math.degrees(toward):.0f}° toward the fold, where the "
            f"solver starts without a pole, and two-bone limbs so posed need at least {count}, "
            "measured",
            "swung_root",
        )
    ]


def root_swing(rig: RigView, chain: IKChain) -> tuple[float, float] | None:
    """Radians the pose turns the chain's root bone toward its fold (a positive turn about the
    bend plane's normal), and the sine of its lean off that plane; None without a bend plane."""
    normal = bend_plane(rig, chain)
    if normal is None:
        return None
    root = chain.moving_bones[-1]
    rest = rig.bone(root).y_axis
    posed = started_pose(rig, chain)[root].to_3x3().col[1].normalized()
    toward = normal.cross(rest).normalized().dot(posed)
    return math.asin(max(-1.0, min(1.0, toward))), abs(posed.dot(normal))


def _held(rig: RigView, chain: IKChain) -> bool:
    """Whether a bone of the limb is IK-limited or IK-locked: not as the rows were measured."""
    return any(
        getattr(bone, f"use_ik_limit_{axis}") or getattr(bone, f"lock_ik_{axis}")
        for bone in (rig.pose_bone(name) for name in chain.moving_bones)
        for axis in AXES
    )
