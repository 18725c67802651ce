"""The degenerate check: a chain bone with no length, or posed with a scale of 0."""

from __future__ import annotations

import bpy
import pytest
from solving import findings_of, tip_error

from ik_doctor import FixError, Severity, apply_fix
from ik_doctor.core.editing import edit_bones


def _insert_knee(rig: bpy.types.Object, length: float) -> None:
    """Put a bone of ``length`` between thigh and shin, and count it in the leg's chain."""
    with edit_bones(rig) as bones:
        thigh, shin = bones["thigh.L"], bones["shin.L"]
        knee = bones.new("knee.L")
        knee.head = thigh.tail.copy()
        knee.tail = thigh.tail + (shin.tail - shin.head).normalized() * length
        knee.parent, knee.use_connect = thigh, True
        shin.use_connect, shin.parent = False, knee
    rig.pose.bones["shin.L"].constraints["IK"].chain_count = 3


def test_tiny_knee_bone_is_reported_without_an_automatic_fix(rig) -> None:
    _insert_knee(rig, 1e-4)
    (finding,) = findings_of(rig, "degenerate")
    assert (finding.bone, finding.severity) == ("knee.L", Severity.WARNING)
    assert (finding.fix_id, finding.title) == (None, "Bone of no length")
    length = rig.data.bones["knee.L"].length
    with pytest.raises(FixError):
        apply_fix(finding)
    assert rig.data.bones["knee.L"].length == length


def test_zero_length_bone_is_deleted_by_42_and_kept_tiny_by_5x(rig) -> None:
    _insert_knee(rig, 0.0)
    if bpy.app.version < (5, 0, 0) and "knee.L" not in rig.data.bones:
        return  # 4.2 deletes it on leaving Edit Mode: nothing left to report
    assert rig.data.bones["knee.L"].length < 1e-5
    assert [f.bone for f in findings_of(rig, "degenerate")] == ["knee.L"]


@pytest.mark.parametrize("axis", [0, 1, 2])
def test_shin_scaled_to_zero_collapses_the_leg(rig, axis) -> None:
    scale = [1.0, 1.0, 1.0]
    scale[axis] = 0.0
    rig.pose.bones["shin.L"].scale = scale
    assert tip_error(rig, "shin.L") > 2e-3
    (finding,) = findings_of(rig, "degenerate")
    assert (finding.bone, finding.severity) == ("shin.L", Severity.ERROR)
    assert finding.stated["flat_axes"] == "XYZ"[axis]
    assert finding.fix_id is None
    with pytest.raises(FixError):
        apply_fix(finding)
    assert tuple(rig.pose.bones["shin.L"].scale) == tuple(scale), "no fix sets a scale back"


def test_reference_rig_has_no_degenerate_bones(rig) -> None:
    assert findings_of(rig, "degenerate") == []


def test_a_chain_made_only_of_noise_length_bones_is_degenerate_not_straight(scene) -> None:
    """Found by the long property run: two bones of 2e-6 (5.x's zero length) in a line were
    called straight, and the pre-bend fix moved a head by 2e-8, which float32 cannot hold at
    y = 1, so the finding stayed."""
    obj = bpy.data.objects.new("Rig", bpy.data.armatures.new("Rig"))
    scene.collection.objects.link(obj)
    with edit_bones(obj) as bones:
        lower = bones.new("bone0")
        lower.head, lower.tail = (0.0, 1.0, 0.0), (0.0, 1.0, 5e-6)
        upper = bones.new("bone1")
        upper.head, upper.tail, upper.parent = (0.0, 1.0, 5e-6), (0.0, 1.0, 1e-5), lower
    obj.pose.bones["bone1"].constraints.new("IK").chain_count = 2
    assert findings_of(obj, "rest_pose") == []
    assert {f.bone for f in findings_of(obj, "degenerate")} == {"bone0", "bone1"}
