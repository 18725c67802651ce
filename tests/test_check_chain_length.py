"""The chain length check: 0 drags the spine, too long acts as 0, 1 freezes the thigh."""

from __future__ import annotations

import pytest
from solving import assert_ik_works, findings_of, tip_error

from ik_doctor import Severity, apply_fix


def _ik(rig, owner="shin.L"):
    return rig.pose.bones[owner].constraints["IK"]


def test_chain_length_zero_drags_the_spine(rig) -> None:
    _ik(rig).chain_count = 0
    (finding,) = findings_of(rig, "chain_length")
    assert finding.severity == Severity.WARNING
    assert "hips" in finding.message and "root" in finding.message
    assert finding.fix_label == "Set chain length to 2"
    apply_fix(finding)
    assert _ik(rig).chain_count == 2
    assert findings_of(rig, "chain_length") == []
    assert_ik_works(rig, ["shin.L"])


def test_chain_longer_than_the_hierarchy_is_reported(rig) -> None:
    _ik(rig).chain_count = 9
    (finding,) = findings_of(rig, "chain_length")
    assert finding.severity == Severity.WARNING
    apply_fix(finding)
    assert _ik(rig).chain_count == 2
    assert_ik_works(rig, ["shin.L"])


@pytest.mark.parametrize("owner", ["shin.L", "forearm.R"])
def test_chain_length_one_freezes_the_parent(rig, owner) -> None:
    _ik(rig, owner).chain_count = 1
    assert tip_error(rig, owner) > 1e-2
    (finding,) = findings_of(rig, "chain_length")
    assert finding.severity == Severity.ERROR
    apply_fix(finding)
    assert _ik(rig, owner).chain_count == 2
    assert tip_error(rig, owner) < 1e-3
    assert_ik_works(rig, [owner])


def test_chain_length_zero_on_a_bone_without_parent_is_fine(scene) -> None:
    import bpy

    from ik_doctor.core.editing import edit_bones

    data = bpy.data.armatures.new("single")
    obj = bpy.data.objects.new("single", data)
    scene.collection.objects.link(obj)
    with edit_bones(obj) as bones:
        bone = bones.new("bone")
        bone.head, bone.tail = (0, 0, 0), (0, 0, 1)
        goal = bones.new("goal")
        goal.head, goal.tail = (0, 0.5, 1), (0, 0.5, 1.2)
    constraint = obj.pose.bones["bone"].constraints.new("IK")
    constraint.target, constraint.subtarget, constraint.chain_count = obj, "goal", 0
    assert findings_of(obj, "chain_length") == []
