"""Spline IK chain: the chain count must take the bones that lie along the curve, joined.

Blender lays the chain's top bone (the owner's parent ``chain_count - 1`` up) on the curve's
first point. Measured in 4.2 and 5.3 on a four-bone tail hanging from the rig's root, with the
curve drawn along the tail:

- Count 5 takes the root too: the root's head moves 1.0 onto the curve's start, dragging the
  whole rig with it (error).
- Count 1 (what a new Spline IK gets) or 3 leaves the bones above in place, off the curve, while
  the counted bones stretch over all of it: the owner alone to 4 times its length (error).
- A count longer than the hierarchy (6 or 10 on the tail alone) solves like the full hierarchy:
  harmless today, but parenting the tail to a body later would drag the body (info).
- A bone not connected to its parent: the solver lays the bones end to end, closing the gap, so
  the bones below it move at rest by the gap (warning; connecting changes the rest pose).

What it reports:

- A chain count that does not start the chain where the curve starts: one that reaches past the
  tail is an error (the rig's root is dragged 1.0 onto the curve, and the rig with it); one that
  stops short of it, as the default 1 does, is an error too (the bones above stay off the curve
  while the owner stretches to 4 times its length).
- A count longer than the hierarchy: information, solved like the full hierarchy.
- A chain bone not connected to its parent: a warning, the solver lays the bones end to end,
  closing the gap.

What its fixes do:

- Set the chain count that starts the chain at the curve's first point (or the hierarchy's
  length).
- Connect the bone (changes the rest pose).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import bpy

from ..core.editing import constraint_on
from ..core.finding import Finding, Severity, chain_finding
from ..core.registry import Check
from ..core.rig import RigView
from ..core.spline import (
    SplineChain,
    fitting_count,
    forward_path,
    spline_chain_of,
    spline_chains,
    where,
)
from .parenting import connect_bone


def find_spline_chain_problems(rig: RigView, options: Mapping[str, Any]) -> Iterator[Finding]:
    for chain in spline_chains(rig):
        path = forward_path(rig, chain)
        count = None if path is None else fitting_count(rig, chain, path)
        if count is not None:
            yield _count_finding(rig, chain, count)
        elif chain.chain_count > len(chain.bones):
            yield _set_count(
                rig,
                chain,
                len(chain.bones),
                severity=Severity.INFO,
                title="Chain count too long",
                message=(
                    f"{where(chain)} has chain count {chain.chain_count}, but only "
                    f"{len(chain.bones)} bones lead up from {chain.owner}."
                ),
                why=(
                    "Blender stops at the top of the hierarchy, so the chain works; once the "
                    "top bone gets a parent, the count reaches into it and drags it onto the "
                    "curve."
                ),
            )
        joined = min(count or len(chain.bones), len(chain.bones)) - 1
        for name in chain.bones[:joined]:  # bones whose parent is in the chain meant
            gap = rig.gap_to_parent(name)
            if gap is not None:
                yield _gap_finding(rig, chain, name, gap)


def _count_finding(rig: RigView, chain: SplineChain, count: int) -> Finding:
    start = [chain.owner, *rig.ancestors(chain.owner)][count - 1]
    if count < len(chain.bones):
        dragged = ", ".join(chain.bones[count:])
        message = (
            f"{where(chain)} has chain count {chain.chain_count}, but the curve starts at "
            f"{start}: {dragged} (and everything hanging from it) is dragged onto the curve."
        )
        why = (
            "Blender puts the head of the chain's top bone on the curve's first point, so "
            "the bones counted above the curve are pulled onto it."
        )
    else:
        message = (
            f"{where(chain)} has chain count {chain.chain_count}, but the curve starts at "
            f"{start}: the bones above {chain.root} stay off the curve while "
            f"{chain.owner if len(chain.bones) == 1 else 'the counted bones'} "
            f"{'stretches' if len(chain.bones) == 1 else 'stretch'} over all of it."
        )
        why = (
            "Spline IK only moves the counted bones, and lays them along the whole curve: "
            "they stretch (or leave the curve) to cover the bones it leaves out."
        )
    title = "Bones dragged onto curve" if count < len(chain.bones) else "Bones left off curve"
    return _set_count(
        rig,
        chain,
        count,
        severity=Severity.ERROR,
        title=title,
        message=message,
        why=why,
        facts=(("dragged", tuple(chain.bones[count:])),),
    )


def _set_count(rig: RigView, chain: SplineChain, count: int, **fields: Any) -> Finding:
    return chain_finding(
        "spline_chain",
        rig,
        chain,
        fix_id="set_count",
        fix_label=f"Set the chain count to {count}",
        fix_args=(("count", count),),
        **fields,
    )


def _gap_finding(rig: RigView, chain: SplineChain, name: str, gap: float) -> Finding:
    parent = rig.bone(name).parent
    return chain_finding(
        "spline_chain",
        rig,
        chain,
        bone=name,
        severity=Severity.WARNING,
        title="Gap closed on curve",
        message=(
            f"{name} starts {gap:.3g} away from the tail of {parent}: {where(chain)} closes "
            f"the gap, so {name} and the bones below it shift by {gap:.3g} at rest."
        ),
        why=(
            "Spline IK lays the chain's bones end to end along the curve; the space between "
            "a bone and its parent is not kept."
        ),
        fix_id="connect",
        fix_label=(
            f"Connect {name} to {parent} (moves {name}'s head by {gap:.3g}; changes the rest pose)"
        ),
        changes_rest_pose=True,
    )


def set_count(obj: bpy.types.Object, finding: Finding) -> str:
    chain = spline_chain_of(RigView(obj), finding)
    count = int(finding.args["count"])
    constraint_on(obj, *chain.key, bpy.types.SplineIKConstraint).chain_count = count
    return f"Set the chain count of {where(chain)} from {chain.chain_count} to {count}."


CHECK = Check(
    id="spline_chain",
    title="Spline IK chain",
    doc=__doc__ or "",
    find=find_spline_chain_problems,
    fixes={"set_count": set_count, "connect": connect_bone},
    order=22,
)
