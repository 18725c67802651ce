"""JUnit XML, the report CI servers draw as a test tree: file, then armature and check.

One test suite per file and one test case per (armature, check): it fails when that check has a
finding at or above ``--fail-on`` (lesser findings are kept as the case's output), it is an
error when the file could not be read, and it is skipped when the file has no armature.
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from typing import Any

from ..core.finding import runs_text
from ..core.waivers import STALE_CHECK
from .results import (
    TROUBLE,
    counts_toward_failure,
    current_findings,
    current_waived,
    fail_on_of,
)
from .safe_text import visible_strings


def render_junit(files: list[dict[str, Any]], checks: list[str], fail_on: str) -> str:
    """Valid XML 1.0 whatever the names hold: control characters are written as escapes."""
    files = visible_strings(files)
    root = ElementTree.Element("testsuites", name="ik-doctor")
    for file in files:
        suite = ElementTree.SubElement(root, "testsuite", name=file["path"])
        if file["status"] in TROUBLE and not file["armatures"]:
            case = _case(suite, file["path"], "read")
            ElementTree.SubElement(case, "error", message=file["problem"] or file["status"])
        elif file["status"] == "no_armature":
            case = _case(suite, file["path"], "armature")
            ElementTree.SubElement(case, "skipped", message=file["problem"] or "no armature")
        if file.get("note"):  # read, and checked as read: a pass that says what Blender said
            case = _case(suite, file["path"], "read")
            ElementTree.SubElement(case, "system-out").text = file["note"]
        for armature in file["armatures"]:
            _armature_cases(suite, file["path"], armature, checks, fail_on_of(file, fail_on))
        _count(suite)
    _count(root)
    ElementTree.indent(root)
    return ElementTree.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def _armature_cases(
    suite: ElementTree.Element,
    path: str,
    armature: dict[str, Any],
    checks: list[str],
    fail_on: str,
) -> None:
    classname = f"{path}:{armature['name']}"
    if armature["problem"]:
        case = _case(suite, classname, "checks")
        ElementTree.SubElement(case, "error", message=armature["problem"])
        return
    findings = current_findings(armature)
    waived = current_waived(armature)
    stale = [STALE_CHECK] if any(f["check_id"] == STALE_CHECK for f in findings) else []
    for check_id in [*checks, *stale]:
        case = _case(suite, classname, check_id)
        mine = [f for f in findings if f["check_id"] == check_id]
        mine += [_waived(w) for w in waived if w["finding"]["check_id"] == check_id]
        failing = [f for f in mine if f.get("waived") is None and counts_toward_failure(f, fail_on)]
        if failing:
            failure = ElementTree.SubElement(
                case, "failure", message=failing[0]["title"], type=failing[0]["severity"]
            )
            failure.text = "\n\n".join(_describe(f) for f in failing)
        rest = [f for f in mine if f not in failing]
        if rest:
            ElementTree.SubElement(case, "system-out").text = "\n\n".join(map(_describe, rest))


def _waived(waived: dict[str, Any]) -> dict[str, Any]:
    """A finding accepted on purpose, kept in its check's output with its reason, never failing."""
    return {**waived["finding"], "waived": waived["reason"]}


def _case(suite: ElementTree.Element, classname: str, name: str) -> ElementTree.Element:
    return ElementTree.SubElement(suite, "testcase", classname=classname, name=name, time="0")


def _describe(finding: dict[str, Any]) -> str:
    status = "waived" if finding.get("waived") is not None else finding.get("baseline")
    label = f"{finding['severity']}, {status}" if status else finding["severity"]
    text = f"[{label}] {finding['title']}\n{finding['message']}\nwhy: {finding['why']}"
    if finding.get("waived") is not None:
        text += f"\naccepted on purpose: {finding['waived']}"
    if finding["fix_label"]:
        text += f"\nfix: {finding['fix_label']}"
    for shown in finding.get("occurrences", ()):
        text += f"\nin {_occurrence_text(shown)}"
    return text


def _occurrence_text(shown: dict[str, Any]) -> str:
    return (
        f"'{shown['action']}' on frames {runs_text(shown['frames'])}, worst on frame "
        f"{shown['worst_frame']} ({shown['measured']})"
    )


def _count(element: ElementTree.Element) -> None:
    cases = list(element.iter("testcase"))
    element.set("tests", str(len(cases)))
    for tag, attribute in (("failure", "failures"), ("error", "errors"), ("skipped", "skipped")):
        element.set(attribute, str(sum(case.find(tag) is not None for case in cases)))
