"""``ik-doctor check --export``: what the game gets, for pipelines, with the export settings."""

from __future__ import annotations

import json
from pathlib import Path

import bpy
import pytest
from test_cli import ik_doctor, valid_report
from test_scan_animation import key_walk

from ik_doctor.sample_rig import build_character_rig


@pytest.fixture(scope="module")
def walking(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("export") / "walk.blend"
    bpy.ops.wm.read_homefile(use_empty=True)
    key_walk(build_character_rig())
    bpy.ops.wm.save_as_mainfile(filepath=str(path), check_existing=False)
    return path


def export_findings(report: dict) -> list[dict]:
    (armature,) = report["files"][0]["armatures"]
    return [f for f in armature["findings"] if f["check_id"] == "export"]


def test_check_export_without_sampling_fails_on_the_miss_and_names_sampling(walking) -> None:
    settings = walking.with_name("no_sampling.json")
    settings.write_text(json.dumps({"export_force_sampling": False}), "utf-8")
    quiet = ik_doctor("check", walking, "--export", "gltf", "--format", "json", cwd=walking.parent)
    assert export_findings(valid_report(quiet)) == []
    process = ik_doctor(
        "check", walking, "--export", "gltf", "--export-settings", settings,
        "--format", "json", cwd=walking.parent,
    )  # fmt: skip
    assert process.returncode == 1
    report = valid_report(process)
    assert report["options"]["export"] == "gltf"
    assert report["options"]["export_settings"] == {"export_force_sampling": False}
    (miss,) = export_findings(report)
    assert (miss["fix_args"]["cause"], miss["action"]) == ("sampling", "Walk")


def test_export_settings_that_are_not_json_are_a_usage_error(walking) -> None:
    settings = walking.with_name("broken.json")
    settings.write_text("{export", "utf-8")
    process = ik_doctor("check", walking, "--export", "fbx", "--export-settings", settings,
                        cwd=walking.parent)  # fmt: skip
    assert process.returncode == 2
