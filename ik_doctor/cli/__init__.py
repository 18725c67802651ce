"""The ``ik-doctor`` command line: the same checks as the panel, for pipelines and CI.

``check`` and ``fix`` hand every file to worker processes (see ``pool``) and only render what
comes back, so an untrusted or broken file cannot take the run down; this process never starts
Blender for them (only ``demo`` does). The workers import ``bpy`` from this Python, or with
``--blender`` are that Blender binary. Exit codes: 0 nothing at or above ``--fail-on``, 1
something is, 2 a usage error or a file that could not be read.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import pkgutil
import shutil
import signal
import sys
from pathlib import Path
from typing import Any

from ..core.project_config import ConfigError
from .baseline import BaselineError, compare, load_baseline
from .config import (
    add_config_options,
    check_configs,
    configs_for,
    file_fields,
    job_settings,
)
from .inputs import FOLLOW_FLAG, Input, collect_inputs
from .interrupt import Interrupt
from .merge import merge_reports
from .pool import (
    DEFAULT_TIMEOUT,
    About,
    Stop,
    ask_about_blender,
    run_jobs,
    usable_cores,
    worker_command,
)
from .quiet_start import import_bpy_quietly
from .report_html import render_html
from .report_json import render_json, run_header
from .report_junit import render_junit
from .report_text import render_text
from .results import (
    DEFAULT_FAIL_ON,
    EXIT_TROUBLE,
    SEVERITIES,
    armature_named_nowhere,
    exit_code,
    failed_without_armature,
)
from .safe_text import visible
from .shard import Selection, parse_shard
from .write_targets import Target, first_clash

FORMATS = ("text", "json", "junit")
NO_BLENDER = "unknown: no worker started Blender"
"""The report's ``blender`` when not one worker got ready to say which it is."""


def build_parser(prog: str = "ik-doctor") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Find out why a rig's IK does not work, and fix it.",
        epilog="Exit codes: 0 nothing at or above --fail-on, 1 something is, 2 a usage error "
        "or a file that could not be read or checked.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser(
        "check", help="diagnose .blend files (directories are searched recursively)"
    )
    check.add_argument("paths", nargs="+", metavar="FILE_OR_DIR")
    check.add_argument(
        "--baseline",
        metavar="OLD.json",
        help="compare with the JSON report of an earlier run: each finding is new, unchanged "
        "or fixed, and only new findings count toward --fail-on",
    )
    check.add_argument(
        "--export",
        choices=("gltf", "fbx"),
        help="also export each armature with Blender's own exporter, read the file back and "
        "report where the game's joints leave Blender's pose, with the export setting proved "
        "to cause it (check id 'export'); glTF uses the settings the file remembers",
    )
    check.add_argument(
        "--export-settings",
        type=_export_settings,
        metavar="FILE.json",
        help="the exporter's settings for --export, by its own property names "
        '({"export_force_sampling": false}), over those the file remembers',
    )
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
    merge = commands.add_parser(
        "merge", help="combine the JSON reports of a --shard run's parts into that run's report"
    )
    merge.add_argument("reports", nargs="+", metavar="REPORT.json")
    merge.add_argument("--format", choices=FORMATS, default="text", help="report format")
    merge.add_argument("--output", metavar="PATH", help="write the report here, not to stdout")
    merge.add_argument(
        "--fail-on", choices=SEVERITIES, help="as for check (default: what the parts used)"
    )
    merge.add_argument(
        "--html", metavar="PATH", help="also write the HTML page (the parts need --html too)"
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
        help="exit with 1 when a finding is this severe or worse (default: the settings "
        f"file's fail-on, else {DEFAULT_FAIL_ON})",
    )
    parser.add_argument(
        "--no-waivers",
        action="store_true",
        help="report every finding as if no fault had been accepted on purpose",
    )
    add_config_options(parser)
    parser.add_argument("--html", metavar="PATH", help="also write an HTML page with diagrams")
    parser.add_argument(
        "--animation",
        action="store_true",
        help="also play every action of each armature frame by frame and report where its IK "
        "misses, with the cause proved by solving (check id 'verify')",
    )
    parser.add_argument(
        "--timeout",
        type=_seconds,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help="give up on a file Blender has not finished this long after it started reading it "
        f"(default: {DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument(
        "--jobs",
        type=_positive,
        metavar="N",
        help="worker processes (default: the cores this process may use, at most one per file)",
    )
    parser.add_argument(
        "--blender",
        type=_blender_binary,
        metavar="PATH",
        help="read the files in this Blender binary, whatever its version and Python "
        "(default: the bpy module of this Python; inside Blender, that Blender)",
    )
    parser.add_argument(
        "--shard",
        type=parse_shard,
        metavar="K/N",
        help="take only part K of N of the files (stable across machines); see `merge`",
    )
    parser.add_argument(
        FOLLOW_FLAG,
        action="store_true",
        help="search linked directories and read linked files found in them; with --in-place, "
        "fix the file a link points to (default: links found are skipped, in place refused)",
    )


