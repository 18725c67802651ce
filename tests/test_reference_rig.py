"""The reference rig is correct: quiet checks, and IK that reaches and bends toward the poles."""

from __future__ import annotations

import bpy
from solving import assert_ik_works

from ik_doctor import Severity, diagnose


def test_reference_rig_has_no_errors_or_warnings(rig: bpy.types.Object) -> None:
    loud = [f for f in diagnose(rig) if f.severity in (Severity.ERROR, Severity.WARNING)]
    assert loud == []


def test_reference_rig_reaches_targets_and_bends_toward_poles(rig: bpy.types.Object) -> None:
    assert_ik_works(rig)


def test_computed_pole_angles_leave_the_rest_pose_alone(rig: bpy.types.Object) -> None:
    bpy.context.view_layer.update()
    for pose_bone in rig.pose.bones:
        rest = rig.data.bones[pose_bone.name]
        assert (pose_bone.head - rest.head_local).length < 1e-4, pose_bone.name
        assert (pose_bone.tail - rest.tail_local).length < 1e-4, pose_bone.name
