"""The goal check: an IK with Rotation on, or Position off, stops short of targets in reach."""

from __future__ import annotations

import bpy
import pytest
from solving import assert_ik_works, findings_of

from ik_doctor import Severity, apply_fix, run_fix, scan_animation
from ik_doctor.verify.oracle import judge_chains

SETTINGS = ("use_location", "use_rotation", "orient_weight", "weight", "iterations", "pole_angle")


def _ik(rig: bpy.types.Object, owner: str = "shin.L") -> bpy.types.KinematicConstraint:
    return rig.pose.bones[owner].constraints["IK"]


def _state(rig: bpy.types.Object, owner: str) -> str:
    return next(v.state for v in judge_chains(rig) if v.owner == owner)


@pytest.mark.parametrize("owner", ["shin.L", "forearm.L"])
@pytest.mark.parametrize("weight", [0.01, 0.5])
def test_rotation_on_is_an_error_the_fix_makes_the_limb_land(rig, owner, weight) -> None:
    ik = _ik(rig, owner)
    ik.use_rotation, ik.orient_weight = True, weight
    assert _state(rig, owner) == "fail"
    (finding,) = findings_of(rig, "goal")
    assert (finding.bone, finding.severity, finding.title) == (
        owner,
        Severity.ERROR,
        "Rotation pulls tip off",
    )
    before = {name: getattr(ik, name) for name in SETTINGS}
    assert "turned Rotation off" in apply_fix(finding)
    after = {name: getattr(ik, name) for name in SETTINGS}
    assert {name for name in SETTINGS if after[name] != before[name]} == {"use_rotation"}
    assert findings_of(rig, "goal") == []
    assert _state(rig, owner) == "pass"
    assert_ik_works(rig, [owner])


def test_position_off_is_an_error_the_fix_turns_it_on(rig) -> None:
    _ik(rig).use_location = False
    _ik(rig).use_rotation = True
    assert _state(rig, "shin.L") == "fail"
    (finding,) = findings_of(rig, "goal")
    assert (finding.severity, finding.title) == (Severity.ERROR, "Position off")
    result = run_fix(finding)
    assert result.changed
    assert (_ik(rig).use_location, _ik(rig).use_rotation) == (True, False)
    assert _state(rig, "shin.L") == "pass"


def test_a_switched_off_twin_with_rotation_on_is_a_warning(rig) -> None:
    """Judged through its live twin (the oracle says "off"), it fails once switched on."""
    twin = rig.pose.bones["shin.L"].constraints.new("IK")
    twin.target, twin.subtarget, twin.chain_count = rig, "foot_ik.L", 2
    twin.use_rotation, twin.mute = True, True
    (finding,) = findings_of(rig, "goal")
    assert (finding.constraint, finding.severity) == (twin.name, Severity.WARNING)
    assert "fails once switched on" in finding.message
    twin.mute, _ik(rig).mute = False, True
    assert next(v.state for v in judge_chains(rig) if v.constraint == twin.name) == "fail"


def test_an_ik_muted_by_hand_is_not_judged(rig) -> None:
    _ik(rig).use_rotation, _ik(rig).mute = True, True
    assert findings_of(rig, "goal") == []


def test_the_default_goal_is_quiet(rig) -> None:
    assert (_ik(rig).use_location, _ik(rig).use_rotation) == (True, False)
    assert findings_of(rig, "goal") == []


def test_rotation_on_misses_the_animators_frames_and_the_fix_lands_them(rig) -> None:
    """A step keyed on the foot control, moved but not turned: with Rotation on the foot misses
    its keyed places; with the fix, every frame lands."""
    foot = rig.pose.bones[_ik(rig).subtarget]
    for frame, place in ((1, (0.0, 0.0, 0.0)), (12, (0.0, -0.15, 0.15)), (24, (0.0, -0.2, 0.05))):
        foot.location = place
        foot.keyframe_insert("location", frame=frame)
    _ik(rig).use_rotation = True
    missed = [f for f in scan_animation(rig) if f.bone == "shin.L"]
    assert missed and all(f.severity == Severity.ERROR for f in missed)
    (finding,) = findings_of(rig, "goal")
    apply_fix(finding)
    assert [f for f in scan_animation(rig) if f.bone == "shin.L"] == []
