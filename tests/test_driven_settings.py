"""A fix that writes a setting a driver or keys set is withheld: Blender would take it back.

Measured on the reference arm before: with the pole angle driven, "Set the pole angle" and the
twin copy reported changes the driver undid at the next update; with Use Tail driven off, Fix
All connected and rolled the shoulder and moved the pole (``core.driven``).
"""

from __future__ import annotations

import bpy
import pytest
from rig_generation import rig_state, state_differences

from ik_doctor import FixPermission, Severity, apply_all_fixes, diagnose


def _drive(owner, setting: str, expression: str, index: int = -1) -> None:
    driver = owner.driver_add(setting, index).driver
    driver.type, driver.expression = "SCRIPTED", expression


def _pole_angle_driven(rig) -> None:
    _drive(rig.pose.bones["forearm.L"].constraints["IK"], "pole_angle", "0.0")


def _pole_angle_keyed(rig) -> None:
    ik = rig.pose.bones["forearm.L"].constraints["IK"]
    ik.pole_angle = 0.0
    ik.keyframe_insert("pole_angle", frame=1)


def _scale_driven(rig) -> None:
    for axis in range(3):
        _drive(rig.pose.bones["upper_arm.L"], "scale", "0.7", axis)


def _iterations_driven(rig) -> None:
    _drive(rig.pose.bones["forearm.L"].constraints["IK"], "iterations", "3")


@pytest.mark.parametrize(
    ("break_rig", "source"),
    [
        (_pole_angle_driven, "a driver sets the pole angle of 'IK' on forearm.L"),
        (_pole_angle_keyed, "keys set the pole angle of 'IK' on forearm.L"),
        (_scale_driven, "a driver sets the scale of upper_arm.L"),
        (_iterations_driven, "a driver sets the iterations of 'IK' on forearm.L"),
    ],
    ids=["pole_angle", "pole_angle_keyed", "scale", "iterations"],
)
def test_a_fault_a_driver_or_keys_set_is_found_with_no_fix(rig, break_rig, source: str) -> None:
    break_rig(rig)
    bpy.context.view_layer.update()
    found = [f for f in diagnose(rig) if f.chain == ("forearm.L", "IK")]
    faults = [f for f in found if f.severity != Severity.INFO]
    assert faults, "the driven setting is still a fault"
    assert all(f.fix_id is None and source in (f.no_fix_reason or "") for f in faults)
    before = rig_state(rig)
    apply_all_fixes(rig, permission=FixPermission(rebind_meshes=True, discard=True))
    changed = state_differences(before, rig_state(rig))
    assert [d for d in changed if ".L" in d.split(":")[0]] == [], "the left arm is left alone"


def test_a_driven_b_bone_shape_or_ik_switch_keeps_the_chains_fixes(rig) -> None:
    """A B-Bone's shape is no IK setting; a driven influence is a switch (``fk_ik_mix``)."""
    _drive(rig.pose.bones["forearm.L"], "bbone_easein", "0.5")
    rig.pose.bones["forearm.L"].constraints["IK"].pole_angle = 0.0
    bpy.context.view_layer.update()
    (pole,) = [f for f in diagnose(rig) if f.check_id == "pole" and f.bone == "forearm.L"]
    assert pole.fix_id == "set_angle"
