"""The command line in Blender's own binary: ``blender --command ik_doctor`` and ``--blender``.

A studio on its own build has no ``bpy`` from pip: ``blender --command ik_doctor check FILE``
answered ``Unrecognized command``. Now the enabled extension is the command line there, and
``ik-doctor --blender PATH`` reads the files in that binary, whatever its version and Python.
Either way the workers are that Blender, held as tightly as ``bpy`` workers: no Python from a
file runs, no module from the current directory, a time-out that ends a worker stuck on a
file, and a run stopped by signals that still writes its report and leaves no worker behind.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import jsonschema
import pytest
from debian_binaries import IK_DOCTOR, TIMEOUT, DebianBlender, ik_doctor

from ik_doctor.cli.pool import NOT_CHECKED
from ik_doctor.cli.report_json import SCHEMA_PATH

SCHEMA = json.loads(SCHEMA_PATH.read_text("utf-8"))
MARKERS = ("text", "driver", "expression")
WORKER_MARK = "ik_doctor.cli.worker import main; main(parent="
"""In the command line of every worker, with the pid of the run that started it."""


def read_report(path: Path, returncode: int) -> dict:
    report = json.loads(path.read_text("utf-8"))
    jsonschema.Draft202012Validator(SCHEMA).validate(report)
    assert report["exit_code"] == returncode
    return report


def workers_of(pid: int) -> list[int]:
    """The worker processes a run started, found by their command line in ``/proc``."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            command = (entry / "cmdline").read_bytes().decode(errors="replace")
        except (OSError, ValueError):
            continue
        if f"{WORKER_MARK}{pid})" in command:
            found.append(int(entry.name))
    return found


def test_blender_command_writes_the_report_and_exit_code_of_ik_doctor(
    blender: DebianBlender, made: Path, tmp_path: Path
) -> None:
    """The same report from ``blender --command ik_doctor`` and ``ik-doctor --blender``, naming
    that Blender; exit 2 with a file that is not a .blend, 1 for the broken rig's error."""
    notes = tmp_path / "notes.blend"
    notes.write_text("not a blend file\n", encoding="utf-8")
    rigs = [made / "good.blend", made / "broken.blend"]
    as_json = ["--format", "json", "--output"]
    inside = blender.command("check", *rigs, notes, *as_json, tmp_path / "in.json", cwd=tmp_path)
    launcher = ["--blender", blender.launcher]
    outside = ik_doctor("check", *rigs, notes, *launcher, *as_json, "out.json", cwd=tmp_path)
    assert (inside.returncode, outside.returncode) == (2, 2), inside.stderr + outside.stderr
    report = read_report(tmp_path / "in.json", inside.returncode)
    assert report == read_report(tmp_path / "out.json", outside.returncode)
    assert report["blender"].split()[0] == blender.version
    assert [file["status"] for file in report["files"]] == ["ok", "ok", "unreadable"]
    (broken,) = report["files"][1]["armatures"]
    errors = {(f["check_id"], f["bone"]) for f in broken["findings"] if f["severity"] == "error"}
    assert ("target", "shin.L") in errors

    text_inside = blender.command("check", *rigs, cwd=tmp_path)
    text_outside = ik_doctor("check", *rigs, *launcher, cwd=tmp_path)
    assert (text_inside.returncode, text_outside.returncode) == (1, 1)
    # Blender may print its own start-up lines first (Debian's: a mount warning).
    assert text_outside.stdout and text_inside.stdout.endswith(text_outside.stdout)

    usage = blender.command("check", cwd=tmp_path)
    assert usage.returncode == 2, usage.stdout + usage.stderr
    # No traceback through the extension's files (Debian's Blender prints one of its own).
    assert "/ik_doctor/" not in usage.stderr, usage.stderr


def test_the_trap_runs_its_python_in_this_blender_when_auto_execution_is_on(
    blender: DebianBlender, made: Path
) -> None:
    """Proves the trap works in this Blender, so its silence below means something."""
    markers = [made / f"marker_{name}" for name in MARKERS]
    try:
        opened = blender.run(
            "-b", "--factory-startup", "--enable-autoexec", made / "trap.blend",
            "--python-expr", "import bpy; bpy.context.view_layer.update()", cwd=made,
        )  # fmt: skip
        assert opened.returncode == 0, opened.stderr
        assert [marker.exists() for marker in markers] == [True] * len(markers)
    finally:
        for marker in markers:
            marker.unlink(missing_ok=True)


