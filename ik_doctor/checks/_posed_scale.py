"""A chain bone posed scaled, for the locks check: a root IK-locked on X folds its limb off its
plane, about Z, without a pole, but only at the bones' built lengths.

Bent at rest (fresh seed 276, a miss: the thigh posed 1.5 over a shin not inheriting it, 16%
short under "Locked, folds off plane"), the root or the lower bone posed 1.01 to 1.5, evenly or
along its length, stops 0.4% to 41% short. Straight at rest (fresh seed 359, a miss: the straight
arm without a pole, its upper arm locked on X and posed (1, 2, 1), 74% short unreported), measured
on 4.2 and 5.3, the arm and the leg, free or on one-sided hinges: the root posed (1, 1.01, 1)
stops 0.93% short, (1.1, 1.1, 1.1) 9.3%, the lower bone posed (1, 1.5, 1) 25%; unscaled, or
unlocked, they land. So the root's lock is the error there, and freeing it the fix."""

from __future__ import annotations

import bpy

from ..core.rig import IKChain

POSED_SCALE = 0.002
"""How far from 1 a chain bone's own pose scale may be for a root locked on X to fold off its
plane without a pole (measured: 1.001 and 1.002 land, 1.003 and 0.997 stop 0.1% short;
``posed_scaled``)."""


def posed_scaled(bones: dict[str, bpy.types.PoseBone], chain: IKChain) -> bool:
    """Whether a bone of the chain is posed scaled (its own channels, past ``POSED_SCALE``)."""
    return any(
        max(abs(value - 1.0) for value in bones[name].matrix_basis.to_scale().to_tuple())
        > POSED_SCALE
        for name in chain.moving_bones
    )
