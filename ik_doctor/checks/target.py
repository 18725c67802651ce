"""IK target: the constraint needs something to reach for, and it must not be its own chain.

With no target, or a subtarget naming a bone that does not exist, Blender marks the
constraint invalid and the chain never moves. A target that is the owner bone or a bone of
its own chain moves with the chain it is meant to pull: the solver chases itself.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import bpy
from mathutils import Vector

from ..core.editing import edit_bones
from ..core.finding import Finding, Severity
from ..core.registry import Check, register
from ..core.rig import IKChain, RigView

FIX_LABEL = "Create an IK control bone at the chain tip and make it the target"


def find_target_problems(rig: RigView, options: Mapping[str, Any]) -> Iterator[Finding]:
    for chain in rig.chains:
        problem = _problem(rig, chain)
        if problem is None:
            continue
        message, why = problem
        yield Finding(
            check_id="target",
            severity=Severity.ERROR,
            armature=rig.name,
            bone=chain.owner,
            constraint=chain.constraint,
            chain=chain.key,
            message=message,
            why=why,
            fix_id="create_control",
            fix_label=FIX_LABEL,
        )


def _problem(rig: RigView, chain: IKChain) -> tuple[str, str] | None:
    where = f"IK '{chain.constraint}' on {chain.owner}"
    if chain.target is None:
        return (
            f"{where} has no target.",
            "Without a target the constraint is invalid: Blender skips it and the chain "
            "never moves.",
        )
    if chain.target_bone_missing:
        return (
            f"{where} targets bone '{chain.subtarget}', which does not exist in "
            f"'{chain.target.name}'.",
            "A subtarget naming a missing bone makes the constraint invalid (red in the "
            "constraint panel): the chain stays where it is.",
        )
    if chain.target == rig.object and not chain.subtarget:
        return (
            f"{where} targets the armature object itself, not one of its bones.",
            "The target is then the armature's origin, which moves with the rig: the "
            "chain reaches for a point that travels with it, and no control moves it.",
        )
    if chain.target == rig.object and chain.subtarget in chain.bones:
        which = "the owner bone" if chain.subtarget == chain.owner else "a bone of its own chain"
        return (
            f"{where} targets {chain.subtarget}, {which}.",
            "The target moves whenever the solver moves the chain, so the chain chases "
            "itself and never settles.",
        )
    return None


def create_control_bone(obj: bpy.types.Object, finding: Finding) -> str:
    """Add a non-deforming control bone at the chain tip, outside the chain, and target it."""
    rig = RigView(obj)
    chain = rig.chain(finding.bone or "", finding.constraint or "")
    assert chain is not None  # apply_fix passes a finding diagnosed just now
    tip = rig.chain_tip(chain)
    owner = rig.bone(chain.owner)
    parent = _control_parent(rig, chain)
    length = max(owner.length * 0.25, 1e-3)
    with edit_bones(obj) as bones:
        control = bones.new(f"IK-{chain.owner}")
        control.head = tip
        control.tail = tip + _direction(owner.y_axis) * length
        control.roll = 0.0
        control.use_deform = False
        control.parent = bones[parent] if parent else None
        name = control.name
    constraint = obj.pose.bones[chain.owner].constraints[chain.constraint]
    constraint.target = obj
    constraint.subtarget = name
    where = f"parented to {parent}" if parent else "with no parent"
    return (
        f"Created control bone '{name}' at the tip of {chain.owner} ({where}) and made it the "
        f"target of IK '{chain.constraint}'."
    )


def _control_parent(rig: RigView, chain: IKChain) -> str | None:
    """The rig's top bone above the chain, so the control follows the rig but not the limb."""
    above = rig.ancestors(chain.root)
    return above[-1] if above else None


def _direction(axis: Vector) -> Vector:
    return axis if axis.length > 1e-9 else Vector((0.0, 1.0, 0.0))


register(
    Check(
        id="target",
        title="IK target",
        doc=__doc__ or "",
        find=find_target_problems,
        fixes={"create_control": create_control_bone},
        order=20,
    )
)
