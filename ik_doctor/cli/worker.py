"""A worker process: reads one job per line on stdin, answers one JSON line per job.

Each worker has its own ``bpy``, so a file that crashes Blender takes down only its worker;
the main process notices, reports that file, and starts a fresh worker for the rest. Blender
prints to standard output from C (with ``OCIO`` set, already while ``bpy`` is imported), so
answers are marked with ``ANSWER_PREFIX``; once serving, everything else written to standard
output lands on standard error, which the main process keeps as a log.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from typing import Any, TextIO

ANSWER_PREFIX = "ik-doctor-answer "


def serve(jobs: TextIO, answers: TextIO) -> None:
    from .file_jobs import check_file, fix_file

    handlers = {"check": check_file, "fix": fix_file}
    for line in jobs:
        job = json.loads(line)
        try:
            answer = handlers[job["command"]](job)
        except Exception:  # never leave the main process waiting for an answer
            answer = _failed(job, traceback.format_exc(limit=3))
        answers.write(ANSWER_PREFIX + json.dumps(answer) + "\n")
        answers.flush()


def _failed(job: dict[str, Any], trace: str) -> dict[str, Any]:
    last = trace.strip().splitlines()[-1]
    return {"path": job["path"], "status": "failed", "problem": last, "armatures": []}


def main() -> None:
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    serve(sys.stdin, answers)


if __name__ == "__main__":
    main()
