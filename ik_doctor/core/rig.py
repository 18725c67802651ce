"""The per-pass view of one armature that every check reads: bones, parents and IK chains.

Checks never walk ``bpy`` collections themselves: the view reads each bone once, on first use,
so a pass over a 20,000-bone rig costs one walk, not one per check. The constraint stacks are
read in that one walk and indexed (chains by bone, key and control); a setting every bone has
is read in bulk (``pose_values``) so a check can skip the chains it cannot report on; values
several checks derive from a chain are computed once (``remember``). It never switches modes or
evaluates the depsgraph; it reads the rest pose (``Bone``) and the pose channels as they are.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import pairwise
from typing import TYPE_CHECKING, Any, TypeVar

import bpy
import numpy as np
from mathutils import Vector

from .armature import armature_data, pose_bone_of, pose_of
from .names import find, named, names_of, readable

if TYPE_CHECKING:
    from .finding import Finding

T = TypeVar("T")

BULK_TYPES = {"BOOLEAN": np.bool_, "FLOAT": np.float32, "INT": np.int32}
"""The numpy type ``foreach_get`` fills in one copy for each kind of Blender property."""
AXES = "xyz"
"""The suffixes of Blender's per-axis bone and constraint settings (``lock_ik_x``,
``ik_min_y``, ``use_limit_z``), in order."""
GAP_RATIO = 0.01
"""A bone not connected to its parent that starts more than this fraction of the parent's
length from the parent's tail leaves a gap: an IK pivots on empty space, a Spline IK closes
it."""


class BoneView:
    """The rest-pose facts about one bone, in armature space, each read on first use.

    Checks read a handful of facts about a few bones of each chain; reading only those keeps a
    pass over a 20,000-bone rig cheap.
    """

    def __init__(self, bone: bpy.types.Bone) -> None:
        self._bone = bone
        self.name: str = readable(bone)

    @cached_property
    def parent(self) -> str | None:
        parent = self._bone.parent
        return readable(parent) if parent is not None else None

    @cached_property
    def use_connect(self) -> bool:
        return self._bone.use_connect

    @cached_property
    def use_deform(self) -> bool:
        return self._bone.use_deform

    @cached_property
    def head(self) -> Vector:
        return self._bone.head_local.copy()

    @cached_property
    def tail(self) -> Vector:
        return self._bone.tail_local.copy()

    @cached_property
    def length(self) -> float:
        return (self.tail - self.head).length

    @cached_property
    def _axes(self) -> tuple[Vector, Vector, Vector]:
        columns = self._bone.matrix_local.col
        return (
            columns[0].xyz.normalized(),
            columns[1].xyz.normalized(),
            columns[2].xyz.normalized(),
        )

    @property
    def x_axis(self) -> Vector:
        return self._axes[0]

    @property
    def y_axis(self) -> Vector:
        return self._axes[1]

    @property
    def z_axis(self) -> Vector:
        return self._axes[2]


@dataclass(frozen=True)
class BoneChain:
    """A constraint that moves a line of bones up from its owner (an IK, a Spline IK): what
    findings, fixes and new controls know a chain by."""

    owner: str
    constraint: str
    bones: tuple[str, ...]
    """Owner first, then each parent, as far as the constraint's ``chain_count`` reaches."""
    chain_count: int
    mute: bool
    influence: float

    @property
    def live(self) -> bool:
        """Whether the constraint acts at all: not muted, influence above 0."""
        return not self.mute and self.influence > 0.0

    @property
    def key(self) -> tuple[str, str]:
        return (self.owner, self.constraint)

    @property
    def root(self) -> str:
        """The bone furthest from the owner: an IK pivots on it, a Spline IK puts its head on
        the curve's first point."""
        return self.bones[-1]


