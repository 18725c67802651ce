"""Cycle: an IK target or pole that hangs from, or is constrained to, a bone of its own chain.

The solver moves the chain toward the control, and the control moves with the chain: the thing
meant to steer the limb is steered by it. Measured in 4.2 and 5.3 on the reference leg:

- An object target parented or constrained to a chain bone, or a target bone tied to the chain
  through another bone (a child of the foot, a helper with Child Of the shin): Blender prints
  "Dependency cycle detected" and the foot ends 0.24 to 1.1 from a target within reach (a
  target below the foot still reaches in 4.2, by evaluation order, and misses by 0.64 in 5.3).
- A target bone with a constraint (Child Of, Copy Location) on a chain bone: no cycle, but the
  chain carries the target away from wherever the animator puts it (0.58 in the oracle).
- A target bone parented straight to a chain bone: Blender reads it before the solve, so there
  is no cycle and the chain reaches in a still pose, but the target follows the chain's FK pose
  instead of staying where the animator put it: with the hips (or the shoulder) turned 40°, a
  control parented to the shin ends 0.105 (11.7% of the reach) from where it is put, one
  parented to the forearm 0.051 (10.1%); under the thigh or the upper arm, whether it is read
  before or after the solve moves it is Blender's evaluation order, which changed from one
  process to the next.
- A pole parented or constrained to a chain bone: a dependency cycle; the chain still reaches
  and bends toward the pole in a still pose.
- No cycle: a control that reads only the head of the chain's root (a Limit Distance keeping the
  foot control within reach of the hip joint), which the solver turns the root about and never
  moves; or one that a constraint only turns toward or with a chain bone (Copy Rotation, Damped
  Track), since the solver reads a target's or pole's place alone, unless the IK follows the
  target's rotation. The leg lands on every goal with each of them.

The ``target`` check reports a target that is a bone of the chain itself; this check reports
controls below the chain or driven by it through parents and constraints.

What it reports:

- An IK target or pole parented below a bone of its own chain, or tied to one through
  constraints (Child Of, Copy Location…, also through other bones and objects).
- A target tied by a constraint, through another bone, or that is an object, is carried away by
  the chain: an error, 0.24 to 1.1 short, with a dependency cycle for indirect paths and
  objects.
- A target bone parented straight to a chain bone follows the chain's FK pose: an error. Under
  the shin it ends 0.105 (11.7% of the leg's reach) from where it is put once the hips turn 40°;
  under the thigh, where it lands depends on Blender's evaluation order.
- A pole makes a cycle but still reaches: a warning.
- A target that is a chain bone itself is left to ``target``.

What its fixes do:

- Parent the control to the rig's top bone (or the armature), keeping its rest and posed place.
- Mute the constraint that ties it to the chain, keeping its place (asks first).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import bpy

from ..core.armature import armature_data, pose_bone_of
from ..core.controls import control_parent
from ..core.editing import FixError, constraint_on, edit_bones
from ..core.finding import Finding, Severity, chain_finding
from ..core.names import find, readable
from ..core.registry import Check
from ..core.rig import IKChain, RigView, known_constraints


@dataclass(frozen=True)
class ChainLink:
    """How a control depends on a chain bone: through its parents, or a constraint of its own."""

    chain_bone: str
    constraint: str | None
    """The control's own constraint that starts the path, or None when the path is parenting."""
    direct: bool
    """The control's parent or constraint target is the chain bone itself, with nothing between."""


def find_cycles(rig: RigView, options: Mapping[str, Any]) -> Iterator[Finding]:
    steps = _Steps(rig)
    for chain in rig.chains:
        if not chain.live:
            continue
        for role, obj, bone in (
            ("target", chain.target, chain.subtarget),
            ("pole", chain.pole, chain.pole_subtarget),
        ):
            if obj is None or (obj == rig.object and (not bone or bone in chain.bones)):
                continue  # no control, or the target check's own case
            if obj.type == "ARMATURE" and bone and find(armature_data(obj).bones, bone) is None:
                continue  # a missing bone is the target and pole checks' finding
            turned_matters = role == "target" and rig.ik_constraint(chain).use_rotation
            link = _link_to_chain(rig, chain, obj, bone, steps, turned_matters)
            if link is not None:
                yield _finding(rig, chain, role, obj, bone, link)


