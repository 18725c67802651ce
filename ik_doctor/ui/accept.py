"""Accepting a finding on purpose from the panel, and taking the acceptance back.

*Accept...* asks for the reason in a dialog and stores a waiver on the armature
(``core.waiver_store``); both operators are ``REGISTER | UNDO``, so Ctrl+Z takes them back, and
they sit in the Pose menu's IK Doctor submenu, where F3 finds them. The panel lists accepted
findings greyed, each with its reason, below the counts they are no longer in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import bpy
from bpy.props import IntProperty, StringProperty

from ..core.editing import FixError, read_only_reason
from ..core.waiver_store import unwaive, waive
from ..core.waivers import STALE_CHECK
from . import context_given, operators, report

if TYPE_CHECKING:
    from .operators import Outcome

HIDDEN_ROW = {"SKIP_SAVE", "HIDDEN"}


def _can_change(cls: type[bpy.types.Operator], context: bpy.types.Context) -> bool:
    """An armature checked here whose object this file can save (a linked rig cannot)."""
    obj = context.active_object
    if obj is None or obj.type != "ARMATURE":
        cls.poll_message_set("Make an armature the active object.")
        return False
    if report.report_for(context, obj) is None:
        cls.poll_message_set("Check the rig first.")
        return False
    reason = read_only_reason(obj)
    if reason is not None:
        cls.poll_message_set(f"Cannot accept or take back here. {reason}")
        return False
    return True


class IK_DOCTOR_OT_accept_finding(bpy.types.Operator):
    """Accept this finding on purpose, with a reason: it is stored on the armature in the
    .blend and no longer counted, here or by the ik-doctor command line"""

    bl_idname = "ik_doctor.accept_finding"
    bl_label = "Accept..."
    bl_options = {"REGISTER", "UNDO"}

    if TYPE_CHECKING:  # what Blender makes of the properties below
        reason: str
        index: int
    else:
        reason: StringProperty(
            name="Reason", description="Why this setup is intended (kept with the rig)"
        )
        index: IntProperty(
            name="Row",
            description="Report row to accept; -1 accepts the row selected in the list",
            default=-1,
            options=HIDDEN_ROW,
        )

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return _can_change(cls, context)

    def invoke(self, context: bpy.types.Context, event: bpy.types.Event) -> Outcome:
        return context_given.window_manager(context).invoke_props_dialog(self, width=360)

    def execute(self, context: bpy.types.Context) -> Outcome:
        row = operators._chosen_row(context, self.index)
        if row is None or row.check_id == STALE_CHECK:
            self.report({"ERROR"}, "No finding chosen: select one in the IK Doctor list.")
            return {"CANCELLED"}
        try:
            waive(report.to_finding(row), self.reason)
        except (ValueError, FixError) as error:
            self.report({"ERROR"}, str(error))
            return {"CANCELLED"}
        operators._recheck_after_change(context)
        return {"FINISHED"}


class IK_DOCTOR_OT_take_back_acceptance(bpy.types.Operator):
    """Count this finding again: remove its acceptance from the armature"""

    bl_idname = "ik_doctor.take_back_acceptance"
    bl_label = "Take Back Acceptance"
    bl_options = {"REGISTER", "UNDO"}

    if TYPE_CHECKING:  # what Blender makes of the property below
        accepted: int
    else:
        accepted: IntProperty(
            name="Accepted",
            description="Accepted finding to take back; -1 takes back the stale acceptance "
            "selected in the list",
            default=-1,
            options=HIDDEN_ROW,
        )

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return _can_change(cls, context)

    def execute(self, context: bpy.types.Context) -> Outcome:
        stored = operators._report(context, operators._rig(context))
        row: report.IK_DOCTOR_PG_finding | None
        if 0 <= self.accepted < len(stored.accepted):
            row = stored.accepted[self.accepted]
        else:
            row = operators._chosen_row(context, -1)
            if row is not None and row.check_id != STALE_CHECK:
                row = None
        if row is None:
            self.report({"ERROR"}, "No accepted finding chosen.")
            return {"CANCELLED"}
        try:
            unwaive(report.to_finding(row))
        except FixError as error:
            self.report({"ERROR"}, str(error))
            return {"CANCELLED"}
        operators._recheck_after_change(context)
        return {"FINISHED"}


CLASSES = (IK_DOCTOR_OT_accept_finding, IK_DOCTOR_OT_take_back_acceptance)


def draw_buttons(layout: bpy.types.UILayout, item: report.IK_DOCTOR_PG_finding) -> None:
    """The selected finding's Accept button, or Take Back for a stale acceptance."""
    if item.check_id == STALE_CHECK:
        layout.operator(IK_DOCTOR_OT_take_back_acceptance.bl_idname, text="Take Back", icon="X")
    else:
        layout.operator(IK_DOCTOR_OT_accept_finding.bl_idname, icon="CHECKBOX_HLT")


def draw_accepted(
    layout: bpy.types.UILayout,
    stored: report.IK_DOCTOR_PG_report,
    lines: Callable[[str], list[str]],
) -> None:
    """The findings accepted on purpose, greyed, each with its reason (broken into the lines
    the sidebar holds) and a way back."""
    if not len(stored.accepted):
        return
    box = layout.box()
    box.label(text=f"Accepted on purpose ({len(stored.accepted)})", icon="CHECKBOX_HLT")
    for position, item in enumerate(stored.accepted):
        row = box.row(align=True)
        text = row.column(align=True)
        text.active = False  # greyed: listed, not counted
        text.label(text=item.title)
        for line in lines(item.reason):
            text.label(text=line)
        back = row.operator(IK_DOCTOR_OT_take_back_acceptance.bl_idname, text="", icon="X")
        back.accepted = position


def draw_settings_problem(
    layout: bpy.types.UILayout,
    stored: report.IK_DOCTOR_PG_report,
    lines: Callable[[str], list[str]],
) -> None:
    """The project's settings file could not be read: say so, and that the preferences ruled."""
    if not stored.settings_problem:
        return
    box = layout.box()
    box.alert = True
    box.label(text="Settings file not used (the preferences are):", icon="ERROR")
    for line in lines(stored.settings_problem):
        box.label(text=line)
