"""Stopping a real run: Ctrl-C, SIGTERM and SIGKILL, sent to a real ``ik-doctor`` process.

A farm or a CI cancels a job with SIGTERM (then SIGKILL), a person with Ctrl-C, which a
terminal sends to the whole foreground process group: these tests start the command in a
group of its own and signal that group as a terminal would. One input links its armature from
a library that is a FIFO: Blender waits forever to read it, so a worker on that file is busy
for as long as the test needs. Workers are found in ``/proc`` (Linux).
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import bpy
import jsonschema
import pytest

from ik_doctor.cli.pool import NOT_CHECKED
from ik_doctor.cli.report_json import SCHEMA_PATH
from ik_doctor.sample_rig import build_character_rig

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="finds the workers in /proc"),
    pytest.mark.usefixtures("temporary_folder_for_killed_runs"),
]
IK_DOCTOR = Path(sys.executable).with_name("ik-doctor")
SCHEMA = json.loads(SCHEMA_PATH.read_text("utf-8"))
WORKER_MARK = "ik_doctor.cli.worker"
"""Found in a worker's command line once it runs the worker (not in a fork before exec)."""


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("signals")
    library = root / "library.blend"
    bpy.ops.wm.read_homefile(use_empty=True)
    build_character_rig()
    bpy.ops.wm.save_as_mainfile(filepath=str(root / "a.blend"), check_existing=False)
    shutil.copy(root / "a.blend", library)
    for name in ("b", "c", "d"):
        shutil.copy(root / "a.blend", root / f"{name}.blend")
    bpy.ops.wm.read_homefile(use_empty=True)
    build_character_rig()  # a rig of its own too: the largest file, so the first handed out
    with bpy.data.libraries.load(str(library), link=True, relative=True) as (_src, dst):
        dst.objects = ["IKDoctorRig"]
    bpy.context.scene.collection.objects.link(dst.objects[0])
    bpy.ops.wm.save_as_mainfile(filepath=str(root / "hangs.blend"), check_existing=False)
    bpy.ops.wm.read_homefile(use_empty=True)
    library.unlink()
    os.mkfifo(library)  # nothing ever writes to it
    return {name: root / f"{name}.blend" for name in ("a", "b", "c", "d", "hangs")}


