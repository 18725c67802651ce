"""Whether a fix may run without asking: one decision the panel, Fix All and the command line share.

A fix costs something beyond the fault it removes in two ways. It may throw something away
(keys, a constraint's effect), or it may move bones in Edit Mode, which changes the bind of
every mesh skinned to the rig. A rest-pose change on a rig that deforms nothing moves no
vertex, so it is applied like any other fix; the other two wait for the user's word.
"""

from __future__ import annotations

from dataclasses import dataclass

import bpy

from .finding import Finding
from .names import readable


@dataclass(frozen=True)
class FixPermission:
    """What the user allowed beyond the fixes that cost nothing."""

    rebind_meshes: bool = False
    """Rest-pose changes on a rig that deforms a mesh (the mesh gets a new bind)."""
    discard: bool = False
    """Fixes that throw something away."""


@dataclass(frozen=True)
class FixImpact:
    """What applying one finding's fix would change beyond the fault itself."""

    discards: bool
    moves_rest_pose: bool
    skinned_meshes: tuple[str, ...]
    """Meshes whose bind a rest-pose change moves (empty when the rig deforms nothing)."""

    @property
    def rebinds_meshes(self) -> bool:
        return self.moves_rest_pose and bool(self.skinned_meshes)

    @property
    def asks_first(self) -> bool:
        return self.discards or self.rebinds_meshes

    def allowed_by(self, permission: FixPermission) -> bool:
        return (permission.discard or not self.discards) and (
            permission.rebind_meshes or not self.rebinds_meshes
        )

    def costs(self) -> list[str]:
        """What the fix costs, in words true for this rig: empty when it costs nothing."""
        costs = []
        if self.rebinds_meshes:
            costs.append(
                "moves bones in Edit Mode, so the mesh this rig deforms "
                f"({_names(self.skinned_meshes)}) gets a new bind"
            )
        if self.discards:
            costs.append("throws something away (keys, a constraint's effect)")
        return costs


def skinned_meshes(obj: bpy.types.Object) -> tuple[str, ...]:
    """Objects skinned to this armature, by an Armature modifier or armature parenting."""
    names = []
    for other in bpy.data.objects:
        by_parent = other.parent == obj and other.parent_type == "ARMATURE"
        by_modifier = any(
            modifier.type == "ARMATURE" and modifier.object == obj
            for modifier in getattr(other, "modifiers", ())
        )
        if by_parent or by_modifier:
            names.append(readable(other))
    return tuple(sorted(names))


def fix_impact(
    finding: Finding, obj: bpy.types.Object, skinned: tuple[str, ...] | None = None
) -> FixImpact:
    """What ``finding``'s fix costs on ``obj``; pass ``skinned`` to judge many findings at once."""
    return FixImpact(
        discards=finding.needs_confirmation,
        moves_rest_pose=finding.changes_rest_pose,
        skinned_meshes=skinned_meshes(obj) if skinned is None else skinned,
    )


def _names(names: tuple[str, ...]) -> str:
    shown = ", ".join(names[:3])
    return shown + (f" and {len(names) - 3} more" if len(names) > 3 else "")
