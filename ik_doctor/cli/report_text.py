"""The readable report: grouped by file, armature and chain, coloured only on a terminal."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import Any

from ..core.finding import runs_text
from .results import (
    SEVERITIES,
    by_chain,
    current_findings,
    current_waived,
    plural,
    severity_counts,
    summary,
)
from .safe_text import visible_strings

COLOURS = {"error": "31", "warning": "33", "info": "36", "bold": "1", "dim": "2", "ok": "32"}
WIDTH = 100
INDENT = "      "
DETAIL_INDENT = INDENT + " " * 8
"""Details line up under the title, after the severity column."""


def render_text(files: list[dict[str, Any]], command: str, colour: bool) -> str:
    """The report for people; names and messages show control characters as escapes."""
    files = visible_strings(files)
    paint = _painter(colour)
    lines: list[str] = []
    for file in files:
        lines.extend(_file_lines(file, command, paint))
    lines.append("")
    lines.append(_footer(files, command))
    return "\n".join(lines) + "\n"


def _file_lines(file: dict[str, Any], command: str, paint: Callable[[str, str], str]) -> list[str]:
    path = paint("bold", file["path"])
    if file["status"] == "unreadable":
        return [f"{path}: {paint('error', 'cannot read')}: {file['problem']}"]
    if file["status"] == "failed" and not file["armatures"]:
        return [f"{path}: {paint('error', 'failed')}: {file['problem']}"]
    if command == "fix" and file.get("output"):
        path += f" -> {file['output']}" + (
            f" (backup: {file['backup']})" if file.get("backup") else ""
        )
    if file["status"] == "no_armature":
        return [f"{path}: {file['problem']}"]
    lines = [path]
    if file["status"] == "failed" and file["problem"]:
        lines.append(f"  {paint('error', 'failed')}: {file['problem']}")
    if file.get("note"):
        lines.append(f"  {paint('warning', 'note')}: {file['note']}")
    for armature in file["armatures"]:
        lines.extend(_armature_lines(armature, command, paint))
    return lines


def _armature_lines(
    armature: dict[str, Any], command: str, paint: Callable[[str, str], str]
) -> list[str]:
    title = f"  {armature['name']}"
    if armature["library"]:
        title += f" (linked from {armature['library']})"
    elif armature["override"]:
        title += " (library override)"
    if armature["problem"]:
        return [f"{title}: {paint('error', armature['problem'])}"]
    lines = [title]
    fix = armature.get("fix")
    if command == "fix" and fix is not None:
        lines.extend(_fix_lines(armature, fix, paint))
    findings = current_findings(armature)
    if not findings:
        lines.append(f"    {paint('ok', 'no findings')}")
    for chain, group in by_chain(findings):
        lines.append(f"    chain {chain[0]} ({chain[1]})" if chain else "    whole rig")
        for finding in group:
            lines.extend(_finding_lines(finding, paint))
    lines.extend(_set_aside_lines(armature, paint))
    return lines


def _set_aside_lines(armature: dict[str, Any], paint: Callable[[str, str], str]) -> list[str]:
    """The findings accepted on purpose, with their reasons, and those a baseline had that are
    gone: listed, dimmed, outside the counts."""
    lines: list[str] = []
    for waived in current_waived(armature):
        finding = waived["finding"]
        text = f"{finding['title']} ({_place(finding)}): {waived['reason']}"
        wrapped = textwrap.wrap(
            f"accepted {text}", width=WIDTH, initial_indent="    ", subsequent_indent="      "
        )
        lines.extend(paint("dim", line) for line in wrapped)
    for finding in armature.get("fixed", []):
        text = f"{finding['title']} ({_place(finding)})"
        lines.extend(_labelled("fixed since the baseline:", "ok", text, paint))
    return lines


def _place(finding: dict[str, Any]) -> str:
    return ", ".join(filter(None, (finding["bone"], finding["check_id"])))


def _fix_lines(
    armature: dict[str, Any], fix: dict[str, Any], paint: Callable[[str, str], str]
) -> list[str]:
    lines = [f"    before: {_summary_of(armature['findings'])}"]
    if fix["skipped"]:
        lines.extend(_labelled("not fixed", "warning", fix["skipped"], paint))
    for applied in fix["applied"]:
        label, style = _outcome(applied)
        text = f"{applied['finding']['check_id']}: {applied['result']}"
        lines.extend(_labelled(label, style, text, paint))
    for held in fix["not_applied"]:
        finding = held["finding"]
        text = f"{finding['check_id']} ({finding['fix_label']}): {held['reason']}"
        lines.extend(_labelled("left", "warning", text, paint))
    if "after" in fix:
        lines.append(f"    after: {_summary_of(fix['after'])}")
    return lines


def _labelled(label: str, style: str, text: str, paint: Callable[[str, str], str]) -> list[str]:
    """``label text`` wrapped to the report's width, the label painted, the rest hanging."""
    lines = textwrap.wrap(
        f"{label} {text}", width=WIDTH, initial_indent="    ", subsequent_indent="      "
    )
    lines[0] = lines[0].replace(label, paint(style, label), 1)
    return lines


