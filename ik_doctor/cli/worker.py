"""A worker process: reads one job per line on stdin, answers one JSON line per job.

Each worker has its own ``bpy``, so a file that crashes Blender takes down only its worker;
the main process notices, reports that file, and starts a fresh worker for the rest. Blender
prints to standard output from C (with ``OCIO`` set, already while ``bpy`` is imported), so
the lines meant for the main process are marked: ``READY_LINE`` once the worker serves, with
what a report says of its Blender (``about_blender``), ``STAGE_PREFIX`` and what Blender is
doing with the current file, ``ANSWER_PREFIX`` and the answer. Once serving, everything else
written to standard output lands on standard error, which the main process keeps as a log.

A worker never outlives the run that started it: it dies with its parent (Linux) and leaves
when its standard input closes, through ``os._exit``, because ``bpy`` can hang while the
interpreter shuts down (Blender 4.5, after reading a file with a Python driver).
"""

from __future__ import annotations

import ctypes
import json
import os
import shutil
import signal
import sys
import traceback
from collections.abc import Callable
from typing import Any, TextIO

ANSWER_PREFIX = "ik-doctor-answer "
STAGE_PREFIX = "ik-doctor-stage "
READY_LINE = "ik-doctor-ready"
READING = "reading this file"
"""The first stage of every job; the main process assumes it when a worker never said."""
SAVING = "saving the fixed file"
"""From here on a fix job may have written: in place, the input is replaced whole or not at all."""
SAVED = ("reading back the fixed file", "checking the fixed file")
"""Stages after the fixed file was written: what is left is reading it back to report on it."""
SESSION_FOLDER_PREFIX = "blender_"
"""How Blender names the temporary folder it makes for each process, and removes as it exits."""
PR_SET_PDEATHSIG = 1
"""From <linux/prctl.h>: the signal the kernel sends a process when its parent thread ends."""


def serve(jobs: TextIO, answers: TextIO) -> None:
    from .file_jobs import check_file, fix_file

    handlers = {"check": check_file, "fix": fix_file}

    def tell(line: str) -> None:
        answers.write(line + "\n")
        answers.flush()

    stages = _StageReporter(lambda stage: tell(STAGE_PREFIX + stage))
    tell(f"{READY_LINE} {json.dumps(about_blender())}")
    for line in jobs:
        job = json.loads(line)
        stages.begin(job["command"])
        try:
            answer = handlers[job["command"]](job)
        except Exception:  # never leave the main process waiting for an answer
            answer = _failed(job, traceback.format_exc(limit=3))
        tell(ANSWER_PREFIX + json.dumps(answer))


def about_blender() -> dict[str, Any]:
    """What a report states about the Blender that read its files: the version, every check id
    (and each check's options, which a project's settings are checked against).

    The main process hears it from a worker, so it never starts Blender itself: a second
    ``bpy`` import (0.7 to 0.9 s of CPU) in every run, before any file is read.
    """
    import bpy

    from .. import all_checks

    return {
        "blender": bpy.app.version_string,
        "checks": [check.id for check in all_checks()],
        "options": {check.id: dict(check.options) for check in all_checks()},
    }


class _StageReporter:
    """Tells the main process what Blender is doing with the file, from Blender's handlers.

    A worker killed while saving is then reported as such, not as "crashed while reading".
    The handlers see every open and save, whatever code in ``file_jobs`` asks for them.
    """

    def __init__(self, tell: Callable[[str], None]) -> None:
        import bpy

        self.tell, self.command, self.saved = tell, "check", False

        @bpy.app.handlers.persistent
        def on_load_pre(*_args: Any) -> None:
            if self.saved:  # begin() has told the first reading
                self.tell(SAVED[0])

        @bpy.app.handlers.persistent
        def on_load_post(*_args: Any) -> None:
            if self.saved:
                self.tell(SAVED[1])
            else:
                self.tell("checking this file" if self.command == "check" else "fixing this file")

        @bpy.app.handlers.persistent
        def on_save_pre(*_args: Any) -> None:
            self.saved = True
            self.tell(SAVING)

        bpy.app.handlers.load_pre.append(on_load_pre)
        bpy.app.handlers.load_post.append(on_load_post)
        bpy.app.handlers.save_pre.append(on_save_pre)

    def begin(self, command: str) -> None:
        self.command, self.saved = command, False
        self.tell(READING)


def _failed(job: dict[str, Any], trace: str) -> dict[str, Any]:
    last = trace.strip().splitlines()[-1]
    return {"path": job["path"], "status": "failed", "problem": last, "armatures": []}


def die_with_parent(parent: int) -> None:
    """Have the kernel kill this process when its parent ends, even by SIGKILL (Linux only).

    The parent is ``parent``, the main process, or a launcher script between the two (a
    studio's ``blender`` wrapper) that the main process kills. Elsewhere, and when the main
    process dies under a launcher that lives on, the worker leaves when its standard input
    closes, after the current file.
    """
    if not sys.platform.startswith("linux"):
        return
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if parent not in _ancestors():  # it ended before the request above was in place
        print("the ik-doctor process that started this worker has ended", file=sys.stderr)
        os._exit(1)


def _ancestors() -> list[int]:
    """This process's parent, its parent's parent and so on, as far as ``/proc`` tells."""
    found = [os.getppid()]
    while found[-1] > 1:
        try:
            with open(f"/proc/{found[-1]}/stat", encoding="utf-8") as stat:
                # "pid (name) state ppid ...": the name may hold spaces and parentheses.
                found.append(int(stat.read().rsplit(")", 1)[1].split()[1]))
        except (OSError, IndexError, ValueError):
            break
    return found


def main(parent: int) -> None:
    die_with_parent(parent)
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    code = 0
    try:
        serve(sys.stdin, answers)
    except Exception:
        traceback.print_exc()
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    remove_session_folder()
    os._exit(code)


def remove_session_folder() -> None:
    """Remove the folder Blender made for this process (``bpy.app.tempdir``), as Blender does
    when it exits: ``os._exit`` skips that, and a run over a studio's files left one per worker.

    Only a folder Blender named for the session: where it could not make one, Blender falls back
    to the shared temporary folder itself, which is never ours to remove.
    """
    bpy = sys.modules.get("bpy")
    if bpy is None:
        return
    folder = os.path.normpath(bpy.app.tempdir)
    if os.path.basename(folder).startswith(SESSION_FOLDER_PREFIX):
        shutil.rmtree(folder, ignore_errors=True)
