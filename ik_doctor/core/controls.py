"""Control bones that fixes add (an IK target, a pole, a curve's hooks): where they hang and
how they are made.

A control steers a limb, so it must not move with it: it hangs from the rig's top bone above
the chain (or from nothing), deforms nothing, and is a quarter of the owner's length long.
"""

from __future__ import annotations

import bpy
from mathutils import Vector

from .editing import FixError, edit_bones
from .names import SAVED_AS_BYTES, has_unreadable
from .rig import BoneChain, RigView


def control_parent(rig: RigView, chain: BoneChain) -> str | None:
    """The rig's top bone above the chain: a control follows the rig, not the limb."""
    above = rig.ancestors(chain.root)
    return above[-1] if above else None


def add_control_bone(
    obj: bpy.types.Object, rig: RigView, chain: BoneChain, name: str, head: Vector, aim: Vector
) -> tuple[str, str | None]:
    """Add a control bone for ``chain`` at ``head`` pointing along ``aim``; return the name it
    got (Blender adds a suffix to a name in use) and its parent (``control_parent``)."""
    parent = control_parent(rig, chain)
    if has_unreadable(parent):
        # Found by the property tests: the top bone above the chain named in bytes that are not
        # text cannot be asked for by name, and the new bone would be left without its parent.
        raise FixError(
            f"{parent}, the bone the new control would hang from, is {SAVED_AS_BYTES}: "
            "Blender cannot be asked for it by name. Rename it in Blender, then fix."
        )
    length = max(rig.bone(chain.owner).length * 0.25, 1e-3)
    direction = aim.normalized() if aim.length > 1e-9 else Vector((0.0, 1.0, 0.0))
    with edit_bones(obj, same_for_every_user=True) as bones:
        control = bones.new(name)
        control.head = head
        control.tail = head + direction * length
        control.roll = 0.0
        control.use_deform = False
        control.parent = bones[parent] if parent else None
        added = control.name
    return added, parent
