"""What a two-bone limb locked on every axis needs of the solver to reach by IK Stretch alone,
for the solver check's iteration count: it cannot turn, so each iteration only stretches it a
little further along the line it already lies on, and it closes the gap slowly."""

from __future__ import annotations

from ..core.reach import stretching_bones
from ..core.rig import IKChain, RigView
from ._need_tables import Need
from ._tip_motion import blocked_every_way

FROZEN_STRETCH_NEEDS = 40
"""Iterations below which a two-bone limb with a pole, every axis of both bones IK-locked and
both stretching, stops short. Fresh seed 484, a miss: the leg so locked, stretching 0.5 and
0.05, at 20 iterations 0.5% of its reach short under warnings. Measured on 4.2, the leg and the
arm, stretch 0.01 to 1 on the lower bone and a tenth of it on the upper, every second count from
30 to 60: the leg lands from 40 (the lower bone at 0.3 or more) or 48 (0.1 or less), the arm
from 42 or 52; 38 leave the leg 0.11% of its reach short. Between the least and the most it
depends on the stretch, which is left to the unmeasured-count warning."""


def frozen_stretch_need(rig: RigView, chain: IKChain) -> Need | None:
    """``FROZEN_STRETCH_NEEDS`` for an unposed two-bone limb with a pole and Use Tail whose bones
    are locked (or held by zero-width limits) on every axis and all stretch; None otherwise."""
    if len(chain.moving_bones) != 2 or chain.pole is None or not chain.use_tail:
        return None
    if not blocked_every_way(rig, chain):
        return None
    if set(stretching_bones(rig, chain)) != set(chain.moving_bones):
        return None
    if rig.turned_or_scaled.intersection(chain.moving_bones):
        return None  # posed: not measured
    return Need(
        FROZEN_STRETCH_NEEDS,
        "locked on every axis of both bones it reaches by IK Stretch alone, and two-bone limbs "
        f"with a pole so locked need at least {FROZEN_STRETCH_NEEDS} (measured: 38 leave a leg "
        "0.11% of its reach short; the leg needs 40 to 48, the arm 42 to 52, by the stretch)",
        "frozen_stretch",
    )
