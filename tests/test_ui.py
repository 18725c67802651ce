"""The add-on inside Blender: it registers and unregisters cleanly, the panel shows in the right
modes and draws from the stored report alone, F3 finds every operator through the Pose menu,
the Check Rig shortcut clashes with nothing in Blender's default keymaps, and the preferences
switch checks and thresholds."""

from __future__ import annotations

import importlib.util
import os
from types import SimpleNamespace
from typing import Any

import bpy
import pytest
import test_ui_support
from test_ui_support import FakeLayout, WithLayout, disable, draw_panel, enable, in_3d_view

import ik_doctor
from ik_doctor.ui import keymap, operators, overlay, panel, report

addon = test_ui_support.addon  # shared fixtures
posed_rig = test_ui_support.posed_rig


def ours() -> dict[str, list[str]]:
    """Everything the add-on can leave behind in Blender."""
    keyconfig = bpy.context.window_manager.keyconfigs.addon
    pose_keymap = keyconfig.keymaps.get("Pose")
    return {
        "classes": sorted(name for name in dir(bpy.types) if name.startswith("IK_DOCTOR_")),
        "preferences": [
            cls.__name__
            for cls in bpy.types.AddonPreferences.__subclasses__()
            if cls.is_registered and cls.__name__.startswith("IK_DOCTOR_")
        ],
        "operators": sorted(dir(bpy.ops.ik_doctor)),
        "keymap items": [
            item.idname
            for item in (pose_keymap.keymap_items if pose_keymap else ())
            if item.idname.startswith("ik_doctor.")
        ],
        "pose menu": [
            f.__name__ for f in bpy.types.VIEW3D_MT_pose._dyn_ui_initialize() if f.__module__
        ],
        "handlers": [
            f.__name__
            for handlers in (
                bpy.app.handlers.depsgraph_update_post,
                bpy.app.handlers.undo_post,
                bpy.app.handlers.redo_post,
            )
            for f in handlers
            if f.__module__.startswith("ik_doctor")
        ],
        "window manager": [
            name for name in ("ik_doctor",) if hasattr(bpy.types.WindowManager, name)
        ],
        "overlay": ["draw handler"] if overlay.is_drawing() else [],
    }


# --- register / unregister ---------------------------------------------------------------------


def test_register_and_unregister_twice_leave_nothing_behind(scene) -> None:
    before = ours()
    assert before["classes"] == [] and before["keymap items"] == []
    for _ in range(2):
        enable()
        during = ours()
        assert "IK_DOCTOR_PT_panel" in during["classes"]
        assert during["preferences"] == ["IK_DOCTOR_AP_preferences"]
        assert {"check_rig", "fix_finding", "fix_all", "select_bone"} <= set(during["operators"])
        assert during["keymap items"] == ["ik_doctor.check_rig"]
        assert "draw_in_pose_menu" in during["pose menu"]
        assert sorted(during["handlers"]) == [
            "flag_all_stale",
            "flag_all_stale",
            "flag_changed_rigs",
        ]
        assert during["window manager"] == ["ik_doctor"]
        assert during["overlay"] == ["draw handler"]
        disable()
        assert ours() == before


# --- panel ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("mode", "shown"), [("POSE", True), ("OBJECT", True), ("EDIT", False)])
def test_panel_polls_for_an_armature_in_pose_and_object_mode(addon, rig, mode, shown) -> None:
    bpy.context.view_layer.objects.active = rig
    bpy.ops.object.mode_set(mode=mode)
    assert panel.IK_DOCTOR_PT_panel.poll(bpy.context) is shown
    bpy.ops.object.mode_set(mode="OBJECT")


def test_panel_hides_without_an_armature(addon, rig) -> None:
    bpy.context.view_layer.objects.active = bpy.data.objects["IKDoctorRig_body"]
    assert not panel.IK_DOCTOR_PT_panel.poll(bpy.context)
    bpy.context.view_layer.objects.active = None
    assert not panel.IK_DOCTOR_PT_panel.poll(bpy.context)


