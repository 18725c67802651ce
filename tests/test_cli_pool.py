"""Worker processes: a file that crashes Blender costs one line, and the order never changes.

A stand-in worker (plain Python, no Blender) answers like the real one and dies of a
segmentation fault on the job named "crash", as Blender would on a file it cannot survive.
"""

from __future__ import annotations

import sys

from ik_doctor.cli.pool import run_jobs
from ik_doctor.cli.worker import ANSWER_PREFIX

FAKE_WORKER = f"""
import json, os, signal, sys
print("chatter before serving, as Blender prints on start", flush=True)
for line in sys.stdin:
    job = json.loads(line)
    if job["path"].startswith("crash"):
        os.kill(os.getpid(), signal.SIGSEGV)
    if job["path"] == "hang":
        signal.pause()
    answer = {{"path": job["path"], "status": "ok", "problem": None, "armatures": [],
               "pid": os.getpid()}}
    print({ANSWER_PREFIX!r} + json.dumps(answer), flush=True)
"""


def test_a_crash_on_one_file_is_reported_and_the_others_are_still_checked() -> None:
    paths = ["a", "crash-1", "b", "c", "crash-2", "d", "e"]
    seen: list[str] = []
    answers = run_jobs(
        [{"command": "check", "path": path} for path in paths],
        workers=2,
        on_answer=lambda _index, answer: seen.append(answer["path"]),
        command=[sys.executable, "-c", FAKE_WORKER],
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
    answers = run_jobs(
        [{"command": "check", "path": path} for path in ("a", "hang", "b")],
        workers=1,
        command=[sys.executable, "-c", FAKE_WORKER],
        timeout=2,
    )
    assert [answer["status"] for answer in answers] == ["ok", "failed", "ok"]
    assert answers[1]["problem"] == "stopped: no answer after 2 s"
