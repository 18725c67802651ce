"""Generated rigs: diagnosis, judging and solving never crash, fixes apply cleanly or refuse
cleanly, nothing is lost.

Every example is a random armature (see ``rig_generation``) built in a fresh empty file. The
examples run under the "ci" Hypothesis profile unless another is chosen; see
``hypothesis_profiles`` for the long run.
"""

from __future__ import annotations

import contextlib
import math
import os
from collections import Counter

import bpy
import hypothesis_profiles  # noqa: F401  (registers and loads the profiles)
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from rig_generation import RigSpec, build_rig, rig_specs, rig_state, state_differences
from spline_generation import TailSpec, add_random_tail, tail_specs

from ik_doctor import (
    Finding,
    FixError,
    FixResult,
    apply_all_fixes,
    apply_fix,
    diagnose,
    run_fix,
    solve_within_reach,
)
from ik_doctor.core.fix_policy import FixPermission
from ik_doctor.sample_rig import build_character_rig
from ik_doctor.verify.oracle import judge_chains
from ik_doctor.verify.spline_oracle import judge_spline_chains

pytestmark = pytest.mark.slow

# IK_DOCTOR_CHECKS=target,parenting narrows a hunt to some checks; all of them by default.
CHECKS = [c for c in os.environ.get("IK_DOCTOR_CHECKS", "").split(",") if c] or None


# Where the user left the rig: a mode on the active rig, or Object Mode with the rig hidden,
# in an excluded collection, or not active.
situations = st.sampled_from(["OBJECT", "POSE", "EDIT", "hidden", "excluded", "inactive"])


def _examples(share: float) -> settings:
    """A share of the profile's examples, so the long profile scales every test alike."""
    return settings(max_examples=max(1, int(settings.default.max_examples * share)))


def _fresh_rig(spec: RigSpec, situation: str = "OBJECT") -> bpy.types.Object:
    bpy.ops.wm.read_homefile(use_empty=True)
    obj = build_rig(spec)
    view_layer = bpy.context.view_layer
    if situation in ("POSE", "EDIT"):
        view_layer.objects.active = obj
        bpy.ops.object.mode_set(mode=situation)
    elif situation == "hidden":
        obj.hide_set(True)
    elif situation == "excluded":
        collection = bpy.data.collections.new("Excluded")
        bpy.context.scene.collection.children.link(collection)
        for member in (obj, *obj.children):
            collection.objects.link(member)
            bpy.context.scene.collection.objects.unlink(member)
        view_layer.layer_collection.children[collection.name].exclude = True
    elif situation == "inactive":
        other = bpy.data.objects.new("Bystander", None)
        bpy.context.scene.collection.objects.link(other)
        view_layer.update()
        other.select_set(True)
        view_layer.objects.active = other
    return obj


@_examples(1.0)
@given(spec=rig_specs(), situation=situations)
def test_diagnose_never_raises_and_gives_the_same_findings_twice(
    spec: RigSpec, situation: str
) -> None:
    obj = _fresh_rig(spec, situation)
    before = rig_state(obj)
    first = diagnose(obj, checks=CHECKS)
    assert first == diagnose(obj, checks=CHECKS)
    assert all(isinstance(finding, Finding) for finding in first)
    keys = Counter(finding.key for finding in first)
    assert not [key for key, count in keys.items() if count > 1], "findings share a key"
    assert not state_differences(before, rig_state(obj)), "diagnose changed the rig"


@_examples(1.0)
@given(spec=rig_specs(), situation=situations)
def test_every_fix_applies_or_refuses_and_loses_nothing(spec: RigSpec, situation: str) -> None:
    obj = _fresh_rig(spec, situation)
    for finding in diagnose(obj, checks=CHECKS):
        if finding.fix_id is not None:
            _apply_fix_checked(obj, finding)


