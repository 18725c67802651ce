"""Reading the per-file results the workers send back: counts, what fails a run, exit codes.

Every report format (text, JSON, JUnit, HTML) and the exit code read the results through
these functions, so they agree on what "an error left" means.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from ..core.finding import Severity

SEVERITIES = tuple(severity.value for severity in Severity)
"""Worst first, in the order ``Severity`` declares them (its one home)."""
EXIT_CLEAN, EXIT_FINDINGS, EXIT_TROUBLE = 0, 1, 2
DEFAULT_FAIL_ON = "error"
"""The threshold when neither --fail-on nor a project's settings choose one."""
ANIMATION_CHECK = "verify"
"""The check id of the animation scan's findings (``--animation``): not one ``diagnose`` runs."""
EXPORT_CHECK = "export"
"""The check id of the export scan's findings (``--export``), known here without ``bpy``."""
TROUBLE = ("unreadable", "failed")
"""File statuses that mean the tool could not do its job on that file: exit code 2."""


def current_findings(armature: dict[str, Any]) -> list[dict[str, Any]]:
    """The findings the rig has now: after fixing for ``fix``, as found for ``check``."""
    fix = armature.get("fix")
    if fix is not None and "after" in fix:
        return fix["after"]
    return armature["findings"]


def current_waived(armature: dict[str, Any]) -> list[dict[str, Any]]:
    """The findings accepted on purpose, each ``{"finding", "reason"}``, as ``current_findings``
    picks: after fixing for ``fix``."""
    fix = armature.get("fix")
    if fix is not None and "after" in fix:
        return fix.get("waived_after", [])
    return armature.get("waived", [])


def all_current_findings(files: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for file in files:
        for armature in file["armatures"]:
            yield from current_findings(armature)


def counts_toward_failure(finding: dict[str, Any], fail_on: str) -> bool:
    """Whether a finding fails the run: at or above ``fail_on``, and not one a baseline already
    had (``--baseline``: only new findings fail). Waived findings are not in the findings."""
    return at_or_above(finding["severity"], fail_on) and finding.get("baseline") != "unchanged"


def fail_on_of(file: dict[str, Any], fail_on: str) -> str:
    """The threshold a file is judged by: its project's ``fail-on`` unless --fail-on was given."""
    return str(file.get("fail_on") or fail_on)


def at_or_above(severity: str, threshold: str) -> bool:
    return SEVERITIES.index(severity) <= SEVERITIES.index(threshold)


def severity_counts(findings: Iterable[dict[str, Any]]) -> dict[str, int]:
    counts = dict.fromkeys(SEVERITIES, 0)
    for finding in findings:
        counts[finding["severity"]] += 1
    return counts


def summary(files: list[dict[str, Any]]) -> dict[str, int]:
    """Totals for the report footer and the JSON ``summary``: waived findings apart from the
    severities, and with a baseline how many findings are new, unchanged and fixed."""
    armatures = [armature for file in files for armature in file["armatures"]]
    totals = {
        "files": len(files),
        "unreadable": sum(f["status"] in TROUBLE for f in files),
        "without_armature": sum(f["status"] == "no_armature" for f in files),
        "armatures": len(armatures),
        **severity_counts(all_current_findings(files)),
        "waived": sum(len(current_waived(armature)) for armature in armatures),
    }
    if any("fixed" in armature for armature in armatures):
        found = list(all_current_findings(files))
        totals["new"] = sum(finding.get("baseline") == "new" for finding in found)
        totals["unchanged"] = sum(finding.get("baseline") == "unchanged" for finding in found)
        totals["fixed"] = sum(len(armature.get("fixed", [])) for armature in armatures)
    return totals


def exit_code(files: list[dict[str, Any]], fail_on: str) -> int:
    """2 when a file could not be read or checked, else 1 when a finding reaches ``fail_on``
    (a file's own project ``fail-on`` when it has one and --fail-on was not given)."""
    if any(f["status"] in TROUBLE for f in files):
        return EXIT_TROUBLE
    for file in files:
        threshold = fail_on_of(file, fail_on)
        for armature in file["armatures"]:
            if any(counts_toward_failure(f, threshold) for f in current_findings(armature)):
                return EXIT_FINDINGS
    return EXIT_CLEAN


def armature_named_nowhere(files: list[dict[str, Any]], armature: str | None) -> bool:
    """``--armature NAME`` and no file read has an armature NAME: a mistake, not a clean run."""
    read = [file for file in files if file["status"] not in TROUBLE]
    return armature is not None and bool(read) and not any(file["armatures"] for file in read)


def failed_without_armature(files: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every file without the armature asked for, as failed: all reports and the exit code say 2.

    Each file's ``problem`` already names the armatures it has.
    """
    return [{**f, "status": "failed"} if f["status"] == "no_armature" else f for f in files]


def by_chain(
    findings: Iterable[dict[str, Any]],
) -> list[tuple[tuple[str, str] | None, list[dict[str, Any]]]]:
    """Group findings by chain (owner, constraint), keeping the order they came in."""
    groups: dict[tuple[str, str] | None, list[dict[str, Any]]] = {}
    for finding in findings:
        chain = finding.get("chain")
        key = (chain["owner"], chain["constraint"]) if chain else None
        groups.setdefault(key, []).append(finding)
    return list(groups.items())


def plural(count: int, word: str) -> str:
    if word == "info":
        return f"{count} info"
    return f"{count} {word}" + ("" if count == 1 else "s")
