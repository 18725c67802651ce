"""The sidebar tab (View3D > Sidebar > IK Doctor) and the Pose menu's "IK Doctor" submenu.

Drawing reads only the stored report, so it costs O(findings shown) and never runs a check.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

import bpy

from ..core.editing import read_only_reason
from . import accept, context_given, operators, report, text_fit
from .operators import (
    IK_DOCTOR_OT_check_rig,
    IK_DOCTOR_OT_fix_all,
    IK_DOCTOR_OT_fix_finding,
    IK_DOCTOR_OT_select_bone,
    IK_DOCTOR_OT_verify_by_solving,
    IK_DOCTOR_OT_verify_export,
)

if TYPE_CHECKING:
    from bpy.stub_internal.rna_enums import IconItems

SEVERITY_ICONS: dict[str, IconItems] = {"ERROR": "CANCEL", "WARNING": "ERROR", "INFO": "INFO"}
HEADER_ICONS: dict[str, IconItems] = {"CHAIN": "CON_KINEMATIC", "RIG": "ARMATURE_DATA"}
LIST_ROWS = 8


class IK_DOCTOR_UL_findings(bpy.types.UIList):
    """The report, one row per finding under a header per IK chain or the rig-wide ones."""

    def draw_item(
        self,
        context: bpy.types.Context,
        layout: bpy.types.UILayout,
        data: Any | None,
        item: Any | None,
        icon: int | None,
        active_data: Any,
        active_property: str | None,
        index: int | None = 0,
        flt_flag: int | None = 0,
    ) -> None:
        """Draw one row of the report: Blender passes the list's own items (``rows``)."""
        item = _row(item)
        scale, width = text_fit.ui_scale(context), text_fit.region_width(context)
        if item.kind != "FINDING":
            text = text_fit.header_text(item, width, scale)
            layout.label(text=text, icon=HEADER_ICONS[item.kind])
            return
        row = layout.row(align=True)
        row.alert = item.severity == "ERROR"
        text = text_fit.finding_text(item, width, scale)
        row.label(text=text, icon=SEVERITY_ICONS[item.severity])
        # Select is in the box below: one button less leaves the title room to read whole.
        fix = row.row(align=True)
        if item.fix_id:
            fix.enabled = read_only_reason(operators._rig(context)) is None
            button = fix.operator(IK_DOCTOR_OT_fix_finding.bl_idname, text="", icon="TOOL_SETTINGS")
            button.index = index
        else:
            fix.label(text="", icon="BLANK1")


class IK_DOCTOR_PT_panel(bpy.types.Panel):
    """Check the active armature's IK, read why it fails, fix one finding or all"""

    bl_idname = "IK_DOCTOR_PT_panel"
    bl_label = "IK Doctor"
    bl_space_type = "VIEW_3D"
    bl_region_type = "UI"
    bl_category = "IK Doctor"

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        obj = context.active_object
        return obj is not None and obj.type == "ARMATURE" and obj.mode in {"POSE", "OBJECT"}

    def draw(self, context: bpy.types.Context) -> None:
        layout = context_given.layout_of(self)
        obj = operators._rig(context)  # poll made sure of it
        reason = read_only_reason(obj)
        if obj.mode == "OBJECT" and reason is None:
            layout.label(text="IK Doctor works in Pose Mode.", icon="INFO")
            enter = layout.operator("object.mode_set", text="Enter Pose Mode", icon="POSE_HLT")
            enter.mode = "POSE"
            return
        # Two rows: four buttons in one cut "Check Rig" to "Check..." at the default width
        # (Debian's Blender 5.2.2, real window).
        row = layout.row(align=True)
        row.operator(IK_DOCTOR_OT_check_rig.bl_idname, icon="VIEWZOOM")
        row.prop(report.state(context), "show_overlay", text="", icon="OVERLAY")
        row = layout.row(align=True)
        row.operator(IK_DOCTOR_OT_verify_by_solving.bl_idname, text="Verify", icon="ACTION")
        row.operator(IK_DOCTOR_OT_verify_export.bl_idname, text="Export", icon="EXPORT")
        stored = report.report_for(context, obj)
        if stored is None:
            layout.label(text="Not checked yet: press Check Rig.")
            return
        lines = _line_breaker(context)
        if stored.stale:
            box = layout.box()
            box.alert = True
            box.label(text="The rig changed since this check.", icon="FILE_REFRESH")
            box.operator(IK_DOCTOR_OT_check_rig.bl_idname, text="Check Again")
        if reason is not None:  # a linked rig cannot even enter Pose Mode: check it from here
            box = layout.box()
            box.label(text="Fixes disabled:", icon="LIBRARY_DATA_DIRECT")
            _wrapped(box, reason, lines)
        accept.draw_settings_problem(layout, stored, lines)
        if not stored.rows:
            layout.label(text="No problems found", icon="CHECKMARK")
            accept.draw_accepted(layout, stored, lines)
            return
        _draw_summary(layout, stored)
        list_type = IK_DOCTOR_UL_findings.__name__
        layout.template_list(list_type, "", stored, "rows", stored, "active_index", rows=LIST_ROWS)
        # Under the list, above the chosen finding: in Blender 4.3 a click on a part of the
        # sidebar that grew when another row was chosen reached the 3D View behind it (it
        # deselected the bones), and the finding's text below grows and shrinks by row.
        fixable = sum(1 for row in stored.rows if row.kind == "FINDING" and row.fix_id)
        row = layout.row()
        row.enabled = fixable > 0 and reason is None
        row.operator(IK_DOCTOR_OT_fix_all.bl_idname, text=f"Fix All ({fixable})", icon="CHECKMARK")
        _draw_active_finding(layout, stored, reason, lines)
        accept.draw_accepted(layout, stored, lines)


