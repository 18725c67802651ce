"""IK target: the constraint needs something to reach for, and it must not be its own chain.

With no target, or a subtarget naming a bone that does not exist, Blender marks the
constraint invalid and the chain never moves. A target that is the owner bone or a bone of
its own chain moves with the chain it is meant to pull: the solver chases itself. On an IK
switched off on purpose (muted with an active twin on the bone, or a driven switch), which the
oracle judges through its twin, that is a warning: it fails once switched on.

What it reports:

- No target; a subtarget bone that does not exist; the armature itself as target; the owner or
  its own chain as target: an error.
- Each is a warning on an IK switched off beside a live twin, judged through the twin.

What its fixes do:

- A non-deforming control bone at the chain tip, parented to the rig's root, as target.
- None for an IK whose bones another live IK pulls already: a second control would pull them two
  ways.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import bpy

from ..core.controls import add_control_bone
from ..core.editing import constraint_on
from ..core.finding import Finding, Severity, chain_finding
from ..core.limb import solved_with
from ..core.names import readable
from ..core.registry import Check
from ..core.rig import IKChain, RigView
from ..core.switches import switched_off

FIX_LABEL = "Create an IK control bone at the chain tip and make it the target"


def find_target_problems(rig: RigView, options: Mapping[str, Any]) -> Iterator[Finding]:
    for chain in rig.chains:
        problem = _problem(rig, chain)
        if problem is None:
            continue
        title, message, why = problem
        rival = None if switched_off(rig, chain) else _rival(rig, chain)
        yield chain_finding(
            "target",
            rig,
            chain,
            severity=Severity.ERROR,
            title=title,
            message=message,
            why=why,
            fix_id=None if rival else "create_control",
            fix_label=None if rival else FIX_LABEL,
            facts=(("rival_ik", (rival.owner, rival.constraint) if rival else None),),
            no_fix_reason=(
                f"IK '{rival.constraint}' on {rival.owner} already pulls bones of this chain "
                f"toward its target: a control of this IK's own would pull them two ways (the "
                "duplicates check's error); aim this IK at that target, or delete it"
                if rival
                else None
            ),
        )


def _rival(rig: RigView, chain: IKChain) -> IKChain | None:
    """Another live IK with a target that turns a bone this chain turns: it pulls the chain
    already, and a new control for this one would pull it toward a second goal (measured: a
    twin aimed at the other hand then misses by 87% of the leg's reach)."""
    return next(iter(solved_with(rig, chain)), None)


def _problem(rig: RigView, chain: IKChain) -> tuple[str, str, str] | None:
    """Title, message and why of the chain's target fault, if it has one."""
    where = f"IK '{chain.constraint}' on {chain.owner}"
    if chain.target is None:
        return (
            "No target",
            f"{where} has no target.",
            "Without a target the constraint is invalid: Blender skips it and the chain "
            "never moves.",
        )
    if chain.target_bone_missing:
        return (
            "Target bone missing",
            f"{where} targets bone '{chain.subtarget}', which does not exist in "
            f"'{readable(chain.target)}'.",
            "A subtarget naming a missing bone makes the constraint invalid (red in the "
            "constraint panel): the chain stays where it is.",
        )
    if chain.target == rig.object and not chain.subtarget:
        return (
            "Target is the armature",
            f"{where} targets the armature object itself, not one of its bones.",
            "The target is then the armature's origin, which moves with the rig: the "
            "chain reaches for a point that travels with it, and no control moves it.",
        )
    if chain.target == rig.object and chain.subtarget in chain.bones:
        which = "the owner bone" if chain.subtarget == chain.owner else "a bone of its own chain"
        return (
            "Target in its own chain",
            f"{where} targets {chain.subtarget}, {which}.",
            "The target moves whenever the solver moves the chain, so the chain chases "
            "itself and never settles.",
        )
    return None


def create_control_bone(obj: bpy.types.Object, finding: Finding) -> str:
    """Add a non-deforming control bone at the chain tip, outside the chain, and target it."""
    rig = RigView(obj)
    chain = rig.chain_of(finding)
    tip, aim = rig.chain_tip(chain), rig.bone(chain.owner).y_axis
    name, parent = add_control_bone(obj, rig, chain, f"IK-{chain.owner}", tip, aim)
    constraint = constraint_on(obj, *chain.key, bpy.types.KinematicConstraint)
    constraint.target = obj
    constraint.subtarget = name
    where = f"parented to {parent}" if parent else "with no parent"
    return (
        f"Created control bone '{name}' at the tip of {chain.owner} ({where}) and made it the "
        f"target of IK '{chain.constraint}'."
    )


CHECK = Check(
    id="target",
    title="IK target",
    doc=__doc__ or "",
    find=find_target_problems,
    fixes={"create_control": create_control_bone},
    order=20,
)