def start(*args: str | Path) -> subprocess.Popen[str]:
    """The command in a process group of its own, as a shell starts a foreground job: with
    Ctrl-C heard even where the tests run in a shell's background (which ignores it, as
    ``nohup`` does, and the command keeps that)."""
    return subprocess.Popen(
        [str(IK_DOCTOR), *map(str, args)],
        env=dict(os.environ),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def running(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has ended; nobody reaped it


def workers_of(parent: int, count: int) -> list[int]:
    """Wait until ``parent`` runs ``count`` workers; their process ids."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        found = []
        for entry in Path("/proc").iterdir():
            try:
                stat = (entry / "stat").read_text()
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == parent and WORKER_MARK.encode() in command:
                found.append(int(entry.name))
        if len(found) >= count:
            return found
        time.sleep(0.05)
    raise AssertionError(f"{parent} never ran {count} workers")


def line_on_stderr(process: subprocess.Popen[str], text: str) -> str:
    """Read the command's standard error up to a line holding ``text`` (60 s at most)."""
    assert process.stderr is not None
    read = ""
    deadline = time.monotonic() + 60
    while text not in read:
        left = deadline - time.monotonic()
        assert left > 0 and select.select([process.stderr], [], [], left)[0], read
        line = process.stderr.readline()
        assert line, read  # the command ended first
        read += line
    return read


@contextlib.contextmanager
def library_ending(fifo: Path) -> Iterator[None]:
    """In this block, end what Blender reads from ``fifo`` (an empty library) each time it
    opens it: the file that links from it is read to its end."""
    done = threading.Event()

    def feed() -> None:
        while not done.wait(0.05):
            with contextlib.suppress(OSError):  # ENXIO while nobody has it open to read
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    try:
        yield
    finally:
        done.set()
        feeder.join()


def end(process: subprocess.Popen[str], workers: list[int]) -> None:
    """Leave nothing running, whatever the test found."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
    for pid in workers:
        if running(pid):
            os.kill(pid, signal.SIGKILL)


def report(output: str) -> dict:
    document = json.loads(output)
    jsonschema.Draft202012Validator(SCHEMA).validate(document)
    return document


def test_killing_the_command_kills_its_workers(files) -> None:
    """SIGKILL to the main process left a worker that replaced a file 42 s later."""
    process = start("check", files["hangs"], files["a"], files["b"], "--jobs", "3")
    workers: list[int] = []
    try:
        workers = workers_of(process.pid, 3)
        time.sleep(1)  # the jobs are handed out
        process.kill()
        process.communicate()
        deadline = time.monotonic() + 10
        while any(map(running, workers)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [pid for pid in workers if running(pid)]
    finally:
        end(process, workers)


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_lets_the_file_in_flight_finish_and_reports_the_others_not_checked(
    files, stop: signal.Signals
) -> None:
    """Ctrl-C killed the workers in flight, then started new ones and kept fixing files.

    The file in flight waits on the FIFO until the signal is answered: sent as soon as the
    worker was seen, the signal once came after the worker had read all three files (5.3, three
    suites running at once on two cores)."""
    process = start(
        "check", files["hangs"], files["b"], files["c"], "--jobs", "1", "--format", "json"
    )
    workers: list[int] = []
    try:
        workers = workers_of(process.pid, 1)
        os.killpg(process.pid, stop)  # the whole group, as a terminal sends Ctrl-C
        answered = line_on_stderr(process, "finishing the files in flight")
        with library_ending(files["hangs"].with_name("library.blend")):
            output, errors = process.communicate(timeout=300)
        errors = answered + errors
        assert process.returncode == 128 + stop, errors
        assert "Traceback" not in errors
        first, *others = report(output)["files"]
        assert first["status"] == "ok" and first["armatures"], first
        assert [(f["status"], f["problem"]) for f in others] == [("failed", NOT_CHECKED)] * 2
        assert f"ik-doctor: {stop.name}: finishing the files in flight" in errors
    finally:
        end(process, workers)


def test_a_signal_a_feeding_thread_receives_is_answered(files) -> None:
    """The kernel may hand a process's signal to any of its threads: one handed to the thread
    feeding a worker went unanswered for good while that worker's file hung (CI, 4.2)."""
    process = start("check", files["hangs"], files["b"], "--jobs", "1", "--format", "json")
    workers: list[int] = []
    try:
        workers = workers_of(process.pid, 1)
        others = [int(t.name) for t in Path(f"/proc/{process.pid}/task").iterdir()]
        others.remove(process.pid)
        assert others, "the command feeds its worker from a thread of its own"
        libc = ctypes.CDLL(None, use_errno=True)
        assert libc.tgkill(process.pid, others[0], signal.SIGINT) == 0, ctypes.get_errno()
        answered = line_on_stderr(process, "finishing the files in flight")
        with library_ending(files["hangs"].with_name("library.blend")):
            output, errors = process.communicate(timeout=300)
        assert process.returncode == 130, answered + errors
        hangs, never = report(output)["files"]
        assert hangs["status"] == "ok"
        assert (never["status"], never["problem"]) == ("failed", NOT_CHECKED)
    finally:
        end(process, workers)


def test_a_second_ctrl_c_stops_at_once(files) -> None:
    """The file in flight would never finish: Blender waits on a FIFO."""
    process = start("check", files["hangs"], files["d"], "--jobs", "1", "--format", "json")
    workers: list[int] = []
    try:
        workers = workers_of(process.pid, 1)
        os.killpg(process.pid, signal.SIGINT)
        # As a person does: again once the first is answered. Sent before, the two can be one
        # (a signal already pending is not queued twice; seen on a loaded machine).
        first = line_on_stderr(process, "finishing the files in flight")
        os.killpg(process.pid, signal.SIGINT)
        output, errors = process.communicate(timeout=60)
        errors = first + errors
        assert process.returncode == 130, errors
        assert "Traceback" not in errors
        hangs, never = report(output)["files"]
        assert hangs["status"] == "failed"
        assert hangs["problem"].startswith("not finished: the run was interrupted while ")
        assert (never["status"], never["problem"]) == ("failed", NOT_CHECKED)
        assert not [pid for pid in workers if running(pid)]
    finally:
        end(process, workers)


def test_ctrl_c_while_blender_starts_exits_130_without_a_traceback(files) -> None:
    """Ctrl-C in the first half-second crashed it, in the main process's start of Blender.
    Blender starts in the worker now: the file handed to it is in flight, so it is finished."""
    process = start("check", files["a"], "--format", "json")
    workers: list[int] = []
    try:
        workers = workers_of(process.pid, 1)  # started, still importing bpy
        os.killpg(process.pid, signal.SIGINT)
        output, errors = process.communicate(timeout=60)
        assert process.returncode == 130, errors
        assert "Traceback" not in errors
        assert [file["status"] for file in report(output)["files"]] == ["ok"]
    finally:
        end(process, workers)


HELD_THEN_TERMINATED = """
import contextlib, os, signal, sys
import ik_doctor.__main__ as entry
held = entry._signals_held
@contextlib.contextmanager
def terminated_while_importing():
    with held() as early:
        os.kill(os.getpid(), signal.SIGTERM)  # as a farm cancelling the job at once would
        yield early
entry._signals_held = terminated_while_importing
sys.argv[0] = "ik-doctor"
raise SystemExit(entry.main())
"""


def checked_by(script: str, path: Path) -> subprocess.CompletedProcess[str]:
    """``ik-doctor check PATH --format json`` run by ``script``, which patches the command's
    entry before it runs it."""
    return subprocess.run(
        [sys.executable, "-c", script, "check", str(path), "--format", "json"],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_sigterm_while_the_command_imports_still_writes_the_report(files) -> None:
    """It died of the signal, silent, in the first tenth of a second: nothing was caught yet."""
    process = checked_by(HELD_THEN_TERMINATED, files["a"])
    assert process.returncode == 143, process.stderr
    assert "Traceback" not in process.stderr
    assert "SIGTERM: finishing the files in flight" in process.stderr
    (file,) = report(process.stdout)["files"]
    assert (file["status"], file["problem"]) == ("failed", NOT_CHECKED)


TERMINATED_WHILE_WRITING = """
import os, signal, sys
import ik_doctor.cli as cli
import ik_doctor.__main__ as entry
write = cli._write_reports
def terminated_while_writing(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGTERM)  # a farm's stop, sent once every file is answered
    write(*args, **kwargs)
cli._write_reports = terminated_while_writing
sys.argv[0] = "ik-doctor"
raise SystemExit(entry.main())
"""


def test_sigterm_while_the_report_is_written_still_writes_it(files) -> None:
    """The handlers were put back before the report was written, so a signal then (a second
    SIGTERM, under load) ended the process by the default action: exit -15 and no report
    (test_cli_kill's SIGTERM-twice case, once, on a busy machine)."""
    process = checked_by(TERMINATED_WHILE_WRITING, files["a"])
    assert process.returncode == 143, process.stderr
    (file,) = report(process.stdout)["files"]
    assert file["status"] == "ok"
