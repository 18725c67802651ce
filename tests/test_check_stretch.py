"""The stretch check: one bone of the leg stretches while the other does not."""

from __future__ import annotations

import bpy
from mathutils import Vector
from solving import assert_ik_works, findings_of

from ik_doctor import Severity, run_fix


def _stretch_ratios(rig: bpy.types.Object, factor: float) -> tuple[float, float]:
    """Pull the foot control to ``factor`` times the leg's reach; return thigh and shin scale."""
    bones = rig.data.bones
    root = bones["thigh.L"].head_local
    reach = bones["thigh.L"].length + bones["shin.L"].length
    goal = root + (bones["shin.L"].tail_local - root).normalized() * reach * factor
    control = rig.pose.bones["foot_ik.L"]
    bpy.context.view_layer.update()
    matrix = control.matrix.copy()
    matrix.translation = goal
    control.matrix = matrix
    bpy.context.view_layer.update()
    ratios = tuple(
        (rig.pose.bones[name].tail - rig.pose.bones[name].head).length / bones[name].length
        for name in ("thigh.L", "shin.L")
    )
    control.location = Vector()
    bpy.context.view_layer.update()
    return ratios


def test_thigh_stretching_alone_slides_the_knee(rig) -> None:
    rig.pose.bones["thigh.L"].ik_stretch = 0.1
    thigh, shin = _stretch_ratios(rig, 1.3)
    assert thigh > 1.4 and abs(shin - 1.0) < 0.01
    (finding,) = findings_of(rig, "stretch")
    assert (finding.bone, finding.severity) == ("shin.L", Severity.WARNING)
    assert run_fix(finding).changed
    assert rig.pose.bones["shin.L"].ik_stretch == rig.pose.bones["thigh.L"].ik_stretch
    assert findings_of(rig, "stretch") == []
    thigh, shin = _stretch_ratios(rig, 1.3)
    assert abs(thigh - shin) < 0.02 and abs(thigh - 1.3) < 0.02
    assert_ik_works(rig, ["shin.L"])
    assert not run_fix(finding).changed


def test_stretch_off_on_the_constraint_is_not_reported(rig) -> None:
    rig.pose.bones["thigh.L"].ik_stretch = 0.1
    rig.pose.bones["shin.L"].constraints["IK"].use_stretch = False
    assert findings_of(rig, "stretch") == []


def test_even_stretch_is_fine(rig) -> None:
    for name in ("thigh.L", "shin.L"):
        rig.pose.bones[name].ik_stretch = 0.1
    assert findings_of(rig, "stretch") == []
    assert_ik_works(rig, ["shin.L"])


def test_reference_rig_does_not_stretch(rig) -> None:
    assert findings_of(rig, "stretch") == []
