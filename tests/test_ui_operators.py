"""The buttons, as an animator presses them: Check Rig, Fix, Fix All, Select, Undo. Each runs
through ``bpy.ops`` and is proven by what it does to the rig (solving it, not reading settings)."""

from __future__ import annotations

import math
from types import SimpleNamespace
from typing import Any

import bpy
import pytest
import test_ui_support
from mathutils import Vector
from solving import assert_ik_works, findings_of
from test_ui_support import FakeLayout, draw_panel, in_3d_view

from ik_doctor import diagnose
from ik_doctor.core.fix_policy import fix_impact, skinned_meshes
from ik_doctor.ui import operators, report

addon = test_ui_support.addon  # shared fixtures
posed_rig = test_ui_support.posed_rig


def stored_report(obj: bpy.types.Object):
    return report.report_for(bpy.context, obj)


def row_index(obj: bpy.types.Object, check_id: str, bone: str) -> int:
    for index, row in enumerate(stored_report(obj).rows):
        if row.kind == "FINDING" and row.check_id == check_id and row.bone == bone:
            return index
    raise AssertionError(f"no {check_id} finding on {bone} in the report")


def checked(obj: bpy.types.Object):
    with bpy.context.temp_override(active_object=obj, object=obj):
        assert bpy.ops.ik_doctor.check_rig() == {"FINISHED"}
    return stored_report(obj)


def open_gap_at(obj: bpy.types.Object, bone: str) -> None:
    """Disconnect ``bone`` and move its head off its parent's tail (a knee that pivots on air)."""
    bpy.ops.object.mode_set(mode="EDIT")
    edit_bone = obj.data.edit_bones[bone]
    edit_bone.use_connect = False
    edit_bone.head += Vector((0.0, 0.0, -0.05))
    bpy.ops.object.mode_set(mode="POSE")


def test_check_rig_lists_the_missing_target_under_its_chain(posed_rig) -> None:
    stored = checked(posed_rig)
    assert [(row.kind, row.check_id, row.bone, row.severity) for row in stored.rows] == [
        ("CHAIN", "", "", "INFO"),
        ("FINDING", "target", "shin.L", "ERROR"),
    ]
    assert report.summary(stored) == "1 error"
    assert posed_rig.mode == "POSE"


def test_fix_button_gives_the_leg_a_target_and_the_knee_bends_again(posed_rig, capfd) -> None:
    checked(posed_rig)
    index = row_index(posed_rig, "target", "shin.L")
    with bpy.context.temp_override(active_object=posed_rig, object=posed_rig):
        assert bpy.ops.ik_doctor.fix_finding(index=index) == {"FINISHED"}
    constraint = posed_rig.pose.bones["shin.L"].constraints["IK"]
    assert (constraint.target, constraint.subtarget) == (posed_rig, "IK-shin.L")
    assert "Created control bone 'IK-shin.L'" in capfd.readouterr().out
    assert posed_rig.mode == "POSE"
    assert len(stored_report(posed_rig).rows) == 0, "the checks ran again after the fix"
    bpy.context.view_layer.update()
    assert not stored_report(posed_rig).stale, "the fix's own change made its report stale"
    assert_ik_works(posed_rig)


def test_fix_uses_the_selected_row_from_the_menu(posed_rig) -> None:
    stored = checked(posed_rig)
    stored.active_index = row_index(posed_rig, "target", "shin.L")
    assert bpy.ops.ik_doctor.fix_finding() == {"FINISHED"}
    assert posed_rig.pose.bones["shin.L"].constraints["IK"].subtarget == "IK-shin.L"


def test_fix_on_a_chain_header_says_no_finding_was_chosen(posed_rig) -> None:
    checked(posed_rig)
    with pytest.raises(RuntimeError, match="No finding chosen"):
        bpy.ops.ik_doctor.fix_finding(index=0)


