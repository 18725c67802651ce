"""One fix runner for every caller (``core.fix_runner``): the panel's Fix All, ``ik-doctor fix``
(``--animation`` too) and the demo apply the same fixes in the same order, the animation scan's
included, and say what each did in fields (``changed``, ``failed``, ``touched``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import bpy
import pytest
import test_ui_support
from test_cli import ik_doctor, valid_report
from test_scan_animation import key_walk
from test_ui_support import draw_panel

from ik_doctor import FixError, FixResult, all_checks, apply_all_fixes, diagnose
from ik_doctor.core.fix_runner import run_fixes
from ik_doctor.sample_rig import build_character_rig
from ik_doctor.ui import operators, report
from ik_doctor.verify.animation import CHECK_ID

addon = test_ui_support.addon  # shared fixtures

FIELDS = ("check_id", "bone", "fix_id")
LOCK_CHECKS = ("locks", "symmetry")
"""The checks that find a knee's IK lock without solving (symmetry: its twin has none)."""


@contextmanager
def checks_off(addon: bpy.types.AddonPreferences, ids: tuple[str, ...]) -> Iterator[None]:
    """Switch checks off in the preferences for the duration, as a user unticks them."""
    for check_id in ids:
        setattr(addon, f"check_{check_id}", False)
    try:
        yield
    finally:
        for check_id in ids:
            setattr(addon, f"check_{check_id}", True)


def _result_fields(result: dict) -> tuple:
    """What a fix did, in fields only: the finding's place and fix, and the outcome."""
    place = tuple(result["finding"][name] for name in FIELDS)
    return (*place, result["changed"], result["failed"], tuple(result["touched"]))


def _rig_with_a_target_lost_on_a_zero_scale(path: Path) -> None:
    bpy.ops.wm.read_homefile(use_empty=True)
    rig = build_character_rig()
    rig.pose.bones["shin.L"].constraints["IK"].target = None
    rig.scale = (1.0, 1.0, 0.0)  # every fix is refused on a collapsed rig (doctor)
    bpy.ops.wm.save_as_mainfile(filepath=str(path), check_existing=False)


def test_a_refused_fix_is_failed_not_unchanged_in_the_json_report(tmp_path: Path) -> None:
    path = tmp_path / "flat.blend"
    _rig_with_a_target_lost_on_a_zero_scale(path)
    process = ik_doctor(
        "fix", path, "--format", "json", "--output-dir", tmp_path / "out", cwd=tmp_path
    )
    (armature,) = valid_report(process)["files"][0]["armatures"]
    (applied,) = armature["fix"]["applied"]
    assert _result_fields(applied) == ("target", "shin.L", "create_control", False, True, ())


def test_the_runner_tries_a_refused_fix_once_and_serialises_it_as_failed(scene) -> None:
    rig = build_character_rig()
    rig.pose.bones["shin.L"].constraints["IK"].target = None
    tried = []

    def refuse(finding):
        tried.append(finding.key)
        raise FixError("refused on purpose")

    (result,) = run_fixes(rig, [lambda: diagnose(rig)], refuse)
    assert len(tried) == 1
    assert (result.changed, result.failed, result.touched) == (False, True, ())
    assert result.to_dict()["failed"] is True and result.to_dict()["touched"] == []


def test_a_fix_that_changed_something_names_what_it_touched(scene) -> None:
    rig = build_character_rig()
    rig.pose.bones["shin.L"].constraints["IK"].target = None
    (result,) = apply_all_fixes(rig)
    assert isinstance(result, FixResult)
    assert (result.finding.check_id, result.changed, result.failed) == ("target", True, False)
    assert result.to_dict()["touched"] == ["shin.L", "IK"]


def _walking_rig_with_faults() -> bpy.types.Object:
    """The reference rig walking its left foot with the knee's IK locked on its bend axis (the
    scan proves the lock), an arm without a target and an arm with chain length 1."""
    rig = build_character_rig()
    key_walk(rig)
    rig.pose.bones["shin.L"].lock_ik_x = True
    rig.pose.bones["forearm.R"].constraints["IK"].target = None
    rig.pose.bones["forearm.L"].constraints["IK"].chain_count = 1
    return rig


def _panel_fix_all(rig: bpy.types.Object, monkeypatch: pytest.MonkeyPatch) -> list[FixResult]:
    """Check Rig, Verify by Solving and Fix All as pressed, with what Fix All applied."""
    applied: list[FixResult] = []

    def spy(*args, **kwargs):
        applied.extend(apply_all_fixes(*args, **kwargs))
        return applied

    monkeypatch.setattr(operators, "apply_all_fixes", spy)
    bpy.context.view_layer.objects.active = rig
    bpy.ops.object.mode_set(mode="POSE")
    assert bpy.ops.ik_doctor.verify_by_solving() == {"FINISHED"}
    assert bpy.ops.ik_doctor.fix_all(allow_rest_pose_changes=True) == {"FINISHED"}
    return applied


def test_panel_fix_all_applies_the_scan_s_fix(addon, scene, monkeypatch) -> None:
    rig = build_character_rig()
    key_walk(rig)
    rig.pose.bones["shin.L"].lock_ik_x = True
    with checks_off(addon, LOCK_CHECKS):  # only the scan can find the lock now
        applied = _panel_fix_all(rig, monkeypatch)
    assert [(r.finding.check_id, r.finding.fix_id, r.changed) for r in applied] == [
        (CHECK_ID, "free_ik_locks", True)
    ]
    assert not rig.pose.bones["shin.L"].lock_ik_x
    stored = report.report_for(bpy.context, rig)
    assert [row.check_id for row in stored.rows if row.kind == "FINDING"] == []


def test_fix_all_s_count_is_what_it_applies(addon, scene, monkeypatch) -> None:
    rig = _walking_rig_with_faults()
    with checks_off(addon, LOCK_CHECKS):
        bpy.context.view_layer.objects.active = rig
        bpy.ops.object.mode_set(mode="POSE")
        bpy.ops.ik_doctor.verify_by_solving()
        (button,) = [
            kwargs["text"]
            for args, kwargs in draw_panel(bpy.context).calls("operator")
            if args[0] == operators.IK_DOCTOR_OT_fix_all.bl_idname
        ]
        applied = _panel_fix_all(rig, monkeypatch)
    assert button == f"Fix All ({len(applied)})"
    assert all(result.changed for result in applied)
    assert CHECK_ID in {result.finding.check_id for result in applied}


def test_the_command_line_and_the_panel_fix_a_rig_alike(
    addon, scene, tmp_path: Path, monkeypatch
) -> None:
    path = tmp_path / "walk.blend"
    _walking_rig_with_faults()
    bpy.ops.wm.save_as_mainfile(filepath=str(path), check_existing=False)
    static = ",".join(c.id for c in all_checks() if c.id not in (*LOCK_CHECKS, CHECK_ID))
    process = ik_doctor(
        "fix", path, "--animation", "--checks", static, "--allow-rest-pose-changes",
        "--format", "json", "--output-dir", tmp_path / "out", cwd=tmp_path,
    )  # fmt: skip
    (armature,) = valid_report(process)["files"][0]["armatures"]
    by_command_line = [_result_fields(applied) for applied in armature["fix"]["applied"]]
    bpy.ops.wm.open_mainfile(filepath=str(path), load_ui=False)
    with checks_off(addon, LOCK_CHECKS):
        applied = _panel_fix_all(bpy.data.objects["IKDoctorRig"], monkeypatch)
    assert [_result_fields(result.to_dict()) for result in applied] == by_command_line
    assert CHECK_ID in {fields[0] for fields in by_command_line}
