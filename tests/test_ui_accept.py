"""Accept... and Take Back in the panel, as an animator presses them, and the project's
settings file beside the open .blend."""

from __future__ import annotations

from pathlib import Path

import bpy
import pytest
import test_ui_support
from test_ui_support import draw_panel

import ik_doctor
from ik_doctor.core.waivers import STALE_CHECK
from ik_doctor.ui import report

addon = test_ui_support.addon  # shared fixtures
posed_rig = test_ui_support.posed_rig
REASON = "the leg is driven by hand on purpose"


def checked(obj: bpy.types.Object):
    with bpy.context.temp_override(active_object=obj, object=obj):
        assert bpy.ops.ik_doctor.check_rig() == {"FINISHED"}
    return report.report_for(bpy.context, obj)


def _select(stored, check_id: str) -> None:
    stored.active_index = next(
        index for index, row in enumerate(stored.rows) if row.check_id == check_id
    )


def _accept(obj: bpy.types.Object, reason: str = REASON) -> set[str]:
    with bpy.context.temp_override(active_object=obj, object=obj):
        return bpy.ops.ik_doctor.accept_finding(reason=reason)


def test_accept_sets_the_finding_aside_with_its_reason_and_undo_takes_it_back(posed_rig) -> None:
    window = bpy.context.window_manager.windows[0]
    with bpy.context.temp_override(window=window):
        bpy.ops.ed.undo_push(message="Broken leg")
        stored = checked(posed_rig)
        assert stored.errors == 1
        _select(stored, "target")
        # As a button does: the second argument asks for the undo step Python calls skip.
        with bpy.context.temp_override(active_object=posed_rig, object=posed_rig):
            assert bpy.ops.ik_doctor.accept_finding("EXEC_DEFAULT", True, reason=REASON) == {
                "FINISHED"
            }
        stored = report.report_for(bpy.context, posed_rig)
        assert (stored.errors, [row.check_id for row in stored.rows]) == (0, [])
        assert [(row.check_id, row.bone, row.reason) for row in stored.accepted] == [
            ("target", "shin.L", REASON)
        ]
        assert [w.reason for w in ik_doctor.waivers_of(posed_rig)] == [REASON]
        texts = draw_panel(bpy.context).texts()
        assert REASON in texts and "No problems found" in texts
        bpy.ops.ed.undo()
    rig = bpy.data.objects["IKDoctorRig"]  # undo reloads the data: look it up again
    assert ik_doctor.waivers_of(rig) == []


def test_take_back_counts_the_finding_again(posed_rig) -> None:
    _select(checked(posed_rig), "target")
    _accept(posed_rig)
    with bpy.context.temp_override(active_object=posed_rig, object=posed_rig):
        assert bpy.ops.ik_doctor.take_back_acceptance(accepted=0) == {"FINISHED"}
    stored = report.report_for(bpy.context, posed_rig)
    assert (stored.errors, len(stored.accepted)) == (1, 0)
    assert ik_doctor.waivers_of(posed_rig) == []


def test_accept_needs_a_reason(posed_rig) -> None:
    _select(checked(posed_rig), "target")
    with pytest.raises(RuntimeError):  # the operator reports the error, so bpy.ops raises
        _accept(posed_rig, reason="   ")
    assert ik_doctor.waivers_of(posed_rig) == []


def test_a_stale_acceptance_is_listed_and_taken_back_from_its_row(posed_rig) -> None:
    _select(checked(posed_rig), "target")
    _accept(posed_rig)
    posed_rig.pose.bones["shin.L"].constraints["IK"].target = posed_rig
    posed_rig.pose.bones["shin.L"].constraints["IK"].subtarget = "foot_ik.L"
    stored = checked(posed_rig)
    assert [(row.check_id, row.severity) for row in stored.rows if row.kind == "FINDING"] == [
        (STALE_CHECK, "INFO")
    ]
    _select(stored, STALE_CHECK)
    with bpy.context.temp_override(active_object=posed_rig, object=posed_rig):
        assert bpy.ops.ik_doctor.take_back_acceptance() == {"FINISHED"}
    assert ik_doctor.waivers_of(posed_rig) == []


def test_accept_and_take_back_are_found_by_f3_in_the_pose_menu(addon) -> None:
    from ik_doctor.ui import panel

    layout = test_ui_support.FakeLayout()
    panel.IK_DOCTOR_MT_pose.draw(test_ui_support.SimpleNamespace(layout=layout), bpy.context)
    listed = [args[0] for args, _ in layout.calls("operator")]
    assert {"ik_doctor.accept_finding", "ik_doctor.take_back_acceptance"} <= set(listed)


def test_a_linked_rig_cannot_be_accepted_and_says_why(addon, rig, tmp_path: Path) -> None:
    rig.pose.bones["shin.L"].constraints["IK"].target = None
    library = tmp_path / "library.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(library))
    bpy.ops.wm.read_homefile(use_empty=True)
    with bpy.data.libraries.load(str(library), link=True) as (_src, linked):
        linked.objects = ["IKDoctorRig"]
    obj = linked.objects[0]
    bpy.context.scene.collection.objects.link(obj)
    bpy.context.view_layer.objects.active = obj
    _select(checked(obj), "target")
    with bpy.context.temp_override(active_object=obj, object=obj):
        assert not bpy.ops.ik_doctor.accept_finding.poll()
        with pytest.raises(RuntimeError, match="linked from"):
            bpy.ops.ik_doctor.accept_finding(reason=REASON)


def test_the_panel_follows_the_settings_file_beside_the_blend(posed_rig, tmp_path) -> None:
    (tmp_path / "ik-doctor.toml").write_text('[severity]\ntarget = "warning"\n')
    (tmp_path / "rigs").mkdir()
    bpy.ops.wm.save_as_mainfile(filepath=str(tmp_path / "rigs" / "rig.blend"))
    rig = bpy.data.objects["IKDoctorRig"]
    stored = checked(rig)
    assert (stored.errors, stored.warnings, stored.settings_problem) == (0, 1, "")
    (tmp_path / "ik-doctor.toml").write_text('ignore = ["targett"]\n')
    stored = checked(rig)
    assert stored.errors == 1  # the preferences alone decide, and the panel says why
    assert str(tmp_path / "ik-doctor.toml") in stored.settings_problem
    assert any("Settings file not used" in text for text in draw_panel(bpy.context).texts())