@_examples(0.5)
@given(spec=rig_specs())
def test_judging_and_solving_never_raise_and_put_everything_back(spec: RigSpec) -> None:
    obj = _fresh_rig(spec)
    before = rig_state(obj)
    verdicts = judge_chains(obj)
    assert {verdict.state for verdict in verdicts} <= {"pass", "fail", "off", "untested"}
    assert not state_differences(before, rig_state(obj)), "judge_chains changed the rig"
    solve_within_reach(obj)
    assert not state_differences(before, rig_state(obj)), "solve_within_reach changed the rig"


@_examples(0.25)
@given(spec=rig_specs())
def test_a_fixed_rig_saved_and_reopened_gives_the_same_findings(
    spec: RigSpec, tmp_path_factory: pytest.TempPathFactory
) -> None:
    obj = _fresh_rig(spec)
    name = obj.name
    apply_all_fixes(obj, checks=CHECKS, permission=FixPermission(rebind_meshes=True, discard=True))
    findings = [finding.to_dict() for finding in diagnose(obj, checks=CHECKS)]
    path = tmp_path_factory.mktemp("reopened") / "fixed.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(path), check_existing=False)
    bpy.ops.wm.open_mainfile(filepath=str(path), load_ui=False)
    reopened = bpy.data.objects[name]
    assert [finding.to_dict() for finding in diagnose(reopened, checks=CHECKS)] == findings


def _rig_with_tail(spec: TailSpec, rig_scale: float) -> bpy.types.Object:
    bpy.ops.wm.read_homefile(use_empty=True)
    obj = build_character_rig()
    obj.scale = (rig_scale,) * 3
    add_random_tail(obj, spec)
    return obj


rig_scales = st.sampled_from((1.0, 1.0, 0.5, 2.0))


@_examples(0.5)
@given(spec=tail_specs, rig_scale=rig_scales)
def test_spline_ik_tails_broken_every_way_are_diagnosed_and_fixed_without_raising(
    spec: TailSpec, rig_scale: float
) -> None:
    """Diagnose is read-only and repeatable, and every fix offered works or raises FixError."""
    obj = _rig_with_tail(spec, rig_scale)
    before = rig_state(obj)
    first = diagnose(obj, checks=CHECKS)
    assert first == diagnose(obj, checks=CHECKS)
    assert not state_differences(before, rig_state(obj)), "diagnose changed the rig"
    for finding in first:
        event(f"{finding.check_id} {finding.severity.value}")
        if finding.fix_id is not None:
            _apply_fix_checked(obj, finding)


@_examples(0.25)
@given(spec=tail_specs, rig_scale=rig_scales)
def test_the_spline_oracle_never_raises_and_puts_everything_back(
    spec: TailSpec, rig_scale: float
) -> None:
    obj = _rig_with_tail(spec, rig_scale)
    before = rig_state(obj)
    curves = {o.name: o.matrix_world.copy() for o in bpy.data.objects if o.type == "CURVE"}
    verdicts = judge_spline_chains(obj)
    assert [v.state for v in verdicts] and {v.state for v in verdicts} <= {
        "pass",
        "fail",
        "off",
        "untested",
    }
    for verdict in verdicts:
        event(f"spline oracle: {verdict.state}")
    assert not state_differences(before, rig_state(obj)), "judge_spline_chains changed the rig"
    assert curves == {o.name: o.matrix_world for o in bpy.data.objects if o.type == "CURVE"}


def _apply_fix_checked(obj: bpy.types.Object, finding: Finding) -> None:
    """Apply one fix and hold it to the contract in ``apply_fix``'s docstring."""
    before = rig_state(obj)
    try:
        result = run_fix(finding)
    except FixError as refusal:
        event(f"{finding.check_id}.{finding.fix_id} refused")
        assert str(refusal), "a refusal must say why"
        assert not state_differences(before, rig_state(obj)), f"refused {finding} yet changed"
        return
    event(f"{finding.check_id}.{finding.fix_id} {'applied' if result.changed else 'unchanged'}")
    assert isinstance(result.sentence, str) and result.sentence
    remaining = {fresh.key for fresh in diagnose(obj, checks=CHECKS)}
    assert finding.key not in remaining, f"{finding.key} is still found after: {result.sentence}"
    after = rig_state(obj)
    if not result.changed:  # the fault was already gone: a fix that says so changes nothing
        assert not result.touched
        assert not state_differences(before, after), f"unchanged {finding} yet changed"
    lost = _lost(before, after, result)
    assert not lost, f"{finding.check_id}.{finding.fix_id} lost: {lost}"
    with contextlib.suppress(FixError):
        apply_fix(finding)
    again = state_differences(after, rig_state(obj))
    assert not again, f"a second {finding.fix_id} changed: {again}"