def _summary_of(findings: list[dict[str, Any]]) -> str:
    return ", ".join(plural(n, s) for s, n in severity_counts(findings).items())


def _outcome(applied: dict[str, Any]) -> tuple[str, str]:
    """A fix's label and style: a refused fix is not "unchanged", it failed."""
    if applied["failed"]:
        return "failed", "error"
    return ("fixed", "ok") if applied["changed"] else ("unchanged", "warning")


def _finding_lines(finding: dict[str, Any], paint: Callable[[str, str], str]) -> list[str]:
    severity = finding["severity"]
    label = severity.upper().ljust(7)
    new = " [new]" if finding.get("baseline") == "new" else ""
    lines = textwrap.wrap(
        f"{label} {finding['title']} ({_place(finding)}){new}",
        width=WIDTH,
        initial_indent=INDENT,
        subsequent_indent=DETAIL_INDENT,
    )
    lines[0] = lines[0].replace(label, paint(severity, label), 1)
    lines.extend(
        textwrap.wrap(
            finding["message"],
            width=WIDTH,
            initial_indent=DETAIL_INDENT,
            subsequent_indent=DETAIL_INDENT,
        )
    )
    # The why stays in the JSON, JUnit and HTML reports; here, where and what to do next (for an
    # info, which only explains, the fix when there is one).
    if len(finding.get("occurrences", ())) > 1:
        lines.extend(_details("in: " + _actions_text(finding["occurrences"]), paint))
    if finding["fix_label"]:
        lines.extend(_details("fix: " + finding["fix_label"], paint))
    elif finding["no_fix_reason"] and severity != "info":
        lines.extend(_details("no automatic fix: " + finding["no_fix_reason"], paint))
    return lines


def _actions_text(occurrences: list[dict[str, Any]]) -> str:
    """The actions a scan finding showed in, worst first, with their frames, as many as one line
    holds ("Walk 10-19; Run 0, 22; and 3 more"): every one is in the JSON and HTML reports."""
    worst_first = sorted(occurrences, key=lambda o: -o["worst"])
    texts = [f"{o['action']} {runs_text(o['frames'])}" for o in worst_first]
    room = WIDTH - len(DETAIL_INDENT) - len("in: ") - len("; and 99 more")
    shown: list[str] = []
    for text in texts:
        if shown and len("; ".join([*shown, text])) > room:
            break
        shown.append(text)
    rest = len(texts) - len(shown)
    return "; ".join(shown) + (f"; and {rest} more" if rest else "")


def _details(text: str, paint: Callable[[str, str], str]) -> list[str]:
    return [
        paint("dim", line)
        for line in textwrap.wrap(
            text, width=WIDTH, initial_indent=DETAIL_INDENT, subsequent_indent=DETAIL_INDENT
        )
    ]


def _footer(files: list[dict[str, Any]], command: str) -> str:
    totals = summary(files)
    verb = "Checked" if command == "check" else "Fixed"
    text = (
        f"{verb} {plural(totals['files'], 'file')}, {plural(totals['armatures'], 'armature')}: "
        + ", ".join(plural(totals[s], s) for s in SEVERITIES)
        + (" left" if command == "fix" else "")
        + "."
    )
    if totals["waived"]:
        text += f" {totals['waived']} accepted on purpose."
    if "fixed" in totals:
        text += (
            f" Since the baseline: {totals['new']} new, {totals['unchanged']} unchanged, "
            f"{totals['fixed']} fixed."
        )
    if totals["without_armature"]:
        text += f" {plural(totals['without_armature'], 'file')} without an armature."
    if totals["unreadable"]:
        text += f" {plural(totals['unreadable'], 'file')} could not be read or checked."
    return text


def _painter(colour: bool) -> Callable[[str, str], str]:
    def paint(style: str, text: str) -> str:
        return f"\033[{COLOURS[style]}m{text}\033[0m" if colour else text

    return paint