class IK_DOCTOR_MT_pose(bpy.types.Menu):
    """Every IK Doctor operator, in the Pose menu, so F3 search finds them"""

    bl_idname = "IK_DOCTOR_MT_pose"
    bl_label = "IK Doctor"

    def draw(self, context: bpy.types.Context) -> None:
        layout = context_given.layout_of(self)
        for operator in (*operators.CLASSES, *accept.CLASSES):
            layout.operator(operator.bl_idname)


def draw_in_pose_menu(self: bpy.types.Menu, context: bpy.types.Context) -> None:
    layout = context_given.layout_of(self)
    layout.separator()
    layout.menu(IK_DOCTOR_MT_pose.bl_idname)


CLASSES = (IK_DOCTOR_UL_findings, IK_DOCTOR_PT_panel, IK_DOCTOR_MT_pose)


def register() -> None:
    for cls in CLASSES:
        bpy.utils.register_class(cls)
    bpy.types.VIEW3D_MT_pose.append(draw_in_pose_menu)


def unregister() -> None:
    bpy.types.VIEW3D_MT_pose.remove(draw_in_pose_menu)
    for cls in reversed(CLASSES):
        bpy.utils.unregister_class(cls)


def _row(item: Any | None) -> report.IK_DOCTOR_PG_finding:
    """The report row ``UIList.draw_item`` was given, which the stubs type as anything."""
    assert item is not None
    row: report.IK_DOCTOR_PG_finding = item
    return row


def _draw_summary(layout: bpy.types.UILayout, stored: report.IK_DOCTOR_PG_report) -> None:
    """One label, the worst severity's icon and the counts that are not zero."""
    counts = {"ERROR": stored.errors, "WARNING": stored.warnings, "INFO": stored.infos}
    worst = next((severity for severity, count in counts.items() if count), "INFO")
    layout.label(text=report.summary(stored), icon=SEVERITY_ICONS[worst])


def _draw_active_finding(
    layout: bpy.types.UILayout,
    stored: report.IK_DOCTOR_PG_report,
    reason: str | None,
    lines: Callable[[str], list[str]],
) -> None:
    """The selected finding in full: message, why, and its fix or why there is none."""
    if not 0 <= stored.active_index < len(stored.rows):
        return
    item = stored.rows[stored.active_index]
    if item.kind != "FINDING":
        return
    box = layout.box()
    box.alert = item.severity == "ERROR"
    box.label(text=item.title, icon=SEVERITY_ICONS[item.severity])
    message, action, why, fix_text = text_fit.box_paragraphs(item)
    _wrapped(box, message, lines)
    if action:
        _wrapped(box, action, lines)
    box.label(text="Why:")
    _wrapped(box, why, lines)
    row = box.row(align=True)
    row.operator(IK_DOCTOR_OT_select_bone.bl_idname, text="Select", icon="RESTRICT_SELECT_OFF")
    if item.fix_id:
        # Beside Select a button holds about 12 characters ("Fix (changes r..." in Debian's
        # Blender 5.2.2 at the default width): the fix's label, in the paragraph below, says
        # what it does to the rest pose.
        fix = row.row(align=True)
        fix.enabled = reason is None
        fix.operator(IK_DOCTOR_OT_fix_finding.bl_idname, text="Fix", icon="TOOL_SETTINGS")
    accepting = box.row()
    accepting.enabled = reason is None
    accept.draw_buttons(accepting, item)
    if fix_text:
        _wrapped(box, fix_text, lines)


def _line_breaker(context: bpy.types.Context) -> Callable[[str], list[str]]:
    """Breaks a text into the lines the box below the list holds whole, measured with blf."""
    scale = text_fit.ui_scale(context)
    room = text_fit.box_room(text_fit.region_width(context), scale)
    return partial(text_fit.wrap, room=room, scale=scale)


def _wrapped(layout: bpy.types.UILayout, text: str, lines: Callable[[str], list[str]]) -> None:
    column = layout.column(align=True)
    for line in lines(text):
        column.label(text=line)
