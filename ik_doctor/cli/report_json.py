"""The machine-readable report; its shape is ``report.schema.json`` and the README.

``version`` changes only when a field is removed or changes meaning; new fields may appear
without a new version, so readers should ignore what they do not know.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import bpy

from .. import all_checks
from .results import exit_code, summary

FORMAT_NAME = "ik-doctor-report"
FORMAT_VERSION = 1
SCHEMA_PATH = Path(__file__).with_name("report.schema.json")
DIAGRAM_KEYS = ("chains", "chains_after")
"""Diagram geometry travels with the results for the HTML page; it is not part of the JSON."""


def report_document(
    files: list[dict[str, Any]], command: str, fail_on: str, checks: list[str] | None
) -> dict[str, Any]:
    return {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "command": command,
        "blender": bpy.app.version_string,
        "checks": checks if checks is not None else [check.id for check in all_checks()],
        "fail_on": fail_on,
        "exit_code": exit_code(files, fail_on),
        "summary": summary(files),
        "files": [_without_diagrams(file) for file in files],
    }


def render_json(
    files: list[dict[str, Any]], command: str, fail_on: str, checks: list[str] | None
) -> str:
    return json.dumps(report_document(files, command, fail_on, checks), indent=2) + "\n"


def _without_diagrams(file: dict[str, Any]) -> dict[str, Any]:
    armatures = []
    for armature in file["armatures"]:
        entry = {k: v for k, v in armature.items() if k not in DIAGRAM_KEYS}
        if "fix" in entry:
            entry["fix"] = {k: v for k, v in entry["fix"].items() if k not in DIAGRAM_KEYS}
        armatures.append(entry)
    return {**file, "armatures": armatures}
