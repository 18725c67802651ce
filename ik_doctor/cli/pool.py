"""Run file jobs in worker processes, each with its own ``bpy``, and keep the input order.

One ``bpy`` holds one open file, so files are checked in parallel only in separate processes.
Every file goes to a worker, also in a serial run: a file that crashes Blender then costs one
line in the report, not the whole run. Answers are put back in input order, so the report of
``--jobs 4`` is the same as the report of ``--jobs 1``.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from .worker import ANSWER_PREFIX

Job = dict[str, Any]
Answer = dict[str, Any]

PACKAGE_PARENT = str(Path(__file__).resolve().parents[2])


def worker_command() -> list[str]:
    return [sys.executable, "-m", "ik_doctor.cli.worker"]


def run_jobs(
    jobs: Sequence[Job],
    workers: int,
    on_answer: Callable[[int, Answer], None] | None = None,
    command: Sequence[str] | None = None,
    timeout: float | None = None,
) -> list[Answer]:
    """Answer every job, in input order, using up to ``workers`` processes.

    A worker that has not answered one job after ``timeout`` seconds is stopped and the job
    reported as failed, so one file that hangs Blender cannot hang a CI run.
    """
    answers: list[Answer | None] = [None] * len(jobs)
    todo: queue.Queue[int] = queue.Queue()
    for index in range(len(jobs)):
        todo.put(index)
    lock = threading.Lock()

    def record(index: int, answer: Answer) -> None:
        with lock:
            answers[index] = answer
            if on_answer is not None:
                on_answer(index, answer)

    argv = list(command or worker_command())
    threads = [
        threading.Thread(target=_drive, args=(jobs, todo, record, argv, timeout))
        for _ in range(max(1, min(workers, len(jobs))))
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return [answer for answer in answers if answer is not None]


def _drive(
    jobs: Sequence[Job],
    todo: queue.Queue[int],
    record: Callable[[int, Answer], None],
    command: list[str],
    timeout: float | None,
) -> None:
    """Feed one worker until no job is left; replace it when it dies."""
    worker: _Worker | None = None
    try:
        while True:
            try:
                index = todo.get_nowait()
            except queue.Empty:
                return
            if worker is None:
                try:
                    worker = _Worker(command)
                except OSError as error:
                    record(index, _failed(jobs[index], f"could not start a worker: {error}"))
                    continue
            answer = worker.ask(jobs[index], timeout)
            if answer is None and worker.timed_out:
                worker.close()
                answer = _failed(jobs[index], f"stopped: no answer after {timeout:g} s")
                worker = None
            elif answer is None:
                answer = _crashed(jobs[index], worker.close())
                worker = None
            record(index, answer)
    finally:
        if worker is not None:
            worker.close()


class _Worker:
    """One worker process; its standard error goes to a temporary log, read after a crash."""

    def __init__(self, command: list[str]) -> None:
        # Closed in close(), after the worker has exited and its last words are read.
        self.log: TextIO = tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace")  # noqa: SIM115
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [PACKAGE_PARENT, env.get("PYTHONPATH")]))
        self.timed_out = False
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
            env=env,
            text=True,
            encoding="utf-8",
        )

    def ask(self, job: Job, timeout: float | None = None) -> Answer | None:
        """Send one job and wait for its answer; None when the worker died or was stopped."""
        assert self.process.stdin is not None and self.process.stdout is not None
        timer = threading.Timer(timeout, self._stop) if timeout else None
        if timer is not None:
            timer.start()
        try:
            return self._answer(job)
        finally:
            if timer is not None:
                timer.cancel()

    def _stop(self) -> None:
        self.timed_out = True
        self.process.kill()

    def _answer(self, job: Job) -> Answer | None:
        assert self.process.stdin is not None and self.process.stdout is not None
        try:
            self.process.stdin.write(json.dumps(job) + "\n")
            self.process.stdin.flush()
            while True:
                line = self.process.stdout.readline()
                if not line:
                    return None
                if line.startswith(ANSWER_PREFIX):
                    return json.loads(line[len(ANSWER_PREFIX) :])
                # Anything else is Blender's chatter from before the worker started serving.
        except (BrokenPipeError, OSError):
            return None

    def close(self) -> str:
        """Stop the worker; return how it ended when it did not end well, else ""."""
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):  # a crashed worker has closed its end already
                self.process.stdin.close()
        code = self.process.wait()
        self.log.seek(0)
        tail = [line.strip() for line in self.log.read().splitlines() if line.strip()][-3:]
        self.log.close()
        if code == 0:
            return ""
        how = f"exit code {code}"
        if code < 0:
            try:
                how = f"signal {signal.Signals(-code).name}"
            except ValueError:
                how = f"signal {-code}"
        return how + (f"; last words: {' | '.join(tail)}" if tail else "")


def _crashed(job: Job, how: str) -> Answer:
    problem = f"Blender crashed while reading this file ({how or 'no answer'})"
    return {"path": job["path"], "status": "unreadable", "problem": problem, "armatures": []}


def _failed(job: Job, problem: str) -> Answer:
    return {"path": job["path"], "status": "failed", "problem": problem, "armatures": []}
