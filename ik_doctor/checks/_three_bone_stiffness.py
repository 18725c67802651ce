"""IK stiffness on a chain of three bones whose root turns freely: the two bones below it, both
stiff, stop the solver short where either alone lands. Measured on two shapes unlike each other
(an arm from its shoulder, an insect's leg from its coxa), and read as the lesser of the two, so
it holds for a chain of three that is neither; below where both fail, a warning for Verify by
Solving (``_lock_stiffness.stiff_unmeasured``)."""

from __future__ import annotations

from collections.abc import Iterator

from ..core.finding import Finding
from ..core.reach import REACH_TOLERANCE, stretching_bones
from ..core.rig import AXES, IKChain, RigView
from ._shear import SCALE_TOLERANCE
from ._stiffness_findings import aimed_by_a_pole, chain_too_stiff
from ._stiffness_tables import shortfall

LOWER_PAIR_SHORTFALL = (
    (0.895, 9.9e-4),
    (0.9, 1.40e-3),
    (0.95, 2.33e-3),
    (0.975, 3.80e-3),
    (0.99, 6.17e-3),
)
"""Share of the reach a chain of three with a pole stops short at this IK stiffness on both
bones below a free root (every axis, 500 iterations), the lesser of two shapes: the reference
arm of chain length 3 (shoulder, upper arm, forearm: from 0.8, 0.104% to 0.729% at 0.99, the
same on 4.2, 4.5 and 5.3; 0.795 lands; fresh seed 263: 0.7% short at 0.99 under a warning) and
issue 25's insect leg (coxa, femur, tibia: 0.118% at 0.85 to 0.617% at 0.99, 0.82 to 0.84 on a
knife edge, 0.8 lands). Either lower bone alone stiff to 0.99 lands the arm. Read from 0.9:
at 0.85 the arm posed 20° or 70° at the elbow, or with its upper arm stiffer, lands (108 faults
added to it one at a time; at 0.9, none lands)."""


def lower_pair_stiffness(rig: RigView, chain: IKChain) -> float | None:
    """The lesser IK stiffness (on the swing axes) of the two lower bones of a chain of three
    turning bones with a pole, as ``LOWER_PAIR_SHORTFALL`` was measured: its root not stiff,
    no bone IK-locked, stretching or posed at another length; None for other chains."""
    if len(chain.moving_bones) != 3 or not aimed_by_a_pole(rig, chain):
        return None
    if stretching_bones(rig, chain):
        return None
    bones = [rig.pose_bone(name) for name in chain.moving_bones]
    if any(getattr(bone, f"lock_ik_{axis}") for bone in bones for axis in AXES):
        return None
    if any(abs(bone.matrix_basis.to_scale().y - 1.0) > SCALE_TOLERANCE for bone in bones):
        return None
    swings = [min(bone.ik_stiffness_x, bone.ik_stiffness_z) for bone in bones]
    if max(bones[-1].ik_stiffness_x, bones[-1].ik_stiffness_z) > 0.0 or min(swings[:2]) <= 0.0:
        return None
    return round(min(swings[:2]), 3)


def lower_pair_findings(
    rig: RigView, chain: IKChain, stiffness: float, threshold: float
) -> Iterator[Finding]:
    """The stiff lower pair's measured shortfall, an error past the oracle's tolerance."""
    share = shortfall(LOWER_PAIR_SHORTFALL, stiffness)
    if stiffness < threshold - 1e-6 and share < REACH_TOLERANCE:
        return
    joint, middle, root = chain.moving_bones
    yield chain_too_stiff(
        rig,
        chain,
        share,
        f"{stiffness:.3g} on {middle} and {joint}, below {root} in the chain of IK "
        f"'{chain.constraint}' on {chain.owner}",
        why=(
            "Stiffness slows every step the solver takes; with both bones below a free root "
            "stiff, the root alone cannot make up the fold (measured on an arm of three bones "
            "from its shoulder and on an insect's leg: 0.14% to 0.18% of the reach short at "
            "0.9, 0.62% to 0.73% at 0.99; either bone alone stiff lands)."
        ),
        cleared=(middle, joint),
        facts=(("stiffness", stiffness), ("shortfall", share)),
    )