def _export_settings(path: str) -> dict[str, Any]:
    """A JSON object of exporter settings, read before any work."""
    try:
        with open(path, encoding="utf-8") as file:
            settings = json.load(file)
    except (OSError, ValueError) as error:
        raise argparse.ArgumentTypeError(f"cannot read {path}: {error}") from None
    if not isinstance(settings, dict):
        raise argparse.ArgumentTypeError(f"{path} holds no JSON object of settings")
    return settings


def _id_list(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value


def _blender_binary(text: str) -> str:
    """An executable file, by path or by a name on ``PATH``; made absolute."""
    found = shutil.which(text)
    if found is None or os.path.isdir(found):
        raise argparse.ArgumentTypeError(f"{text!r} is not an executable file")
    return os.path.abspath(found)


def _seconds(text: str) -> float:
    """A time limit: a number above 0; "never" is not on offer, a run must end."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (0 < value < math.inf):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds above 0")
    return value


def main(
    argv: list[str] | None = None,
    early_signals: list[int] | None = None,
    prog: str = "ik-doctor",
    blender: str | None = None,
) -> int:
    """Run the command; ``early_signals``: SIGINT or SIGTERM received before it was called;
    ``blender``: the Blender binary the workers are when ``--blender`` is not given."""
    parser = build_parser(prog)
    args = parser.parse_args(argv)
    if args.command in ("check", "fix"):
        args.blender = args.blender or blender
        interrupt = Interrupt(early_signals)
        with interrupt.caught() as stop:  # from the start: a scan of a large tree takes time
            files, header = _check_or_fix(parser, args, stop)
            # Still caught while the report is written: a second signal there would otherwise
            # end the process by the default action, leaving no report (a farm's stop sent
            # twice, measured under load: exit -15 and nothing written).
            _write_reports(args, files, header)
        return interrupt.exit_code or exit_code(files, header["fail_on"])
    if early_signals:
        print(f"ik-doctor: {signal.Signals(early_signals[0]).name}: stopped", file=sys.stderr)
        return 128 + early_signals[0]
    if args.command == "demo":
        import_bpy_quietly()  # the one command that runs Blender in this process
        from .demo import demo_report_path, run_demo

        report = demo_report_path(args.output, args.report)
        where = f"--report {report}" if args.report else f"the report ({report}, next to the rig)"
        targets = [Target(f"--output {args.output}", args.output), Target(where, str(report))]
        _refuse_overwrites(parser, [], targets)
        return run_demo(args.output, out=sys.stdout, report=args.report)
    files, header = merge_reports(args)
    _write_reports(args, files, header)
    return exit_code(files, header["fail_on"])


def _check_or_fix(
    parser: argparse.ArgumentParser, args: argparse.Namespace, stop: Stop
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The files' answers and the report's header; after a signal, files not yet handed out
    are answered as not checked."""
    command = worker_command(args.blender)
    _validate_checks(parser, args.checks, command, stop)
    baseline = _baseline(parser, getattr(args, "baseline", None))
    inputs, notes = collect_inputs(args.paths, args.follow_symlinks)
    for note in notes:
        print(f"ik-doctor: {visible(note)}", file=sys.stderr)
    if not inputs:
        parser.error("no .blend files to " + args.command)
    configs = _configs(parser, args, inputs, command, stop)
    jobs = _jobs(args, inputs, configs)
    targets, replaced = _written_paths(args, jobs)
    _refuse_overwrites(parser, [item.path for item in inputs], targets, replaced)
    part = Selection.of(inputs, args.shard)
    answered, about = _run(part.take(jobs), part.take(inputs), args, command, stop)
    answered = [
        {**answer, **file_fields(args, config)}
        for answer, config in zip(answered, part.take(configs), strict=True)
    ]
    files = part.numbered(answered)
    if args.shard is None and armature_named_nowhere(files, args.armature):
        nowhere = f"no checked file has an armature named {args.armature!r}"
        print(f"ik-doctor: {visible(nowhere)}", file=sys.stderr)
        files = failed_without_armature(files)
    if baseline is not None:
        files = compare(files, baseline)
    return files, run_header(args, part.describe(), about)


def _baseline(parser: argparse.ArgumentParser, path: str | None) -> Any:
    """The findings of ``--baseline``, read before any work; a usage error when unusable."""
    if path is None:
        return None
    try:
        return load_baseline(path)
    except BaselineError as error:
        parser.error(visible(str(error)))


def _configs(
    parser: argparse.ArgumentParser,
    args: argparse.Namespace,
    inputs: list[Input],
    command: list[str],
    stop: Stop,
) -> list[Any]:
    """Each input's project settings (``config``); a usage error naming the key when one
    cannot be used. The check ids and options a file names are checked against the registry of
    the Blender that will read the files, plug-ins included (``check_configs``)."""

    def registry() -> dict[str, Any] | None:
        about = ask_about_blender(stop, command)
        return None if about is None else about.get("options")

    try:
        configs = configs_for(args, inputs)
        check_configs(configs, check_ids(), registry)
    except ConfigError as error:
        parser.error(visible(str(error)))
    return configs


def _validate_checks(
    parser: argparse.ArgumentParser, checks: list[str] | None, command: list[str], stop: Stop
) -> None:
    """A usage error for an id of ``--checks`` not in the registry of the Blender that will read
    the files (its plug-ins and scans included). A worker is started to tell only for an id
    that is not a built-in check's, which every registry holds: that start costs about 1.5 s."""
    if checks is None or (checks and set(checks) <= set(check_ids())):
        return
    about = ask_about_blender(stop, command)
    if about is None:  # no Blender started: every file fails to be read, and says why
        return
    known = sorted(about["checks"])
    unknown = [check_id for check_id in checks if check_id not in known]
    if unknown or not checks:
        parser.error(f"unknown check id {', '.join(unknown)!r} (known: {', '.join(known)})")


def check_ids() -> list[str]:
    """The built-in checks' ids, known without starting Blender: each is the module of its name
    in ``ik_doctor.checks`` (a test holds the two together). Sorted, not in the order they run.
    Plug-ins and scans are known only to a Blender (``_validate_checks``)."""
    checks = importlib.util.find_spec("..checks", __package__)
    assert checks is not None and checks.submodule_search_locations is not None
    modules = pkgutil.iter_modules(checks.submodule_search_locations)
    return sorted(module.name for module in modules if not module.name.startswith("_"))


def _jobs(
    args: argparse.Namespace, inputs: list[Input], configs: list[Any]
) -> list[dict[str, Any]]:
    common = {
        "command": args.command,
        "armature": args.armature,
        "geometry": bool(args.html),
        "export": getattr(args, "export", None),
        "export_settings": getattr(args, "export_settings", None),
    }
    jobs = [
        {**common, **job_settings(args, config), "path": item.path}
        for item, config in zip(inputs, configs, strict=True)
    ]
    if args.command == "fix":
        for job, output in zip(jobs, _fix_outputs(args, inputs), strict=True):
            job.update(
                output=output,
                in_place=args.in_place,
                allow_rest_pose_changes=args.allow_rest_pose_changes,
                allow_discard=args.allow_discard,
            )
    return jobs


def _fix_outputs(args: argparse.Namespace, inputs: list[Input]) -> list[str]:
    """Where each fixed file goes: below ``--output-dir``, or the input itself in place.

    In place with ``--follow-symlinks``, a link's target is what is fixed (and reported).
    """
    if args.in_place:
        follow = args.follow_symlinks
        return [os.path.realpath(item.path) if follow else item.path for item in inputs]
    return [str(args.output_dir / item.relative) for item in inputs]


def _written_paths(
    args: argparse.Namespace, jobs: list[dict[str, Any]]
) -> tuple[list[Target], list[str]]:
    """The files this run writes besides the ones it replaces in place, and those it replaces."""
    in_place = args.command == "fix" and args.in_place
    advice = "choose another --output-dir (or use --in-place, which keeps a backup)"
    copies = [
        Target(f"the fixed copy of {job['path']}", job["output"], advice)
        for job in jobs
        if args.command == "fix" and not in_place
    ]
    reports = [
        Target(f"{flag} {path}", path)
        for flag, path in (("--output", args.output), ("--html", args.html))
        if path is not None
    ]
    return copies + reports, [job["output"] for job in jobs] if in_place else []


def _refuse_overwrites(
    parser: argparse.ArgumentParser,
    inputs: list[str],
    targets: list[Target],
    replaced: list[str] | None = None,
) -> None:
    """Stop with a usage error, before any work, when a path written is an input or another."""
    clash = first_clash(inputs, targets, replaced or ())
    if clash is not None:
        parser.error(visible(clash))


def _run(
    jobs: list[dict[str, Any]],
    inputs: list[Input],
    args: argparse.Namespace,
    command: list[str],
    stop: Stop,
) -> tuple[list[dict[str, Any]], About]:
    """Answers for every input in order, and what the workers said of their Blender; files
    that fail the first look never reach Blender.

    A signal while the workers run ends the run early (see ``interrupt``): the files never
    handed out are answered as not checked. When no worker got ready (no file was readable),
    one is started only to tell its Blender: every report names the Blender it stands for.
    """
    readable = [index for index, item in enumerate(inputs) if item.problem is None]
    files: list[dict[str, Any]] = [
        {"path": item.path, "status": "unreadable", "problem": item.problem, "armatures": []}
        for item in inputs
    ]
    progress = ProgressBar(len(readable))
    heard: list[About] = []
    try:
        answers = run_jobs(
            [jobs[index] for index in readable],
            args.jobs or usable_cores(),
            on_answer=progress.advance,
            command=command,
            timeout=args.timeout,
            stop=stop,
            on_ready=heard.append,
        )
        about = heard[0] if heard else ask_about_blender(stop, command)
    finally:
        progress.close()
    for index, answer in zip(readable, answers, strict=True):
        files[index] = answer
    return files, about or {"blender": NO_BLENDER, "checks": check_ids()}


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
        name = visible(Path(answer["path"]).name)[:40]
        bar = "#" * filled + "." * (self.WIDTH - filled)
        sys.stderr.write(f"\r\033[K[{bar}] {self.done}/{self.total} {name}")
        sys.stderr.flush()

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


def _write_reports(
    args: argparse.Namespace, files: list[dict[str, Any]], header: dict[str, Any]
) -> None:
    """Write the report (and page) of ``files``; ``header`` says what run they come from."""
    to_terminal = args.output is None and sys.stdout.isatty() and "NO_COLOR" not in os.environ
    if args.format == "json":
        text = render_json(files, header)
    elif args.format == "junit":
        text = render_junit(files, header["checks"], header["fail_on"])
    else:
        text = render_text(files, header["command"], colour=to_terminal)
    if args.output is None:
        sys.stdout.write(text)
    else:
        _write_file(args.output, text)
    if args.html:
        _write_file(args.html, render_html(files, header["command"], header["blender"]))


def _write_file(path: str, text: str) -> None:
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(text, encoding="utf-8")
    except OSError as error:
        print(f"ik-doctor: cannot write {path}: {error.strerror or error}", file=sys.stderr)
        raise SystemExit(EXIT_TROUBLE) from None
