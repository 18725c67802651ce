"""Worker processes: a file that crashes Blender costs one line, and the order never changes.

A stand-in worker (plain Python, no Blender) speaks the real worker's protocol: it says it is
ready and what its Blender is (after ``START_UP`` seconds, as Blender takes to import), answers
each job, and on
jobs with telling names dies of a segmentation fault (as Blender would on a file it cannot
survive), hangs, or is killed while it says it is saving.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from ik_doctor.cli import pool
from ik_doctor.cli.pool import NOT_CHECKED, Stop, ask_about_blender, run_jobs
from ik_doctor.cli.worker import ANSWER_PREFIX, READY_LINE, SAVED, SAVING, STAGE_PREFIX

ABOUT = {"blender": "4.2.0 (stand-in)", "checks": ["target", "pole"]}
FAKE_WORKER = f"""
import json, os, shutil, signal, sys, tempfile, time
session = tempfile.mkdtemp(prefix="blender_")  # Blender's folder, removed as it exits
print("chatter before serving, as Blender prints on start", flush=True)
time.sleep(float(sys.argv[1]) if len(sys.argv) > 1 else 0)
print({READY_LINE + " " + json.dumps(ABOUT)!r}, flush=True)
for line in sys.stdin:
    job = json.loads(line)
    if job["path"].startswith("crash"):
        os.kill(os.getpid(), signal.SIGSEGV)
    if job["path"] == "killed-while-saving":
        print({STAGE_PREFIX!r} + "saving the fixed file", flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
    if job["path"] == "hang":
        signal.pause()
    if job["path"].startswith("hang-while:"):
        print({STAGE_PREFIX!r} + job["path"].removeprefix("hang-while:"), flush=True)
        signal.pause()
    answer = {{"path": job["path"], "status": "ok", "problem": None, "armatures": [],
               "pid": os.getpid()}}
    print({ANSWER_PREFIX!r} + json.dumps(answer), flush=True)
if len(sys.argv) > 2:  # hang at exit, as bpy 4.5 does after a file with a Python driver
    signal.pause()
shutil.rmtree(session)
"""


def fake_worker(start_up: float = 0.0, hang_at_exit: bool = False) -> list[str]:
    return [sys.executable, "-c", FAKE_WORKER, str(start_up), *(["hang"] if hang_at_exit else [])]


def jobs(*paths: str) -> list[dict[str, str]]:
    return [{"command": "check", "path": path} for path in paths]


def test_a_crash_on_one_file_is_reported_and_the_others_are_still_checked() -> None:
    paths = ["a", "crash-1", "b", "c", "crash-2", "d", "e"]
    seen: list[str] = []
    answers = run_jobs(
        jobs(*paths),
        workers=2,
        on_answer=lambda _index, answer: seen.append(answer["path"]),
        command=fake_worker(),
    )
    assert [answer["path"] for answer in answers] == paths
    assert sorted(seen) == sorted(paths)
    for answer in answers:
        if answer["path"].startswith("crash"):
            assert answer["status"] == "unreadable"
            assert "Blender crashed while reading this file (signal SIGSEGV" in answer["problem"]
        else:
            assert answer["status"] == "ok"
    # A worker is reused until it dies: the five good files were answered by at most the two
    # first workers and the two that replaced the crashed ones. How the jobs fall between the
    # threads is up to the scheduler (one worker may answer all five), so no lower bound.
    workers = {answer["pid"] for answer in answers if "pid" in answer}
    assert len(workers) <= 4


def test_a_file_that_hangs_blender_is_given_up_after_the_timeout() -> None:
    answers = run_jobs(jobs("a", "hang", "b"), workers=1, command=fake_worker(), timeout=2)
    assert [answer["status"] for answer in answers] == ["ok", "failed", "ok"]
    assert answers[1]["problem"] == "stopped: no answer after 2 s"


def test_workers_killed_or_crashed_leave_nothing_in_the_temporary_folder(
    tmp_path, monkeypatch
) -> None:
    """Blender makes a folder per process in the temporary folder and removes it as it exits:
    a worker killed at a timeout or crashed left one each (about 200 in a run of the suite)."""
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    answers = run_jobs(jobs("a", "hang", "crash", "b"), workers=2, command=fake_worker(), timeout=2)
    assert [answer["status"] for answer in answers] == ["ok", "failed", "unreadable", "ok"]
    assert list(tmp_path.iterdir()) == []


def test_worker_start_up_does_not_count_against_the_timeout() -> None:
    """``--jobs 8 --timeout 1.5`` failed tiny files: eight bpy imports took longer than that."""
    answers = run_jobs(jobs("a", "b", "c"), workers=3, command=fake_worker(start_up=2.5), timeout=1)
    assert [answer["status"] for answer in answers] == ["ok", "ok", "ok"], answers


def test_a_worker_killed_while_saving_is_not_reported_as_crashed_while_reading() -> None:
    (answer,) = run_jobs(jobs("killed-while-saving"), workers=1, command=fake_worker())
    assert answer["status"] == "failed"  # the file was read; writing it is what failed
    assert answer["problem"] == "Blender crashed while saving the fixed file (signal SIGKILL)"


def test_a_worker_that_never_gets_ready_is_given_up(monkeypatch) -> None:
    monkeypatch.setattr(pool, "STARTUP_TIMEOUT", 1.0)
    (answer,) = run_jobs(jobs("a"), workers=1, command=fake_worker(start_up=60))
    assert answer == {
        "path": "a",
        "status": "failed",
        "problem": "stopped: a worker was not ready after 1 s",
        "armatures": [],
    }


def test_a_worker_that_cannot_start_is_not_blamed_on_the_file() -> None:
    command = [sys.executable, "-c", "raise SystemExit('no bpy here')"]
    (answer,) = run_jobs(jobs("a"), workers=1, command=command)
    assert answer["status"] == "failed"
    assert answer["problem"] == "a worker could not start (exit code 1; last words: no bpy here)"


def test_a_worker_that_hangs_at_exit_is_killed_and_the_run_returns(monkeypatch) -> None:
    """Blender 4.5 hangs in its interpreter shutdown after reading a file with a Python driver."""
    monkeypatch.setattr(pool, "EXIT_GRACE", 0.5)
    started = time.monotonic()
    answers = run_jobs(jobs("a", "b"), workers=1, command=fake_worker(hang_at_exit=True))
    assert [answer["status"] for answer in answers] == ["ok", "ok"]
    assert time.monotonic() - started < 20


def test_a_gentle_stop_finishes_the_file_in_flight_and_starts_no_other() -> None:
    stop = Stop()
    answers = run_jobs(
        jobs("a", "b", "c"),
        workers=1,
        on_answer=lambda _index, _answer: stop.gently(),
        command=fake_worker(),
        stop=stop,
    )
    assert [answer["status"] for answer in answers] == ["ok", "failed", "failed"]
    assert answers[1]["problem"] == answers[2]["problem"] == NOT_CHECKED


def test_a_stop_now_kills_the_worker_and_says_what_it_was_doing() -> None:
    stop = Stop()
    threading.Timer(1.0, stop.now).start()
    started = time.monotonic()
    answers = run_jobs(jobs("hang", "b"), workers=1, command=fake_worker(), stop=stop)
    assert time.monotonic() - started < 10
    assert answers[0]["status"] == answers[1]["status"] == "failed"
    assert answers[0]["problem"] == "not finished: the run was interrupted while reading this file"
    assert answers[1]["problem"] == NOT_CHECKED


@pytest.mark.parametrize(
    ("stage", "in_place", "left"),
    [
        ("fixing this file", True, ""),
        (
            SAVING,
            True,
            "; the input is either untouched or replaced whole, with its backup beside it",
        ),
        (SAVED[0], True, "; the fixed file had replaced the input, with its backup beside it"),
        (SAVING, False, "; out.blend may not have been written"),
        (SAVED[1], False, "; the fixed file had been written to out.blend"),
    ],
)
def test_a_fix_stopped_now_says_what_it_left_on_disk(stage: str, in_place: bool, left: str) -> None:
    """A second Ctrl-C while a fix saves or reads back must not call a replaced file unfinished."""
    stop = Stop()
    threading.Timer(1.0, stop.now).start()
    job = {"command": "fix", "path": f"hang-while:{stage}", "output": "out.blend"}
    (answer,) = run_jobs(
        [{**job, "in_place": in_place}], workers=1, command=fake_worker(), stop=stop
    )
    assert answer["problem"] == f"not finished: the run was interrupted while {stage}{left}"


@pytest.mark.parametrize("text", ["0", "-1", "nan", "inf", "soon"])
def test_a_timeout_that_is_not_a_positive_number_of_seconds_is_a_usage_error(
    text: str, capsys
) -> None:
    """``--timeout 0`` meant "never" and ``inf`` printed a traceback."""
    from ik_doctor.cli import main

    with pytest.raises(SystemExit) as stopped:
        main(["check", "rig.blend", "--timeout", text])
    assert stopped.value.code == 2
    assert f"--timeout: {text!r} is not a number of seconds above 0" in capsys.readouterr().err


def test_the_largest_files_are_handed_out_first_and_answered_in_input_order(tmp_path) -> None:
    """A run ended with one worker reading a big rig while the others had nothing left."""
    sizes = {"small": 10, "large": 3000, "missing": None, "medium": 500, "tiny": 1}
    paths = []
    for name, size in sizes.items():
        path = tmp_path / f"{name}.blend"
        if size is not None:
            path.write_bytes(b"x" * size)
        paths.append(str(path))
    handed: list[str] = []
    answers = run_jobs(
        jobs(*paths),
        workers=1,  # one worker answers in the order it was handed the files
        on_answer=lambda _index, answer: handed.append(Path(answer["path"]).stem),
        command=fake_worker(),
    )
    assert handed == ["large", "medium", "small", "tiny", "missing"]
    assert [answer["path"] for answer in answers] == paths


def test_each_worker_tells_what_its_blender_is_when_ready() -> None:
    """The main process takes the report's Blender version and check ids from the workers."""
    heard: list[dict] = []
    answers = run_jobs(jobs("a", "b", "c"), workers=2, command=fake_worker(), on_ready=heard.append)
    assert [answer["status"] for answer in answers] == ["ok", "ok", "ok"]
    assert heard and heard == [ABOUT] * len(heard)


def test_a_run_that_hands_out_no_file_asks_a_worker_what_its_blender_is() -> None:
    assert ask_about_blender(Stop(), fake_worker()) == ABOUT
    cannot_start = [sys.executable, "-c", "raise SystemExit('no bpy here')"]
    assert ask_about_blender(Stop(), cannot_start) is None


def test_asking_what_blender_is_after_a_stop_now_gives_up_at_once() -> None:
    stop = Stop()
    stop.now()
    started = time.monotonic()
    assert ask_about_blender(stop, fake_worker(start_up=60)) is None
    assert time.monotonic() - started < 10


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="CPU affinity is Linux's")
def test_the_default_jobs_are_the_cores_this_process_may_use_not_the_machines() -> None:
    """Under ``taskset -c 0`` (or a container's CPU set) every core's worker shared one core."""
    probe = (
        "import os; os.sched_setaffinity(0, {min(os.sched_getaffinity(0))}); "
        "from ik_doctor.cli.pool import usable_cores; print(usable_cores())"
    )
    shown = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert shown.stdout.strip() == "1", shown.stderr
