"""``ik-doctor check --export``: what the game gets, for pipelines, with the export settings,
and on the HTML page the worst joint drawn over the frames as the JSON report measured it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import bpy
import pytest
from test_cli import ik_doctor, valid_report
from test_report_html import nesting_errors
from test_scan_animation import key_walk

from ik_doctor.sample_rig import build_character_rig

HOSTILE = 'shin<script>alert("&")</script>.L'
"""The walking leg's shin, the worst joint without sampling, named to break a careless page."""


@pytest.fixture(scope="module")
def walking(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("export") / "walk.blend"
    bpy.ops.wm.read_homefile(use_empty=True)
    key_walk(build_character_rig())
    bpy.ops.wm.save_as_mainfile(filepath=str(path), check_existing=False)
    return path


@pytest.fixture(scope="module")
def hostile_walk(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("export_page") / "hostile.blend"
    bpy.ops.wm.read_homefile(use_empty=True)
    rig = build_character_rig()
    key_walk(rig)
    rig.data.bones["shin.L"].name = HOSTILE
    bpy.ops.wm.save_as_mainfile(filepath=str(path), check_existing=False)
    path.with_name("no_sampling.json").write_text('{"export_force_sampling": false}', "utf-8")
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


def scale(inputs: list[float], outputs: list[float]) -> float:
    """The one factor that maps every input to its output (SVG's 0.1 rounding allowed)."""
    low = min(range(len(inputs)), key=inputs.__getitem__)
    high = max(range(len(inputs)), key=inputs.__getitem__)
    factor = (outputs[high] - outputs[low]) / (inputs[high] - inputs[low])
    for given, drawn in zip(inputs, outputs, strict=True):
        assert abs(outputs[low] + factor * (given - inputs[low]) - drawn) <= 0.1
    return factor


def test_the_page_draws_the_worst_joint_over_the_frames_as_the_report_measured_it(
    hostile_walk,
) -> None:
    page = hostile_walk.with_name("page.html")
    process = ik_doctor(
        "check", hostile_walk, "--export", "gltf", "--export-settings",
        hostile_walk.with_name("no_sampling.json"), "--format", "json", "--html", page,
        cwd=hostile_walk.parent,
    )  # fmt: skip
    (miss,) = export_findings(valid_report(process))
    (walk,) = miss["occurrences"]
    series = walk["series"]
    assert series["name"] == HOSTILE and len(series["values"]) == 12
    html = page.read_text("utf-8")
    item = re.search(r'<li class="finding" [^>]*data-check="export".*?</li>', html, re.DOTALL)
    assert item is not None
    (points,) = re.findall(r'<polyline points="([^"]*)"', item.group(0))
    drawn = [tuple(map(float, point.split(","))) for point in points.split()]
    frames = [series["first_frame"] + i for i in range(len(series["values"]))]
    assert scale(frames, [x for x, _ in drawn]) > 0  # later frames to the right
    assert scale(series["values"], [y for _, y in drawn]) < 0  # further up
    assert HOSTILE not in html and html.count("<script") == 1  # the page's own filters
    assert nesting_errors(html) == []
