"""``check --baseline OLD.json``: what changed since a report of an earlier run.

Each finding of this run is ``new`` or ``unchanged``, and each finding of the old report that
is not found again is ``fixed``. Findings are matched as waivers match them (``core.waivers``:
the check, armature, bone, constraint and cause), never by their words or numbers, within the
same file (by its path as given) and armature; a finding found twice there counts twice. Only
new findings fail the run (``results.counts_toward_failure``), so a library with known faults
can adopt the gate today and keep it from getting worse.
"""

from __future__ import annotations

import json
import os
import stat
from collections import Counter
from typing import Any

from ..core.project_config import MAX_BYTES
from ..core.waivers import Place, place_of_dict
from .report_json import FORMAT_NAME, FORMAT_VERSION
from .results import current_findings

Armatures = dict[tuple[str, str], list[dict[str, Any]]]
"""(file path, armature name): the findings the baseline has there."""
MAX_BASELINE = 64 * MAX_BYTES
"""A report of thousands of files is a few MiB; a bigger file is refused, not read whole."""


class BaselineError(Exception):
    """The baseline cannot be used; the message names the file and says why."""


def load_baseline(path: str) -> Armatures:
    """The findings of an ik-doctor JSON report, by file and armature."""
    try:
        with open(path, "rb", opener=_opener) as stream:
            if not os.fstat(stream.fileno()).st_size <= MAX_BASELINE:
                raise BaselineError(f"{path}: too large to be an ik-doctor report")
            report = json.loads(stream.read(MAX_BASELINE + 1).decode("utf-8"))
    except OSError as error:
        raise BaselineError(f"cannot read {path}: {error.strerror or error}") from None
    except (ValueError, RecursionError) as error:
        raise BaselineError(f"{path} is not a JSON report: {error}") from None
    if not isinstance(report, dict) or report.get("format") != FORMAT_NAME:
        raise BaselineError(f"{path} is not an ik-doctor report (write it with --format json)")
    if report.get("version") != FORMAT_VERSION:
        raise BaselineError(f"{path} is a version {report.get('version')!r} report")
    try:
        return {
            (_path_key(file["path"]), armature["name"]): list(current_findings(armature))
            for file in report["files"]
            for armature in file["armatures"]
        }
    except (KeyError, TypeError) as error:
        raise BaselineError(f"{path}: not shaped as an ik-doctor report ({error!r})") from None


def compare(files: list[dict[str, Any]], baseline: Armatures) -> list[dict[str, Any]]:
    """The files with each current finding marked ``new`` or ``unchanged`` (its ``baseline``)
    and each armature's ``fixed`` findings: the baseline's that are not found again."""
    for file in files:
        for armature in file["armatures"]:
            old = baseline.get((_path_key(file["path"]), armature["name"]), [])
            _mark(armature, old)
    return files


def _mark(armature: dict[str, Any], old: list[dict[str, Any]]) -> None:
    left: Counter[Place] = Counter(place_of_dict(finding) for finding in old)
    for finding in current_findings(armature):
        place = place_of_dict(finding)
        if left[place] > 0:
            left[place] -= 1
            finding["baseline"] = "unchanged"
        else:
            finding["baseline"] = "new"
    fixed = []
    for finding in old:
        place = place_of_dict(finding)
        if left[place] > 0:
            left[place] -= 1
            fixed.append({**finding, "baseline": "fixed"})
    armature["fixed"] = fixed


def _path_key(path: str) -> str:
    return os.path.normpath(str(path))


def _opener(path: str, flags: int) -> int:
    """Open without waiting, and only a regular file: a FIFO named like the report would
    hang the run, a directory is a mistake."""
    descriptor = os.open(path, flags | os.O_NONBLOCK | os.O_NOCTTY)
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        raise BaselineError(f"{path}: not a regular file")
    return descriptor
