"""The ``ik-doctor`` command, run for real in a subprocess, as a CI job would run it.

The files are built here: the reference rig, the rig with faults, a file without an armature,
a file that is not a .blend, a truncated one, a linked rig, and a trap whose text block and
drivers would write marker files if the command ever ran the file's Python. Each subprocess
costs a Blender start, so each run covers several behaviours.
"""

from __future__ import annotations

import hashlib
import json
import os
import pty
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import bpy
import jsonschema
import pytest
from cli_rigs import add_trap, broken_rig

from ik_doctor.cli.report_json import SCHEMA_PATH
from ik_doctor.sample_rig import build_character_rig

SCHEMA = json.loads(SCHEMA_PATH.read_text("utf-8"))
SEED_CHECKS = "target,chain_length,parenting"
"""Runs that assert exact findings pin the checks, so a new check cannot change their story."""
REAL_RIG = Path(__file__).resolve().parents[2] / "shared" / "rigs" / "RobotExpressive.blend"
"""Saved by Blender 2.79: both lines read it."""
ANSI = re.compile(r"\x1b\[")


def ik_doctor(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    # os.environ, not the inherited C environment: bpy sets OCIO in there on import, and bpy
    # 5.x logs a line on standard output when it starts with OCIO set.
    return subprocess.run(
        [sys.executable, "-m", "ik_doctor", *map(str, args)],
        cwd=cwd,
        env=dict(os.environ),
        capture_output=True,
        text=True,
        timeout=300,
    )


def on_a_terminal(*args: str | Path, cwd: Path) -> tuple[int, bytes]:
    """Run the command with a terminal as its stdout and stderr; its exit code and all it
    wrote there."""
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "ik_doctor", *map(str, args)],
        cwd=cwd, env=dict(os.environ), stdout=follower, stderr=follower,
    )  # fmt: skip
    os.close(follower)
    output = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal closes when the command ends
            break
        if not chunk:
            break
        output += chunk
    os.close(leader)
    return process.wait(timeout=300), output


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def valid_report(process: subprocess.CompletedProcess[str]) -> dict:
    assert process.stdout.startswith("{"), process.stdout + process.stderr
    report = json.loads(process.stdout)
    jsonschema.Draft202012Validator(SCHEMA).validate(report)
    assert report["exit_code"] == process.returncode
    return report


def _save(path: Path) -> None:
    bpy.ops.wm.save_as_mainfile(filepath=str(path), check_existing=False)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("cli")
    rigs = root / "rigs"
    (rigs / "props").mkdir(parents=True)
    paths = {
        "good": rigs / "good.blend",
        "broken": rigs / "broken.blend",
        "cube": rigs / "props" / "cube.blend",
        "text": root / "notes.blend",
        "truncated": root / "truncated.blend",
        "missing": root / "missing.blend",
        "trap": root / "trap.blend",
        "lib": root / "library" / "rig_library.blend",
        "linked": root / "linked.blend",
    }
    markers = {name: root / f"marker_{name}" for name in ("text", "driver", "expression")}
    bpy.ops.wm.read_homefile(use_empty=True)
    build_character_rig()
    _save(paths["good"])
    bpy.ops.wm.read_homefile(use_empty=True)
    broken_rig()
    _save(paths["broken"])
    paths["lib"].parent.mkdir()
    _save(paths["lib"])
    bpy.ops.wm.read_homefile(use_empty=True)
    with bpy.data.libraries.load(str(paths["lib"]), link=True, relative=True) as (_src, dst):
        dst.objects = ["IKDoctorRig"]
    bpy.context.scene.collection.objects.link(dst.objects[0])
    _save(paths["linked"])
    bpy.ops.wm.read_homefile(use_empty=True)
    add_trap(broken_rig(), markers)
    _save(paths["trap"])
    bpy.ops.wm.read_homefile(use_empty=True)
    bpy.ops.mesh.primitive_cube_add()
    _save(paths["cube"])
    bpy.ops.wm.read_homefile(use_empty=True)
    paths["text"].write_text("not a blend file\n")
    paths["truncated"].write_bytes(paths["good"].read_bytes()[:4000])
    paths["moved"] = root / "moved" / "linked.blend"  # its relative library path now misses
    paths["moved"].parent.mkdir()
    shutil.copy(paths["linked"], paths["moved"])
    return {**paths, **{f"marker_{k}": v for k, v in markers.items()}, "root": root}


