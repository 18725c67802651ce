"""The machine-readable report; its shape is ``report.schema.json`` and ``docs/command-line.md``.

``version`` changes only when a field is removed or changes meaning; new fields may appear
without a new version, so readers should ignore what they do not know. Names are kept exact:
``json.dumps`` writes control and non-ASCII characters as ``\\u`` escapes, so the report is
plain ASCII whatever the files hold.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from .results import ANIMATION_CHECK, DEFAULT_FAIL_ON, exit_code, summary

FORMAT_NAME = "ik-doctor-report"
FORMAT_VERSION = 1
SCHEMA_PATH = Path(__file__).with_name("report.schema.json")
HEADER_KEYS = ("command", "blender", "checks", "options", "fail_on")
"""What a report states about its run besides its files: the parts of one run agree on them."""


def run_header(
    args: argparse.Namespace, shard: dict[str, Any] | None, about: dict[str, Any]
) -> dict[str, Any]:
    """The header of a ``check`` or ``fix`` report: what was run, with which options.

    ``about``: the Blender version and every check id, as a worker that read the files said.
    """
    options = {
        "armature": args.armature,
        "diagrams": bool(args.html),
        "animation": args.animation,
        "waivers": not args.no_waivers,
        "config": "isolated" if args.isolated else args.config,
        "baseline": getattr(args, "baseline", None),
        "export": getattr(args, "export", None),
        "export_settings": getattr(args, "export_settings", None),
    }
    if args.command == "fix":
        options.update(
            in_place=args.in_place,
            allow_rest_pose_changes=args.allow_rest_pose_changes,
            allow_discard=args.allow_discard,
        )
    header = {
        "command": args.command,
        "blender": about["blender"],
        "checks": _checks_run(args, about["checks"]),
        "options": options,
        "fail_on": args.fail_on or DEFAULT_FAIL_ON,
    }
    return header if shard is None else {**header, "shard": shard}


def _checks_run(args: argparse.Namespace, every: list[str]) -> list[str]:
    """The check ids the report speaks for; the animation scan's ``verify`` with --animation."""
    checks = args.checks if args.checks is not None else every
    if args.animation and ANIMATION_CHECK not in checks:
        checks = [*checks, ANIMATION_CHECK]
    return [c for c in checks if c != ANIMATION_CHECK or args.animation]


def report_document(files: list[dict[str, Any]], header: dict[str, Any]) -> dict[str, Any]:
    return {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        **header,
        "exit_code": exit_code(files, header["fail_on"]),
        "summary": summary(files),
        "files": files,
    }


def render_json(files: list[dict[str, Any]], header: dict[str, Any]) -> str:
    return json.dumps(report_document(files, header), indent=2) + "\n"