def test_fix_all_repairs_every_chain_structure_first(posed_rig) -> None:
    posed_rig.pose.bones["forearm.R"].constraints["IK"].target = None
    posed_rig.pose.bones["forearm.L"].constraints["IK"].chain_count = 1
    stored = checked(posed_rig)
    assert stored.errors == 3
    assert bpy.ops.ik_doctor.fix_all() == {"FINISHED"}
    assert len(stored_report(posed_rig).rows) == 0
    assert_ik_works(posed_rig)


def test_fix_all_keeps_the_bind_of_a_skinned_rig_unless_allowed(posed_rig) -> None:
    posed_rig.pose.bones["shin.L"].constraints["IK"].target = posed_rig
    posed_rig.pose.bones["shin.L"].constraints["IK"].subtarget = "foot_ik.L"
    open_gap_at(posed_rig, "shin.R")
    (gap,) = findings_of(posed_rig, "parenting")
    assert gap.changes_rest_pose and skinned_meshes(posed_rig)
    checked(posed_rig)
    bpy.ops.ik_doctor.fix_all()
    assert [f.bone for f in findings_of(posed_rig, "parenting")] == ["shin.R"]
    bpy.ops.ik_doctor.fix_all(allow_rest_pose_changes=True)
    assert findings_of(posed_rig, "parenting") == []
    assert_ik_works(posed_rig)


class Confirmation:
    """Stands in for the window manager's confirmation popup, which needs a real window."""

    def __init__(self, window_manager: bpy.types.WindowManager) -> None:
        self.ik_doctor = window_manager.ik_doctor
        self.asked: list[dict[str, Any]] = []

    def invoke_confirm(self, operator: Any, event: Any, **kwargs: Any) -> set[str]:
        self.asked.append(kwargs)
        return {"RUNNING_MODAL"}


def invoke(operator_class: type, obj: bpy.types.Object, **properties: Any):
    window_manager = Confirmation(bpy.context.window_manager)
    context = SimpleNamespace(
        active_object=obj, window_manager=window_manager, preferences=bpy.context.preferences
    )
    executed: list[bool] = []
    operator = SimpleNamespace(
        allow_rest_pose_changes=False,
        allow_discarding=False,
        execute=lambda _context: executed.append(True) or {"FINISHED"},
        **properties,
    )
    result = operator_class.invoke(operator, context, None)
    return result, window_manager.asked, executed, operator


def test_fix_all_asks_before_changing_the_bind_of_a_skinned_rig(posed_rig) -> None:
    open_gap_at(posed_rig, "shin.R")
    checked(posed_rig)
    result, asked, executed, operator = invoke(operators.IK_DOCTOR_OT_fix_all, posed_rig)
    assert result == {"RUNNING_MODAL"} and not executed
    assert "the mesh this rig deforms (IKDoctorRig_body) gets a new bind" in asked[0]["message"]
    assert (operator.allow_rest_pose_changes, operator.allow_discarding) == (True, False)


def test_fix_all_s_question_about_discarding_grants_only_the_discard(posed_rig) -> None:
    posed_rig.pose.bones["shin.L"].constraints["IK"].pole_target = None
    thigh = posed_rig.pose.bones["thigh.L"]
    for frame, angle in ((1, 0.5), (2, 0.4)):
        thigh.rotation_quaternion = (math.cos(angle / 2), math.sin(angle / 2), 0.0, 0.0)
        thigh.keyframe_insert("rotation_quaternion", frame=frame)
    stored = checked(posed_rig)
    asking = [f for f in report.findings_of(stored) if fix_impact(f, posed_rig).asks_first]
    assert [(f.check_id, f.needs_confirmation) for f in asking] == [("fk_ik_mix", True)]
    result, asked, executed, operator = invoke(operators.IK_DOCTOR_OT_fix_all, posed_rig)
    assert result == {"RUNNING_MODAL"} and len(asked) == 1 and not executed
    assert (operator.allow_rest_pose_changes, operator.allow_discarding) == (False, True)


def test_fix_all_does_not_ask_when_every_fix_is_safe(posed_rig) -> None:
    checked(posed_rig)
    result, asked, executed, _ = invoke(operators.IK_DOCTOR_OT_fix_all, posed_rig)
    assert result == {"FINISHED"} and executed and not asked


