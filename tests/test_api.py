"""The public API: names other tools rely on, clear errors for bad input, modes left alone."""

from __future__ import annotations

import bpy
import pytest
from solving import findings_of

import ik_doctor
from ik_doctor import FixError, Severity, apply_fix, diagnose


def test_seed_checks_are_registered_with_a_title_and_a_doc() -> None:
    checks = {check.id: check for check in ik_doctor.all_checks()}
    assert {"target", "chain_length", "parenting"} <= set(checks)
    for check in checks.values():
        assert check.title and len(check.doc) > 80, check.id


def test_diagnose_refuses_a_mesh_with_a_clear_message(scene) -> None:
    bpy.ops.mesh.primitive_cube_add()
    with pytest.raises(ValueError, match="'Cube' is a mesh object, not an armature"):
        diagnose(bpy.context.object)


def test_diagnose_refuses_nothing(scene) -> None:
    with pytest.raises(ValueError, match="No object given"):
        diagnose(None)


def test_diagnose_refuses_an_unknown_check(rig) -> None:
    with pytest.raises(KeyError, match="no check with id 'nonsense'"):
        diagnose(rig, checks=["nonsense"])


def test_finding_has_the_documented_fields(rig) -> None:
    rig.pose.bones["shin.L"].constraints["IK"].target = None
    (finding,) = findings_of(rig, "target")
    assert finding.severity == "error" and finding.severity is Severity.ERROR
    assert (finding.bone, finding.constraint) == ("shin.L", "IK")
    assert finding.message and finding.why and finding.fix_label
    assert finding.to_dict()["severity"] == "error"


@pytest.mark.parametrize("mode", ["OBJECT", "POSE", "EDIT"])
def test_diagnose_and_fix_leave_the_mode_as_found(rig, mode) -> None:
    bpy.context.view_layer.objects.active = rig
    bpy.ops.object.mode_set(mode=mode)
    rig.pose.bones["shin.L"].constraints["IK"].target = None
    (finding,) = findings_of(rig, "target")
    assert rig.mode == mode
    apply_fix(finding)
    assert rig.mode == mode
    bpy.ops.object.mode_set(mode="OBJECT")
    assert "IK-shin.L" in rig.data.bones


def test_edit_mode_changes_are_seen_without_leaving_edit_mode(rig) -> None:
    bpy.context.view_layer.objects.active = rig
    bpy.ops.object.mode_set(mode="EDIT")
    rig.data.edit_bones["shin.L"].parent = None
    assert [f.bone for f in findings_of(rig, "parenting")] == ["shin.L"]
    assert rig.mode == "EDIT"


def test_a_fix_without_an_automatic_fix_raises_fix_error(rig) -> None:
    rig.pose.bones["shin.L"].constraints["IK"].target = None
    (finding,) = findings_of(rig, "target")
    no_fix = ik_doctor.Finding(**{**finding.__dict__, "fix_id": None, "no_fix_reason": "x"})
    with pytest.raises(FixError) as refused:
        apply_fix(no_fix)
    assert refused.value.cause == "no_fix"


def test_a_fix_for_a_deleted_armature_raises_fix_error(rig) -> None:
    rig.pose.bones["shin.L"].constraints["IK"].target = None
    (finding,) = findings_of(rig, "target")
    bpy.data.objects.remove(rig)
    with pytest.raises(FixError) as refused:
        apply_fix(finding)
    assert refused.value.cause == "gone"


def test_linked_armature_is_diagnosed_but_not_fixed(rig, tmp_path) -> None:
    rig.pose.bones["shin.L"].constraints["IK"].target = None
    library = tmp_path / "library.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(library))
    bpy.ops.wm.read_homefile(use_empty=True)
    with bpy.data.libraries.load(str(library), link=True) as (source, linked):
        linked.objects = [name for name in source.objects if name == "IKDoctorRig"]
    obj = linked.objects[0]
    bpy.context.scene.collection.objects.link(obj)
    (finding,) = findings_of(obj, "target")
    with pytest.raises(FixError) as refused:
        apply_fix(finding)
    assert refused.value.cause == "linked"


def test_a_brand_new_armature_without_a_pose_has_nothing_to_report(scene) -> None:
    obj = bpy.data.objects.new("fresh", bpy.data.armatures.new("fresh"))
    scene.collection.objects.link(obj)
    assert obj.pose is None
    assert diagnose(obj) == []