REST_FIELDS = ("head_local", "tail_local", "matrix_local")


def _rest_pose_moved(name: str, before: dict, after: dict, own: bool) -> list[str]:
    """Rest-pose changes beyond float noise; a fix's own bone may snap onto a parent's tail
    it already touched (``RigView.detached_parent`` allows 1e-3 of the bone's length)."""
    length = math.dist(before["head_local"], before["tail_local"])
    if not own:
        # An Edit Mode round trip recomputes every bone's axes from head, tail and roll in
        # single precision: on a bone shorter than 1e-2 they turn by float noise (0.02 at 2e-6).
        fields = REST_FIELDS if length >= 1e-2 else REST_FIELDS[:2]
        return [
            diff
            for field in fields
            for diff in state_differences(before[field], after[field], f"{name} {field}", 1e-4)
        ]
    allowed = 1.01e-3 * max(length, 1e-3) + 1e-6
    return [
        f"{name} {field} moved {moved:.3g}"
        for field in ("head_local", "tail_local")
        if (moved := math.dist(before[field], after[field])) > allowed
    ]


def _bones_the_fix_acts_on(result: FixResult, bones: dict) -> set[str]:
    """The bones a fix may change: the one it acted on (``touched``) and any its arguments
    name (a parent to take, a twin to copy, a chain's bones)."""
    named = set(result.touched)
    named.update(text for _, value in result.finding.fix_args for text in _strings(value))
    return named & set(bones)


def _strings(value: object) -> list[str]:
    """The texts in a fix argument: a name, or names in (nested) tuples."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, tuple | list):
        return [text for item in value for text in _strings(item)]
    return []


def _inverse_set_on_first_evaluation(difference: str, finding: Finding) -> bool:
    """A new Child Of waits with Set Inverse pending until it is first evaluated, which an
    armature in Rest Position never does: switched to Pose Position (``rest_pose``'s fix, or
    the button), Blender evaluates it and sets its inverse, as it does for every new Child Of."""
    pending = (
        "/set_inverse_pending: True -> False" in difference or "/inverse_matrix[" in difference
    )
    return pending and finding.fix_id == "pose_position"


def _lost(before: dict, after: dict, result: FixResult) -> list[str]:
    """What a fix changed that it had no business changing (empty when it kept to its word)."""
    finding = result.finding
    problems = []
    for key in ("mode", "active", "selected", "hidden", "vertex_groups"):
        problems += state_differences(before[key], after[key], key)
    problems += state_differences(before["object"][1], after["object"][1], "object custom")
    for kind in ("bones", "objects"):
        missing = set(before[kind]) - set(after[kind])
        if missing:
            problems.append(f"{kind} {sorted(missing)}")
    named = _bones_the_fix_acts_on(result, before["bones"])
    for name, bone in before["bones"].items():
        if name not in after["bones"]:
            continue
        kept = after["bones"][name]
        problems += state_differences(bone["custom"], kept["custom"], f"{name} custom")
        if name not in named:
            problems += state_differences(bone["parent"], kept["parent"], f"{name} parent")
        if not finding.changes_rest_pose:
            problems += _rest_pose_moved(name, bone, kept, own=name in named)
        pose, kept_pose = before["pose"][name], after["pose"][name]
        problems += state_differences(pose["custom"], kept_pose["custom"], f"{name} pose custom")
        if name not in named:
            problems += [
                lost
                for lost in state_differences(
                    pose["constraints"], kept_pose["constraints"], f"{name} constraints"
                )
                if not _inverse_set_on_first_evaluation(lost, finding)
            ]
    if not finding.needs_confirmation:
        problems += state_differences(before["keys"], after["keys"], "keys")
    return problems
