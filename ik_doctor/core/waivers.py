"""Faults accepted on purpose: a waiver says "this finding is known and intended, because ...".

This module is the waiver as data and how it matches findings, without ``bpy`` (the command
line's main process reads reports with it); ``waiver_store`` keeps waivers in the .blend.

A waiver matches its finding by place and cause, never by message words: the check, the bone,
the constraint and the cause (the fix the finding offers, and for the animation scan the problem
it proved). The armature is the object the waiver is stored on, so a rig appended under a new
name ("Rig.001") keeps its waivers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .finding import Finding, Severity, sort_findings

STALE_CHECK = "waiver"
"""The check id of the finding that reports a waiver whose fault is gone."""
MAX_REASON = 1000
"""A reason is a sentence: longer text is cut, so a file cannot make every report huge."""

Place = tuple[str, str | None, str | None, str | None]
"""(check id, bone, constraint, cause): what a waiver and a baseline match a finding by."""


@dataclass(frozen=True)
class Waiver:
    """One accepted fault on one armature object, and the reason a person gave for it."""

    check_id: str
    bone: str | None
    constraint: str | None
    cause: str | None
    reason: str
    title: str = ""
    """The finding's title when it was accepted: what a stale waiver's report names."""

    @property
    def place(self) -> Place:
        return (self.check_id, self.bone, self.constraint, self.cause)

    def to_dict(self) -> dict[str, Any]:
        return {
            "check_id": self.check_id,
            "bone": self.bone,
            "constraint": self.constraint,
            "cause": self.cause,
            "reason": self.reason,
            "title": self.title,
        }


@dataclass(frozen=True)
class Sorted:
    """A pass's findings with the armature's waivers applied."""

    active: list[Finding]
    """The findings no waiver accepts, and one info finding per stale waiver."""
    waived: list[tuple[Finding, Waiver]] = field(default_factory=list)


def cause(fix_id: str | None, args: Mapping[str, Any]) -> str | None:
    """A finding's cause: the fix it offers, and the animation scan's problem and the cause it
    proved (its ``problem`` and ``cause`` args), never the action or frames it showed in."""
    parts = [part for part in (fix_id, args.get("problem"), args.get("cause")) if part]
    return "/".join(str(part) for part in parts) or None


def place_of(finding: Finding) -> Place:
    """The place and cause of a finding; a stale waiver's finding stands for its waiver."""
    if finding.check_id == STALE_CHECK:
        args = finding.args
        return (args.get("check_id", ""), finding.bone, finding.constraint, args.get("cause"))
    return (finding.check_id, finding.bone, finding.constraint, cause(finding.fix_id, finding.args))


def place_of_dict(data: Mapping[str, Any]) -> Place:
    """``place_of`` for a finding as the JSON report holds it (a baseline's findings)."""
    args = data.get("fix_args") or {}
    args = args if isinstance(args, dict) else {}
    return (
        str(data.get("check_id", "")),
        _text(data.get("bone")),
        _text(data.get("constraint")),
        cause(_text(data.get("fix_id")), args),
    )


def apply_waivers(
    findings: Iterable[Finding], waivers: list[Waiver], armature: str, checks_run: Iterable[str]
) -> Sorted:
    """Set aside the findings a waiver accepts; a waiver of a check that ran and found nothing
    there is stale, reported as an info finding (a check that did not run proves nothing)."""
    by_place = {waiver.place: waiver for waiver in waivers}
    active: list[Finding] = []
    waived: list[tuple[Finding, Waiver]] = []
    matched: set[Place] = set()
    for finding in findings:
        waiver = by_place.get(place_of(finding))
        if waiver is None:
            active.append(finding)
        else:
            waived.append((finding, waiver))
            matched.add(waiver.place)
    ran = set(checks_run)
    stale = [
        stale_finding(waiver, armature)
        for waiver in waivers
        if waiver.place not in matched and waiver.check_id in ran
    ]
    return Sorted(sort_findings(active + stale), waived)


def stale_finding(waiver: Waiver, armature: str) -> Finding:
    """The info finding that says a waiver accepts a fault no longer there."""
    where = " on ".join(filter(None, (waiver.title or waiver.check_id, waiver.bone)))
    return Finding(
        check_id=STALE_CHECK,
        severity=Severity.INFO,
        armature=armature,
        title="Accepted fault gone",
        message=f"'{where}' was accepted ({waiver.reason}), but {waiver.check_id} no longer "
        "finds it: take the acceptance back.",
        why="A waiver left behind would silently accept the fault if it came back.",
        bone=waiver.bone,
        constraint=waiver.constraint,
        fix_args=(("check_id", waiver.check_id), ("cause", waiver.cause)),
        no_fix_reason="unwaive it (the panel's accepted list, or ik_doctor.unwaive)",
    )


def with_reason(finding: Finding, waiver: Waiver) -> dict[str, Any]:
    """A waived finding as the reports carry it: the finding, and why it was accepted."""
    return {"finding": finding.to_dict(), "reason": waiver.reason}


def parsed(entry: Any) -> Waiver | None:
    if not isinstance(entry, dict) or not isinstance(entry.get("check_id"), str):
        return None
    reason = entry.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        return None
    return Waiver(
        check_id=entry["check_id"],
        bone=_text(entry.get("bone")),
        constraint=_text(entry.get("constraint")),
        cause=_text(entry.get("cause")),
        reason=reason[:MAX_REASON],
        title=(_text(entry.get("title")) or "")[:MAX_REASON],
    )


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None
