"""Real workers (real ``bpy``, real subprocesses) kept on a short leash.

A worker runs untrusted files in a folder someone else filled: it must not import a module
planted there, must tell what it is doing (so a crash names its moment) and must leave when
its work is done, even on Blender 4.5, whose interpreter shutdown hangs after it read a file
with a Python driver. Blender runs in the workers only: the main process writes the report
from what they say. The installed ``ik-doctor`` script is what a pipeline runs, so that is
what these tests start.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import bpy
import pytest

import ik_doctor
from ik_doctor.cli import check_ids
from ik_doctor.cli.blender_command import execute
from ik_doctor.cli.pool import worker_command
from ik_doctor.cli.results import ANIMATION_CHECK
from ik_doctor.cli.worker import ANSWER_PREFIX, READY_LINE, STAGE_PREFIX
from ik_doctor.sample_rig import build_character_rig

IK_DOCTOR = Path(sys.executable).with_name("ik-doctor")
"""The console script pip installed: ``python -m`` would put the current directory on the
main process's own path, which is Python's doing, not ours."""


def run(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    # os.environ, not the inherited C environment: bpy sets OCIO in there on import.
    return subprocess.run(
        [str(IK_DOCTOR), *map(str, args)],
        cwd=cwd,
        env=dict(os.environ),
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("workers")
    paths = {"good": root / "rigs" / "good.blend", "driven": root / "driven.blend"}
    paths["good"].parent.mkdir()
    bpy.ops.wm.read_homefile(use_empty=True)
    rig = build_character_rig()
    bpy.ops.wm.save_as_mainfile(filepath=str(paths["good"]), check_existing=False)
    # An expression Blender's simple evaluator cannot take: only Python can run it.
    curve = rig.driver_add("location", 0)
    curve.driver.type = "SCRIPTED"
    curve.driver.expression = "len('rig') * 0"
    bpy.ops.wm.save_as_mainfile(filepath=str(paths["driven"]), check_existing=False)
    bpy.ops.wm.read_homefile(use_empty=True)
    rig = build_character_rig()
    rig.pose.bones["shin.L"].constraints["IK"].target = None
    paths["broken"] = root / "broken.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(paths["broken"]), check_existing=False)
    bpy.ops.wm.read_homefile(use_empty=True)
    return {**paths, "root": root}


def test_a_module_planted_beside_the_rigs_never_runs(files) -> None:
    """``cd rigs && echo 'open("pwned","w")' > json.py && ik-doctor check rig.blend`` ran it."""
    planted = [files["root"] / "json.py", files["good"].parent / "json.py"]
    for module in planted:
        module.write_text(f"open({str(module.with_suffix('.ran'))!r}, 'w').write('ran')\n")
    try:
        result = run("check", "rigs/good.blend", cwd=files["root"])
        assert result.returncode == 0, result.stdout + result.stderr
        assert "IKDoctorRig" in result.stdout
        assert not [m for m in planted if m.with_suffix(".ran").exists()]
    finally:
        for module in planted:
            module.unlink()


def test_the_worker_tells_what_blender_is_doing_with_each_file(files, tmp_path) -> None:
    """So a worker killed while saving is not reported as "crashed while reading"."""
    job = {"command": "fix", "path": str(files["broken"]), "output": str(tmp_path / "fixed.blend")}
    worker = subprocess.run(
        worker_command(),
        input=json.dumps(job) + "\n",
        env=dict(os.environ),
        capture_output=True,
        text=True,
        timeout=300,
    )
    said = [line for line in worker.stdout.splitlines() if line.startswith("ik-doctor-")]
    ready, about = said[0].split(" ", 1)
    assert ready == READY_LINE
    assert json.loads(about)["blender"] == bpy.app.version_string
    assert [line.removeprefix(STAGE_PREFIX) for line in said[1:-1]] == [
        "reading this file",
        "fixing this file",
        "saving the fixed file",
        "reading back the fixed file",
        "checking the fixed file",
    ]
    assert json.loads(said[-1].removeprefix(ANSWER_PREFIX))["status"] == "ok"
    assert worker.returncode == 0


def test_check_returns_after_a_file_with_a_python_driver(files) -> None:
    """Blender 4.5 hangs in its interpreter shutdown after reading such a file: the worker must
    not need that shutdown, and the main process must not wait for it without a deadline."""
    result = subprocess.run(
        [str(IK_DOCTOR), "check", str(files["driven"]), str(files["good"])],
        cwd=files["root"],
        env=dict(os.environ),
        capture_output=True,
        text=True,
        timeout=120,  # a run takes seconds; before, it never returned on 4.5
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Checked 2 files, 2 armatures" in result.stdout


def test_a_run_leaves_no_temporary_folder_behind(files, tmp_path) -> None:
    """Blender makes a folder per process and removes it as it exits; a worker leaves through
    ``os._exit``, which skipped that: every run left one ``blender_*`` folder per worker."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    result = subprocess.run(
        [str(IK_DOCTOR), "check", "--jobs", "2", str(files["driven"]), str(files["good"])],
        cwd=files["root"],
        env={**os.environ, "TMPDIR": str(temporary)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert list(temporary.iterdir()) == []


PROBE = (
    "import sys; from ik_doctor.__main__ import main; code = main(); "
    "print('bpy imported:', 'bpy' in sys.modules, file=sys.stderr); raise SystemExit(code)"
)
"""The command, telling at its end whether its own process imported ``bpy``."""


def every_check_id() -> list[str]:
    """The ids a report without ``--checks`` lists, in the order they run."""
    return [check.id for check in ik_doctor.all_checks() if check.id != ANIMATION_CHECK]


def test_the_main_process_never_starts_blender_and_reports_what_the_workers_said(
    files, tmp_path
) -> None:
    """Every run started Blender twice: in a worker, and in the main process, which only
    writes the report (0.7 to 0.9 s of CPU before any file was read)."""
    report, page = tmp_path / "report.json", tmp_path / "report.html"
    outputs = ["--format", "json", "--output", str(report), "--html", str(page)]
    result = subprocess.run(
        [sys.executable, "-c", PROBE, "check", files["good"], files["broken"], *outputs],
        cwd=tmp_path,
        env=dict(os.environ),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert "bpy imported: False" in result.stderr, result.stderr
    assert result.returncode == 1, result.stderr  # the broken rig's IK has no target
    written = json.loads(report.read_text("utf-8"))
    assert (written["blender"], written["checks"]) == (bpy.app.version_string, every_check_id())
    assert f"Blender {bpy.app.version_string}: 2 files" in page.read_text("utf-8")


def test_a_report_over_no_readable_file_still_names_its_blender_and_checks(tmp_path) -> None:
    """Such a report is a part of a sharded run like any other: merged, they must agree."""
    (tmp_path / "notes.blend").write_text("not a rig", encoding="utf-8")
    result = run("check", "notes.blend", "--format", "json", cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    report = json.loads(result.stdout)
    assert (report["blender"], report["checks"]) == (bpy.app.version_string, every_check_id())


def test_checks_are_known_by_their_module_names_so_checks_is_checked_without_blender() -> None:
    """``--checks`` is checked in the main process, which never imports ``bpy``: a check must
    live in the module of its name (a verification module may register its own elsewhere)."""
    modules = {check.id: check.find.__module__ for check in ik_doctor.all_checks()}
    in_package = {i: m for i, m in modules.items() if m.startswith("ik_doctor.checks.")}
    assert in_package == {name: f"ik_doctor.checks.{name}" for name in check_ids()}


LAUNCHER = """#!/bin/sh
# Stands in for a Blender binary behind a studio's launcher: runs the worker that --python-expr
# gives in this Python (with its bpy), as a child of this shell, not in its place.
while [ "$1" != "--python-expr" ]; do shift; done
"{python}" -c "$2"
"""


def test_blender_option_runs_the_worker_behind_a_launcher_that_does_not_exec(
    files, tmp_path
) -> None:
    """``--blender PATH`` may name a studio's launcher script: the worker's parent is then that
    script, not the run, and the worker must still serve (it once left at once: "the ik-doctor
    process that started this worker has ended")."""
    launcher = tmp_path / "blender"
    launcher.write_text(LAUNCHER.format(python=sys.executable))
    launcher.chmod(0o755)
    report = tmp_path / "report.json"
    result = run(
        "check", files["broken"], "--blender", launcher, "--format", "json", "--output", report,
        cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 1, result.stderr
    written = json.loads(report.read_text("utf-8"))
    assert written["blender"] == bpy.app.version_string
    assert [file["status"] for file in written["files"]] == ["ok"]


def test_blender_option_must_name_an_executable(files, tmp_path) -> None:
    (tmp_path / "blender").write_text("not a program\n")
    for path in (tmp_path / "blender", tmp_path, tmp_path / "absent"):
        result = run("check", files["good"], "--blender", path, cwd=tmp_path)
        assert result.returncode == 2, result.stderr
        assert "Traceback" not in result.stderr


def test_blender_command_returns_argparse_exits_as_exit_codes(capsys) -> None:
    """Raised out of ``blender --command ik_doctor``, ``SystemExit`` would end Blender on the
    spot: usage errors and ``--help`` come back as Blender's exit code."""
    assert execute(["check"]) == 2
    assert execute(["--help"]) == 0
    assert "blender --command ik_doctor" in capsys.readouterr().out
