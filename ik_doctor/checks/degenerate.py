"""Degenerate bones: chain bones with (almost) no length, or posed with a scale of 0.

Blender 4.2 deletes a bone shorter than about 1e-6 when Edit Mode is left; 5.x keeps it at a
length of about 2e-6, pointing up whatever the limb does. A bone is too short below a thousandth
of the longest bone of its chain, or below 1e-5 whatever the chain (a chain of such bones only).
Such a bone counts toward the chain length but adds no reach, and its axes (and with them the
bend plane and roll it hands down) come from a vector of float noise. A pose scale of 0 on any
axis collapses the bone's matrix: measured in 4.2 and 5.3, a shin or thigh scaled to 0 on one
axis leaves the foot up to 0.74 from a reachable target on a 0.9 leg (0.006 at best, for the
shin's Z axis). Neither has a safe automatic fix: the right length or scale depends on what the
rigger meant, and scale 0 may be animated on purpose (hiding a limb).

What it reports:

- A chain bone shorter than 0.1% of the chain's longest, or than 1e-5: a warning. It gives no
  reach, and its axes come from float noise. 4.2 deletes bones under about 1e-6 on leaving Edit
  Mode; 5.x keeps them at about 2e-6.
- A chain bone posed with scale 0 on an axis: an error (the tip ends up to 0.74 short on a 0.9
  leg).

Its fix:

- None: the finding says what to do.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from ..core.finding import Finding, Severity, chain_finding
from ..core.limb import NOISE_LENGTH
from ..core.registry import Check
from ..core.rig import IKChain, RigView


def find_degenerate_bones(rig: RigView, options: Mapping[str, Any]) -> Iterator[Finding]:
    reported: set[str] = set()
    # Looser than _problem's 1e-6: the bulk read compares in 32-bit floats; _problem decides.
    flattened = rig.pose_bones_where(np.abs(rig.pose_values("scale", 3)).min(axis=1) < 2e-6)
    for chain in rig.chains:
        if chain.mute:
            continue
        lengths = [rig.bone(name).length for name in chain.bones]
        longest = max(lengths)
        too_short = min(lengths) < max(options["min_length_ratio"] * longest, NOISE_LENGTH)
        if not too_short and flattened.isdisjoint(chain.bones):
            continue  # no bone posed flat, none too short: nothing below can report
        for name in chain.bones:
            finding = _problem(rig, chain, name, longest, options)
            if finding is not None and name not in reported:
                reported.add(name)
                yield finding


def _problem(
    rig: RigView, chain: IKChain, name: str, longest: float, options: Mapping[str, Any]
) -> Finding | None:
    """The worse of the bone's two faults: one finding per bone (a zero scale before length)."""
    scale = rig.pose_bone(name).scale
    flat = [axis for axis, value in zip("XYZ", scale.to_tuple(), strict=True) if abs(value) < 1e-6]
    if flat:
        return chain_finding(
            "degenerate",
            rig,
            chain,
            bone=name,
            severity=Severity.ERROR,
            title="Bone scaled to 0",
            message=(
                f"{name} is posed with scale 0 on {', '.join(flat)}, which collapses it: "
                f"the chain of {chain.owner} cannot reach its target."
            ),
            why=(
                "A zero scale makes the bone's matrix singular: its children collapse onto "
                "a plane or a line and the solver's rotations no longer move the tip."
            ),
            no_fix_reason=(
                f"Set {name}'s scale back (or clear its scale keys) if it was not meant "
                "to hide the limb; a scale of 0 is sometimes animated on purpose."
            ),
            facts=(("flat_axes", "".join(flat)),),
        )
    length = rig.bone(name).length
    if length < max(options["min_length_ratio"] * longest, NOISE_LENGTH):
        return chain_finding(
            "degenerate",
            rig,
            chain,
            bone=name,
            severity=Severity.WARNING,
            title="Bone of no length",
            message=(
                f"{name} is {length:.2g} long in the chain of {chain.owner}: it counts "
                "toward the chain length but adds no reach."
            ),
            why=(
                "A bone with almost no length has no direction of its own: its axes, the "
                "bend plane and the roll its children inherit come from float noise, and "
                "the solver can only spin it in place."
            ),
            no_fix_reason=(
                f"Give {name} a real length in Edit Mode, or remove it and parent its "
                "children to its parent; which one depends on what the bone is for."
            ),
        )
    return None


CHECK = Check(
    id="degenerate",
    title="Degenerate bones",
    doc=__doc__ or "",
    find=find_degenerate_bones,
    options={"min_length_ratio": 1e-3},
    order=90,
)
