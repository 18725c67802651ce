"""The animation scan's findings: one per chain, fault and proved cause, over every action.

A walk, a run and an idle that all miss for the same IK lock are one fault for the person who
fixes it, not three: the scan hands each fault it saw in each action here (``Shown``), and one
finding comes out per chain, problem and cause, listing every action with its frames and worst
frame (``Finding.occurrences``), its message leading with the worst.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..core.finding import (
    Finding,
    Occurrence,
    Severity,
    chain_finding,
    occurrences_text,
    worst_of,
)
from ..core.rig import IKChain, RigView

CHECK_ID = "verify"


@dataclass(frozen=True)
class Suspect:
    """One setting that may stop a chain reaching, and the fix that removes it."""

    kind: str
    """Which kind of setting (``ik_lock``, ``nested_ik``...): with ``fix_args``, its identity in
    the finding's args, and what a check's finding on the same cause is matched by."""
    label: str
    """What it is, as the finding names it: "its IK lock on Z (BackLowLeg.R)"."""
    title: str
    """The miss it causes, in a few words: the finding's title."""
    changes: tuple[tuple[Any, str, Any], ...]
    """(owner, attribute, value) that remove it for a solve."""
    fix_id: str | None
    fix_label: str | None
    fix_args: tuple[tuple[str, Any], ...] = ()
    no_fix_reason: str | None = None
    """Without a fix: whose it is to change (the rigger's or the animator's), and how."""
    per_frame: bool = False
    """Keyed channels: set again after every frame change."""
    needs_confirmation: bool = False


UNEXPLAINED = Suspect(
    kind="unknown",
    label="",
    title="Misses, cause unknown",
    changes=(),
    fix_id=None,
    fix_label=None,
    no_fix_reason="no single setting explains it (each suspect was solved without)",
)
"""What a miss no suspect explains is put down to: nothing to change, no fix to offer."""


@dataclass(frozen=True)
class Shown:
    """One fault of one chain, seen while one action played."""

    chain: IKChain
    problem: str
    occurrence: Occurrence
    cause: Suspect | None = None
    """For a miss: the setting proved to cause it, or ``UNEXPLAINED``."""
    proof_frames: int = 0
    """For a miss: how many of its worst frames were solved again to prove the cause."""

    @property
    def group(self) -> tuple[Any, ...]:
        """What makes two actions' faults one: the chain, the problem and the proved cause."""
        return (self.chain.key, *_identity(self))


@dataclass(frozen=True)
class Problem:
    """How the scan words one kind of fault that is not a miss."""

    severity: Severity
    title: str
    what: str
    why: str
    no_fix_reason: str


PROBLEMS = {
    "beyond_reach": Problem(
        Severity.WARNING,
        "Target keyed out of reach",
        "has its target keyed beyond the chain's reach",
        "Out of reach, IK straightens the limb and points it at the target: the limb snaps "
        "straight and the tip stops short.",
        "the keys are the animator's: key the control within reach, or ask the rigger for IK "
        "Stretch if the limb may stretch",
    ),
    "away_from_pole": Problem(
        Severity.ERROR,
        "Bends away from pole",
        "bends away from its pole",
        "The joint points away from the pole there although the limb rests bent toward it: the "
        "knee or elbow pops backwards on those frames.",
        "no single setting explains it: key the pole along with the control, or ask the rigger "
        "to check the pole angle",
    ),
    "flip": Problem(
        Severity.WARNING,
        "Bend flips",
        "flips its bend between one frame and the next",
        "The joint swings more than 90° about the root-target line in one frame: the target "
        "passes near the line from the root to the pole, where the bend plane is undecided.",
        "the keys are the animator's: move the pole further out or key it along",
    ),
    "half_switch": Problem(
        Severity.WARNING,
        "Switch keyed halfway",
        "leaves its tip between FK and IK",
        "The IK's influence is between 0 and 1 on those frames, so the tip lands between where "
        "FK puts it and the target: a switch keyed half-way.",
        "the keys are the animator's: key the IK's influence at 0 or 1 on those frames",
    ),
}


def scan_findings(rig: RigView, shown: Iterable[Shown]) -> list[Finding]:
    """One finding per chain, problem and cause, over every action that showed it."""
    groups: dict[tuple[Any, ...], list[Shown]] = {}
    for item in shown:
        groups.setdefault(item.group, []).append(item)
    return [_finding(rig, items) for items in groups.values()]


def _identity(shown: Shown) -> tuple[tuple[str, Any], ...]:
    """The finding's args: the problem, and for a miss its cause and the cause's own args."""
    if shown.cause is None:
        return (("problem", shown.problem),)
    return (("problem", shown.problem), ("cause", shown.cause.kind), *shown.cause.fix_args)


def _finding(rig: RigView, items: list[Shown]) -> Finding:
    first = items[0]
    chain = first.chain
    occurrences = tuple(item.occurrence for item in items)
    worst = worst_of(occurrences)
    subject = f"IK '{chain.constraint}' on {chain.owner}"
    fields: dict[str, Any]
    if first.cause is None:
        problem = PROBLEMS[first.problem]
        fields = {
            "severity": problem.severity,
            "title": problem.title,
            "message": f"{subject} {problem.what}: {occurrences_text(occurrences)}.",
            "why": problem.why,
            "no_fix_reason": problem.no_fix_reason,
        }
    else:
        fields = _miss_fields(subject, first.cause, occurrences, sum(i.proof_frames for i in items))
    return chain_finding(
        CHECK_ID,
        rig,
        chain,
        action=worst.action,
        frames=worst.frames,
        occurrences=occurrences,
        fix_args=(*_identity(first), ("worst_frame", worst.worst_frame)),
        **fields,
    )


def _miss_fields(
    subject: str, cause: Suspect, occurrences: tuple[Occurrence, ...], proof_frames: int
) -> dict[str, Any]:
    where = occurrences_text(occurrences)
    if cause is UNEXPLAINED:
        message = (
            f"{subject} misses a target within reach, and no single setting explains it: {where}."
        )
        why = (
            "The control was keyed where the chain can reach it, and the solver leaves the tip "
            "off it. Solving those frames again without each of the chain's IK locks, limits, "
            "stiffness, iterations, stretch, overriding constraints and keyed start rotation did "
            "not make it land."
        )
    else:
        message = f"{subject} misses a target within reach because of {cause.label}: {where}."
        why = (
            f"Solved again without {cause.label} on the {proof_frames} worst of those frames, "
            "the tip lands on the target on every one: that setting keeps the chain from the "
            "pose that was keyed."
        )
    return {
        "severity": Severity.ERROR,
        "title": cause.title,
        "message": message,
        "why": why,
        "fix_id": cause.fix_id,
        "fix_label": cause.fix_label,
        "no_fix_reason": None if cause.fix_id else cause.no_fix_reason,
        "needs_confirmation": cause.needs_confirmation,
    }