@dataclass(frozen=True)
class IKChain(BoneChain):
    """One IK constraint and the bones it moves, with its targets resolved.

    ``bones`` runs up to ``chain_count`` bones (all the way up for 0). Without ``use_tail`` the
    count starts at the owner's parent, as Blender's solver counts: the owner only carries the
    tip, so a count of 1 turns its parent (measured).
    """

    use_tail: bool
    target: bpy.types.Object | None
    subtarget: str
    target_bone_missing: bool
    pole: bpy.types.Object | None
    pole_subtarget: str
    pole_bone_missing: bool
    pole_angle: float

    @property
    def moving_bones(self) -> tuple[str, ...]:
        """The bones the solver rotates, owner first; without ``use_tail`` the owner only
        follows (its head is the tip)."""
        return self.moving_part(self.bones)

    def moving_part(self, bones: tuple[str, ...]) -> tuple[str, ...]:
        """``bones`` (owner first, as the chain or the limb around it) less the owner when it
        only follows."""
        return bones if self.use_tail else bones[1:]

    @property
    def is_cut_short(self) -> bool:
        """The chain asks for more bones than the hierarchy above the owner has."""
        return self.chain_count > len(self.moving_bones)

    def count_for(self, bones: int) -> int:
        """The ``chain_count`` that spans ``bones`` bones counted from the owner up (a limb's
        length): one less without ``use_tail``, whose count starts at the owner's parent."""
        return bones if self.use_tail else max(bones - 1, 1)

    def shares_control(self, other: IKChain) -> bool:
        """Whether ``other`` is aimed at the same control (object and bone) as this chain: the
        two solves then pull toward one point, and each starts from where the other left."""
        return (self.target, self.subtarget) == (other.target, other.subtarget)