def test_one_fix_that_moves_bones_asks_first(posed_rig) -> None:
    open_gap_at(posed_rig, "shin.R")
    checked(posed_rig)
    index = row_index(posed_rig, "parenting", "shin.R")
    result, asked, executed, _ = invoke(operators.IK_DOCTOR_OT_fix_finding, posed_rig, index=index)
    assert result == {"RUNNING_MODAL"} and not executed
    assert asked[0]["message"].startswith("1 fix: moves bones in Edit Mode")


def test_a_rig_without_a_mesh_changes_its_rest_pose_without_asking(addon, scene) -> None:
    from ik_doctor.sample_rig import build_character_rig

    rig = build_character_rig(with_mesh=False)
    bpy.context.view_layer.objects.active = rig
    bpy.ops.object.mode_set(mode="POSE")
    open_gap_at(rig, "shin.R")
    checked(rig)
    assert skinned_meshes(rig) == ()
    bpy.ops.ik_doctor.fix_all()
    assert findings_of(rig, "parenting") == []


def test_select_bone_selects_only_the_finding_s_bone_and_frames_it(posed_rig) -> None:
    checked(posed_rig)
    index = row_index(posed_rig, "target", "shin.L")
    with in_3d_view("UI"):  # pressed in the sidebar
        assert bpy.ops.ik_doctor.select_bone(index=index) == {"FINISHED"}
    assert posed_rig.data.bones.active.name == "shin.L"
    selected = [
        bone.name
        for bone in posed_rig.pose.bones
        if (bone.select if hasattr(bone, "select") else bone.bone.select)
    ]
    assert selected == ["shin.L"]
    bpy.context.view_layer.update()  # what Blender does next: its handlers see the selection
    assert not stored_report(posed_rig).stale  # selecting a bone changes no finding


def test_toggle_overlay_switches_the_overlay(addon) -> None:
    state = bpy.context.window_manager.ik_doctor
    before = state.show_overlay
    bpy.ops.ik_doctor.toggle_overlay()
    assert state.show_overlay is not before
    bpy.ops.ik_doctor.toggle_overlay()
    assert state.show_overlay is before


def test_undo_takes_a_fix_back_and_marks_the_report_stale(posed_rig) -> None:
    window = bpy.context.window_manager.windows[0]
    with bpy.context.temp_override(window=window):
        bpy.ops.ed.undo_push(message="Broken leg")
        checked(posed_rig)
        index = row_index(posed_rig, "target", "shin.L")
        # As a button does: the second argument asks for the undo step Python calls skip.
        bpy.ops.ik_doctor.fix_finding("EXEC_DEFAULT", True, index=index)
        assert "IK-shin.L" in posed_rig.data.bones
        bpy.ops.ed.undo()
    rig = bpy.data.objects["IKDoctorRig"]  # undo reloads the data: look it up again
    assert rig.pose.bones["shin.L"].constraints["IK"].target is None
    assert "IK-shin.L" not in rig.data.bones
    assert stored_report(rig).stale
    with bpy.context.temp_override(window=window):
        bpy.ops.ed.redo()
    rig = bpy.data.objects["IKDoctorRig"]
    assert rig.pose.bones["shin.L"].constraints["IK"].subtarget == "IK-shin.L"


def test_linked_rig_is_checked_in_object_mode_but_its_fixes_are_disabled_with_the_reason(
    addon, rig, tmp_path
) -> None:
    rig.pose.bones["shin.L"].constraints["IK"].target = None
    library = tmp_path / "library.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(library))
    bpy.ops.wm.read_homefile(use_empty=True)
    with bpy.data.libraries.load(str(library), link=True) as (_, linked):
        linked.objects = ["IKDoctorRig"]
    obj = linked.objects[0]
    bpy.context.scene.collection.objects.link(obj)
    bpy.context.view_layer.objects.active = obj  # a linked rig cannot enter Pose Mode
    stored = checked(obj)
    assert stored.errors == 1
    assert not bpy.ops.ik_doctor.fix_finding.poll()
    assert not bpy.ops.ik_doctor.fix_all.poll()
    with pytest.raises(RuntimeError, match="linked from"):
        bpy.ops.ik_doctor.fix_finding(index=1)
    layout = draw_panel(bpy.context)
    texts = " ".join(layout.texts())
    assert "Fixes disabled:" in texts and "linked from" in texts
    row = FakeLayout()
    item = stored.rows[1]
    draw_row = test_ui_support.panel.IK_DOCTOR_UL_findings.draw_item
    draw_row(None, bpy.context, row, stored, item, 0, stored, "active_index", 1)
    fix_rows = [
        kwargs["layout"]
        for args, kwargs in row.calls("operator")
        if args[0] == "ik_doctor.fix_finding"
    ]
    assert fix_rows and all(layout.enabled is False for layout in fix_rows)


