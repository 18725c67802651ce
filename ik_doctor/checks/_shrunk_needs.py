"""What a two-bone limb posed shorter than it was built needs of the solver to reach by IK
Stretch alone, for the solver check's iteration count."""

from __future__ import annotations

from ..core.reach import channel_lengths
from ..core.rig import IKChain, RigView
from ._need_tables import Need

# fmt: off
SHRUNK_STRETCH_NEEDS = (
    (0.95, ((0.1, 35), (0.2, 20), (0.3, 12), (0.5, 7))),
    (0.9, ((0.1, 60), (0.2, 28), (0.3, 18), (0.5, 9))),
    (0.75, ((0.1, 70), (0.2, 40), (0.3, 22), (0.5, 13), (1.0, 5))),
)
# fmt: on
"""Iterations a two-bone limb needs whose posed bones add up to this share of its rest length
(or less) and that reaches its built targets only by IK Stretch, by the greater stretch of its
bones (this or more; up to 0.1 alike). Fresh seed 378, a miss: the arm's upper arm scaled 0.5,
its forearm inheriting no scale, stretching 0.1, 7.2% short at 20 iterations under a warning.
Measured on 4.2, the arm and the leg, with a pole and without, the upper bone scaled with the
lower not inheriting it or the lower bone scaled, both bones stretching or the lower alone: the
fewest of them (0.75 at 0.1: one bone stretching 70, both 80; the leg needs up to 10 more than
the arm). Scaled 0.95 (0.975 of the length) the arm lands at 10, as the stretch rows say; a bone
scaled along its length alone shears the one below and never lands."""


def shrunk_stretch_need(rig: RigView, chain: IKChain, stretching: tuple[str, ...]) -> Need | None:
    """The count ``SHRUNK_STRETCH_NEEDS`` sets for a limb of two bones ``stretching`` whose pose
    shortens it; None for another chain, one shortened less, or a stretch past the rows."""
    if len(chain.moving_bones) != 2 or not stretching:
        return None
    lengths = channel_lengths(rig, chain)
    rest = {name: rig.bone(name).length for name in lengths}
    share = round(sum(lengths[name] * rest[name] for name in rest) / sum(rest.values()), 3)
    rows = [(at_most, needs) for at_most, needs in SHRUNK_STRETCH_NEEDS if share <= at_most]
    if not rows:
        return None
    at_most, needs = min(rows)
    stretch = max(round(rig.pose_bone(name).ik_stretch, 4) for name in stretching)
    count = next((count for up_to, count in needs if stretch <= up_to), None)
    if count is None:
        return None
    return Need(
        count,
        f"its bones are posed at {share:.0%} of their rest length, so it reaches only by IK "
        f"Stretch {stretch:g} on {' and '.join(stretching)}, and two-bone limbs posed at "
        f"{at_most:.0%} or less so stretching need at least {count}, measured",
        "shrunk_stretch",
    )
