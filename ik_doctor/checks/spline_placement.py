"""Spline IK placement: at rest the curve must start on the chain's root, at the rig's scale.

Measured in 4.2 and 5.3 on a four-bone tail (2.0 long):

- A curve drawn 3.0 away from the tail: at rest the whole chain jumps 3.0 onto it (the root's
  head goes on the curve's first point). With *Chain Offset* on, the chain keeps its place and
  only follows the curve's changes: that is not reported.
- The curve object's scale relative to the rig (``core.spline.curve_scale``): without *Fit
  Curve* a scale of 2 makes the bones twice as long and leaves them 0.96 off the curve; a scale
  of 1, 2, 1 slides the joints along a bent curve by 0.25 with *Fit Curve*. Rotation, location
  and, with *Fit Curve*, an even scale change nothing, and are not reported.

Both are warnings: the chain follows the curve, but not from its rest pose.

What it reports:

- A curve that starts more than 1% of the chain's length from the root's head, without Chain
  Offset: a warning, the chain jumps that far at rest.
- A curve object scaled relative to the rig so that it slides the joints along the curve by more
  than 1% of the chain (scale 1, 2, 1 on a bent curve: 0.25 of a 2.0 tail), or, without Fit
  Curve, scales the bones (scale 2: bones twice as long, 0.96 off the curve): a warning.
- Rotation, location, and an even scale with Fit Curve change nothing and are not reported.

What its fixes do:

- Move the curve's points so that it starts at the root's head.
- Apply the scale to the curve's points, keeping the curve, its hooks and its children where
  they are.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import bpy
from mathutils import Matrix

from ..core.curve_editing import first_point, move_points, transform_points
from ..core.editing import FixError
from ..core.finding import Finding, Severity, chain_finding
from ..core.names import readable
from ..core.registry import Check
from ..core.rig import RigView
from ..core.spline import (
    SplineChain,
    chain_length,
    chains_on_curves,
    curve_of,
    curve_scale,
    curve_to_rig,
    distorting_scale,
    fitting_count,
    forward_path,
    spline_chain_of,
    where,
    which_curve,
)

MAX_START_OFFSET = 0.01
"""The curve may start this fraction of the chain's length from the root's head before the jump
at rest is reported (measured: the chain jumps exactly that distance)."""


def find_spline_placement_problems(rig: RigView, options: Mapping[str, Any]) -> Iterator[Finding]:
    for chain, path in chains_on_curves(rig, forward_path):
        name = readable(curve_of(chain))
        scale = distorting_scale(rig, chain, path)
        if scale is not None:
            effect = f"the joints slide up to {path.slide:.3g} along it"
            scales_bones = not chain.fits_curve and max(scale) - min(scale) <= 1e-3 * max(scale)
            if scales_bones:
                effect = f"the bones are scaled {scale[0]:.3g} times (Fit Curve is off)"
            sizes = ", ".join(f"{s:.3g}" for s in scale)
            yield _warning(
                rig,
                chain,
                title="Curve scaled",
                message=(
                    f"The {which_curve(chain)} is scaled ({sizes}) relative to the rig: {effect}."
                ),
                why=(
                    "Spline IK measures how far along the curve each bone goes in the curve "
                    "object's own space, and the bones in the rig's: a scale between them "
                    "stretches or slides the chain."
                ),
                fix_id="apply_scale",
                fix_label=f"Apply the scale of '{name}' to its points (nothing moves)",
                facts=(
                    ("scale", tuple(scale)),
                    ("slide", path.slide),
                    ("scales_bones", scales_bones),
                ),
            )
        if chain.use_chain_offset or fitting_count(rig, chain, path) is not None:
            continue
        offset = (path.start - rig.bone(chain.root).head).length
        if offset > MAX_START_OFFSET * chain_length(rig, chain):
            yield _warning(
                rig,
                chain,
                title="Curve starts off chain",
                message=(
                    f"The {which_curve(chain)} starts {offset:.3g} from the head of "
                    f"{chain.root}: at rest the chain jumps {offset:.3g} onto it."
                ),
                why=(
                    "Spline IK puts the head of the chain's top bone on the curve's first "
                    "point, wherever that is."
                ),
                fix_id="move_curve",
                fix_label=f"Move the points of '{name}' so it starts at {chain.root}",
                facts=(("offset", offset),),
            )


def _warning(rig: RigView, chain: SplineChain, **fields: Any) -> Finding:
    return chain_finding("spline_placement", rig, chain, severity=Severity.WARNING, **fields)


def move_curve(obj: bpy.types.Object, finding: Finding) -> str:
    """Move every point of the curve by the same step, so its first point is the root's head."""
    rig = RigView(obj)
    chain = spline_chain_of(rig, finding)
    curve = curve_of(chain)
    start = first_point(curve)
    goal = curve.matrix_world.inverted_safe() @ obj.matrix_world @ rig.bone(chain.root).head
    controls = move_points(curve, Matrix.Translation(goal - start))
    return (
        f"Moved the points of '{readable(curve)}' by {(goal - start).length:.3g} so it starts at "
        f"the head of {chain.root}{controls}."
    )


def apply_scale(obj: bpy.types.Object, finding: Finding) -> str:
    """Scale the points by the curve's scale relative to the rig and take that scale off the
    object, so the curve stays where it is in the world and measures as the rig does.

    Hooks and children of the curve keep their place: their inverse matrices take the scale.
    """
    rig = RigView(obj)
    chain = spline_chain_of(rig, finding)
    curve = curve_of(chain)
    if abs(curve_to_rig(obj, curve).to_3x3().determinant()) < 1e-12:
        raise FixError(f"'{readable(curve)}' is scaled to 0 on an axis: there is no shape to keep.")
    scale = Matrix.Diagonal(curve_scale(rig, chain)).to_4x4()
    unscale = scale.inverted()
    world = curve.matrix_world.copy()
    transform_points(curve, scale)
    curve.matrix_world = world @ unscale
    for modifier in curve.modifiers:
        if isinstance(modifier, bpy.types.HookModifier):
            modifier.matrix_inverse = modifier.matrix_inverse @ unscale
            modifier.center = scale @ modifier.center
    for child in curve.children:
        child.matrix_parent_inverse = scale @ child.matrix_parent_inverse
    size = ", ".join(f"{scale[axis][axis]:.3g}" for axis in range(3))
    return (
        f"Applied the scale ({size}) of '{readable(curve)}' to its points: it stays where it "
        f"is and now measures as the rig does, so {where(chain)} lays its bones at their own "
        "length."
    )


CHECK = Check(
    id="spline_placement",
    title="Spline IK placement",
    doc=__doc__ or "",
    find=find_spline_placement_problems,
    fixes={"move_curve": move_curve, "apply_scale": apply_scale},
    order=26,
)
