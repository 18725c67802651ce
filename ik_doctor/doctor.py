"""The two doors: ``diagnose`` an armature with every check, ``apply_fix`` one finding.

They stand above the checks but import none: they ask the registry, which the package's top
hands every check (``ik_doctor.plugins``), this package's and other packages'.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import bpy

from .core.editing import (
    FixError,
    current_view_layer,
    ensure_editable,
    require_armature,
    unset_rest_lengths_kept,
)
from .core.finding import Finding, FixResult, sort_findings
from .core.fix_policy import FixPermission
from .core.fix_runner import MAX_FIXES, run_fixes
from .core.names import SAVED_AS_BYTES, find, has_unreadable, readable
from .core.registry import all_checks, get_check
from .core.rig import RigView
from .core.scan_proofs import with_scan_proofs
from .core.spline import spline_chains


def diagnose(
    obj: bpy.types.Object,
    checks: Iterable[str] | None = None,
    options: Mapping[str, Mapping[str, Any]] | None = None,
) -> list[Finding]:
    """Run the checks (all, or the ids given) over one armature and return their findings.

    ``options`` overrides check thresholds: ``{"roll": {"max_angle": 10.0}}``. No mode
    switch, no depsgraph evaluation, no change to the rig. One write: in Edit Mode the edit
    bones are copied into the armature's bones first (``update_from_editmode``, what leaving
    Edit Mode does), since the checks read those and the user sees these.
    """
    require_armature(obj)
    wanted = None if checks is None else set(checks)
    if wanted is not None:
        for check_id in wanted:
            get_check(check_id)
    if obj.mode == "EDIT":
        # Edit bones reach ``obj.data.bones`` only on leaving Edit Mode; read what the user sees.
        obj.update_from_editmode()
    if obj.pose is None:
        # A new armature has no pose until its first evaluation, so no IK constraint yet.
        return []
    rig = RigView(obj)
    findings: list[Finding] = []
    with _cycle_collector_paused():
        for check in all_checks():
            if wanted is None or check.id in wanted:
                settings = check.options_with((options or {}).get(check.id))
                findings.extend(check.findings_on(rig, settings))
    return sort_findings(findings)


@contextmanager
def _cycle_collector_paused() -> Iterator[None]:
    """Hold Python's cycle collector while a pass builds its view of the rig.

    A pass makes no reference cycles worth collecting, but allocates enough objects to trigger
    full collections, each of which scans every object in Blender's Python: on a 20,000-bone
    rig that was a tenth of the pass, growing faster than the rig. Reference counting still
    frees everything; the collector runs again as before afterwards.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def apply_fix(finding: Finding, options: Mapping[str, Any] | None = None) -> str:
    """Apply the fix a finding offers; return one sentence saying what changed.

    The fault is looked up again first: if it is gone, nothing is changed and the sentence says
    so, which makes every fix safe to run twice. Raises ``FixError`` when no fix can be applied.
    """
    return run_fix(finding, options).sentence


def run_fix(finding: Finding, options: Mapping[str, Any] | None = None) -> FixResult:
    """``apply_fix`` for code: the result says whether anything changed, and where."""
    if not isinstance(finding, Finding):
        raise FixError(f"Expected a Finding, got {type(finding).__name__}.")
    if finding.fix_id is None:
        reason = finding.no_fix_reason or "this check offers no automatic fix"
        raise FixError(f"No automatic fix for '{finding.message}': {reason}", cause="no_fix")
    obj = find(bpy.data.objects, finding.armature)
    if obj is None:
        raise FixError(f"There is no object named '{finding.armature}' any more.", cause="gone")
    if obj.type != "ARMATURE":
        raise FixError(f"'{finding.armature}' is a {obj.type.lower()} object, not an armature.")
    _refuse_names_python_cannot_read(obj, finding)
    ensure_editable(obj)
    _ensure_not_collapsed(obj)
    check = get_check(finding.check_id)
    fix = check.fixes.get(finding.fix_id)
    if fix is None:
        raise FixError(f"The {check.id} check has no fix called '{finding.fix_id}'.")
    current = _same_fault(obj, finding, options)
    if current is None:
        sentence = f"Nothing to change: '{finding.message}' is already resolved."
        return FixResult(finding, changed=False, sentence=sentence)
    touched = tuple(name for name in (current.bone, current.constraint) if name)
    with unset_rest_lengths_kept(obj):
        sentence = fix(obj, current)
        # Checks read the pose as last evaluated: without this, what is found after a fix would
        # still see the pose before it (measured: a shin IK given Use Tail by symmetry's copy
        # lands, but the hips' turn its old chain gave them made constraint_order call a start
        # flipped).
        current_view_layer().update()
    return FixResult(current, changed=True, sentence=sentence, touched=touched)


