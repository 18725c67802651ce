"""Spline IK direction: the curve must start at the chain's root, not at its tip.

Blender puts the chain's root head on the first point of the curve and lays the bones toward its
last. Measured in 4.2 and 5.3 on a four-bone tail with a curve drawn from the tip back to the
root (bezier, poly and NURBS alike): every bone still lies on the curve, but end for end; the
root's head moved the chain's whole length, onto the tip's rest place. An error: the chain is
upside down.

The fix reverses the spline's direction keeping its shape, as *Switch Direction* in the curve's
Edit Mode does (measured: same points, handles swapped, tilt negated, hook indices mirrored):
here on the data, so the hooks that move the points keep moving the same points.

What it reports:

- A curve that runs from the chain's tip to its root: an error. The chain lies on it end for
  end, its root's head moved the whole chain's length.

What its fixes do:

- Reverse the first spline keeping its shape, as Switch Direction does (handles swapped, tilt
  negated), with the hooks following their points.
- Refused for curves with shape keys, or with objects parented to their points.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import bpy

from ..core.curve_editing import ensure_curve_editable
from ..core.editing import FixError
from ..core.finding import Finding, Severity, chain_finding
from ..core.names import readable
from ..core.registry import Check
from ..core.rig import RigView
from ..core.spline import (
    chains_on_curves,
    curve_of,
    runs_backwards,
    spline_chain_of,
    which_curve,
)


def find_spline_direction_problems(rig: RigView, options: Mapping[str, Any]) -> Iterator[Finding]:
    for chain, path in chains_on_curves(rig):
        if not runs_backwards(rig, chain, path):
            continue
        yield chain_finding(
            "spline_direction",
            rig,
            chain,
            severity=Severity.ERROR,
            title="Curve runs backwards",
            message=(
                f"The {which_curve(chain)} runs from the chain's tip to its root: the chain "
                f"lies on it end for end, {chain.root} where {chain.owner} should be."
            ),
            why=(
                "Spline IK puts the head of the chain's top bone on the curve's first point and "
                "lays the bones toward its last point."
            ),
            fix_id="reverse_curve",
            fix_label=f"Reverse the direction of '{readable(curve_of(chain))}', keeping its shape",
        )


def reverse_curve(obj: bpy.types.Object, finding: Finding) -> str:
    chain = spline_chain_of(RigView(obj), finding)
    curve = curve_of(chain)
    data = ensure_curve_editable(curve)
    users = [other for other in bpy.data.objects if other.data == data]
    for other in bpy.data.objects:
        if other.parent in users and other.parent_type in ("VERTEX", "VERTEX_3"):
            raise FixError(
                f"'{readable(other)}' hangs from points of '{readable(other.parent)}': switch "
                "the curve's direction in its Edit Mode (Segment > Switch Direction), which keeps "
                "them."
            )
    spline = data.splines[0]
    count = _reverse(spline)
    per_point = 3 if spline.type == "BEZIER" else 1
    hooks = 0
    for user in users:
        for modifier in user.modifiers:
            if isinstance(modifier, bpy.types.HookModifier):
                flipped = [_mirrored(i, count, per_point) for i in modifier.vertex_indices]
                modifier.vertex_indices_set(flipped)
                hooks += 1
    kept = f"; its {hooks} hooks follow their points" if hooks else ""
    return (
        f"Reversed the direction of '{readable(curve)}' (its first spline, {count} points, same "
        f"shape): it now starts at {chain.root}'s head{kept}."
    )


def _reverse(spline: bpy.types.Spline) -> int:
    """Reverse the spline's points in place, as Switch Direction does; return how many."""
    if spline.type == "BEZIER":
        beziers = spline.bezier_points
        saved = [
            (
                p.co.copy(),
                p.handle_left.copy(),
                p.handle_right.copy(),
                p.handle_left_type,
                p.handle_right_type,
                p.radius,
                p.tilt,
                p.weight_softbody,
            )
            for p in beziers
        ]
        for point, (co, left, right, left_type, right_type, radius, tilt, weight) in zip(
            beziers, reversed(saved), strict=True
        ):
            point.handle_left_type = point.handle_right_type = "FREE"
            point.co, point.handle_left, point.handle_right = co, right, left
            point.handle_left_type, point.handle_right_type = right_type, left_type
            point.radius, point.tilt, point.weight_softbody = radius, -tilt, weight
        return len(beziers)
    points = spline.points
    kept = [(p.co.copy(), p.radius, p.tilt, p.weight_softbody) for p in points]
    for spline_point, (co, radius, tilt, weight) in zip(points, reversed(kept), strict=True):
        spline_point.co, spline_point.radius = co, radius
        spline_point.tilt, spline_point.weight_softbody = -tilt, weight
    return len(points)


def _mirrored(index: int, count: int, per_point: int) -> int:
    """Where a hooked vertex of the first spline goes when its points are reversed; vertices of
    later splines stay."""
    if index >= count * per_point:
        return index
    point, part = divmod(index, per_point)
    return (count - 1 - point) * per_point + (per_point - 1 - part)


CHECK = Check(
    id="spline_direction",
    title="Spline IK direction",
    doc=__doc__ or "",
    find=find_spline_direction_problems,
    fixes={"reverse_curve": reverse_curve},
    order=24,
)