def test_the_trap_file_runs_its_python_when_auto_execution_is_on(files) -> None:
    """Proves the trap works, so its silence under the command line means something."""
    try:
        bpy.ops.wm.open_mainfile(filepath=str(files["trap"]), load_ui=False, use_scripts=True)
        bpy.context.view_layer.update()
        assert files["marker_text"].exists()
        assert files["marker_driver"].exists()
        assert files["marker_expression"].exists()
    finally:
        bpy.app.driver_namespace.pop("ik_trap", None)
        bpy.ops.wm.read_homefile(use_empty=True)
        for name in ("text", "driver", "expression"):
            files[f"marker_{name}"].unlink(missing_ok=True)


def test_check_reports_every_file_in_order_and_exits_2_for_the_unreadable(files) -> None:
    inputs = [
        files["good"].parent,  # the directory: good.blend, broken.blend, props/cube.blend
        files["missing"],
        files["text"],
        files["truncated"],
        files["trap"],
        files["moved"],
    ]
    html = files["root"] / "report.html"
    common = ["--checks", SEED_CHECKS, "--fail-on", "warning"]
    parallel = ik_doctor("check", *inputs, *common, "--format", "json", "--jobs", "2",
                         "--html", html, cwd=files["root"])  # fmt: skip
    serial = ik_doctor("check", *inputs, *common, "--jobs", "1", cwd=files["root"])

    report = valid_report(parallel)
    assert parallel.returncode == serial.returncode == 2
    by_name = {Path(f["path"]).name: f for f in report["files"]}
    order = ["broken", "good", "cube", "missing", "text", "truncated", "trap", "moved"]
    assert list(by_name) == [files[name].name for name in order]
    assert [by_name[files[n].name]["status"] for n in order] == [
        "ok", "ok", "no_armature", "unreadable", "unreadable", "unreadable", "ok", "unreadable",
    ]  # fmt: skip
    assert by_name["missing.blend"]["problem"] == "no such file"
    assert "not a .blend file" in by_name["notes.blend"]["problem"]
    assert "truncated or damaged" in by_name["truncated.blend"]["problem"]
    assert "missing" in by_name["linked.blend"]["problem"]  # its library is not where it says
    broken = by_name["broken.blend"]["armatures"][0]["findings"]
    assert {(f["check_id"], f["bone"], f["severity"]) for f in broken} == {
        ("target", "shin.L", "error"),
        ("chain_length", "forearm.L", "error"),
    }
    assert by_name["good.blend"]["armatures"][0]["findings"] == []
    assert not any(files[f"marker_{n}"].exists() for n in ("text", "driver", "expression"))

    # The text report: the same files in the same order, one clear line per bad file, no colour.
    lines = serial.stdout.splitlines()
    headlines = [line for line in lines if line and not line.startswith(" ")]
    assert [Path(line.split(":")[0]).name for line in headlines[:-1]] == list(by_name)
    assert "cube.blend: no armature in this file" in serial.stdout
    assert f"{files['missing']}: cannot read: no such file" in serial.stdout
    assert not ANSI.search(serial.stdout)
    assert headlines[-1].startswith("Checked 8 files, 3 armatures: 4 errors")
    assert serial.stderr == ""  # no progress bar when stderr is not a terminal

    page = html.read_text("utf-8")
    assert page.count("<svg") >= 2 * 4  # front and side view of the chains with findings
    assert "#d62828" in page  # what is wrong is drawn in red
    assert page.count("<script") == 1  # the page's own filters, and nothing a file named
    assert "http://" not in page.replace("http://www.w3.org", "")


def test_exit_code_follows_fail_on_and_junit_lists_the_failures(files) -> None:
    junit = files["root"] / "junit.xml"
    broken = ik_doctor("check", files["broken"], "--checks", SEED_CHECKS, "--format", "junit",
                       "--output", junit, cwd=files["root"])  # fmt: skip
    good = ik_doctor("check", files["good"], "--fail-on", "warning", cwd=files["root"])
    assert (broken.returncode, good.returncode) == (1, 0), good.stdout + good.stderr
    assert broken.stdout == ""
    suites = ElementTree.parse(junit).getroot()
    assert suites.get("failures") == "2" and suites.get("errors") == "0"
    cases = suites.iter("testcase")
    failed = {case.get("name") for case in cases if case.find("failure") is not None}
    assert failed == {"target", "chain_length"}


