"""The command line with faults accepted on purpose, a project's settings file, and a baseline:
run for real in a subprocess, as a pipeline gate runs it."""

from __future__ import annotations

import dataclasses
import html
import json
import os
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import bpy
import pytest
from cli_rigs import broken_rig
from test_cli import SEED_CHECKS, ik_doctor, valid_report

import ik_doctor as api
from ik_doctor.core.project_config import MAX_BYTES
from ik_doctor.sample_rig import build_character_rig

REASON = "kept on purpose: the exporter's test scene"


def _save(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    bpy.ops.wm.save_as_mainfile(filepath=str(path), check_existing=False, copy=True)


def _finding(rig: bpy.types.Object, check_id: str) -> api.Finding:
    return next(f for f in api.diagnose(rig, [check_id]))


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """waived.blend: the broken rig with both its errors accepted and a waiver of a fault it
    does not have; broken.blend below a project whose settings lower and switch off checks."""
    root = tmp_path_factory.mktemp("settings")
    bpy.ops.wm.read_homefile(use_empty=True)
    rig = broken_rig()
    api.waive(_finding(rig, "target"), REASON)
    api.waive(_finding(rig, "chain_length"), REASON)
    gone = dataclasses.replace(_finding(rig, "target"), check_id="parenting", bone="shin.R")
    api.waive(gone, "a fault this rig does not have")
    _save(root / "waived.blend")
    bpy.ops.wm.read_homefile(use_empty=True)
    broken_rig()
    _save(root / "project" / "rigs" / "broken.blend")
    _save(root / "plain" / "broken.blend")
    bpy.ops.wm.read_homefile(use_empty=True)
    (root / "project" / "ik-doctor.toml").write_text(
        'ignore = ["target"]\n[severity]\nchain_length = "warning"\n'
    )
    return root


def test_waived_findings_do_not_fail_the_run_and_are_listed_with_their_reason(tree) -> None:
    process = ik_doctor(
        "check", "--checks", SEED_CHECKS, "--format", "json", "waived.blend", cwd=tree
    )
    report = valid_report(process)
    assert process.returncode == 0
    (armature,) = report["files"][0]["armatures"]
    waived = [
        (w["finding"]["check_id"], w["finding"]["severity"], w["reason"])
        for w in armature["waived"]
    ]
    assert sorted(waived) == [("chain_length", "error", REASON), ("target", "error", REASON)]
    (stale,) = armature["findings"]
    assert (stale["check_id"], stale["severity"], stale["bone"]) == ("waiver", "info", "shin.R")
    summary = report["summary"]
    assert (summary["error"], summary["info"], summary["waived"]) == (0, 1, 2)
    assert report["options"]["waivers"] is True


def test_no_waivers_reports_everything_as_if_none_existed(tree) -> None:
    process = ik_doctor(
        "check", "--checks", SEED_CHECKS, "--no-waivers", "--format", "json", "waived.blend",
        cwd=tree,
    )  # fmt: skip
    report = valid_report(process)
    assert process.returncode == 1
    (armature,) = report["files"][0]["armatures"]
    assert armature["waived"] == []
    assert sorted(f["check_id"] for f in armature["findings"]) == ["chain_length", "target"]
    assert (report["summary"]["error"], report["summary"]["waived"]) == (2, 0)


def test_every_report_lists_the_waived_with_their_reason(tree) -> None:
    process = ik_doctor(
        "check", "--checks", SEED_CHECKS, "--format", "junit", "--html", "page.html",
        "waived.blend", cwd=tree,
    )  # fmt: skip
    assert process.returncode == 0, process.stderr
    suites = ElementTree.fromstring(process.stdout)
    assert suites.get("failures") == "0"
    outputs = {
        case.get("name"): case.findtext("system-out") or "" for case in suites.iter("testcase")
    }
    assert REASON in outputs["target"] and REASON in outputs["chain_length"]
    assert "waiver" in outputs
    assert html.escape(REASON) in (tree / "page.html").read_text("utf-8")
    text = ik_doctor("check", "--checks", SEED_CHECKS, "waived.blend", cwd=tree)
    assert text.returncode == 0 and text.stdout.count(REASON) == 2


def test_fix_leaves_a_waived_fault_as_it_is(tree, tmp_path) -> None:
    process = ik_doctor(
        "fix", "--checks", SEED_CHECKS, "--output-dir", tmp_path, "--format", "json",
        tree / "waived.blend", cwd=tree,
    )  # fmt: skip
    report = valid_report(process)
    (armature,) = report["files"][0]["armatures"]
    assert armature["fix"]["applied"] == []
    assert len(armature["fix"]["waived_after"]) == 2


def test_the_nearest_settings_file_decides_for_each_file(tree) -> None:
    process = ik_doctor(
        "check", "--checks", "target,chain_length", "--format", "json",
        "project/rigs/broken.blend", "plain/broken.blend", cwd=tree,
    )  # fmt: skip
    report = valid_report(process)
    assert process.returncode == 1
    project, plain = report["files"]
    assert project["config"] == str(tree / "project" / "ik-doctor.toml")
    assert plain["config"] is None
    # --checks wins over the file's ignore; its severity still applies
    assert {(f["check_id"], f["severity"]) for f in project["armatures"][0]["findings"]} == {
        ("target", "error"), ("chain_length", "warning"),
    }  # fmt: skip
    assert {f["severity"] for f in plain["armatures"][0]["findings"]} == {"error"}
    alone = ik_doctor("check", "--format", "json", "project/rigs/broken.blend", cwd=tree)
    checks = {f["check_id"] for f in valid_report(alone)["files"][0]["armatures"][0]["findings"]}
    assert "target" not in checks and "chain_length" in checks
    isolated = ik_doctor(
        "check", "--isolated", "--format", "json", "project/rigs/broken.blend", cwd=tree
    )
    found = valid_report(isolated)["files"][0]["armatures"][0]["findings"]
    assert {"target", "chain_length"} <= {f["check_id"] for f in found}


def test_pyproject_and_config_path_set_fail_on_and_options(tree, tmp_path) -> None:
    project = tmp_path / "game"
    blend = project / "assets" / "broken.blend"
    blend.parent.mkdir(parents=True)
    blend.write_bytes((tree / "plain" / "broken.blend").read_bytes())
    (project / "pyproject.toml").write_text(
        '[project]\nname = "game"\n[tool.ik-doctor]\nfail-on = "warning"\n'
        '[tool.ik-doctor.severity]\ntarget = "warning"\nchain_length = "warning"\n'
        'symmetry = "info"\n[tool.ik-doctor.options.roll]\nmax-angle = 45\n'
    )
    process = ik_doctor(
        "check", "--checks", "target,chain_length", "--format", "json", blend, cwd=tmp_path
    )
    report = valid_report(process)
    assert (process.returncode, report["files"][0]["fail_on"]) == (1, "warning")
    lowered = ik_doctor(
        "check", "--checks", "target,chain_length", "--fail-on", "error", blend, cwd=tmp_path
    )
    assert lowered.returncode == 0, lowered.stdout
    other = tmp_path / "elsewhere.toml"
    other.write_text('ignore = ["target", "chain_length"]\n')
    chosen = ik_doctor("check", "--config", other, "--format", "json", blend, cwd=tmp_path)
    found = valid_report(chosen)["files"][0]["armatures"][0]["findings"]
    assert not {"target", "chain_length"} & {f["check_id"] for f in found}


BAD_SETTINGS = {
    "unknown key": "ignroe = []\n",
    "unknown check": 'ignore = ["rol"]\n',
    "bad severity": '[severity]\nroll = "fatal"\n',
    "bad fail-on": 'fail-on = "never"\n',
    "unknown option": "[options.roll]\nmax_angel = 3.0\n",
    "option of the wrong kind": '[options.roll]\nmax_angle = "big"\n',
    "options not a table": "options = 3\n",
    "control characters": 'ignore = ["ro\x01ll"]\n',
    "not TOML": "ignore = [\n",
    "nested deeply": "a = " + "[" * 50_000 + "]" * 50_000 + "\n",
}


@pytest.mark.parametrize("kind", BAD_SETTINGS)
def test_a_settings_file_that_cannot_be_used_stops_the_run_naming_it(tree, tmp_path, kind) -> None:
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "ik-doctor.toml").write_text(BAD_SETTINGS[kind])
    (folder / "broken.blend").write_bytes((tree / "plain" / "broken.blend").read_bytes())
    process = ik_doctor("check", folder / "broken.blend", cwd=tmp_path)
    assert process.returncode == 2
    assert process.stdout == ""
    (error,) = [line for line in process.stderr.splitlines() if "error:" in line]
    assert str(folder / "ik-doctor.toml") in error
    assert "\x01" not in process.stderr


