"""Spline IK length: at rest the curve should be as long as the chain it carries.

Measured in 4.2 and 5.3 on a four-bone tail (2.0 long) with straight curves 0.5 to 2 times its
length:

- *Fit Curve* (Y Scale Mode) scales every bone by the curve's length over the chain's: 0.5,
  0.8, 1.25 and 2.0 exactly. The chain stays on the curve, but at rest the bones (and the mesh)
  are squashed or stretched by that much.
- Without it (None, Bone Original) the bones keep their length: on a curve 0.8 times the
  chain's length the last 0.4 of the chain runs past the curve's end and leaves it (1.0 at
  half); on a longer curve the chain covers only its first part, and the controls of the rest
  move nothing.

Warnings beyond ``MAX_MISMATCH``. NURBS curves are not judged: their length is not evaluated.

What it reports:

- A curve more than 10% longer or shorter than the chain: a warning. With Fit Curve every bone
  stretches or squashes by exactly the ratio at rest; without it the end of the chain runs past
  the curve (0.4 of a 2.0 tail on a curve 0.8 as long), or the chain covers only part of it.
- NURBS curves are not judged.

What its fixes do:

- Scale the curve about its first point to the chain's length; hook controls stay where they
  are.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import bpy
from mathutils import Matrix

from ..core.curve_editing import first_point, move_points
from ..core.finding import Finding, Severity, chain_finding
from ..core.names import readable
from ..core.registry import Check
from ..core.rig import RigView
from ..core.spline import (
    chain_length,
    chains_on_curves,
    curve_of,
    distorting_scale,
    fitting_count,
    forward_path,
    spline_chain_of,
    where,
)

MAX_MISMATCH = 0.1
"""The curve may be this fraction longer or shorter than the chain: with Fit Curve the bones
stretch by exactly the ratio, so 10% is where a mesh visibly grows or shrinks at rest."""


def find_spline_length_problems(rig: RigView, options: Mapping[str, Any]) -> Iterator[Finding]:
    for chain, path in chains_on_curves(rig, forward_path):
        if not path.exact:
            continue
        if fitting_count(rig, chain, path) is not None or distorting_scale(rig, chain, path):
            continue  # the chain count, or the curve's scale, is the fault to fix first
        length, curve_length = chain_length(rig, chain), path.length
        if length <= 0.0 or abs(curve_length / length - 1.0) <= MAX_MISMATCH:
            continue
        ratio = curve_length / length
        sizes = (
            f"the curve '{readable(curve_of(chain))}' is {curve_length:.3g} long, "
            f"the chain {length:.3g}"
        )
        if chain.fits_curve:
            effect = f"Fit Curve {'stretches' if ratio > 1 else 'squashes'} every bone to "
            effect += f"{ratio:.2f} times its length at rest"
        elif ratio < 1:
            effect = f"the last {length - curve_length:.3g} of the chain runs past its end"
        else:
            effect = (
                f"the chain covers only the first {1 / ratio:.0%} of it; the rest moves nothing"
            )
        yield chain_finding(
            "spline_length",
            rig,
            chain,
            severity=Severity.WARNING,
            title="Curve longer than chain" if ratio > 1 else "Curve shorter than chain",
            message=f"{where(chain)}: {sizes}; {effect}.",
            why=(
                "Spline IK lays the chain's bones along the curve from its first point: with "
                "Fit Curve they stretch to its whole length, without it they keep their own."
            ),
            fix_id="scale_curve",
            fix_label=(
                f"Scale the curve about its first point by {length / curve_length:.3g} so it is "
                "as long as the chain"
            ),
            fix_args=(("factor", length / curve_length),),
        )


def scale_curve(obj: bpy.types.Object, finding: Finding) -> str:
    chain = spline_chain_of(RigView(obj), finding)
    curve = curve_of(chain)
    factor = float(finding.args["factor"])
    start = first_point(curve)
    about_start = Matrix.Translation(start) @ Matrix.Scale(factor, 4) @ Matrix.Translation(-start)
    controls = move_points(curve, about_start)
    return (
        f"Scaled the points of '{readable(curve)}' by {factor:.3g} about its first point: it "
        f"is now as long as the chain of {where(chain)}{controls}."
    )


CHECK = Check(
    id="spline_length",
    title="Spline IK length",
    doc=__doc__ or "",
    find=find_spline_length_problems,
    fixes={"scale_curve": scale_curve},
    order=28,
)
