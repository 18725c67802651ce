"""A finding is a plain, immutable value: what a check found, why it matters, and how to fix it.

It names its fix by id and arguments, never by code, so the UI, the command line and the JSON
report can carry it around and hand it back to ``apply_fix``.
"""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, field
from typing import Any


class Severity(enum.StrEnum):
    """How badly a finding breaks IK: errors stop it, warnings degrade it, info only explains."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        """Sort key: errors first."""
        return ("error", "warning", "info").index(self.value)


@dataclass(frozen=True)
class Finding:
    """One problem on one armature, with the fix it offers or the reason none is safe."""

    check_id: str
    severity: Severity
    armature: str
    message: str
    why: str
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

    @property
    def key(self) -> tuple[str, str, str | None, str | None, str | None]:
        """Identity across passes: the same fault on the same place, whatever its numbers."""
        return (self.check_id, self.armature, self.bone, self.constraint, self.fix_id)

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
        return data


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