def test_overridden_rig_is_checked_in_pose_mode_but_its_fixes_are_disabled(
    addon, rig, tmp_path
) -> None:
    rig.pose.bones["shin.L"].constraints["IK"].target = None
    characters = bpy.data.collections.new("Characters")
    bpy.context.scene.collection.children.link(characters)
    for obj in list(bpy.context.scene.collection.objects):
        characters.objects.link(obj)
        bpy.context.scene.collection.objects.unlink(obj)
    library = tmp_path / "library.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(library))
    bpy.ops.wm.read_homefile(use_empty=True)
    with bpy.data.libraries.load(str(library), link=True) as (_, linked):
        linked.collections = ["Characters"]
    bpy.context.scene.collection.children.link(linked.collections[0])
    overridden = linked.collections[0].override_hierarchy_create(
        bpy.context.scene, bpy.context.view_layer, do_fully_editable=True
    )
    obj = next(o for o in overridden.all_objects if o.type == "ARMATURE")
    assert obj.override_library is not None
    bpy.context.view_layer.objects.active = obj
    bpy.ops.object.mode_set(mode="POSE")
    assert checked(obj).errors == 1
    assert not bpy.ops.ik_doctor.fix_finding.poll()
    with pytest.raises(RuntimeError, match="library override"):
        bpy.ops.ik_doctor.fix_all()
    assert "Fixes disabled:" in draw_panel(bpy.context).texts()


@pytest.mark.parametrize("with_mesh", [True, False], ids=["skinned", "unskinned"])
def test_the_panel_and_the_command_line_make_the_same_fix_decisions(
    addon, scene, with_mesh: bool
) -> None:
    """One fix policy: what Fix All applies unasked is what ``ik-doctor fix`` applies unflagged."""
    from ik_doctor.cli.file_jobs import _fix_armature
    from ik_doctor.sample_rig import build_character_rig

    def broken(name: str) -> bpy.types.Object:
        rig = build_character_rig(name=name, with_mesh=with_mesh)
        rig.pose.bones["forearm.R"].constraints["IK"].target = None  # plain fix
        twin = rig.pose.bones["shin.L"].constraints.new("IK")  # a mute: asks first
        twin.target, twin.subtarget, twin.chain_count = rig, "hand_ik.L", 2
        bpy.context.view_layer.objects.active = rig
        open_gap_at(rig, "shin.R")  # a rest-pose change: asks on the skinned rig only
        bpy.ops.object.mode_set(mode="OBJECT")
        return rig

    by_panel, by_command_line = broken("ByPanel"), broken("ByCommandLine")
    found = [f for f in diagnose(by_panel) if f.fix_id]
    asked = {f.check_id for f in found if fix_impact(f, by_panel).asks_first}
    assert asked == ({"parenting", "duplicates"} if with_mesh else {"duplicates"})

    bpy.context.view_layer.objects.active = by_panel
    bpy.ops.object.mode_set(mode="POSE")
    checked(by_panel)
    result, _, _, _ = invoke(operators.IK_DOCTOR_OT_fix_all, by_panel)
    assert (result == {"RUNNING_MODAL"}) == bool(asked)
    bpy.ops.ik_doctor.fix_all()  # as if the user said no: the defaults
    left_by_panel = {f.check_id for f in diagnose(by_panel) if f.fix_id}

    outcome = _fix_armature(by_command_line, {})
    held_back = {entry["finding"]["check_id"] for entry in outcome["not_applied"]}
    assert left_by_panel == held_back == asked
    reasons = " ".join(entry["reason"] for entry in outcome["not_applied"])
    assert ("gets a new bind" in reasons) is with_mesh


