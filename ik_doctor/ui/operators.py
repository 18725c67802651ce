"""The operators a user runs: check the rig, fix one finding or all, select a finding's bone.

They only call the core (``diagnose``, ``apply_fix``, ``apply_all_fixes``) and copy what it
returns into the stored report; fixes are ordinary ``REGISTER | UNDO`` operators, so Ctrl+Z
takes a fix back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING

import bpy
from bpy.props import BoolProperty, EnumProperty, IntProperty

from ..core.armature import armature_data, pose_of
from ..core.editing import FixError, read_only_reason
from ..core.finding import Finding, Occurrence, worst_of
from ..core.fix_policy import FixImpact, FixPermission, fix_impact, skinned_meshes
from ..core.names import find, named, readable
from ..core.project_config import with_severities
from ..core.registry import get_check
from ..core.scan_proofs import with_scan_proofs
from ..core.waiver_store import accepted_on, waivers_of
from ..core.waivers import apply_waivers
from ..doctor import apply_all_fixes, diagnose, run_fix
from ..verify.animation import CHECK_ID, scan_animation
from ..verify.export_scan import CHECK_ID as EXPORT_CHECK
from ..verify.export_scan import scan_export
from . import context_given, preferences, progress, project_settings, report

if TYPE_CHECKING:
    from bpy.stub_internal.rna_enums import OperatorReturnItems, WmReportItems

    Outcome = set[OperatorReturnItems]


def run_checks(
    context: bpy.types.Context, obj: bpy.types.Object, solved: Sequence[Finding] | None = None
) -> report.IK_DOCTOR_PG_report:
    """Diagnose ``obj`` with the enabled checks and thresholds (the preferences, then the
    project's settings file), set the faults accepted on purpose aside, store and return the
    report (with ``solved``, the animation scan's findings, beside the checks' own; a scan's
    acceptances are judged stale only when it ran)."""
    settings = project_settings.panel_settings(context)
    found = diagnose(obj, checks=settings.enabled, options=settings.options)
    found = with_severities(with_scan_proofs(found, solved or ()), settings.severity)
    ran = [check for check in settings.enabled if check != CHECK_ID]
    ran += [CHECK_ID] if solved is not None else []
    kept = apply_waivers(found, waivers_of(obj), readable(obj), ran)
    return report.store(context, obj, kept.active, kept.waived, settings.problem)


def _tell(operator: bpy.types.Operator, stored: report.IK_DOCTOR_PG_report, what: str = "") -> None:
    level: WmReportItems = "WARNING" if stored.errors else "INFO"
    operator.report({level}, f"IK Doctor: {what}{report.summary(stored)}")


def _armature(context: bpy.types.Context) -> bpy.types.Object | None:
    obj = context.active_object
    return obj if obj is not None and obj.type == "ARMATURE" else None


def _rig(context: bpy.types.Context) -> bpy.types.Object:
    """The active armature, which the operator's poll made sure of."""
    obj = _armature(context)
    assert obj is not None, "poll requires an active armature"
    return obj


def _report(context: bpy.types.Context, obj: bpy.types.Object) -> report.IK_DOCTOR_PG_report:
    """The stored report of ``obj``, which the operator's poll made sure of."""
    stored = report.report_for(context, obj)
    assert stored is not None, "poll requires a checked rig"
    return stored


def _has_armature(cls: type[bpy.types.Operator], context: bpy.types.Context) -> bool:
    if _armature(context) is None:
        cls.poll_message_set("Make an armature the active object.")
        return False
    return True


def _can_fix(cls: type[bpy.types.Operator], context: bpy.types.Context) -> bool:
    if not _has_armature(cls, context):
        return False
    obj = _rig(context)
    if report.report_for(context, obj) is None:
        cls.poll_message_set("Check the rig first.")
        return False
    reason = read_only_reason(obj)
    if reason is not None:
        cls.poll_message_set(reason)
        return False
    return True


def _chosen_row(context: bpy.types.Context, index: int) -> report.IK_DOCTOR_PG_finding | None:
    """The report row an operator acts on: ``index``, or the list's selection for -1."""
    stored = report.report_for(context, _armature(context))
    if stored is None:
        return None
    position = stored.active_index if index < 0 else index
    if 0 <= position < len(stored.rows) and stored.rows[position].kind == "FINDING":
        return stored.rows[position]
    return None


class IK_DOCTOR_OT_check_rig(bpy.types.Operator):
    """Run the enabled IK Doctor checks on the active armature and list what they find"""

    bl_idname = "ik_doctor.check_rig"
    bl_label = "Check Rig"
    bl_options = {"REGISTER"}

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return _has_armature(cls, context)

    def execute(self, context: bpy.types.Context) -> Outcome:
        _tell(self, run_checks(context, _rig(context)))
        return {"FINISHED"}


class IK_DOCTOR_OT_verify_by_solving(bpy.types.Operator):
    """Check the rig, then play each of its actions frame by frame and list where its IK
    misses, with the cause proved by solving"""

    bl_idname = "ik_doctor.verify_by_solving"
    bl_label = "Verify by Solving"
    bl_options = {"REGISTER"}

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return _has_armature(cls, context)

    def execute(self, context: bpy.types.Context) -> Outcome:
        obj = _rig(context)
        if _switched_off(self, context, CHECK_ID):
            return {"CANCELLED"}
        scanned = _scanned_with_progress(self, context, partial(scan_animation, obj))
        if scanned is None:
            return {"CANCELLED"}
        _tell(self, run_checks(context, obj, scanned), "verified by solving: ")
        return {"FINISHED"}


class IK_DOCTOR_OT_verify_export(bpy.types.Operator):
    """Check the rig, then export it as a game gets it (with the settings the scene remembers
    for glTF), read the file back and list where its joints leave Blender's pose, with the
    export setting proved to cause it"""

    bl_idname = "ik_doctor.verify_export"
    bl_label = "Verify Export"
    bl_options = {"REGISTER"}

    if TYPE_CHECKING:  # what Blender makes of the property below
        exporter: str
    else:
        exporter: EnumProperty(
            name="Exporter",
            items=(
                ("gltf", "glTF", "Blender's glTF 2.0 exporter"),
                ("fbx", "FBX", "Blender's FBX exporter, with its defaults"),
            ),
            default="gltf",
        )

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return _has_armature(cls, context)

    def execute(self, context: bpy.types.Context) -> Outcome:
        obj = _rig(context)
        if _switched_off(self, context, EXPORT_CHECK):
            return {"CANCELLED"}
        found = _scanned_with_progress(self, context, partial(scan_export, obj, self.exporter))
        if found is None:
            return {"CANCELLED"}
        _tell(self, run_checks(context, obj, found), "export verified: ")
        return {"FINISHED"}


def _switched_off(operator: bpy.types.Operator, context: bpy.types.Context, scan: str) -> bool:
    """Whether the scan ``scan`` (a check id) is switched off, in the preferences or by the
    project's settings file (its ``ignore``), as the command line would skip it: then its
    button does nothing, and the status bar says which of the two."""
    settings = project_settings.panel_settings(context)
    if scan in settings.enabled:
        return False
    where = "in the preferences"
    if scan in preferences.settings(context)[0]:
        where = f"by the settings file {settings.project}"
    operator.report({"WARNING"}, f"{get_check(scan).title} is switched off {where}.")
    return True


def _scanned_with_progress(
    operator: bpy.types.Operator,
    context: bpy.types.Context,
    scan: Callable[..., list[Finding]],
) -> list[Finding] | None:
    """A scan's findings, its progress said in the status bar as it goes (ui/progress.py);
    None, said there too, where the scan refuses the rig (ValueError)."""
    try:
        with progress.shown(context, operator.bl_label) as said:
            return scan(progress=said)
    except ValueError as error:
        operator.report({"ERROR"}, str(error))
        return None


class IK_DOCTOR_OT_fix_finding(bpy.types.Operator):
    """Apply this finding's fix, then check the rig again"""

    bl_idname = "ik_doctor.fix_finding"
    bl_label = "Fix Finding"
    bl_options = {"REGISTER", "UNDO"}

    if TYPE_CHECKING:  # what Blender makes of the property below
        index: int
    else:
        index: IntProperty(
            name="Row",
            description="Report row to fix; -1 fixes the row selected in the list",
            default=-1,
            options={"SKIP_SAVE", "HIDDEN"},
        )

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return _can_fix(cls, context)

    @classmethod
    def description(cls, context: bpy.types.Context, properties: bpy.types.OperatorProperties):
        row = _chosen_row(context, properties.index)
        if row is None or not row.fix_label:
            return cls.__doc__
        return f"{row.fix_label}.\n\n{row.why}"

    def invoke(self, context: bpy.types.Context, event: bpy.types.Event) -> Outcome:
        row = _chosen_row(context, self.index)
        impact = None if row is None else fix_impact(report.to_finding(row), _rig(context))
        if impact is not None and impact.asks_first:
            return context_given.window_manager(context).invoke_confirm(
                self, event, title="Fix Finding", message=_warning_for([impact])
            )
        return self.execute(context)

    def execute(self, context: bpy.types.Context) -> Outcome:
        row = _chosen_row(context, self.index)
        if row is None:
            self.report({"ERROR"}, "No finding chosen: select one in the IK Doctor list.")
            return {"CANCELLED"}
        finding = report.to_finding(row)
        options = project_settings.panel_settings(context).options
        try:
            result = run_fix(finding, options=options.get(finding.check_id))
        except FixError as error:
            self.report({"ERROR"}, str(error))
            return {"CANCELLED"}
        self.report({"INFO"}, result.sentence)
        _recheck_after_change(context)
        return {"FINISHED"}


class IK_DOCTOR_OT_fix_all(bpy.types.Operator):
    """Apply every safe fix, structure first, report each one, then check the rig again"""

    bl_idname = "ik_doctor.fix_all"
    bl_label = "Fix All"
    bl_options = {"REGISTER", "UNDO"}

    if TYPE_CHECKING:  # what Blender makes of the properties below
        allow_rest_pose_changes: bool
        allow_discarding: bool
    else:
        allow_rest_pose_changes: BoolProperty(
            name="Change Rest Pose",
            description=(
                "Also apply fixes that move bones in Edit Mode on a rig that deforms a mesh: "
                "the mesh's bind changes with them"
            ),
            default=False,
        )
        allow_discarding: BoolProperty(
            name="Discard Data",
            description="Also apply fixes that throw something away (keys, a constraint's effect)",
            default=False,
        )

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return _can_fix(cls, context)

    def invoke(self, context: bpy.types.Context, event: bpy.types.Event) -> Outcome:
        """Ask first when a listed fix costs something; confirming grants what the question
        listed, no more: a discard is not allowed by a question about a mesh's bind."""
        obj = _rig(context)
        skinned = skinned_meshes(obj)
        stored = report.findings_of(_report(context, obj))
        impacts = [fix_impact(f, obj, skinned) for f in stored if f.fix_id]
        risky = [impact for impact in impacts if impact.asks_first]
        self.allow_rest_pose_changes = any(impact.rebinds_meshes for impact in risky)
        self.allow_discarding = any(impact.discards for impact in risky)
        if not risky:
            return self.execute(context)
        return context_given.window_manager(context).invoke_confirm(
            self, event, title="Fix All", message=_warning_for(risky)
        )

    def execute(self, context: bpy.types.Context) -> Outcome:
        obj = _rig(context)
        settings = project_settings.panel_settings(context)
        enabled, options = settings.enabled, settings.options
        permission = FixPermission(
            rebind_meshes=self.allow_rest_pose_changes, discard=self.allow_discarding
        )
        done = apply_all_fixes(
            obj,
            checks=enabled,
            options=options,
            permission=permission,
            leave=accepted_on(obj),
            scan=_scan_to_fix if _holds_scan(report.report_for(context, obj)) else None,
        )
        for result in done:
            self.report({"WARNING" if result.failed else "INFO"}, result.sentence)
        stored = _recheck_after_change(context)
        self.report({"INFO"}, f"IK Doctor: {len(done)} fixes tried; now {report.summary(stored)}")
        return {"FINISHED"}


class IK_DOCTOR_OT_select_bone(bpy.types.Operator):
    """Select the finding's bone, make it active and frame it in the 3D View"""

    bl_idname = "ik_doctor.select_bone"
    bl_label = "Select Finding's Bone"
    bl_options = {"REGISTER", "UNDO"}

    if TYPE_CHECKING:  # what Blender makes of the property below
        index: int
    else:
        index: IntProperty(
            name="Row",
            description="Report row whose bone to select; -1 uses the row selected in the list",
            default=-1,
            options={"SKIP_SAVE", "HIDDEN"},
        )

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return _has_armature(cls, context)

    def execute(self, context: bpy.types.Context) -> Outcome:
        obj = _rig(context)
        row = _chosen_row(context, self.index)
        name = (row.bone or row.chain_owner) if row is not None else ""
        if find(armature_data(obj).bones, name) is None:
            self.report({"ERROR"}, f"'{readable(obj)}' has no bone named '{name}' (any more).")
            return {"CANCELLED"}
        stored = report.report_for(context, obj)
        was_fresh = stored is not None and not stored.stale
        _select_only(obj, name)
        if was_fresh and stored is not None:
            # Selecting tags the armature as an edit does: let the handler see it now, and keep
            # the report fresh, as a selection changes no finding.
            context_given.view_layer(context).update()
            stored.stale = False
        if obj.mode == "POSE":
            _frame_selected(context)
        finding = report.to_finding(row) if row is not None else None
        if finding is not None and finding.occurrences:
            _show_worst_frame(self, context, obj, worst_of(finding.occurrences))
        return {"FINISHED"}


class IK_DOCTOR_OT_toggle_overlay(bpy.types.Operator):
    """Show or hide each IK chain's line to its target and pole, and its bend-plane normal"""

    bl_idname = "ik_doctor.toggle_overlay"
    bl_label = "Toggle IK Overlay"
    bl_options = {"REGISTER"}

    def execute(self, context: bpy.types.Context) -> Outcome:
        settings = report.state(context)
        settings.show_overlay = not settings.show_overlay
        return {"FINISHED"}


CLASSES = (
    IK_DOCTOR_OT_check_rig,
    IK_DOCTOR_OT_verify_by_solving,
    IK_DOCTOR_OT_verify_export,
    IK_DOCTOR_OT_fix_finding,
    IK_DOCTOR_OT_fix_all,
    IK_DOCTOR_OT_select_bone,
    IK_DOCTOR_OT_toggle_overlay,
)


def _recheck_after_change(context: bpy.types.Context) -> report.IK_DOCTOR_PG_report:
    """Check again; scan the animation again too when the report held the scan's findings."""
    # Evaluate now so the update flagging this rig as changed runs before the fresh report.
    context_given.view_layer(context).update()
    obj = _rig(context)
    solved = _holds_scan(report.report_for(context, obj))
    return run_checks(context, obj, scan_animation(obj) if solved else None)


def _holds_scan(stored: report.IK_DOCTOR_PG_report | None) -> bool:
    """Whether the stored report holds the animation scan's findings (Verify by Solving ran):
    then Fix All applies its fixes too, and a check after a fix scans again."""
    return stored is not None and any(row.check_id == CHECK_ID for row in stored.rows)


def _scan_to_fix(obj: bpy.types.Object) -> list[Finding]:
    """The scan's findings Fix All may fix: chains no frame judged are not solved, as their
    findings offer no fix."""
    return scan_animation(obj, solve_untested=False)


def _warning_for(impacts: list[FixImpact]) -> str:
    """One confirmation line: how many fixes cost what, in the policy's own words."""
    counts: dict[str, int] = {}
    for impact in impacts:
        for cost in impact.costs():
            counts[cost] = counts.get(cost, 0) + 1
    fixes = {cost: "1 fix" if n == 1 else f"{n} fixes" for cost, n in counts.items()}
    return "; ".join(f"{fixes[cost]}: {cost}" for cost in counts) + ". Apply?"


def _show_worst_frame(
    operator: bpy.types.Operator,
    context: bpy.types.Context,
    obj: bpy.types.Object,
    worst: Occurrence,
) -> None:
    """Go to the frame where a fault the animation scan proved is worst (a scan finding, or a
    check's finding its proof joined), and say whether that action is the one playing."""
    context_given.scene(context).frame_set(worst.worst_frame)
    animation = obj.animation_data
    if animation is None or animation.action is None or readable(animation.action) != worst.action:
        operator.report(
            {"WARNING"},
            f"Frame {worst.worst_frame} is the worst of '{worst.action}', which is not the "
            "active action: make it active (or solo its NLA track) to see the miss.",
        )


def _frame_selected(context: bpy.types.Context) -> None:
    """Frame the selection in the 3D View the button was pressed in, if there is one.

    A sidebar button runs in the sidebar region; framing needs the view's main region.
    """
    area = context.area
    if area is None or area.type != "VIEW_3D":
        return
    region = next((r for r in area.regions if r.type == "WINDOW"), None)
    with context.temp_override(area=area, region=region):
        bpy.ops.view3d.view_selected()


def _select_only(obj: bpy.types.Object, name: str) -> None:
    """Select one bone and make it active; Blender 5 keeps pose selection on pose bones."""
    bones = armature_data(obj).bones
    chosen = named(bones, name)
    for pose_bone in pose_of(obj).bones:
        bone = pose_bone.bone
        on_pose_bones = hasattr(pose_bone, "select")
        # The stubs are 4.2's, which have no PoseBone.select (Blender 5 added it).
        (pose_bone if on_pose_bones else bone).select = bone == chosen  # type: ignore[union-attr]
        if not on_pose_bones:
            bone.select_head = bone.select_tail = bone == chosen
    bones.active = chosen
