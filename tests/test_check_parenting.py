"""The parenting check: a chain bone that lost its parent, and a joint that pivots on a gap."""

from __future__ import annotations

from mathutils import Vector
from solving import assert_ik_works, findings_of, pose_snapshot, tip_error

from ik_doctor import Severity, apply_fix
from ik_doctor.core.editing import edit_bones


def test_unparented_shin_cuts_the_leg_chain(rig) -> None:
    with edit_bones(rig) as bones:
        bones["shin.L"].parent = None
    assert tip_error(rig, "shin.L") > 1e-2
    (finding,) = findings_of(rig, "parenting")
    assert finding.severity == Severity.ERROR
    assert finding.bone == "shin.L" and "thigh.L" in finding.message
    assert findings_of(rig, "chain_length") == [], "reported once, by parenting"
    apply_fix(finding)
    assert rig.data.bones["shin.L"].parent.name == "thigh.L"
    assert findings_of(rig, "parenting") == []
    assert_ik_works(rig, ["shin.L"])


def test_gap_below_the_knee_is_a_warning_and_connecting_says_it_moves(rig) -> None:
    with edit_bones(rig) as bones:
        bones["shin.L"].use_connect = False
        bones["shin.L"].head += Vector((0.0, -0.05, 0.0))
    before = pose_snapshot(rig)
    (finding,) = findings_of(rig, "parenting")
    assert finding.severity == Severity.WARNING
    assert finding.changes_rest_pose
    assert "moves shin.L's head" in finding.fix_label
    report = apply_fix(finding)
    assert "rest pose changed" in report
    after = pose_snapshot(rig)
    changed = {name for name in before if before[name] != after[name]}
    assert changed == {"shin.L"}, "only the connected bone moves"
    assert rig.data.bones["shin.L"].use_connect
    assert findings_of(rig, "parenting") == []
    assert_ik_works(rig, ["shin.L"])