def test_settings_files_that_are_not_settings_are_refused_or_passed_by(tree, tmp_path) -> None:
    folder = tmp_path / "a" / "b"
    folder.mkdir(parents=True)
    (folder / "broken.blend").write_bytes((tree / "plain" / "broken.blend").read_bytes())
    (folder / "ik-doctor.toml").mkdir()  # a folder named so is passed by, as Ruff does
    os.mkfifo(tmp_path / "a" / "ik-doctor.toml")  # and a FIFO, never opened for long
    (tmp_path / "ik-doctor.toml").write_text('ignore = ["target"]\n')
    process = ik_doctor("check", "--format", "json", folder / "broken.blend", cwd=tmp_path)
    assert valid_report(process)["files"][0]["config"] == str(tmp_path / "ik-doctor.toml")
    huge = tmp_path / "huge.toml"
    huge.write_text("# x\n" * (MAX_BYTES // 4 + 1))
    for given in (folder / "ik-doctor.toml", tmp_path / "a" / "ik-doctor.toml", huge,
                  tmp_path / "missing.toml", tmp_path / "latin1.toml"):  # fmt: skip
        (tmp_path / "latin1.toml").write_bytes(b'ignore = ["\xdf"]\n')
        refused = ik_doctor("check", "--config", given, folder / "broken.blend", cwd=tmp_path)
        assert (refused.returncode, refused.stdout) == (2, ""), given
        assert str(given) in refused.stderr
    both = ik_doctor("check", "--config", huge, "--isolated", folder / "broken.blend", cwd=tmp_path)
    assert both.returncode == 2


@pytest.fixture(scope="module")
def baseline(tree) -> Path:
    """The JSON report of broken.blend (no target, arm chain length 1), as last week's run."""
    rig = tree / "history" / "rig.blend"
    rig.parent.mkdir()
    rig.write_bytes((tree / "plain" / "broken.blend").read_bytes())
    process = ik_doctor(
        "check", "--checks", SEED_CHECKS, "--format", "json", "rig.blend", cwd=rig.parent
    )
    assert process.returncode == 1
    (rig.parent / "old.json").write_text(process.stdout)
    return rig.parent / "old.json"


def _changed(path: Path, new_fault: bool) -> None:
    """The rig a week later: the arm fixed, the target still missing, maybe a new fault."""
    bpy.ops.wm.read_homefile(use_empty=True)
    rig = build_character_rig()
    rig.pose.bones["shin.L"].constraints["IK"].target = None
    if new_fault:
        rig.pose.bones["forearm.R"].constraints["IK"].chain_count = 1
    _save(path)
    bpy.ops.wm.read_homefile(use_empty=True)


@pytest.mark.parametrize("new_fault", [True, False])
def test_a_baseline_fails_only_on_new_findings(baseline, new_fault) -> None:
    _changed(baseline.parent / "rig.blend", new_fault)
    process = ik_doctor(
        "check", "--checks", SEED_CHECKS, "--baseline", "old.json", "--format", "json",
        "rig.blend", cwd=baseline.parent,
    )  # fmt: skip
    report = valid_report(process)
    assert process.returncode == (1 if new_fault else 0)
    (armature,) = report["files"][0]["armatures"]
    marks = {(f["check_id"], f["bone"], f["baseline"]) for f in armature["findings"]}
    assert ("target", "shin.L", "unchanged") in marks
    assert (("chain_length", "forearm.R", "new") in marks) == new_fault
    assert [(f["check_id"], f["bone"]) for f in armature["fixed"]] == [
        ("chain_length", "forearm.L")
    ]
    summary = report["summary"]
    assert (summary["new"], summary["unchanged"], summary["fixed"]) == (int(new_fault), 1, 1)


def test_a_baseline_that_is_not_a_report_is_a_usage_error(baseline, tmp_path) -> None:
    os.mkfifo(tmp_path / "fifo.json")
    (tmp_path / "notes.json").write_text("[1, 2]")
    (tmp_path / "text.json").write_text("not json")
    (tmp_path / "deep.json").write_text("[" * 100_000)
    for given in ("fifo.json", "notes.json", "text.json", "deep.json", ".", "missing.json"):
        process = ik_doctor(
            "check", "--baseline", given, baseline.parent / "rig.blend", cwd=tmp_path
        )
        assert (process.returncode, process.stdout) == (2, ""), given
        assert json.dumps(given)[1:-1] in process.stderr


GODOT_SCENE = (
    Path(__file__).resolve().parents[2]
    / "shared/rigs/godotengine_godot-blender-exporter_constraint_internal_IK.blend"
)


@pytest.mark.skipif(not GODOT_SCENE.exists(), reason="the shared rigs are not here")
def test_the_godot_exporters_intended_partial_ik_passes_the_gate_once_accepted(tmp_path) -> None:
    """The issue's case: the exporter's test scene keeps an IK at influence 0.1 on purpose, an
    error that failed --fail-on error forever; accepted in the file, the gate passes."""
    bpy.ops.wm.open_mainfile(filepath=str(GODOT_SCENE), load_ui=False, use_scripts=False)
    rig = bpy.data.objects["Armature"]
    (partial,) = [f for f in api.diagnose(rig) if f.severity == "error"]
    api.waive(partial, REASON)
    _save(tmp_path / "scene.blend")
    bpy.ops.wm.read_homefile(use_empty=True)
    before = ik_doctor("check", GODOT_SCENE, cwd=tmp_path)
    after = ik_doctor("check", "--format", "json", "scene.blend", cwd=tmp_path)
    assert (before.returncode, after.returncode) == (1, 0)
    (armature,) = valid_report(after)["files"][0]["armatures"]
    assert [w["finding"]["check_id"] for w in armature["waived"]] == [partial.check_id]


def test_the_scans_check_ids_are_known_without_blender() -> None:
    """A settings file names the scans' checks too; the main process knows them without bpy."""
    from ik_doctor.cli.results import ANIMATION_CHECK, EXPORT_CHECK
    from ik_doctor.verify.animation import CHECK_ID
    from ik_doctor.verify.export_scan import CHECK_ID as EXPORT_ID

    assert (ANIMATION_CHECK, EXPORT_CHECK) == (CHECK_ID, EXPORT_ID)
