"""``ik-doctor merge``: the JSON reports of the parts of a sharded run, as that run's report.

Every file in a report carries its ``index`` in the full input list and a part's report says
which part it is (see ``shard``), so the merged report is the one a single run over every file
gives: the same files in the same order, the same summary and exit code. Reports of different
runs (another command, other checks, options or Blender) are refused, and so are a missing
part, a part given twice and parts that were run over different inputs.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from .report_json import FORMAT_NAME, FORMAT_VERSION, HEADER_KEYS
from .results import EXIT_TROUBLE, armature_named_nowhere, failed_without_armature
from .safe_text import visible
from .write_targets import Target, first_clash

Report = dict[str, Any]
RUN_KEYS = ("command", "blender", "checks", "options")
"""Header fields that change the files' results: every part must have the same."""


class MergeError(Exception):
    """The reports cannot make one run's report; the message says why, naming the report."""


def merge_reports(args: argparse.Namespace) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The merged files, in input order, and the report's header; else exit 2 saying why."""
    try:
        _refuse_overwriting(args)
        reports = [(path, _read(path)) for path in args.reports]
        header = _common_header(reports, args.fail_on)
        if args.html and not header["options"].get("diagrams"):
            raise MergeError(
                "the parts were run without --html, so their reports hold no diagrams; "
                "run them with --html to merge an HTML page"
            )
        files = _files_in_order(reports, _input_count(reports))
    except MergeError as error:
        print(f"ik-doctor merge: error: {visible(str(error))}", file=sys.stderr)
        raise SystemExit(EXIT_TROUBLE) from None
    if args.fail_on is not None:  # --fail-on given here wins over each file's project setting
        files = [{**file, "fail_on": args.fail_on} for file in files]
    armature = header["options"].get("armature")
    if armature_named_nowhere(files, armature):  # as one run judges it; no part alone can
        nowhere = f"no checked file has an armature named {armature!r}"
        print(f"ik-doctor: {visible(nowhere)}", file=sys.stderr)
        files = failed_without_armature(files)
    return files, header


def _refuse_overwriting(args: argparse.Namespace) -> None:
    """The merged report and page go neither onto a part's report nor onto each other."""
    written = [("--output", args.output), ("--html", args.html)]
    targets = [Target(f"{flag} {path}", path) for flag, path in written if path is not None]
    clash = first_clash(args.reports, targets)
    if clash is not None:
        raise MergeError(clash)


def _read(path: str) -> Report:
    try:
        report = json.loads(Path(path).read_text("utf-8"))
    except OSError as error:
        raise MergeError(f"cannot read {path}: {error.strerror or error}") from None
    except ValueError as error:
        raise MergeError(f"{path} is not a JSON report: {error}") from None
    if not isinstance(report, dict) or report.get("format") != FORMAT_NAME:
        raise MergeError(f"{path} is not an ik-doctor report (write the parts with --format json)")
    if report.get("version") != FORMAT_VERSION:
        raise MergeError(
            f"{path} is a version {report.get('version')!r} report; "
            f"this ik-doctor merges version {FORMAT_VERSION}"
        )
    if any(key not in report for key in HEADER_KEYS) or any(
        "index" not in file for file in report["files"]
    ):
        raise MergeError(f"{path} comes from an ik-doctor without merge; run that part again")
    return report


def _common_header(reports: list[tuple[str, Report]], fail_on: str | None) -> dict[str, Any]:
    """The header of the merged report; ``fail_on`` (from --fail-on) wins over the parts'."""
    first_path, first = reports[0]
    for path, report in reports[1:]:
        for key in RUN_KEYS:
            if report[key] != first[key]:
                raise MergeError(
                    f"{path} and {first_path} are not parts of one run: "
                    f"{key} is {report[key]!r} in one and {first[key]!r} in the other"
                )
    chosen = {report["fail_on"] for _path, report in reports}
    if fail_on is None and len(chosen) > 1:
        raise MergeError(
            f"the parts were run with different --fail-on ({', '.join(sorted(chosen))}); "
            "choose one with --fail-on"
        )
    return {**{key: first[key] for key in HEADER_KEYS}, "fail_on": fail_on or first["fail_on"]}


def _input_count(reports: list[tuple[str, Report]]) -> int:
    """How many inputs the run had, once every part is there exactly once."""
    first_path, first = reports[0]
    run = _shard(first)
    owners: dict[int, str] = {}
    for path, report in reports:
        shard = _shard(report)
        if {**shard, "part": run["part"]} != run:
            raise MergeError(
                f"{path} and {first_path} are parts of runs over different inputs "
                f"({shard['inputs']} files in {shard['of']} parts, and {run['inputs']} in "
                f"{run['of']}); merge the parts of one run"
            )
        if shard["part"] in owners:
            raise MergeError(
                f"{path} and {owners[shard['part']]} are both part {shard['part']} "
                f"of {shard['of']}; give each part once"
            )
        owners[shard["part"]] = path
    missing = [str(part) for part in range(1, run["of"] + 1) if part not in owners]
    if missing:
        label = "part" if len(missing) == 1 else "parts"
        raise MergeError(f"missing {label} {', '.join(missing)} of {run['of']}; give every part")
    return int(run["inputs"])


def _shard(report: Report) -> dict[str, Any]:
    """A report's ``shard``; a report of a whole run is part 1 of 1."""
    whole = {"part": 1, "of": 1, "inputs": len(report["files"]), "inputs_sha256": None}
    return dict(report.get("shard") or whole)


def _files_in_order(reports: list[tuple[str, Report]], count: int) -> list[dict[str, Any]]:
    every = [file for _path, report in reports for file in report["files"]]
    files = sorted(every, key=lambda file: file["index"])
    indices = [file["index"] for file in files]
    if indices != list(range(count)):
        raise MergeError(
            f"the parts do not hold each of the {count} files once (the reports were edited?)"
        )
    return files
