"""Waivers kept in the .blend, on the armature object, as data (a JSON list in the custom
property ``ik_doctor_waivers``), never as code.

Measured on bpy 4.2, 4.5 and 5.3: a custom property of the object and one of its armature data
both survive save and reopen, linking and appending the object or its collection, and saving
and reopening the file they were linked or appended into. The object is chosen because the
findings are the object's: constraints live on its pose bones, and two objects sharing one
armature data (Alt+D) share a custom property of the data, so a waiver there would accept a
fault on a rig that does not have it. A linked object takes a new custom property in memory,
but the file that links it never saves it, so a linked (or overridden) rig refuses a waiver, as
it refuses a fix: accept it in the file it comes from.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable

import bpy

from .editing import FixError, ensure_editable
from .finding import Finding
from .names import find
from .waivers import MAX_REASON, STALE_CHECK, Waiver, parsed, place_of

PROPERTY = "ik_doctor_waivers"
MAX_WAIVERS = 1000
"""More than a rig has findings: a file holding more cannot flood every report with stale ones."""


def waivers_of(obj: bpy.types.Object) -> list[Waiver]:
    """The waivers stored on an armature object; entries that are not waivers are skipped
    (a file from anywhere may hold anything there)."""
    try:
        text = obj.get(PROPERTY)  # type: ignore[func-returns-value]  # the stub says None
    except (TypeError, UnicodeDecodeError):
        return []
    if not isinstance(text, str):
        return []
    try:
        entries = json.loads(text)
    except (ValueError, RecursionError):
        return []
    if not isinstance(entries, list):
        return []
    found = (waiver for waiver in map(parsed, entries) if waiver is not None)
    return list(itertools.islice(found, MAX_WAIVERS))


def waive(finding: Finding, reason: str) -> Waiver:
    """Accept ``finding`` on purpose, for ``reason``, in the armature object it is on.

    Raises ``ValueError`` for an empty reason or a stale waiver's finding, ``FixError`` when
    the armature is gone or linked (a linked rig is accepted in the file it comes from).
    Waiving the same place again replaces its reason.
    """
    reason = " ".join(str(reason).split())[:MAX_REASON]
    if not reason:
        raise ValueError("A waiver needs a reason: say why this fault is intended.")
    if finding.check_id == STALE_CHECK:
        raise ValueError("This finding reports a waiver whose fault is gone: unwaive it.")
    obj = _armature_of(finding)
    check_id, bone, constraint, why = place_of(finding)
    waiver = Waiver(check_id, bone, constraint, why, reason, finding.title)
    kept = [w for w in waivers_of(obj) if w.place != waiver.place]
    _store(obj, [*kept, waiver])
    return waiver


def unwaive(finding: Finding) -> bool:
    """Take back the waiver of ``finding`` (a waived finding, or a stale waiver's finding);
    whether there was one. Raises ``FixError`` as ``waive`` does."""
    obj = _armature_of(finding)
    place = place_of(finding)
    stored = waivers_of(obj)
    kept = [waiver for waiver in stored if waiver.place != place]
    if len(kept) == len(stored):
        return False
    _store(obj, kept)
    return True


def _armature_of(finding: Finding) -> bpy.types.Object:
    obj = find(bpy.data.objects, finding.armature)
    if obj is None or obj.type != "ARMATURE":
        raise FixError(
            f"There is no armature object named '{finding.armature}' any more.", cause="gone"
        )
    ensure_editable(obj)
    return obj


def _store(obj: bpy.types.Object, waivers: list[Waiver]) -> None:
    if waivers:
        obj[PROPERTY] = json.dumps([waiver.to_dict() for waiver in waivers])
    elif PROPERTY in obj:  # type: ignore[operator]  # the stub has no __contains__
        del obj[PROPERTY]


def accepted_on(obj: bpy.types.Object) -> Callable[[Finding], bool]:
    """Whether a finding is accepted on purpose on ``obj``: what no Fix All may touch."""
    places = {waiver.place for waiver in waivers_of(obj)}
    return lambda finding: place_of(finding) in places
