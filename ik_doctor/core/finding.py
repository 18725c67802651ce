"""A finding is a plain, immutable value: what a check found, why it matters, and how to fix it.

It names its fix by id and arguments, never by code, so the UI, the command line and the JSON
report can carry it around and hand it back to ``apply_fix``.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .rig import BoneChain, RigView


NESTED_IK = "nested_ik"
"""The ``cause`` arg of a finding whose IK sits inside another IK's chain: ``constraint_order``
finds the nesting, the animation scan proves the misses it causes, and the two are one fault."""
IK_LOCK, IK_LIMIT, STIFFNESS, ITERATIONS = "ik_lock", "ik_limit", "stiffness", "iterations"
"""The ``cause`` args of the settings a check reads and the scan proves by solving without them:
the locks check's and the solver check's findings carry them, with the axes and bones, so that
``core.scan_proofs`` joins the scan's proof of the same setting to them."""
NESTED_IK_REASON = (
    "which IK should move the shared bones is the rigger's decision: shorten one chain (its "
    "Chain Length) so they no longer overlap, or mute one"
)


class Severity(enum.StrEnum):
    """How badly a finding breaks IK: errors stop it, warnings degrade it, info only explains."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        """Sort key: errors first, in the order the members are declared (the one home of it)."""
        return list(Severity).index(self)


@dataclass(frozen=True)
class Series:
    """One measurement on every frame of an action from ``first_frame`` on, for a report's plot:
    the export scan's worst joint's distance from Blender's pose, as a share of the rig's size."""

    name: str
    """What is measured, as a person reads it: "BackLowLeg.L's tip"."""
    first_frame: int
    values: tuple[float, ...]
    """One per frame, rounded: a plot's worth, not a measurement to compare."""
    limit: float
    """The value above which a frame fails."""


@dataclass(frozen=True)
class Occurrence:
    """Where a fault showed while one action played: its frames, and the worst of them."""

    action: str
    frames: tuple[tuple[int, int], ...]
    """(first, last) runs of the frames the fault shows on."""
    worst_frame: int
    worst: float
    """The measurement on ``worst_frame``: a share of the chain's reach, or an angle (radians)
    for a one-bone aim and a bend; ``measured`` says which, in words."""
    measured: str
    """The worst measurement as a person reads it: "98.7° off its aim"."""
    series: Series | None = None
    """The measurement over the action's frames, for a plot: the export scan keeps one per
    finding, on its worst occurrence."""

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["frames"] = [list(pair) for pair in self.frames]
        if self.series is None:
            del data["series"]  # kept out of the report where there is none
        else:
            data["series"]["values"] = list(self.series.values)
        return data