def test_panel_in_object_mode_offers_pose_mode(addon, rig) -> None:
    bpy.context.view_layer.objects.active = rig
    layout = draw_panel(bpy.context)
    (operator,) = layout.calls("operator")
    assert operator[0] == ("object.mode_set",)
    assert operator[1]["result"].mode == "POSE"


def test_panel_before_a_check_says_so(posed_rig) -> None:
    assert "Not checked yet: press Check Rig." in draw_panel(bpy.context).texts()


def test_panel_draws_the_stored_report_without_running_checks(posed_rig, monkeypatch) -> None:
    bpy.ops.ik_doctor.check_rig()

    def no_checks(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("drawing ran a check")

    monkeypatch.setattr(ik_doctor.core.rig.RigView, "__init__", no_checks)
    monkeypatch.setattr(operators, "diagnose", no_checks)
    layout = draw_panel(bpy.context)
    assert {"1 error", "No target"} <= set(layout.texts())
    (template,) = layout.calls("template_list")
    stored = template[0][2]
    assert template[0][:2] == ("IK_DOCTOR_UL_findings", "") and template[0][3] == "rows"
    assert "IK 'IK' on shin.L has no target." in layout.texts()
    ui_list = panel.IK_DOCTOR_UL_findings
    for index, item in enumerate(stored.rows):
        row = FakeLayout()
        ui_list.draw_item(None, bpy.context, row, stored, item, 0, stored, "active_index", index)
        assert row.calls("label")


def test_findings_are_grouped_by_chain_then_rig_wide(posed_rig) -> None:
    posed_rig.pose.bones["forearm.R"].constraints["IK"].target = None
    bpy.ops.ik_doctor.check_rig()
    stored = report.report_for(bpy.context, posed_rig)
    rows = [(row.kind, row.bone or row.chain_owner) for row in stored.rows]
    assert rows == [
        ("CHAIN", "forearm.R"),
        ("FINDING", "forearm.R"),
        ("CHAIN", "shin.L"),
        ("FINDING", "shin.L"),
    ]
    assert stored.rows[stored.active_index].kind == "FINDING"


def test_rig_wide_findings_come_last_and_rows_give_back_the_same_findings(posed_rig) -> None:
    on_chain = ik_doctor.Finding(
        check_id="target",
        severity=ik_doctor.Severity.ERROR,
        armature=posed_rig.name,
        title="Target missing",
        message="chain",
        why="because",
        bone="shin.L",
        constraint="IK",
        chain=("shin.L", "IK"),
        fix_id="create_control",
        fix_label="Create",
        fix_args=(("parent", "root"), ("offset", (0.0, 1.5)), ("count", 2)),
        changes_rest_pose=True,
    )
    rig_wide = ik_doctor.Finding(
        check_id="solver",
        severity=ik_doctor.Severity.INFO,
        armature=posed_rig.name,
        title="Solver slow",
        message="rig",
        why="why",
        no_fix_reason="nothing safe",
        needs_confirmation=True,
    )
    stored = report.store(bpy.context, posed_rig, [rig_wide, on_chain])
    assert [row.kind for row in stored.rows] == ["CHAIN", "FINDING", "RIG", "FINDING"]
    assert report.findings_of(stored) == [on_chain, rig_wide]
    assert (stored.errors, stored.warnings, stored.infos) == (1, 0, 1)


def test_the_limb_with_an_error_comes_first_and_is_chosen(posed_rig) -> None:
    """An animator reads the first rows: a limb that breaks must not sit below one that only
    warns, whatever their names."""

    def finding(severity: ik_doctor.Severity, bone: str | None) -> ik_doctor.Finding:
        return ik_doctor.Finding(
            check_id="target",
            severity=severity,
            armature=posed_rig.name,
            title="Title",
            message=f"{severity.name} on {bone}",
            why="why",
            bone=bone,
            constraint="IK" if bone else None,
            chain=(bone, "IK") if bone else None,
        )

    warned = finding(ik_doctor.Severity.WARNING, "forearm.L")
    broken = finding(ik_doctor.Severity.ERROR, "shin.R")
    rig_wide = finding(ik_doctor.Severity.INFO, None)
    stored = report.store(bpy.context, posed_rig, [rig_wide, warned, broken])
    rows = [(row.kind, row.bone or row.chain_owner) for row in stored.rows]
    assert rows == [
        ("CHAIN", "shin.R"),
        ("FINDING", "shin.R"),
        ("CHAIN", "forearm.L"),
        ("FINDING", "forearm.L"),
        ("RIG", ""),
        ("FINDING", ""),
    ]
    assert stored.rows[stored.active_index].severity == "ERROR"


def test_a_clean_rig_reads_no_problems_found(addon, rig) -> None:
    bpy.context.view_layer.objects.active = rig
    bpy.ops.object.mode_set(mode="POSE")
    bpy.ops.ik_doctor.check_rig()
    layout = draw_panel(bpy.context)
    assert "No problems found" in layout.texts()
    assert not layout.calls("template_list")


def test_the_report_goes_stale_when_the_rig_changes_not_when_it_moves(posed_rig) -> None:
    bpy.ops.ik_doctor.check_rig()
    stored = report.report_for(bpy.context, posed_rig)
    bpy.context.view_layer.update()
    assert not stored.stale
    posed_rig.location.x += 1.0
    bpy.context.view_layer.update()
    assert not stored.stale
    posed_rig.pose.bones["forearm.L"].constraints["IK"].chain_count = 3
    bpy.context.view_layer.update()
    assert stored.stale
    assert "The rig changed since this check." in draw_panel(bpy.context).texts()
    bpy.ops.ik_doctor.check_rig()
    assert not stored.stale


# --- F3: the Pose menu ---------------------------------------------------------------------


def test_pose_submenu_lists_every_operator(addon) -> None:
    layout = FakeLayout()
    panel.IK_DOCTOR_MT_pose.draw(SimpleNamespace(layout=layout), bpy.context)
    listed = {args[0] for args, _ in layout.calls("operator")}
    registered = {f"ik_doctor.{name}" for name in dir(bpy.ops.ik_doctor)}
    assert listed == registered
    for idname in listed:
        operator = getattr(bpy.ops.ik_doctor, idname.split(".")[1])
        rna = operator.get_rna_type()
        assert rna.name and rna.description, idname

    pose_menu = FakeLayout()
    panel.draw_in_pose_menu(SimpleNamespace(layout=pose_menu), bpy.context)
    assert pose_menu.calls("menu") == [(("IK_DOCTOR_MT_pose",), pose_menu.calls("menu")[0][1])]
    assert panel.IK_DOCTOR_MT_pose.bl_label == "IK Doctor"


# --- shortcut ------------------------------------------------------------------------------


def default_keymaps(select_mouse: str) -> list[tuple[str, dict, dict]]:
    """Blender's default keymap data, as its keyconfig preset generates it."""
    folder = bpy.utils.preset_paths("keyconfig")[0]
    path = os.path.join(folder, "keymap_data", "blender_default.py")
    spec = importlib.util.spec_from_file_location("ik_doctor_blender_default", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.generate_keymaps(module.Params(select_mouse=select_mouse))


def clashes(event: dict, key: dict) -> bool:
    """Whether a default event fires on the same key press as ``key``."""
    if event.get("type") != key["type"] or event.get("key_modifier", "NONE") != "NONE":
        return False
    if event.get("any"):
        return True
    for modifier in ("ctrl", "shift", "alt", "oskey", "hyper"):
        wanted = event.get(modifier, False)
        if wanted != -1 and bool(wanted) != bool(key.get(modifier, False)):
            return False
    return True


@pytest.mark.parametrize("select_mouse", ["LEFT", "RIGHT"])
def test_shortcut_clashes_with_no_default_binding_in_pose_mode_or_the_3d_view(
    select_mouse,
) -> None:
    keymaps = [
        (name, body["items"])
        for name, args, body in default_keymaps(select_mouse)
        if args.get("space_type") in ("EMPTY", "VIEW_3D") and not args.get("modal")
    ]
    names = {name for name, _ in keymaps}
    assert {"Window", "Screen", "Object Non-modal", "3D View Generic", "3D View", "Pose"} <= names
    taken = [
        (name, idname)
        for name, items in keymaps
        for idname, event, _ in items
        if clashes(event, keymap.DEFAULT_KEY)
    ]
    assert taken == []
    # The test can see a clash: Ctrl+Shift+C (add constraint with targets) is taken in Pose.
    ctrl_shift_c = {**keymap.DEFAULT_KEY, "type": "C"}
    assert any(clashes(event, ctrl_shift_c) for name, items in keymaps for _, event, _ in items)


def test_shortcut_is_in_the_pose_keymap_of_the_addon_keyconfig(addon) -> None:
    keymap_ = bpy.context.window_manager.keyconfigs.addon.keymaps["Pose"]
    (item,) = [i for i in keymap_.keymap_items if i.idname == "ik_doctor.check_rig"]
    assert (item.type, item.value, item.ctrl, item.shift, item.alt) == (
        "D",
        "PRESS",
        True,
        True,
        False,
    )
    assert keymap_.space_type == "EMPTY"


# --- preferences ---------------------------------------------------------------------------


def test_preferences_switch_every_registered_check_and_its_thresholds(addon) -> None:
    for check in ik_doctor.all_checks():
        assert getattr(addon, f"check_{check.id}") is True
        for name, default in check.options.items():
            assert getattr(addon, f"{check.id}__{name}") == pytest.approx(default)
    layout = FakeLayout()
    with in_3d_view():
        type(addon).draw(WithLayout(addon, layout), bpy.context)
    drawn = {args[1] for args, _ in layout.calls("prop") if len(args) > 1}
    assert {f"check_{check.id}" for check in ik_doctor.all_checks()} <= drawn


def test_preferences_show_the_editable_shortcut(addon) -> None:
    layout = FakeLayout()
    with in_3d_view():
        keymap.draw_in_preferences(layout, bpy.context)
    props = [(args[0], args[1]) for args, _ in layout.calls("prop") if len(args) > 1]
    assert any(
        isinstance(owner, bpy.types.KeyMapItem) and owner.idname == "ik_doctor.check_rig"
        for owner, _ in props
    )


def test_a_check_switched_off_in_the_preferences_does_not_run(posed_rig, addon) -> None:
    addon.check_target = False
    try:
        bpy.ops.ik_doctor.check_rig()
        stored = report.report_for(bpy.context, posed_rig)
        assert "target" not in {row.check_id for row in stored.rows}
    finally:
        addon.check_target = True


def test_thresholds_from_the_preferences_reach_the_checks(posed_rig, addon, monkeypatch) -> None:
    seen: dict[str, Any] = {}

    def spy(obj, checks=None, options=None):
        seen.update(checks=checks, options=options)
        return []

    monkeypatch.setattr(operators, "diagnose", spy)
    check = next(c for c in ik_doctor.all_checks() if c.options)
    name = next(iter(check.options))
    setattr(addon, f"{check.id}__{name}", 0.5)
    bpy.ops.ik_doctor.check_rig()
    assert seen["options"][check.id][name] == pytest.approx(0.5)
    assert check.id in seen["checks"]
    setattr(addon, f"{check.id}__{name}", check.options[name])
    bpy.ops.ik_doctor.check_rig()
    assert seen["options"][check.id][name] == check.options[name], "float32 rounding leaked"