def _finding(
    rig: RigView, chain: IKChain, role: str, obj: bpy.types.Object, bone: str, link: ChainLink
) -> Finding:
    control = _describe(rig, obj, bone)
    where = f"IK '{chain.constraint}' on {chain.owner}"
    how = (
        f"hangs below {link.chain_bone}"
        if link.constraint is None
        else f"follows {link.chain_bone} through its constraint '{link.constraint}'"
    )
    is_bone = obj == rig.object and bool(bone)
    parented_to_chain = is_bone and link.direct and link.constraint is None
    severity, why = _effect(role, parented_to_chain)
    # What the message names: the control (object, bone) and the chain bone it depends on.
    facts = (("control", (readable(obj), bone)), ("chain_bone", link.chain_bone))
    fix: dict[str, Any]
    if link.constraint is not None:
        fix = dict(
            fix_id=f"mute_{role}_link",
            fix_label=f"Mute '{link.constraint}' on {control}, keeping where it is now",
            fix_args=(("constraint", link.constraint),),
            needs_confirmation=True,
        )
    else:
        parent = control_parent(rig, chain)
        if parent:
            label = f"Parent {control} to {parent}"
        else:
            label = f"Unparent {control}" if is_bone else f"Parent {control} to the armature object"
        fix = dict(
            fix_id=f"reparent_{role}",
            fix_label=f"{label}, keeping where it is",
            # The control is what the fix changes: named, so the fix runner refuses a name
            # Python cannot read, and a caller can tell what it touches.
            fix_args=(("parent", parent), ("control", bone)),
        )
    return chain_finding(
        "cycle",
        rig,
        chain,
        severity=severity,
        title=f"{role.title()} {'parented to chain' if parented_to_chain else 'in a cycle'}",
        message=f"The {role} of {where}, {control}, {how}, a bone of the chain it moves.",
        why=why,
        facts=facts,
        **fix,
    )


def _effect(role: str, parented_to_chain: bool) -> tuple[Severity, str]:
    """Severity and why, as measured in 4.2 and 5.3 (see the module docstring)."""
    if role == "target" and parented_to_chain:
        return Severity.ERROR, (
            "Blender reads a target bone parented straight to a chain bone before the solve, "
            "so there is no cycle, but the target moves with the chain's FK pose: once the "
            "body above the limb turns it no longer stays where the animator puts it (measured: "
            "a foot control under the shin ends 0.105, 11.7% of the leg's reach, off with the "
            "hips turned 40°; under the thigh its place depends on Blender's evaluation order)."
        )
    if role == "target":
        return Severity.ERROR, (
            "The target is evaluated from the chain's result: it moves away as the chain "
            "reaches for it (Blender reports a dependency cycle when the path runs through "
            "another bone or an object), so the animator cannot place it and the tip ends "
            "short of it."
        )
    return Severity.WARNING, (
        "The pole depends on the chain's result and the solve depends on the pole: Blender "
        "reports a dependency cycle and evaluates them in an arbitrary order, so the pole "
        "control no longer steers the bend on its own and the limb can lag a frame."
    )


def _link_to_chain(
    rig: RigView,
    chain: IKChain,
    obj: bpy.types.Object,
    bone: str,
    steps: _Steps,
    turned_matters: bool,
) -> ChainLink | None:
    """The first step of a path from a control to a bone of ``chain``, or None if none leads.
    A constraint that only turns the control is no step unless the IK follows the target's
    rotation: the solver reads a target's or pole's place alone (measured: a foot control with
    a Copy Rotation of the thigh, or a Damped Track at it, lands the leg on every goal)."""
    for constraint, start in steps.of(obj, bone):
        if constraint is not None and constraint.type in TURNS_ONLY and not turned_matters:
            continue
        found = _reaches_chain(chain, start, steps)
        if found is not None:
            direct = start == (rig.object, found)
            name = None if constraint is None else readable(constraint)
            return ChainLink(chain_bone=found, constraint=name, direct=direct)
    return None