@dataclass(frozen=True)
class Finding:
    """One problem on one armature, with the fix it offers or the reason none is safe."""

    check_id: str
    severity: Severity
    armature: str
    message: str
    why: str
    title: str
    """A few words naming the fault (``Pole behind the knee``): the panel's row, the reports'
    headline. ``message`` says it in full, with the measurement."""
    bone: str | None = None
    constraint: str | None = None
    chain: tuple[str, str] | None = None
    """(owner bone, IK constraint) of the chain this finding belongs to, for grouping."""
    fix_id: str | None = None
    fix_label: str | None = None
    fix_args: tuple[tuple[str, Any], ...] = field(default=())
    """What the fix and the scan's proofs read: never a mere measurement (``facts``)."""
    facts: tuple[tuple[str, Any], ...] = field(default=())
    """What ``message`` states, as data: the figures it measured (angles in degrees, shares of
    the reach), the bones and the case it names. For reports and tests; no fix reads them."""
    no_fix_reason: str | None = None
    changes_rest_pose: bool = False
    """The fix edits bones in Edit Mode, which changes the bind of any mesh the rig deforms."""
    needs_confirmation: bool = False
    """The fix throws something away (keys, a constraint's effect): ask the user first."""
    action: str | None = None
    """The action whose frames show the fault (``scan_animation``); None for the rig as it is."""
    frames: tuple[tuple[int, int], ...] = ()
    """The frame ranges (first, last) of ``action`` where the fault shows."""
    occurrences: tuple[Occurrence, ...] = ()
    """Every action the animation scan saw this fault in (``action`` is the worst of them), or
    that proved a check's finding by solving: nothing the scan measured is dropped by grouping."""

    @property
    def key(self) -> tuple[Any, ...]:
        """Identity across passes: the same fault on the same place, whatever its numbers."""
        place = (self.check_id, self.armature, self.bone, self.constraint, self.fix_id)
        if self.action is None:
            return place
        # The scan names the problem and its proved cause in its args; the frame is a number.
        return (*place, *((k, v) for k, v in self.fix_args if k != "worst_frame"))

    @property
    def args(self) -> dict[str, Any]:
        return dict(self.fix_args)

    @property
    def stated(self) -> dict[str, Any]:
        """``facts`` by name."""
        return dict(self.facts)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; the command line and reports serialise findings through this."""
        data = asdict(self)
        data["severity"] = self.severity.value
        data["chain"] = (
            {"owner": self.chain[0], "constraint": self.chain[1]} if self.chain else None
        )
        data["fix_args"] = {key: value for key, value in self.fix_args}
        data["facts"] = dict(self.facts)
        data["frames"] = [list(pair) for pair in self.frames]
        data["occurrences"] = [occurrence.to_dict() for occurrence in self.occurrences]
        return data


def chain_finding(
    check_id: str,
    rig: RigView,
    chain: BoneChain,
    bone: str | None = None,
    constraint: str | None = None,
    **fields: Any,
) -> Finding:
    """A finding about a chain: it stands on the owner bone and constraint of the IK (or Spline
    IK), or on the chain bone or other constraint named when that one is at fault."""
    return Finding(
        check_id=check_id,
        armature=rig.name,
        bone=chain.owner if bone is None else bone,
        constraint=chain.constraint if constraint is None else constraint,
        chain=chain.key,
        **fields,
    )


def runs_text(runs: Iterable[tuple[int, int]]) -> str:
    """Frame runs as people write them: ((1, 3), (7, 7)) is "1-3, 7"."""
    return ", ".join(str(first) if first == last else f"{first}-{last}" for first, last in runs)


def worst_of(occurrences: Sequence[Occurrence]) -> Occurrence:
    """The occurrence measured worst: what a report leads with and Select jumps to."""
    return max(occurrences, key=lambda o: o.worst)


def occurrences_text(occurrences: Sequence[Occurrence]) -> str:
    """Where a fault showed, worst first: "in 'Walk' on frames 1-12, worst on frame 3 (...)",
    or for several actions "in 17 actions, worst on frame 27 of 'Walk-cycle' (...)"."""
    worst = worst_of(occurrences)
    if len(occurrences) == 1:
        return (
            f"in '{worst.action}' on frames {runs_text(worst.frames)}, worst on frame "
            f"{worst.worst_frame} ({worst.measured})"
        )
    return (
        f"in {len(occurrences)} actions, worst on frame {worst.worst_frame} of "
        f"'{worst.action}' ({worst.measured})"
    )


def sort_findings(findings: list[Finding]) -> list[Finding]:
    """Order findings by chain, the chains with the worst findings first, then by severity, so a
    report reads limb by limb and its first rows are the ones that break a limb."""
    worst: dict[tuple[str, str] | None, int] = {}
    for f in findings:
        worst[f.chain] = min(worst.get(f.chain, f.severity.rank), f.severity.rank)
    return sorted(findings, key=lambda f: (worst[f.chain], *limb_order(f)))


def limb_order(finding: Finding) -> tuple[Any, ...]:
    """Chain by chain by name, the rig-wide ones last, then severity: an order that does not
    move when another chain's findings change, which the fix runner's choice among equals needs."""
    return (
        finding.chain is None,
        finding.chain or ("", ""),
        finding.severity.rank,
        finding.check_id,
        finding.bone or "",
        finding.message,
    )


def lowered(
    findings: list[Finding], reason: str, fact: tuple[str, Any], when: Callable[[Finding], bool]
) -> list[Finding]:
    """The errors ``when`` picks made warnings, with the measured reason the chain lands all the
    same appended and named in a fact: the fault is still there, the chain still works. A reason
    that the chain lands begins "But": the message before it says what the fault does to a limb
    without that reason, and read on without the turn, "stops short … it lands" contradicts."""
    return [
        replace(f, severity=Severity.WARNING, message=f.message + reason, facts=(*f.facts, fact))
        if f.severity == Severity.ERROR and when(f)
        else f
        for f in findings
    ]


@dataclass(frozen=True)
class FixResult:
    """What one fix did. Code reads ``changed``, ``failed`` and ``touched``; ``sentence`` is for
    people, and is what ``apply_fix`` returns."""

    finding: Finding
    changed: bool
    sentence: str
    touched: tuple[str, ...] = ()
    """The bone and constraint the fix acted on; empty when nothing changed."""
    failed: bool = False
    """The fix refused (``FixError``); ``sentence`` says why."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: the command line's ``applied`` entries and the demo's."""
        return {
            "finding": self.finding.to_dict(),
            "result": self.sentence,
            "changed": self.changed,
            "failed": self.failed,
            "touched": list(self.touched),
        }
