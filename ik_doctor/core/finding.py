"""A finding is a plain, immutable value: what a check found, why it matters, and how to fix it.

It names its fix by id and arguments, never by code, so the UI, the command line and the JSON
report can carry it around and hand it back to ``apply_fix``.
"""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .rig import BoneChain, RigView


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
    no_fix_reason: str | None = None
    changes_rest_pose: bool = False
    """The fix edits bones in Edit Mode, which changes the bind of any mesh the rig deforms."""
    needs_confirmation: bool = False
    """The fix throws something away (keys, a constraint's effect): ask the user first."""
    action: str | None = None
    """The action whose frames show the fault (``scan_animation``); None for the rig as it is."""
    frames: tuple[tuple[int, int], ...] = ()
    """The frame ranges (first, last) of ``action`` where the fault shows."""

    @property
    def key(self) -> tuple[Any, ...]:
        """Identity across passes: the same fault on the same place, whatever its numbers."""
        place = (self.check_id, self.armature, self.bone, self.constraint, self.fix_id)
        # One chain in one action can show several problems: the scan names each in its args.
        return place if self.action is None else (*place, self.action, self.args.get("problem"))

    @property
    def args(self) -> dict[str, Any]:
        return dict(self.fix_args)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; the command line and reports serialise findings through this."""
        data = asdict(self)
        data["severity"] = self.severity.value
        data["chain"] = (
            {"owner": self.chain[0], "constraint": self.chain[1]} if self.chain else None
        )
        data["fix_args"] = {key: value for key, value in self.fix_args}
        data["frames"] = [list(pair) for pair in self.frames]
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


def sort_findings(findings: list[Finding]) -> list[Finding]:
    """Order findings by chain, then severity, so a report reads limb by limb."""
    return sorted(
        findings,
        key=lambda f: (
            f.chain is None,
            f.chain or ("", ""),
            f.severity.rank,
            f.check_id,
            f.bone or "",
            f.message,
        ),
    )


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