Node = tuple[bpy.types.Object, str]


TURNS_ONLY = frozenset({"COPY_ROTATION", "DAMPED_TRACK", "TRACK_TO", "LOCKED_TRACK"})
"""Constraints that turn their owner and never move its head."""
HEAD_READERS = frozenset(
    {"COPY_LOCATION", "LIMIT_DISTANCE", "DAMPED_TRACK", "TRACK_TO", "LOCKED_TRACK", "STRETCH_TO"}
)
"""Constraints that read no more of a target bone than one point along it (``head_tail``)."""

Step = tuple[bpy.types.Constraint | None, Node]


def _first_steps(rig: RigView, obj: bpy.types.Object, bone: str) -> Iterator[Step]:
    """The nodes a control depends on directly: its parent (None), then each constraint target."""
    parent = _parent_node(obj, bone)
    if parent is not None:
        yield None, parent
    for constraint in _constraints(rig, obj, bone):
        for target in _constraint_targets(constraint):
            yield constraint, target


class _Steps:
    """``_first_steps`` of each node, and what each node depends on, read once per pass:
    controls share their parents, and most share a path to the root."""

    def __init__(self, rig: RigView) -> None:
        self._rig = rig
        self._known: dict[Node, list[Step]] = {}
        self._depends_on: dict[Node, list[str]] = {}

    def of(self, obj: bpy.types.Object, bone: str) -> list[Step]:
        steps = self._known.get((obj, bone))
        if steps is None:
            steps = self._known[(obj, bone)] = list(_first_steps(self._rig, obj, bone))
        return steps

    def rig_bones_from(self, start: Node) -> list[str]:
        """The rig's bones ``start`` is or depends on through parents and constraints, in the
        order a depth-first walk meets them (the first on a chain is the one reported)."""
        found = self._depends_on.get(start)
        if found is None:
            found = self._depends_on[start] = self._walk(start)
        return found

    def _walk(self, start: Node) -> list[str]:
        seen: set[Node] = set()
        bones: list[str] = []
        stack = [start]
        while stack:
            node = stack.pop()
            if node in seen:
                continue
            seen.add(node)
            obj, bone = node
            if obj == self._rig.object and bone:
                bones.append(bone)
            stack.extend(step for _constraint, step in self.of(obj, bone))
        return bones


def _reaches_chain(chain: IKChain, start: Node, steps: _Steps) -> str | None:
    """The chain bone this node is, or depends on through parents and constraints."""
    return next((bone for bone in steps.rig_bones_from(start) if bone in chain.bones), None)


def _parent_node(obj: bpy.types.Object, bone: str) -> Node | None:
    if obj.type == "ARMATURE" and bone:
        raw = find(armature_data(obj).bones, bone)
        if raw is not None and raw.parent is not None:
            return obj, readable(raw.parent)
        return None
    parent = obj.parent
    if parent is None:
        return None
    if parent.type == "ARMATURE" and obj.parent_type == "BONE":
        return parent, readable(obj, "parent_bone")  # "" when it names no bone
    return parent, ""


def _constraints(rig: RigView, obj: bpy.types.Object, bone: str) -> list[bpy.types.Constraint]:
    if obj == rig.object and bone:
        owner = rig.constraints(bone)
    elif obj.type == "ARMATURE" and bone:
        pose_bone = find(obj.pose.bones, bone) if obj.pose else None  # None until evaluated
        owner = known_constraints(pose_bone.constraints) if pose_bone is not None else ()
    else:
        owner = known_constraints(obj.constraints)
    return [c for c in owner if not c.mute and c.influence > 0.0]