class RigView:
    """Read-once access to an armature object for one diagnosis pass."""

    def __init__(self, obj: bpy.types.Object) -> None:
        self.object = obj
        self.name: str = readable(obj)
        # Blender looks bones up by name in a hash table; by index it walks a list.
        self._bones: bpy.types.ArmatureBones = armature_data(obj).bones
        self._views: dict[str, BoneView] = {}
        self._child_names: dict[str, list[str]] = {}
        self._pose_bones: dict[str, bpy.types.PoseBone] = {}
        self._reaches: dict[tuple[str, ...], float] = {}
        self._derived: dict[Hashable, Any] = {}

    # --- bones -------------------------------------------------------------------------------

    def bone_names(self) -> list[str]:
        return names_of(self._bones)

    def has_bone(self, name: str) -> bool:
        return name in self._views or find(self._bones, name) is not None

    def raw_bone(self, name: str) -> bpy.types.Bone:
        return named(self._bones, name)

    def pose_bone(self, name: str) -> bpy.types.PoseBone:
        pose_bone = self._pose_bones.get(name)
        if pose_bone is None:
            pose_bone = self._pose_bones[name] = pose_bone_of(self.object, name)
        return pose_bone

    def constraints(self, name: str) -> tuple[bpy.types.Constraint, ...]:
        """The constraints of a pose bone, in stack order, read in the one walk over the pose."""
        return self._constraint_stacks.get(name, ())

    def constrained_bones(self) -> list[str]:
        """The pose bones with a constraint, in pose order: most bones of a large rig have none."""
        return list(self._constraint_stacks)

    def ik_constraint(self, chain: IKChain) -> bpy.types.KinematicConstraint:
        """The Blender constraint behind a chain, for the settings the view does not copy."""
        return self._ik_constraints[chain.key]

    def pulls(self, chain: IKChain) -> bool:
        """Whether Blender solves the IK toward a target: live, with a target it can resolve.
        Blender marks the rest invalid and they move nothing: no target, a missing bone, or
        the armature itself without a bone (measured: ``is_valid`` False, the chain unmoved)."""
        aimed = chain.target is not None and not chain.target_bone_missing
        return chain.live and aimed and self.ik_constraint(chain).is_valid

    @cached_property
    def _constraint_stacks(self) -> dict[str, tuple[bpy.types.Constraint, ...]]:
        """The one walk over the pose: the constraint stack of every bone that has one."""
        stacks = {}
        for pose_bone in pose_of(self.object).bones:
            constraints = pose_bone.constraints
            if constraints:  # most bones have none: do not copy an empty stack
                stacks[readable(pose_bone)] = known_constraints(constraints)
        return stacks

    @cached_property
    def _ik_constraints(self) -> dict[tuple[str, str], bpy.types.KinematicConstraint]:
        return {
            (name, readable(constraint)): constraint
            for name, constraints in self._constraint_stacks.items()
            for constraint in constraints
            if isinstance(constraint, bpy.types.KinematicConstraint)  # type "IK"
        }

    def pose_values(self, prop: str, size: int = 1) -> np.ndarray:
        """One property of every pose bone, read in one bulk call: a row per pose bone.

        Checks use it to find the few bones worth a closer look without touching each one, and
        keep only those: the array is not kept, so a pass holds no per-bone copies.
        """
        pose_bones = pose_of(self.object).bones
        # Blender copies straight into a buffer of the property's own type, else per item.
        kind = bpy.types.PoseBone.bl_rna.properties[prop].type
        values: np.ndarray = np.empty(len(pose_bones) * size, dtype=BULK_TYPES[kind])
        pose_bones.foreach_get(prop, values)
        return values.reshape(-1, size) if size > 1 else values

    def pose_bones_where(self, mask: np.ndarray) -> set[str]:
        """Names of the pose bones whose row of ``pose_values`` the mask selects."""
        if not mask.any():
            return set()
        # Walked rather than listed: by index Blender walks the list for every bone.
        pose_bones = pose_of(self.object).bones
        return {readable(pose_bone) for pose_bone, hit in zip(pose_bones, mask, strict=True) if hit}

    @cached_property
    def turned_or_scaled(self) -> set[str]:
        """Pose bones whose rotation or scale channels differ from rest, in any rotation mode.

        Every other bone's ``matrix_basis`` is a pure translation: checks that judge a pose
        need not read it.
        """
        rotated = (self.pose_values("rotation_quaternion", 4) != (1.0, 0.0, 0.0, 0.0)).any(axis=1)
        rotated |= (self.pose_values("rotation_euler", 3) != 0.0).any(axis=1)
        rotated |= self.pose_values("rotation_axis_angle", 4)[:, 0] != 0.0
        scaled = (self.pose_values("scale", 3) != 1.0).any(axis=1)
        return self.pose_bones_where(rotated | scaled)

    def bone(self, name: str) -> BoneView:
        view = self._views.get(name)
        if view is None:
            view = self._views[name] = BoneView(named(self._bones, name))
        return view

    def children(self, name: str) -> list[str]:
        """Direct children, read from Blender only for the bones a check asks about."""
        known = self._child_names.get(name)
        if known is None:
            children = named(self._bones, name).children
            known = self._child_names[name] = [readable(child) for child in children]
        return known

    def ancestors(self, name: str) -> list[str]:
        """Parents of ``name``, nearest first."""
        result = []
        parent = self.bone(name).parent
        while parent is not None:
            result.append(parent)
            parent = self.bone(parent).parent
        return result

    def is_descendant(self, name: str, ancestor: str) -> bool:
        return ancestor in self.ancestors(name)

    def bones_ending_at(self, point: Vector, tolerance: float) -> list[str]:
        """Bones whose tail lies on ``point``: the likely parents of a bone starting there."""
        tails = self._rest_tails
        near = np.flatnonzero(((tails - np.asarray(point)) ** 2).sum(axis=1) <= tolerance**2)
        names = self.bone_names()
        return [names[index] for index in near]

    @cached_property
    def _rest_tails(self) -> np.ndarray:
        tails = np.empty(len(self._bones) * 3, dtype=np.float64)
        self._bones.foreach_get("tail_local", tails)
        return tails.reshape(-1, 3)

    def remember(self, key: Hashable, compute: Callable[[], T]) -> T:
        """A value derived from this pass's rig, computed once: checks share chain geometry.

        ``key`` must name everything the value depends on (a chain's bones, not its key).
        """
        if key not in self._derived:
            self._derived[key] = compute()
        return self._derived[key]

    # --- chains ------------------------------------------------------------------------------

    @cached_property
    def chains(self) -> list[IKChain]:
        """Every IK constraint on every pose bone, in pose-bone order."""
        return [
            self._chain(owner, constraint)
            for (owner, _name), constraint in self._ik_constraints.items()
        ]

    @cached_property
    def _chain_owners(self) -> set[str]:
        return {chain.owner for chain in self.chains}

    @cached_property
    def _chains_by_bone(self) -> dict[str, list[IKChain]]:
        index: dict[str, list[IKChain]] = {}
        for chain in self.chains:
            for name in chain.bones:
                index.setdefault(name, []).append(chain)
        return index

    @cached_property
    def _chains_by_key(self) -> dict[tuple[str, str], IKChain]:
        index: dict[tuple[str, str], IKChain] = {}
        for chain in self.chains:
            index.setdefault(chain.key, chain)
        return index

    @cached_property
    def _chains_by_control(self) -> dict[str, list[IKChain]]:
        index: dict[str, list[IKChain]] = {}
        for chain in self.chains:
            for obj, bone in ((chain.target, chain.subtarget), (chain.pole, chain.pole_subtarget)):
                if bone and obj == self.object:
                    users = index.setdefault(bone, [])
                    if not users or users[-1] is not chain:
                        users.append(chain)
        return index

    def chains_aimed_at(self, name: str) -> list[IKChain]:
        """The chains whose target or pole is this rig's bone ``name``, in rig order."""
        return list(self._chains_by_control.get(name, ()))

    def chains_with_bone(self, name: str) -> list[IKChain]:
        return list(self._chains_by_bone.get(name, ()))

    def chains_on_bone(self, owner: str) -> list[IKChain]:
        """The chains whose IK constraint sits on ``owner``, in stack order."""
        return [chain for chain in self._chains_by_bone.get(owner, ()) if chain.owner == owner]

    def nesting_chain(self, inner: IKChain) -> IKChain | None:
        """The first live, valid IK toward another target whose longer chain holds ``inner``'s
        owner above its own owner and turns a bone ``inner`` turns; None if there is none.

        Blender solves the two as one tree and the outer chain's target wins: the inner IK
        misses its target (0.13 of a 0.45 thigh measured), whatever its own chain length.
        Chains that only share their upper bones (two legs reaching the hips) both reach.
        """
        for outer in self.chains_with_bone(inner.owner):
            # Without Use Tail the inner IK turns only the bones above its owner: when those lie
            # above the outer chain, the two move no bone in common.
            shared = not set(inner.moving_bones).isdisjoint(outer.bones)
            same_goal = inner.shares_control(outer)
            if self.pulls(outer) and inner.owner in outer.bones[1:] and shared and not same_goal:
                return outer
        return None

    def chain(self, owner: str, constraint: str) -> IKChain | None:
        return self._chains_by_key.get((owner, constraint))

    def chain_of(self, finding: Finding) -> IKChain:
        """The chain a finding belongs to. Fixes are handed findings diagnosed just now, so
        it is there."""
        chain = None if finding.chain is None else self.chain(*finding.chain)
        assert chain is not None, f"'{self.name}' has no IK chain {finding.chain}"
        return chain

    def limb_length(self, owner: str) -> int:
        """Bones from the owner up to where the limb meets the body: its natural chain length.

        Climb while the bone sits on its parent's tail (connected, or head on the tail) and the
        parent has no other child and carries no IK of its own: a leg stops below the hips, an
        arm below a shoulder that is not attached to it.
        """
        owners = self._chain_owners
        length, name = 1, owner
        while True:
            parent = self.bone(name).parent
            if parent is None:
                return length
            attached = self.sits_on_parent(name)
            if not attached or len(self.children(parent)) > 1 or parent in owners:
                return length
            length, name = length + 1, parent

    def sits_on_parent(self, name: str) -> bool:
        """The bone starts where its parent ends (connected, or its head on the parent's tail):
        the two bend like one limb."""
        bone = self.bone(name)
        if bone.parent is None:
            return False
        parent = self.bone(bone.parent)
        return bone.use_connect or (bone.head - parent.tail).length <= 1e-4 * max(
            parent.length, 1.0
        )

    def gap_to_parent(self, name: str, ratio: float = GAP_RATIO) -> float | None:
        """How far the bone starts from its parent's tail when it is not connected and that is
        more than ``ratio`` of the parent's length; else None."""
        bone = self.bone(name)
        if bone.parent is None or bone.use_connect:
            return None
        parent = self.bone(bone.parent)
        gap = (bone.head - parent.tail).length
        return gap if gap > ratio * max(parent.length, 1e-6) else None

    def limb_carriers(self, chain: IKChain) -> tuple[str, ...]:
        """Bones the chain turns that other limbs hang from, owner side first: the hips a leg
        hangs from, when the chain reaches that far.

        A carrier is a chain bone that the next chain bone down does not sit on (the limb
        starts away from its tail: a thigh at the hips' head) and that has children off the
        chain (the other leg, the spine). Helpers along a limb (deform copies, armour, pistons)
        hang from bones the limb sits on, and do not count.
        """
        return self.carriers_along(chain.bones)

    def carriers_along(self, bones: Sequence[str]) -> tuple[str, ...]:
        """``limb_carriers`` of a line of bones, each the parent of the one before (a chain
        as it would be: the bones a cut chain would take in once parented back)."""
        carriers = []
        for below, name in pairwise(bones):
            if self.sits_on_parent(below):
                continue
            if any(child not in bones for child in self.children(name)):
                carriers.append(name)
        return tuple(carriers)

    def detached_parent(self, chain: IKChain) -> str | None:
        """For a chain cut short by a missing parent: the bone whose tail its top bone starts on.

        That bone was meant to be the parent; the chain is then broken in the hierarchy, not in
        its count.
        """
        top = chain.bones[-1]
        if not chain.is_cut_short or self.bone(top).parent is not None:
            return None
        top_view = self.bone(top)
        tolerance = 1e-3 * max(top_view.length, 1e-3)
        for name in self.bones_ending_at(top_view.head, tolerance):
            if name != top and not self.is_descendant(name, top):
                return name
        return None

    def chain_bones(self, owner: str, count: int, use_tail: bool) -> tuple[str, ...]:
        """The bones an IK on ``owner`` of this ``chain_count`` and Use Tail spans, owner first
        (``IKChain.bones``): without Use Tail the count starts at the owner's parent."""
        bones = [owner]
        while count == 0 or len(bones) < count + (not use_tail):
            parent = self.bone(bones[-1]).parent
            if parent is None:
                break
            bones.append(parent)
        return tuple(bones)

    def _chain(self, owner: str, constraint: bpy.types.KinematicConstraint) -> IKChain:
        count = constraint.chain_count
        use_tail = constraint.use_tail
        bones = self.chain_bones(owner, count, use_tail)
        target, subtarget = constraint.target, readable(constraint, "subtarget")
        pole, pole_subtarget = constraint.pole_target, readable(constraint, "pole_subtarget")
        return IKChain(
            owner=owner,
            constraint=readable(constraint),
            bones=bones,
            chain_count=count,
            use_tail=use_tail,
            target=target,
            subtarget=subtarget,
            target_bone_missing=self._names_missing_bone(target, subtarget),
            pole=pole,
            pole_subtarget=pole_subtarget,
            pole_bone_missing=self._names_missing_bone(pole, pole_subtarget),
            pole_angle=constraint.pole_angle,
            mute=constraint.mute,
            influence=constraint.influence,
        )

    def _names_missing_bone(self, obj: bpy.types.Object | None, bone: str) -> bool:
        if obj is None or obj.type != "ARMATURE" or not bone:
            return False
        if obj == self.object:
            return not self.has_bone(bone)
        return find(armature_data(obj).bones, bone) is None

    # --- geometry ----------------------------------------------------------------------------

    def chain_tip(self, chain: IKChain) -> Vector:
        """The rest-pose point the chain reaches for: owner tail, or head without ``use_tail``."""
        owner = self.bone(chain.owner)
        return owner.tail if chain.use_tail else owner.head

    def chain_reach(self, chain: IKChain) -> float:
        """Sum of the chain's bone lengths: how far it can reach from the root's head."""
        moving = chain.moving_bones
        reach = self._reaches.get(moving)
        if reach is None:
            reach = self._reaches[moving] = sum(self.bone(name).length for name in moving)
        return reach

    def joint_point(self, obj: bpy.types.Object | None, bone: str) -> Vector | None:
        """Rest position of a target or pole in this armature's space, or None if unresolved."""
        if obj is None:
            return None
        if obj.type == "ARMATURE" and bone:
            bones = self._bones if obj == self.object else armature_data(obj).bones
            source = find(bones, bone)
            if source is None:
                return None
            if obj == self.object:
                return source.head_local.copy()
            world = obj.matrix_world @ source.head_local
        else:
            world = object_point(obj, bone)
        return self.object.matrix_world.inverted_safe() @ world


