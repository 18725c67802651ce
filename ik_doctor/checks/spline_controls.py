"""Spline IK controls: the curve must move with the rig's controls, and not with its own chain.

Measured in 4.2 and 5.3 on a four-bone tail whose curve has four points:

- Hooked to control bones that hang from the rig (not from the tail), the curve is the tail's
  control: moving two controls 0.3 and 0.2 moved the chain 0.3, every bone on the curve.
- With no hook, no parent and no constraint from the rig, nothing moves it: posing any bone
  leaves the tail where it is, and moving the armature object leaves the tail behind in the
  world (1.0 off the rig after moving the rig 1.0). A warning: the rig cannot pose its tail.
  A curve that something else moves (its own keys or drivers, another object's hooks, a parent
  that is not the rig) is left alone.
- Hooked to a bone the chain moves (a chain bone, or a control parented under the tail), or
  parented to one: a dependency cycle. In 4.2 the bones end up 0.10 to 0.41 off the curve (of a
  2.0 tail) and follow a moved control a third to a half of the way; 5.3 keeps them on the
  curve but lags (the chain followed 0.18 and 0.28 of a 0.3 move). An error.

The fix hooks every point of the curve's first spline that is not already hooked to a safe bone
to a new control bone placed on it, hanging from the rig's top bone above the chain; hooks and a
parent that the chain moves are removed (the curve keeps its place in the world).

What it reports:

- A curve that no bone of the rig moves (no hook, bone parent, armature deform or constraint;
  not animated itself): a warning. Posing the rig leaves the chain where the curve is; moving
  the rig leaves it behind.
- A curve hooked, parented or constrained to a bone the chain moves, the chain's root or
  anything below it: an error, a dependency cycle. In 4.2 the bones end 0.10 to 0.41 off the
  curve of a 2.0 tail.

What its fixes do:

- Hook every point not already hooked to a safe bone to a new control bone on it, hanging from
  the rig's top bone above the chain.
- Remove hooks on bones the chain moves, unparent the curve keeping its place, and mute such
  constraints (asks first).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import bpy

from ..core.curve_editing import (
    ensure_curve_editable,
    hook_to_new_controls,
    point_positions,
    point_vertices,
)
from ..core.finding import Finding, Severity, chain_finding
from ..core.names import named, readable
from ..core.registry import Check
from ..core.rig import RigView
from ..core.spline import (
    SplineChain,
    chains_on_curves,
    curve_links,
    curve_of,
    moved_by_chain,
    moved_from_outside,
    spline_chain_of,
    which_curve,
)


def find_spline_control_problems(rig: RigView, options: Mapping[str, Any]) -> Iterator[Finding]:
    for chain, _path in chains_on_curves(rig):
        curve = curve_of(chain)
        links = curve_links(rig, curve)
        looping = [link for link in links if link.bone and moved_by_chain(rig, chain, link.bone)]
        if looping:
            names = ", ".join(f"{link.how} on {link.bone}" for link in looping)
            yield chain_finding(
                "spline_controls",
                rig,
                chain,
                severity=Severity.ERROR,
                title="Curve moved by its chain",
                message=(
                    f"The {which_curve(chain)} is moved by bones the chain itself moves "
                    f"({names}): a dependency cycle."
                ),
                why=(
                    "The chain follows the curve and the curve follows the chain: Blender "
                    "reports a dependency cycle, and the bones lag behind the curve or leave it."
                ),
                fix_id="hook_controls",
                fix_label=(
                    "Hook the curve's points to new control bones outside the chain instead"
                ),
                needs_confirmation=any(link.kind == "constraint" for link in looping),
            )
        elif not any(link.moves_with_bones for link in links) and not moved_from_outside(
            rig, curve
        ):
            yield chain_finding(
                "spline_controls",
                rig,
                chain,
                severity=Severity.WARNING,
                title="No control moves curve",
                message=(
                    f"No bone of the rig moves the {which_curve(chain)}: posing the rig leaves "
                    "the chain where the curve is."
                ),
                why=(
                    "Spline IK only follows the curve; without hooks (or a bone parent) nothing "
                    "the animator poses shapes it, and moving the rig leaves it behind."
                ),
                fix_id="hook_controls",
                fix_label="Hook the curve's points to new control bones",
            )


def hook_controls(obj: bpy.types.Object, finding: Finding) -> str:
    rig = RigView(obj)
    chain = spline_chain_of(rig, finding)
    curve = curve_of(chain)
    spline = ensure_curve_editable(curve).splines[0]
    done = []
    for link in curve_links(rig, curve):
        if not (link.bone and moved_by_chain(rig, chain, link.bone)):
            continue
        if link.kind == "hook":
            curve.modifiers.remove(named(curve.modifiers, link.name))
            done.append(f"removed {link.how} on {link.bone}")
        elif link.kind == "constraint":
            named(named(bpy.data.objects, link.holder).constraints, link.name).mute = True
            done.append(f"muted {link.how} on {link.bone}")
        elif curve.parent is not None:  # a parent on the path: cut the curve loose from it
            world = curve.matrix_world.copy()
            curve.parent = None
            curve.matrix_world = world
            done.append(f"unparented it (it hung from {link.bone} through {link.how})")
    free = _unhooked_points(obj, rig, chain, curve, spline)
    controls = hook_to_new_controls(obj, chain, curve, free)
    done.append(f"hooked {len(free)} points to new control bones {', '.join(controls)}")
    return f"On the {which_curve(chain)}: {'; '.join(done)}."


def _unhooked_points(
    obj: bpy.types.Object,
    rig: RigView,
    chain: SplineChain,
    curve: bpy.types.Object,
    spline: bpy.types.Spline,
) -> list[int]:
    """The first spline's points that no remaining hook ties to a bone the chain leaves alone."""
    hooked: set[int] = set()
    for modifier in curve.modifiers:
        if isinstance(modifier, bpy.types.HookModifier) and modifier.object == obj:
            bone = readable(modifier, "subtarget")
            if bone and not moved_by_chain(rig, chain, bone):
                hooked.update(modifier.vertex_indices)
    count = len(point_positions(spline))
    return [i for i in range(count) if not hooked.issuperset(point_vertices(spline, i))]


CHECK = Check(
    id="spline_controls",
    title="Spline IK controls",
    doc=__doc__ or "",
    find=find_spline_control_problems,
    fixes={"hook_controls": hook_controls},
    order=30,
)
