"""The stored report: the last diagnosis of each armature, kept so drawing never reruns checks.

Findings are copied into PropertyGroups on the window manager (not on the armature, so linked
and overridden rigs can be reported too, and checking a rig never edits the user's file). Rows
are grouped: a header row per IK chain, its findings, and one for the rig-wide ones; the groups
with errors come first (``sort_findings``). A finding's fix arguments are stored as JSON text:
data to hand back to ``apply_fix``, never code to evaluate.

The report is marked stale, never recomputed, when Blender says the armature changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import bpy
from bpy.app.handlers import persistent
from bpy.props import (
    BoolProperty,
    CollectionProperty,
    EnumProperty,
    IntProperty,
    PointerProperty,
    StringProperty,
)

from ..core.finding import Finding, Severity, sort_findings
from ..core.names import find, readable
from ..core.waivers import Waiver
from . import context_given, finding_rows

_Item = TypeVar("_Item")

if TYPE_CHECKING:

    class _Collection(bpy.types.bpy_prop_collection[_Item]):
        """A CollectionProperty as Blender gives it (``bpy_prop_collection_idprop``): the
        stubs have only the read-only collection, without ``add``, ``clear`` and ``remove``."""

        def add(self) -> _Item: ...
        def clear(self) -> None: ...
        def remove(self, index: int) -> None: ...


ROW_KINDS = (
    ("CHAIN", "Chain", "Header of the findings on one IK chain"),
    ("RIG", "Rig-wide", "Header of the findings that belong to no single chain"),
    ("FINDING", "Finding", "One finding"),
)


class IK_DOCTOR_PG_finding(bpy.types.PropertyGroup):
    """One row of the report: a chain header, or a finding with every field of ``Finding``
    (``finding_rows``); ``chain_owner`` and ``chain_constraint`` name the chain it stands under."""

    if TYPE_CHECKING:  # what Blender makes of the annotations below
        kind: str
        chain_owner: str
        chain_constraint: str
        reason: str

        # The properties ``finding_rows`` makes from Finding's fields.
        def __getattr__(self, field: str) -> Any: ...
        def __setattr__(self, field: str, value: Any) -> None: ...

    else:
        __annotations__ = {
            "kind": EnumProperty(items=ROW_KINDS, default="FINDING"),
            "chain_owner": StringProperty(),
            "chain_constraint": StringProperty(),
            "reason": StringProperty(description="Why this finding was accepted on purpose"),
            **finding_rows.row_properties(),
        }


class IK_DOCTOR_PG_report(bpy.types.PropertyGroup):
    """The last diagnosis of one armature (named by ``armature``)."""

    if TYPE_CHECKING:  # what Blender makes of the properties below
        armature: str
        rows: _Collection[IK_DOCTOR_PG_finding]
        active_index: int
        stale: bool
        errors: int
        warnings: int
        infos: int
        accepted: _Collection[IK_DOCTOR_PG_finding]
        settings_problem: str
    else:
        armature: StringProperty()
        rows: CollectionProperty(type=IK_DOCTOR_PG_finding)
        active_index: IntProperty(default=0)
        stale: BoolProperty(
            description="The rig changed since these findings were made: check it again"
        )
        errors: IntProperty()
        warnings: IntProperty()
        infos: IntProperty()
        accepted: CollectionProperty(type=IK_DOCTOR_PG_finding)
        """The findings accepted on purpose (waivers on the armature), outside ``rows`` and
        counts."""
        settings_problem: StringProperty(
            description="Why the project's settings file beside the .blend was not used"
        )


def redraw_when_toggled(_state: IK_DOCTOR_PG_state, _context: bpy.types.Context) -> None:
    """Redraw the 3D Views, so the overlay shows or goes as its switch is pressed.

    A named function, not a lambda: Blender evaluates the property's annotation with this
    module's names as locals, which a lambda's body does not see, so a lambda calling
    ``redraw_3d_views`` raised NameError on every toggle (printed, and swallowed by Blender).
    """
    redraw_3d_views()


class IK_DOCTOR_PG_state(bpy.types.PropertyGroup):
    """Everything IK Doctor keeps between redraws, on the window manager."""

    if TYPE_CHECKING:  # what Blender makes of the properties below
        reports: _Collection[IK_DOCTOR_PG_report]
        show_overlay: bool
    else:
        reports: CollectionProperty(type=IK_DOCTOR_PG_report)
        show_overlay: BoolProperty(
            name="Show IK Overlay",
            update=redraw_when_toggled,
            description=(
                "Draw each IK chain's line to its target and pole and its bend-plane normal in "
                "the 3D View: red for chains with errors, yellow for warnings"
            ),
        )


CLASSES = (IK_DOCTOR_PG_finding, IK_DOCTOR_PG_report, IK_DOCTOR_PG_state)


def state(context: bpy.types.Context) -> IK_DOCTOR_PG_state:
    return state_on(context_given.window_manager(context))


def state_on(window_manager: bpy.types.WindowManager) -> IK_DOCTOR_PG_state:
    # `register` adds this property to WindowManager, which the stubs cannot know.
    found: IK_DOCTOR_PG_state = window_manager.ik_doctor  # type: ignore[attr-defined]
    return found


def report_for(
    context: bpy.types.Context, obj: bpy.types.Object | None
) -> IK_DOCTOR_PG_report | None:
    """The stored report of ``obj``, or None when it was never checked."""
    if obj is None:
        return None
    for report in state(context).reports:
        if report.armature == readable(obj):
            return report
    return None


def store(
    context: bpy.types.Context,
    obj: bpy.types.Object,
    findings: Sequence[Finding],
    accepted: Sequence[tuple[Finding, Waiver]] = (),
    settings_problem: str | None = None,
) -> IK_DOCTOR_PG_report:
    """Replace the stored report of ``obj`` with ``findings``, grouped by chain, and the
    findings accepted on purpose with their reasons; return it."""
    findings = sort_findings(list(findings))
    _forget_deleted_armatures(context)
    report = report_for(context, obj)
    if report is None:
        report = state(context).reports.add()
        report.armature = readable(obj)
    previous = report.active_index
    report.rows.clear()
    chain: tuple[str, str] | None = None
    for position, finding in enumerate(findings):
        if position == 0 or finding.chain != chain:
            chain = finding.chain
            _add_header(report, readable(obj), chain)
        _copy_into(report.rows.add(), finding)
    report.errors = sum(f.severity == Severity.ERROR for f in findings)
    report.warnings = sum(f.severity == Severity.WARNING for f in findings)
    report.infos = sum(f.severity == Severity.INFO for f in findings)
    report.active_index = _first_finding_from(report, previous)
    report.accepted.clear()
    for finding, waiver in accepted:
        row = report.accepted.add()
        _copy_into(row, finding)
        row.reason = waiver.reason
    report.settings_problem = settings_problem or ""
    report.stale = False
    # Check Rig run from its shortcut or F3 over the viewport redraws no sidebar by itself: the
    # panel went on showing the old list until the mouse passed over it (Blender 5.2 and 4.3).
    redraw_3d_views()
    return report


def findings_of(report: IK_DOCTOR_PG_report) -> list[Finding]:
    """Rebuild the Findings a report holds (headers skipped)."""
    return [to_finding(row) for row in report.rows if row.kind == "FINDING"]


def to_finding(row: IK_DOCTOR_PG_finding) -> Finding:
    """Rebuild the Finding a row was copied from, equal to it field for field."""
    return finding_rows.from_row(row)


def summary(report: IK_DOCTOR_PG_report) -> str:
    """One short line for the panel and the status bar: the counts that are not zero,
    "3 errors, 1 warning"."""
    counts = (
        (report.errors, _count(report.errors, "error")),
        (report.warnings, _count(report.warnings, "warning")),
        (report.infos, f"{report.infos} info"),
    )
    return ", ".join(text for number, text in counts if number) or "no problems found"


def chain_severities(report: IK_DOCTOR_PG_report) -> dict[tuple[str, str], str]:
    """The worst severity per chain, for the overlay's colours."""
    worst: dict[tuple[str, str], str] = {}
    for row in report.rows:
        if row.kind != "FINDING" or not row.chain_owner:
            continue
        key = (row.chain_owner, row.chain_constraint)
        severity = row.severity.lower()
        if key not in worst or Severity(severity).rank < Severity(worst[key]).rank:
            worst[key] = severity
    return worst