def known_constraints(stack: Iterable[Any]) -> tuple[bpy.types.Constraint, ...]:
    """The constraints of a stack that this Blender can name, in stack order.

    A file from an old Blender can hold a constraint of a type this one no longer has (a 2.4x
    Null or Script constraint): Blender loads it as ``UnknownType``, with no name, type, mute or
    target to read, and skips it when it evaluates. Every stack IK Doctor reads goes through
    here, so nothing downstream meets one.
    """
    return tuple(c for c in stack if isinstance(c, bpy.types.Constraint))


def posed_tip(obj: bpy.types.Object, chain: IKChain) -> Vector:
    """World position of the chain's tip in the pose as last evaluated (``RigView.chain_tip``
    gives the rest one)."""
    owner = pose_bone_of(obj, chain.owner)
    return obj.matrix_world @ (owner.tail if chain.use_tail else owner.head)


def posed_point(obj: bpy.types.Object | None, bone: str, missing: bool) -> Vector | None:
    """World position of a target or pole in the pose as last evaluated (``RigView.joint_point``
    gives the rest one); None if unresolved. It reads what the depsgraph left, never evaluates."""
    if obj is None or missing:
        return None
    if obj.type == "ARMATURE" and bone:
        return obj.matrix_world @ pose_bone_of(obj, bone).head
    return object_point(obj, bone)


def object_point(obj: bpy.types.Object, group: str) -> Vector:
    """World position of an object target: its origin, or for a mesh and a vertex group, the
    group's vertices averaged by weight, as Blender's constraints read it (the mesh as modelled:
    a prop's vertex group, where a hand is placed)."""
    mesh = obj.data
    index = obj.vertex_groups.find(group) if group else -1
    if index < 0 or not isinstance(mesh, bpy.types.Mesh):
        return obj.matrix_world.translation.copy()
    total, weight = Vector(), 0.0
    for vertex in mesh.vertices:
        for element in vertex.groups:
            if element.group == index and element.weight > 0.0:
                total += vertex.co * element.weight
                weight += element.weight
    if weight == 0.0:
        return obj.matrix_world.translation.copy()
    return obj.matrix_world @ (total / weight)