def test_verify_by_solving_joins_the_miss_to_the_lock_and_select_jumps_to_its_worst_frame(
    posed_rig,
) -> None:
    from test_scan_animation import key_walk

    from ik_doctor.ui.overlay_geometry import chain_segments

    posed_rig.pose.bones["shin.L"].constraints["IK"].target = posed_rig  # back to its control
    key_walk(posed_rig)
    posed_rig.pose.bones["shin.L"].lock_ik_x = True
    assert bpy.ops.ik_doctor.verify_by_solving() == {"FINISHED"}
    proved = [
        (position, report.to_finding(row))
        for position, row in enumerate(stored_report(posed_rig).rows)
        if row.kind == "FINDING" and report.to_finding(row).occurrences
    ]
    # The scan's proof joins the locks check's finding of the same lock: one row, one fix.
    assert [(f.check_id, f.bone, f.fix_id) for _, f in proved] == [("locks", "shin.L", "free_axes")]
    index, finding = proved[0]
    assert [o.action for o in finding.occurrences] == ["Walk"]
    worst = finding.occurrences[0].worst_frame
    assert worst in range(1, 13)
    bpy.context.scene.frame_set(0 if worst != 0 else 1)
    assert bpy.ops.ik_doctor.select_bone(index=index) == {"FINISHED"}
    assert bpy.context.scene.frame_current == worst
    assert "miss" in [s.kind for s in chain_segments(posed_rig)], "the miss is drawn in red"
    assert bpy.ops.ik_doctor.fix_finding(index=index) == {"FINISHED"}
    assert not posed_rig.pose.bones["shin.L"].lock_ik_x
    bpy.context.view_layer.update()
    assert "miss" not in [s.kind for s in chain_segments(posed_rig)]


@pytest.mark.parametrize(
    ("button", "scan", "check_id"),
    [("verify_by_solving", "scan_animation", "verify"), ("verify_export", "scan_export", "export")],
)
def test_a_scan_switched_off_in_the_preferences_does_not_run(
    posed_rig, addon, monkeypatch, button, scan, check_id
) -> None:
    scanned: list[str] = []
    monkeypatch.setattr(operators, scan, lambda *_, **__: scanned.append(check_id) or [])
    press = getattr(bpy.ops.ik_doctor, button)
    setattr(addon, f"check_{check_id}", False)
    try:
        assert press() == {"CANCELLED"}
        assert scanned == [] and stored_report(posed_rig) is None
    finally:
        setattr(addon, f"check_{check_id}", True)
    assert press() == {"FINISHED"}
    assert scanned == [check_id] and stored_report(posed_rig) is not None


@pytest.mark.parametrize(
    ("button", "scan", "check_id"),
    [("verify_by_solving", "scan_animation", "verify"), ("verify_export", "scan_export", "export")],
)
def test_a_scan_the_settings_file_ignores_does_not_run(
    posed_rig, monkeypatch, tmp_path, button, scan, check_id
) -> None:
    """The panel follows the settings file beside the .blend as the command line does, so a
    scan its ``ignore`` lists does not run from the button either."""
    scanned: list[str] = []
    monkeypatch.setattr(operators, scan, lambda *_, **__: scanned.append(check_id) or [])
    bpy.ops.wm.save_as_mainfile(filepath=str(tmp_path / "rig.blend"))
    press = getattr(bpy.ops.ik_doctor, button)
    (tmp_path / "ik-doctor.toml").write_text(f'ignore = ["{check_id}"]\n')
    assert press() == {"CANCELLED"}
    assert scanned == []
    (tmp_path / "ik-doctor.toml").write_text("ignore = []\n")
    assert press() == {"FINISHED"}
    assert scanned == [check_id]