def redraw_3d_views() -> None:
    """Ask every 3D View (and its sidebar) to redraw."""
    for window_manager in bpy.data.window_managers:
        for window in window_manager.windows:
            for area in window.screen.areas:
                if area.type == "VIEW_3D":
                    area.tag_redraw()


@persistent
def flag_changed_rigs(scene: bpy.types.Scene, depsgraph: bpy.types.Depsgraph) -> None:
    """After each depsgraph update, flag reports whose armature data changed; only flags.

    Blender tags the Armature data-block when bones, constraints or the pose change, not when
    the object is only moved, which changes no finding. Costs one pass over the stored reports.
    """
    reports = [
        report
        for window_manager in bpy.data.window_managers
        for report in state_on(window_manager).reports
        if not report.stale
    ]
    if not reports:
        return
    changed = {
        update.id.original
        for update in depsgraph.updates
        if isinstance(update.id, bpy.types.Armature)
    }
    if not changed:
        return
    flagged = False
    for report in reports:
        obj = find(bpy.data.objects, report.armature)
        if obj is None or obj.data in changed:
            report.stale = flagged = True
    if flagged:
        redraw_3d_views()  # the sidebar says so now, not at the next mouse move


@persistent
def flag_all_stale(*_args: Any) -> None:
    """After undo or redo the rigs are as they were, but the reports are not: flag them."""
    for window_manager in bpy.data.window_managers:
        for report in state_on(window_manager).reports:
            report.stale = True


