"""Chain length: how many bones the IK may rotate, counted up from the owner.

Blender's ``chain_count`` of 0 means "every parent up to the root": on a full rig a leg's IK then
drags the hips and spine. A count longer than the hierarchy silently acts as 0. A count of 1 on
a limb leaves the parent (the thigh, the upper arm) frozen, so the tip falls short of the
target. The fix sets the limb's natural length (see ``RigView.limb_length``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import bpy

from ..core.editing import constraint_on
from ..core.finding import Finding, Severity, chain_finding
from ..core.registry import Check, register
from ..core.rig import IKChain, RigView


def find_chain_length_problems(rig: RigView, options: Mapping[str, Any]) -> Iterator[Finding]:
    for chain in rig.chains:
        problem = _problem(rig, chain)
        if problem is None:
            continue
        severity, message, why, natural = problem
        yield chain_finding(
            "chain_length",
            rig,
            chain,
            severity=severity,
            message=message,
            why=why,
            fix_id="set_length",
            fix_label=f"Set chain length to {natural}",
            fix_args=(("length", natural),),
        )


def _problem(rig: RigView, chain: IKChain) -> tuple[Severity, str, str, int] | None:
    if chain.chain_count not in (0, 1) and not chain.is_cut_short:
        return None  # a set length that the hierarchy holds: none of the cases below
    natural = rig.limb_length(chain.owner)
    where = f"IK '{chain.constraint}' on {chain.owner}"
    limb = " → ".join(reversed(chain.bones[:natural]))
    if chain.chain_count == 0 and len(chain.bones) > natural:
        dragged = ", ".join(reversed(chain.bones[natural:]))
        return (
            Severity.WARNING,
            f"{where} has chain length 0, which reaches past the limb into {dragged}.",
            "Chain length 0 means every parent up to the root: moving the target bends the "
            f"body ({dragged}) as well as the limb ({limb}).",
            natural,
        )
    if chain.is_cut_short and rig.detached_parent(chain) is None:
        return (
            Severity.WARNING,
            f"{where} has chain length {chain.chain_count}, but only {len(chain.bones)} "
            "bones lie above it.",
            "Blender stops at the root, so the extra length does nothing now, and moves the "
            "root too if the rig is later parented.",
            natural,
        )
    if chain.chain_count == 1 and natural >= 2:
        return (
            Severity.ERROR,
            f"{where} has chain length 1, so {chain.bones[0]}'s parent never bends.",
            f"Only the owner rotates; with its parent frozen the tip cannot reach most "
            f"targets. The limb is {limb}.",
            natural,
        )
    return None


def set_chain_length(obj: bpy.types.Object, finding: Finding) -> str:
    length = int(finding.args["length"])
    constraint = constraint_on(obj, finding.bone, finding.constraint, bpy.types.KinematicConstraint)
    before = constraint.chain_count
    constraint.chain_count = length
    return (
        f"Set the chain length of IK '{constraint.name}' on {finding.bone} from {before} "
        f"to {length}."
    )


register(
    Check(
        id="chain_length",
        title="Chain length",
        doc=__doc__ or "",
        find=find_chain_length_problems,
        fixes={"set_length": set_chain_length},
        order=30,
    )
)
