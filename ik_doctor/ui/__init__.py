"""Everything a user touches inside Blender; it only presents what the core returns."""

from __future__ import annotations

import bpy

from .. import diagnose


class IK_DOCTOR_OT_check_rig(bpy.types.Operator):
    """Run every IK Doctor check on the active armature"""

    bl_idname = "ik_doctor.check_rig"
    bl_label = "Check Rig"
    bl_options = {"REGISTER"}

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        obj = context.active_object
        return obj is not None and obj.type == "ARMATURE"

    def execute(self, context: bpy.types.Context) -> set[str]:
        findings = diagnose(context.active_object)
        errors = sum(1 for f in findings if f.severity.value == "error")
        self.report({"INFO"}, f"IK Doctor: {len(findings)} findings, {errors} errors")
        return {"FINISHED"}


CLASSES = (IK_DOCTOR_OT_check_rig,)


def register() -> None:
    for cls in CLASSES:
        bpy.utils.register_class(cls)


def unregister() -> None:
    for cls in reversed(CLASSES):
        bpy.utils.unregister_class(cls)