def _constraint_targets(constraint: bpy.types.Constraint) -> Iterator[Node]:
    """Objects and bones a constraint reads; Armature constraints list several. A constraint
    that reads only a bone's head reads what places that head, its parent: an IK turns its
    chain's root about that head and never moves it (measured: a foot control kept within a
    distance of the thigh's head lands the leg on every goal, one kept near the knee does not)."""
    pairs = [(getattr(constraint, "target", None), readable(constraint, "subtarget", ""))]
    pairs += [(t.target, readable(t, "subtarget")) for t in getattr(constraint, "targets", ())]
    for target, subtarget in pairs:
        if not isinstance(target, bpy.types.Object):
            continue
        if target.type != "ARMATURE" or not subtarget:
            yield target, ""
        elif _reads_head_only(constraint):
            head_of = find(armature_data(target).bones, subtarget)
            if head_of is not None and head_of.parent is not None:
                yield target, readable(head_of.parent)
        else:
            yield target, subtarget


def _reads_head_only(constraint: bpy.types.Constraint) -> bool:
    return (
        constraint.type in HEAD_READERS
        and getattr(constraint, "head_tail", 1.0) == 0.0
        and not getattr(constraint, "use_bbone_shape", False)
    )


def _describe(rig: RigView, obj: bpy.types.Object, bone: str) -> str:
    if obj == rig.object and bone:
        return bone
    return f"object '{readable(obj)}'" + (f" (bone {bone})" if bone else "")


def _control_of(obj: bpy.types.Object, finding: Finding) -> tuple[bpy.types.Object, str]:
    constraint = constraint_on(obj, finding.bone, finding.constraint, bpy.types.KinematicConstraint)
    if finding.fix_id in ("reparent_target", "mute_target_link"):
        control, bone = constraint.target, readable(constraint, "subtarget")
    else:
        control, bone = constraint.pole_target, readable(constraint, "pole_subtarget")
    assert control is not None  # the finding was diagnosed just now, with this control
    return control, bone


@contextmanager
def _kept_in_place(
    obj: bpy.types.Object, control: bpy.types.Object, bone: str
) -> Iterator[tuple[bpy.types.PoseBone | bpy.types.Object, str]]:
    """Yield the control (its pose bone, or the object) and its name for people; once its
    parent or constraints have changed, put it back where it is now (posed, in the world)."""
    if control == obj and bone:
        pose_bone = pose_bone_of(obj, bone)
        posed = pose_bone.matrix.copy()
        yield pose_bone, bone
        pose_bone.matrix = posed
        return
    if control.library is not None:
        raise FixError(f"'{readable(control)}' is linked from {control.library.filepath}.")
    world = control.matrix_world.copy()
    yield control, f"object '{readable(control)}'"
    control.matrix_world = world


def reparent_control(obj: bpy.types.Object, finding: Finding) -> str:
    """Parent the control to the rig's top bone; its rest and posed world position stay put."""
    control, bone = _control_of(obj, finding)
    parent = finding.args["parent"]
    with _kept_in_place(obj, control, bone) as (owner, name):
        if isinstance(owner, bpy.types.PoseBone):
            with edit_bones(obj) as bones:
                bones[bone].use_connect = False
                bones[bone].parent = bones[parent] if parent else None
        elif parent:
            control.parent, control.parent_type, control.parent_bone = obj, "BONE", parent
        else:
            control.parent, control.parent_type = obj, "OBJECT"
    if parent:
        done = f"Parented {name} to {parent}"
    elif isinstance(owner, bpy.types.PoseBone):
        done = f"Unparented {name}"
    else:
        done = f"Parented {name} to the armature"
    return f"{done}; it stays where it was and no longer moves with the chain."


def mute_control_link(obj: bpy.types.Object, finding: Finding) -> str:
    """Mute the constraint tying the control to the chain, keeping the control where it is."""
    control, bone = _control_of(obj, finding)
    name = str(finding.args["constraint"])
    with _kept_in_place(obj, control, bone) as (owner, label):
        owner.constraints[name].mute = True
    return (
        f"Muted constraint '{name}' on {label} and kept it where it was, so it no longer "
        "follows the chain it steers."
    )


CHECK = Check(
    id="cycle",
    title="Dependency cycle",
    doc=__doc__ or "",
    find=find_cycles,
    fixes={
        "reparent_target": reparent_control,
        "reparent_pole": reparent_control,
        "mute_target_link": mute_control_link,
        "mute_pole_link": mute_control_link,
    },
    order=25,
)