def test_no_python_of_a_file_or_of_the_current_folder_runs_in_blender_workers(
    blender: DebianBlender, made: Path, tmp_path: Path
) -> None:
    """A text block, a driver's function and a driver's expression in the file, and a module
    planted where the command runs: none may run, in check, fix or inside Blender."""
    planted = tmp_path / "json.py"
    planted.write_text(f"open({str(tmp_path / 'planted_ran')!r}, 'w').write('ran')\n")
    trap = made / "trap.blend"
    launcher = ["--blender", blender.launcher]
    checked = ik_doctor("check", trap, *launcher, cwd=tmp_path)
    fixed = ik_doctor("fix", trap, "--output-dir", tmp_path / "fixed", *launcher, cwd=tmp_path)
    inside = blender.command("check", trap, cwd=tmp_path)
    assert [checked.returncode, inside.returncode] == [1, 1], checked.stderr + inside.stderr
    assert fixed.returncode in (0, 1), fixed.stdout + fixed.stderr
    assert (tmp_path / "fixed" / "trap.blend").is_file()
    ran = [name for name in MARKERS if (made / f"marker_{name}").exists()]
    assert ran == []
    assert not (tmp_path / "planted_ran").exists()


@pytest.fixture
def hangs(made: Path, tmp_path: Path) -> Path:
    """A rig linked from a library that is a FIFO nothing writes to: Blender waits on it."""
    shutil.copy(made / "hangs.blend", tmp_path / "hangs.blend")
    os.mkfifo(tmp_path / "library.blend")
    return tmp_path / "hangs.blend"


def test_a_blender_worker_stuck_on_a_file_is_stopped_at_the_time_out(
    blender: DebianBlender, made: Path, hangs: Path, tmp_path: Path
) -> None:
    """Through the launcher too: the worker killed is that Blender, and none is left after."""
    run = subprocess.Popen(
        [IK_DOCTOR, "check", hangs, made / "good.blend", "--blender", blender.launcher,
         "--jobs", "1", "--timeout", "5", "--format", "json", "--output", tmp_path / "r.json"],
        cwd=tmp_path, env=dict(os.environ), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    _, stderr = run.communicate(timeout=TIMEOUT)
    assert run.returncode == 2, stderr
    stuck, good = read_report(tmp_path / "r.json", run.returncode)["files"]
    assert (stuck["status"], good["status"]) == ("failed", "ok")
    assert stuck["problem"].startswith("stopped: no answer after 5 s")
    assert workers_of(run.pid) == []


def test_two_sigterms_end_blender_command_with_its_report_and_no_worker_left(
    blender: DebianBlender, made: Path, hangs: Path, tmp_path: Path
) -> None:
    """The first SIGTERM lets the files in flight finish; the file on the FIFO never does, so
    a second one stops the workers: exit 143, the report written, as ``ik-doctor`` does."""
    report = tmp_path / "r.json"
    run = subprocess.Popen(
        [blender.launcher, "--command", "ik_doctor", "check", hangs, made / "good.blend",
         "--jobs", "2", "--format", "json", "--output", report],
        cwd=tmp_path, env={**os.environ, "HOME": str(blender.home)},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    writer = _open_when_read(tmp_path / "library.blend", run)
    try:
        os.killpg(run.pid, signal.SIGTERM)
        time.sleep(1)
        os.killpg(run.pid, signal.SIGTERM)
        _, stderr = run.communicate(timeout=TIMEOUT)
    finally:
        os.close(writer)
    assert run.returncode == 128 + signal.SIGTERM, stderr
    # The report's exit code is its files' (one was not finished: 2); the process's the signal's.
    stuck, good = read_report(report, 2)["files"]
    assert stuck["status"] == "failed" and stuck["problem"] != NOT_CHECKED
    assert stuck["problem"].startswith("not finished: the run was interrupted")
    assert good["status"] in ("ok", "failed")  # finished before the signal, or stopped with it
    assert workers_of(run.pid) == []


def _open_when_read(fifo: Path, run: subprocess.Popen[str]) -> int:
    """The FIFO's write end, once a worker has opened it to read (Blender is then stuck on
    it until the end is closed)."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline and run.poll() is None:
        try:
            return os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:  # ENXIO: no reader yet
            time.sleep(0.2)
    raise AssertionError(f"no worker read {fifo} (exit {run.poll()})")
