"""The ``ik-doctor`` command line: the same checks as the panel, for pipelines and CI.

``check`` and ``fix`` hand every file to worker processes (see ``pool``) and only render what
comes back, so an untrusted or broken file cannot take the run down. Exit codes: 0 nothing at
or above ``--fail-on``, 1 something is, 2 a usage error or a file that could not be read.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from .. import all_checks
from .demo import run_demo
from .inputs import Input, collect_inputs
from .pool import run_jobs
from .report_html import render_html
from .report_json import render_json
from .report_junit import render_junit
from .report_text import render_text
from .results import EXIT_TROUBLE, SEVERITIES, exit_code

FORMATS = ("text", "json", "junit")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ik-doctor",
        description="Find out why a rig's IK does not work, and fix it.",
        epilog="Exit codes: 0 nothing at or above --fail-on, 1 something is, 2 a usage error "
        "or a file that could not be read or checked.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser(
        "check", help="diagnose .blend files (directories are searched recursively)"
    )
    check.add_argument("paths", nargs="+", metavar="FILE_OR_DIR")
    _add_common_options(check)
    fix = commands.add_parser(
        "fix", help="apply every safe fix to a copy of each file, recheck, report before/after"
    )
    fix.add_argument("paths", nargs="+", metavar="FILE_OR_DIR")
    where = fix.add_mutually_exclusive_group(required=True)
    where.add_argument("--output-dir", type=Path, metavar="DIR", help="write the fixed copies here")
    where.add_argument(
        "--in-place",
        action="store_true",
        help="replace each file, after keeping a byte copy as FILE.ik-doctor-backup",
    )
    fix.add_argument(
        "--allow-rest-pose-changes",
        action="store_true",
        help="also apply fixes that edit bones of a rig that deforms a mesh (new bind)",
    )
    fix.add_argument(
        "--allow-discard",
        action="store_true",
        help="also apply fixes that throw something away (keys, a constraint's effect)",
    )
    _add_common_options(fix)
    demo = commands.add_parser(
        "demo", help="build the built-in rig with its faults, diagnose, fix and verify"
    )
    demo.add_argument("--output", default="ik_doctor_demo.blend", help="where to save the rig")
    demo.add_argument(
        "--report", default=None, help="HTML report path (default: next to the rig, .html)"
    )
    return parser


def _add_common_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--armature", metavar="NAME", help="check only the armature object NAME")
    parser.add_argument(
        "--checks", metavar="ID,...", type=_id_list, help="run only these checks (default: all)"
    )
    parser.add_argument("--format", choices=FORMATS, default="text", help="report format")
    parser.add_argument("--output", metavar="PATH", help="write the report here, not to stdout")
    parser.add_argument(
        "--fail-on",
        choices=SEVERITIES,
        default="error",
        help="exit with 1 when a finding is this severe or worse (default: error)",
    )
    parser.add_argument("--html", metavar="PATH", help="also write an HTML page with diagrams")
    parser.add_argument(
        "--timeout",
        type=float,
        metavar="SECONDS",
        help="give up on a file Blender has not finished after this long (default: never)",
    )
    parser.add_argument(
        "--jobs",
        type=_positive,
        metavar="N",
        help="worker processes (default: the machine's cores, at most one per file)",
    )


def _id_list(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "demo":
        return run_demo(args.output, out=sys.stdout, report=args.report)
    _validate_checks(parser, args.checks)
    inputs, notes = collect_inputs(args.paths)
    for note in notes:
        print(f"ik-doctor: {note}", file=sys.stderr)
    if not inputs:
        parser.error("no .blend files to " + args.command)
    jobs = _jobs(parser, args, inputs)
    files = _run(jobs, inputs, args.jobs, args.timeout)
    _write_reports(args, files)
    return exit_code(files, args.fail_on)


def _validate_checks(parser: argparse.ArgumentParser, checks: list[str] | None) -> None:
    if checks is None:
        return
    known = [check.id for check in all_checks()]
    unknown = [check_id for check_id in checks if check_id not in known]
    if unknown or not checks:
        parser.error(f"unknown check id {', '.join(unknown)!r} (known: {', '.join(known)})")


def _jobs(
    parser: argparse.ArgumentParser, args: argparse.Namespace, inputs: list[Input]
) -> list[dict[str, Any]]:
    common = {
        "command": args.command,
        "armature": args.armature,
        "checks": args.checks,
        "geometry": bool(args.html),
    }
    jobs = [{**common, "path": item.path} for item in inputs]
    if args.command == "fix":
        for job, output in zip(jobs, _fix_outputs(parser, args, inputs), strict=True):
            job.update(
                output=output,
                in_place=args.in_place,
                allow_rest_pose_changes=args.allow_rest_pose_changes,
                allow_discard=args.allow_discard,
            )
    return jobs


def _fix_outputs(
    parser: argparse.ArgumentParser, args: argparse.Namespace, inputs: list[Input]
) -> list[str]:
    """Where each fixed file goes; refuses anything that would overwrite an input."""
    if args.in_place:
        return [item.path for item in inputs]
    outputs = [args.output_dir / item.relative for item in inputs]
    sources = {Path(item.path).resolve() for item in inputs}
    seen: set[Path] = set()
    for item, output in zip(inputs, outputs, strict=True):
        resolved = output.resolve()
        if resolved in sources:
            parser.error(
                f"{item.path}: the fixed copy would overwrite an input file; "
                "choose another --output-dir (or use --in-place, which keeps a backup)"
            )
        if resolved in seen:
            parser.error(f"{item.path}: two inputs would be written to {output}")
        seen.add(resolved)
    return [str(output) for output in outputs]


def _run(
    jobs: list[dict[str, Any]], inputs: list[Input], workers: int | None, timeout: float | None
) -> list[dict[str, Any]]:
    """Answers for every input in order; files that fail the first look never reach Blender."""
    readable = [index for index, item in enumerate(inputs) if item.problem is None]
    files: list[dict[str, Any]] = [
        {"path": item.path, "status": "unreadable", "problem": item.problem, "armatures": []}
        for item in inputs
    ]
    progress = ProgressBar(len(readable))
    try:
        answers = run_jobs(
            [jobs[index] for index in readable],
            workers or min(os.cpu_count() or 1, len(readable)),
            on_answer=progress.advance,
            timeout=timeout,
        )
    finally:
        progress.close()
    for index, answer in zip(readable, answers, strict=True):
        files[index] = answer
    return files


class ProgressBar:
    """A one-line bar on stderr, only for several files and only when stderr is a terminal."""

    WIDTH = 30

    def __init__(self, total: int) -> None:
        self.total, self.done = total, 0
        self.shown = total > 1 and sys.stderr.isatty()

    def advance(self, _index: int, answer: dict[str, Any]) -> None:
        if not self.shown:
            return
        self.done += 1
        filled = self.WIDTH * self.done // self.total
        name = Path(answer["path"]).name[:40]
        bar = "#" * filled + "." * (self.WIDTH - filled)
        sys.stderr.write(f"\r\033[K[{bar}] {self.done}/{self.total} {name}")
        sys.stderr.flush()

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


def _write_reports(args: argparse.Namespace, files: list[dict[str, Any]]) -> None:
    to_terminal = args.output is None and sys.stdout.isatty() and "NO_COLOR" not in os.environ
    if args.format == "json":
        text = render_json(files, args.command, args.fail_on, args.checks)
    elif args.format == "junit":
        checks = args.checks or [check.id for check in all_checks()]
        text = render_junit(files, checks, args.fail_on)
    else:
        text = render_text(files, args.command, colour=to_terminal)
    if args.output is None:
        sys.stdout.write(text)
    else:
        _write_file(args.output, text)
    if args.html:
        _write_file(args.html, render_html(files, args.command))


def _write_file(path: str, text: str) -> None:
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(text, encoding="utf-8")
    except OSError as error:
        print(f"ik-doctor: cannot write {path}: {error.strerror or error}", file=sys.stderr)
        raise SystemExit(EXIT_TROUBLE) from None
