"""The check registry: the table of checks, filled by whoever holds them.

Every module in ``ik_doctor.checks`` registers one ``Check`` when imported (a verification
module may register its own). The core never imports them, as nothing imports a layer above
it: code that needs every check imports ``ik_doctor.checks`` first, as ``ik_doctor.doctor``
(``diagnose``, ``apply_fix``) does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import bpy

    from .finding import Finding
    from .rig import RigView

FindFunction = Callable[["RigView", Mapping[str, Any]], Iterable["Finding"]]
FixFunction = Callable[["bpy.types.Object", "Finding"], str]
RefindFunction = Callable[["bpy.types.Object", "Finding"], "Finding | None"]


@dataclass(frozen=True)
class Check:
    """A named diagnosis: reads a rig view, yields findings, and owns the fixes it offers."""

    id: str
    title: str
    doc: str
    find: FindFunction
    fixes: Mapping[str, FixFunction] = field(default_factory=dict)
    options: Mapping[str, float] = field(default_factory=dict)
    """Tunable thresholds with their defaults (shown in the add-on preferences)."""
    order: int = 100
    """Fix All applies fixes in this order: structure (parents, targets) before angles."""
    refind: RefindFunction | None = None
    """How ``apply_fix`` finds this check's fault again before fixing it, for findings that
    ``diagnose`` does not make (the animation scan solves); None: diagnose again."""

    def options_with(self, overrides: Mapping[str, Any] | None) -> dict[str, Any]:
        merged = dict(self.options)
        if overrides:
            merged.update({k: v for k, v in overrides.items() if k in self.options})
        return merged

    def findings_on(self, rig: RigView, settings: Mapping[str, Any]) -> list[Finding]:
        """This check's findings on one pass's rig, found once per settings: ``diagnose`` and a
        check that weighs the others' findings (``symmetry``) share one run."""
        key = ("findings", self.id, tuple(sorted(settings.items())))
        return rig.remember(key, lambda: list(self.find(rig, settings)))


_CHECKS: dict[str, Check] = {}


def register(check: Check) -> Check:
    """Add a check; a second check with the same id is a programming error."""
    existing = _CHECKS.get(check.id)
    if existing is not None and existing.find.__module__ != check.find.__module__:
        raise ValueError(f"two checks claim the id {check.id!r}")
    _CHECKS[check.id] = check
    return check


def all_checks() -> list[Check]:
    """Every registered check, in fix order (then by id, for stable reports)."""
    return sorted(_CHECKS.values(), key=lambda c: (c.order, c.id))


def get_check(check_id: str) -> Check:
    try:
        return _CHECKS[check_id]
    except KeyError:
        known = ", ".join(sorted(_CHECKS))
        raise KeyError(f"no check with id {check_id!r} (known: {known})") from None