def test_fix_writes_fixed_copies_rechecks_them_and_never_touches_the_inputs(files) -> None:
    inputs = [files["broken"], files["trap"], files["linked"]]
    before = {path: digest(path) for path in inputs}
    out = files["root"] / "fixed"
    html = files["root"] / "fixed.html"
    result = ik_doctor("fix", *inputs, "--output-dir", out, "--checks", SEED_CHECKS,
                       "--format", "json", "--html", html, cwd=files["root"])  # fmt: skip

    report = valid_report(result)
    assert {path: digest(path) for path in inputs} == before
    assert not any(files[f"marker_{n}"].exists() for n in ("text", "driver", "expression"))
    broken, trap, linked = report["files"]
    for fixed in (broken, trap):
        assert Path(fixed["output"]).exists()
        (armature,) = fixed["armatures"]
        assert {f["check_id"] for f in armature["findings"]} == {"target", "chain_length"}
        assert all(applied["changed"] for applied in armature["fix"]["applied"])
        assert armature["fix"]["after"] == []
    (linked_rig,) = linked["armatures"]
    assert linked_rig["library"].endswith("rig_library.blend")
    assert "linked from" in linked_rig["fix"]["skipped"]
    assert {f["check_id"] for f in linked_rig["fix"]["after"]} == {"target", "chain_length"}
    assert result.returncode == 1  # the linked rig still has its errors
    page = html.read_text("utf-8")
    assert page.count(">before<") == page.count(">after<") >= 4  # each faulty chain, twice


def test_fix_in_place_keeps_a_byte_copy_of_the_original_first(files, tmp_path) -> None:
    rig = tmp_path / "rig.blend"
    shutil.copy(files["broken"], rig)
    original = digest(rig)
    result = ik_doctor("fix", rig, "--in-place", "--checks", SEED_CHECKS, cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    backup = tmp_path / "rig.blend.ik-doctor-backup"
    assert digest(backup) == original and digest(rig) != original
    assert "after: 0 errors, 0 warnings, 0 info" in result.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == [rig.name, backup.name]


def test_on_a_terminal_the_report_is_coloured_and_progress_shows(files) -> None:
    code, output = on_a_terminal(
        "check", files["good"], files["broken"], "--checks", SEED_CHECKS, "--jobs", "1",
        cwd=files["root"],
    )  # fmt: skip
    assert code == 1
    text = output.decode("utf-8", "replace")
    assert "\x1b[31mERROR" in text  # errors in red
    # The progress bar counts the files as they are answered (the largest is handed out first).
    shown = re.findall(r"\] ([12])/2 (good|broken)\.blend", text)
    assert [count for count, _name in shown] == ["1", "2"], text
    assert {name for _count, name in shown} == {"good", "broken"}


@pytest.mark.parametrize(
    ("args", "complaint"),
    [
        (["check", "x.blend", "--checks", "target,nonsense"], "unknown check id 'nonsense'"),
        (["fix", "rigs/good.blend", "--output-dir", "rigs"], "would overwrite an input file"),
    ],
    ids=["unknown_check", "fix_onto_the_input"],
)
def test_usage_errors_exit_with_2(files, args, complaint) -> None:
    result = ik_doctor(*args, cwd=files["root"])
    assert result.returncode == 2
    assert complaint in result.stderr


@pytest.mark.skipif(not REAL_RIG.exists(), reason="the shared real rigs are not here")
def test_check_reads_a_real_rig_with_every_check_and_only_the_named_armature(tmp_path) -> None:
    three = REAL_RIG.with_name("gltfio_32_weights_influence_all.blend")  # three armatures
    result = ik_doctor("check", REAL_RIG, three, "--armature", "RobotArmature",
                       "--format", "json", cwd=tmp_path)  # fmt: skip
    robot, other = valid_report(result)["files"]
    assert robot["status"] == "ok", robot["problem"]
    assert [a["name"] for a in robot["armatures"]] == ["RobotArmature"]
    assert robot["armatures"][0]["problem"] is None
    assert other["status"] == "no_armature"
    assert other["problem"] == (
        "no armature named 'RobotArmature' (this file has: Armature, Armature.001, Armature.002)"
    )


def test_demo_saves_the_fixed_rig_and_an_html_report(tmp_path) -> None:
    result = ik_doctor("demo", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Tip error for a target within reach (before -> after)" in result.stdout
    assert (tmp_path / "ik_doctor_demo.blend").exists()
    page = (tmp_path / "ik_doctor_demo.html").read_text("utf-8")
    assert "before" in page and "after" in page and "<svg" in page
    assert os.path.basename(str(tmp_path / "ik_doctor_demo.html")) in result.stdout


def test_json_on_stdout_stays_clean_when_blender_logs_while_starting(files) -> None:
    """A studio's $OCIO that Blender cannot read makes it log at start-up, on stdout."""
    process = subprocess.run(
        [sys.executable, "-m", "ik_doctor", "check", str(files["good"]), "--format", "json"],
        cwd=files["root"],
        env={**os.environ, "OCIO": str(files["root"] / "missing.ocio")},
        capture_output=True,
        text=True,
        timeout=300,
    )
    valid_report(process)