HANDLERS = (
    (bpy.app.handlers.depsgraph_update_post, flag_changed_rigs),
    (bpy.app.handlers.undo_post, flag_all_stale),
    (bpy.app.handlers.redo_post, flag_all_stale),
)


def register() -> None:
    for cls in CLASSES:
        bpy.utils.register_class(cls)
    # The stubs say PointerProperty returns None and WindowManager has no such attribute;
    # Blender returns the property's definition, which this assignment registers.
    bpy.types.WindowManager.ik_doctor = PointerProperty(  # type: ignore[attr-defined,func-returns-value]
        type=IK_DOCTOR_PG_state
    )
    for handlers, function in HANDLERS:
        handlers.append(function)


def unregister() -> None:
    for handlers, function in HANDLERS:
        while function in handlers:
            handlers.remove(function)
    del bpy.types.WindowManager.ik_doctor  # type: ignore[attr-defined]  # registered above
    for cls in reversed(CLASSES):
        bpy.utils.unregister_class(cls)


def _forget_deleted_armatures(context: bpy.types.Context) -> None:
    reports = state(context).reports
    for index in reversed(range(len(reports))):
        if find(bpy.data.objects, reports[index].armature) is None:
            reports.remove(index)


def _add_header(report: IK_DOCTOR_PG_report, armature: str, chain: tuple[str, str] | None) -> None:
    header = report.rows.add()
    header.armature = armature
    if chain is None:
        header.kind = "RIG"
        header.message = "Rig-wide"
    else:
        header.kind = "CHAIN"
        header.chain_owner, header.chain_constraint = chain
        header.message = f"{chain[0]}: IK '{chain[1]}'"
    header.name = header.message


def _copy_into(row: IK_DOCTOR_PG_finding, finding: Finding) -> None:
    row.kind = "FINDING"
    row.name = f"{finding.title} {finding.bone or ''} {finding.message}"  # what the filter searches
    row.chain_owner, row.chain_constraint = finding.chain or ("", "")
    finding_rows.copy_into(row, finding)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


def _first_finding_from(report: IK_DOCTOR_PG_report, index: int) -> int:
    """Keep the selection where it was, moved off a header onto the next finding."""
    rows = report.rows
    for position in range(max(index, 0), len(rows)):
        if rows[position].kind == "FINDING":
            return position
    for position in range(min(index, len(rows)) - 1, -1, -1):
        if rows[position].kind == "FINDING":
            return position
    return 0
