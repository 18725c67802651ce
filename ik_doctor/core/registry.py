"""The check registry: the table of checks, handed to it by the layer that holds them all.

A check is a value (each check module's ``CHECK``), not the side effect of an import, so the
table does not depend on what happened to be imported first. The core never imports the
checks, as nothing imports a layer above it: the package's top (``ik_doctor.plugins``) hands
the registry a collector (``collect_with``), which runs once, on the first question asked.
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
        check that weighs the others' findings (``symmetry``) share one run. Here, for every
        check, a fix that a driver or keys would undo is withheld (``core.driven``), and an
        error on an IK switched off as one half of a switch is made a warning (``core.limb``)."""
        from .driven import withheld_where_driven  # reads bpy: not at ``import ik_doctor``
        from .switches import lowered_where_switched_off

        def found() -> list[Finding]:
            return [
                lowered_where_switched_off(rig, withheld_where_driven(rig, finding))
                for finding in self.find(rig, settings)
            ]

        return rig.remember(("findings", self.id, tuple(sorted(settings.items()))), found)


Collector = Callable[[], Iterable[Check]]

_collector: Collector | None = None
_checks: dict[str, Check] | None = None


def collect_with(collector: Collector) -> None:
    """Hand the registry what collects every check; it runs on first use (and again only
    after another collector is handed)."""
    global _collector, _checks
    _collector, _checks = collector, None


def _table() -> dict[str, Check]:
    global _checks
    if _checks is None:
        if _collector is None:
            raise RuntimeError("no checks were handed to the registry (import ik_doctor first)")
        _checks = by_id(_collector())
    return _checks


def by_id(checks: Iterable[Check]) -> dict[str, Check]:
    """The checks by id; two checks with one id is a programming error."""
    table: dict[str, Check] = {}
    for check in checks:
        if check.id in table:
            raise ValueError(f"two checks claim the id {check.id!r}")
        table[check.id] = check
    return table


def all_checks() -> list[Check]:
    """Every check, in fix order (then by id, for stable reports)."""
    return sorted(_table().values(), key=lambda c: (c.order, c.id))


def get_check(check_id: str) -> Check:
    checks = _table()
    try:
        return checks[check_id]
    except KeyError:
        known = ", ".join(sorted(checks))
        raise KeyError(f"no check with id {check_id!r} (known: {known})") from None
