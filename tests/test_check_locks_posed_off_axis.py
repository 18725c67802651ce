"""A joint held on its bend axis, started turned off it: by a posed parent whose rotation it
does not inherit (``checks/_posed_off_axis.py``; each fault alone fails the limb, so neither
is fixed alone), or posed about Z while an IK lock holds X (``checks/_swung_start.py``)."""

from __future__ import annotations

import math

import bpy
import pytest
from faulted_limbs import LIMBS, Fault, faulted_rig
from solving import findings_of

from ik_doctor import Severity
from ik_doctor.verify.oracle import judge_chains

HOLDS = [("ik_limit", 0), ("ik_lock", 0), ("ik_limit", 6)]


def _state(rig, limb: str) -> str:
    (verdict,) = [v for v in judge_chains(rig) if v.owner == LIMBS[limb].owner]
    return verdict.state


@pytest.mark.parametrize("limb", ["leg", "arm"])
@pytest.mark.parametrize(("hold", "amount"), HOLDS)
def test_a_held_joint_turned_by_its_posed_parent_lands_and_is_not_fixed_alone(
    limb, hold, amount
) -> None:
    """Issue 25 (agreement seeds 133 and 143: three false errors each)."""
    faults = (
        Fault("inherit_rotation_off", limb, 0),
        Fault("fk_keys", limb, 0.3),
        Fault(hold, limb, amount),
    )
    rig = faulted_rig(faults)
    owner = LIMBS[limb].owner
    assert _state(rig, limb) == "pass"
    (held,) = [f for f in findings_of(rig, "locks") if f.bone == owner]
    (inherit,) = findings_of(rig, "inherit")
    for finding in (held, inherit):
        assert finding.severity == Severity.WARNING
        assert finding.fix_id is None and "together" in (finding.no_fix_reason or "")
    assert held.stated["posed_off_axis"] == owner
    assert inherit.stated["effect"] == "held_and_turned"
    assert all(f.severity != Severity.ERROR for f in findings_of(rig, "symmetry"))
    rig.data.bones[owner].use_inherit_rotation = True  # inheriting alone: the hold stops it
    bpy.context.view_layer.update()
    assert _state(rig, limb) == "fail"
    freed = faulted_rig(faults)  # freed alone: the joint flips
    pose_bone = freed.pose.bones[owner]
    pose_bone.lock_ik_x = pose_bone.use_ik_limit_x = False
    bpy.context.view_layer.update()
    assert _state(freed, limb) == "fail"


@pytest.mark.parametrize("limb", ["leg", "arm"])
@pytest.mark.parametrize("turn", [(0.0, 0.0, 0.0), (0.3, 0.0, 0.0)])
def test_a_held_joint_under_a_parent_at_rest_or_turned_on_that_axis_misses(limb, turn) -> None:
    rig = faulted_rig((Fault("inherit_rotation_off", limb, 0), Fault("ik_limit", limb, 0)))
    parent = rig.pose.bones[LIMBS[limb].parent]
    parent.rotation_mode = "XYZ"
    parent.rotation_euler = turn
    bpy.context.view_layer.update()
    assert _state(rig, limb) == "fail"
    (held,) = [f for f in findings_of(rig, "locks") if f.bone == LIMBS[limb].owner]
    assert (held.severity, held.fix_id) == (Severity.ERROR, "free_axes")


def test_the_turn_is_read_off_the_held_axis() -> None:
    """0.05 rad about the upper bone's length lands the leg (measured); below the edge the
    finding stays an error."""
    rig = faulted_rig((Fault("inherit_rotation_off", "leg", 0), Fault("ik_limit", "leg", 0)))
    thigh = rig.pose.bones["thigh.L"]
    thigh.rotation_mode = "XYZ"
    thigh.rotation_euler = (0.0, 0.05, 0.0)
    bpy.context.view_layer.update()
    assert _state(rig, "leg") == "pass"
    (held,) = [f for f in findings_of(rig, "locks") if f.bone == "shin.L"]
    assert held.severity == Severity.WARNING
    assert "2.9°" in held.message


@pytest.mark.parametrize("limb", ["leg", "arm"])
@pytest.mark.parametrize("about_z", [0.01, 1.0, -1.5])
def test_a_joint_locked_on_x_and_posed_about_z_folds_and_lands(limb, about_z) -> None:
    """Issue 25 (measured beside seed 146): an IK lock on X holds the joint as a zero-width
    limit does, and a pose turned about Z folds it about Z (``core.started._lock_folds``)."""
    rig = faulted_rig((Fault("ik_lock", limb, 0),))
    owner = rig.pose.bones[LIMBS[limb].owner]
    owner.rotation_mode = "XYZ"
    owner.rotation_euler = (0.0, 0.0, about_z)
    bpy.context.view_layer.update()
    assert _state(rig, limb) == "pass"
    (held,) = findings_of(rig, "locks")
    assert held.severity == Severity.WARNING and held.stated["swung_start"] == (owner.name,)
    assert all(f.severity != Severity.ERROR for f in findings_of(rig, "symmetry"))


@pytest.mark.parametrize("hold", ["ik_limit", "ik_lock"])
@pytest.mark.parametrize(
    ("turn", "about_z", "lands"),
    [(60, 1.6, True), (60, -1.6, False), (-60, -0.5, True), (-60, 0.5, False), (10, -1.6, True)],
)
def test_a_pole_angle_turned_lets_only_a_start_turned_the_same_way_fold(
    hold, turn, about_z, lands
) -> None:
    """Measured on both limbs, both sides, held by a zero-width limit or a lock: with the pole
    angle turned 15° to 120° from rest, a start turned about Z the same way lands and the other
    way bends away from the pole (``core.started.SAME_WAY_TURN``); within 10°, either way."""
    rig = faulted_rig((Fault(hold, "leg", 0),))
    shin = rig.pose.bones["shin.L"]
    shin.constraints["IK"].pole_angle += math.radians(turn)
    shin.rotation_mode = "XYZ"
    shin.rotation_euler = (0.0, 0.0, about_z)
    bpy.context.view_layer.update()
    assert _state(rig, "leg") == ("pass" if lands else "fail")
    (held,) = [f for f in findings_of(rig, "locks") if f.bone == "shin.L"]
    assert held.severity == (Severity.WARNING if lands else Severity.ERROR)