def _refuse_names_python_cannot_read(obj: bpy.types.Object, finding: Finding) -> None:
    """Refuse a fix whose finding, chain, target or pole names a bone or constraint Python
    cannot read (``core.names``): fixes find what they change by name, and Blender cannot be
    asked for such a name, so a fix would change something else or stop halfway. The armature
    itself is found here by walking the objects, and fixes are handed it."""
    names = [finding.bone, finding.constraint, *(finding.chain or ())]
    names += [text for _key, value in finding.fix_args for text in _strings(value)]
    if finding.chain is not None:
        rig = RigView(obj)
        chain = rig.chain(*finding.chain)
        if chain is not None:
            names += [*chain.bones, chain.subtarget, chain.pole_subtarget]
        names += [
            bone
            for spline in spline_chains(rig)
            if spline.key == finding.chain
            for bone in spline.bones
        ]
    unreadable = sorted({name for name in names if has_unreadable(name)})
    if unreadable:
        raise FixError(
            f"{', '.join(unreadable)}: {SAVED_AS_BYTES}, which Blender cannot be asked for by "
            "name. Rename them in Blender, then fix."
        )


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, tuple | list):
        for item in value:
            yield from _strings(item)


def _ensure_not_collapsed(obj: bpy.types.Object) -> None:
    """Refuse every fix on an armature scaled to 0: its bones collapse onto a plane, no solve on
    it means anything, and Blender (4.2 and 5.3) crashed evaluating such a rig under iTaSC after
    a chain length was changed (found by the property tests)."""
    scales = (obj.scale, obj.matrix_world.to_scale())
    flat = sorted({"XYZ"[i] for scale in scales for i in range(3) if abs(scale[i]) < 1e-6})
    if flat:
        raise FixError(
            f"'{readable(obj)}' is scaled to 0 on {'/'.join(flat)}: its bones collapse and no fix "
            "can be judged. Give the object a non-zero scale first.",
            cause="collapsed",
        )


def _same_fault(
    obj: bpy.types.Object, finding: Finding, options: Mapping[str, Any] | None
) -> Finding | None:
    refind = get_check(finding.check_id).refind
    if refind is not None:
        return refind(obj, finding)
    overrides = {finding.check_id: options} if options else None
    for fresh in diagnose(obj, checks=[finding.check_id], options=overrides):
        if fresh.key == finding.key:
            return fresh
    return None


def apply_all_fixes(
    obj: bpy.types.Object,
    *,
    checks: Iterable[str] | None = None,
    permission: FixPermission | None = None,
    options: Mapping[str, Mapping[str, Any]] | None = None,
    max_rounds: int = MAX_FIXES,
    leave: Callable[[Finding], bool] | None = None,
    scan: Callable[[bpy.types.Object], Sequence[Finding]] | None = None,
) -> list[FixResult]:
    """Apply every fix the permission covers, structure first, finding again after each one
    (``core.fix_runner``); return what each fix did, in the order applied.

    Fixes that rebind a skinned mesh or throw something away run only when ``permission``
    allows them (``fix_policy``; by default neither). ``options`` are the same threshold
    overrides ``diagnose`` takes; findings ``leave`` says yes to (faults accepted on purpose)
    are not fixed. With ``scan`` (the animation scan, which stands above this layer and is
    handed in), its fixes follow once the checks offer none, its findings joined to the checks'
    as the panel and the reports show them (``with_scan_proofs``).
    """
    require_armature(obj)

    def checked() -> list[Finding]:
        return diagnose(obj, checks=checks, options=options)

    sources: list[Callable[[], Sequence[Finding]]] = [checked]
    if scan is not None:
        sources.append(lambda: with_scan_proofs(checked(), scan(obj)))
    return run_fixes(
        obj,
        sources,
        lambda finding: run_fix(finding, (options or {}).get(finding.check_id)),
        permission,
        leave,
        max_rounds,
    )
