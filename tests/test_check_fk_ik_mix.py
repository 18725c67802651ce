"""The fk_ik_mix check: rotation keys under a live IK, and an IK/FK switch left half way."""

from __future__ import annotations

import math

import bpy
import pytest
from faulted_limbs import LIMBS, Fault, faulted_rig, judge
from mathutils import Quaternion
from solving import assert_ik_works, findings_of, tip_error

from ik_doctor import FixError, Severity, apply_fix, run_fix, solve_within_reach
from ik_doctor.core.limb import animated_bones
from ik_doctor.core.rig import RigView
from ik_doctor.verify.oracle import judge_chains


def _key_rotation(rig: bpy.types.Object, bone: str, axis: tuple, angles: list[float]) -> None:
    pose_bone = rig.pose.bones[bone]
    for frame, angle in enumerate(angles, start=1):
        pose_bone.rotation_quaternion = Quaternion(axis, angle)
        pose_bone.keyframe_insert("rotation_quaternion", frame=frame)
    bpy.context.scene.frame_set(1)


def _knee(rig: bpy.types.Object) -> tuple[float, ...]:
    rig.pose.bones["foot_ik.L"].location = (0.0, 0.1, 0.2)
    bpy.context.view_layer.update()
    knee = tuple(rig.pose.bones["shin.L"].head)
    rig.pose.bones["foot_ik.L"].location = (0.0, 0.0, 0.0)
    return knee


def test_thigh_keys_steer_a_leg_without_pole_and_clearing_them_asks_first(rig) -> None:
    rig.pose.bones["shin.L"].constraints["IK"].pole_target = None
    unkeyed = _knee(rig)
    _key_rotation(rig, "thigh.L", (1, 0, 0), [0.5, 0.4])
    assert math.dist(_knee(rig), unkeyed) > 0.1, "the keys move the knee"
    (finding,) = findings_of(rig, "fk_ik_mix")
    assert (finding.bone, finding.severity) == ("shin.L", Severity.WARNING)
    assert finding.needs_confirmation and finding.args["bones"] == ("thigh.L",)
    assert run_fix(finding).changed
    assert "thigh.L" not in animated_bones(RigView(rig))
    assert findings_of(rig, "fk_ik_mix") == []
    assert math.dist(_knee(rig), unkeyed) < 1e-4
    assert_ik_works(rig, ["shin.L"])
    assert not run_fix(finding).changed


def test_shin_twist_keys_under_a_pole_are_information(rig) -> None:
    _key_rotation(rig, "shin.L", (0, 1, 0), [0.7, 0.6])
    (finding,) = findings_of(rig, "fk_ik_mix")
    assert finding.severity == Severity.INFO
    apply_fix(finding)
    assert findings_of(rig, "fk_ik_mix") == []
    assert_ik_works(rig, ["shin.L"])


def test_shin_keyed_bending_backwards_flips_the_knee_away_from_its_pole(rig) -> None:
    _key_rotation(rig, "shin.L", (1, 0, 0), [-0.8, -0.7])
    solved = next(s for s in solve_within_reach(rig) if s.owner == "shin.L")
    assert solved.bends_toward_pole is False
    (finding,) = findings_of(rig, "fk_ik_mix")
    assert (finding.severity, finding.title) == (Severity.ERROR, "FK keys flip the joint")
    apply_fix(finding)
    assert findings_of(rig, "fk_ik_mix") == []
    assert_ik_works(rig, ["shin.L"])
    assert not run_fix(finding).changed


def test_keys_at_rest_change_nothing_and_are_not_reported(rig) -> None:
    _key_rotation(rig, "thigh.L", (1, 0, 0), [0.0, 0.0])
    assert findings_of(rig, "fk_ik_mix") == []


def test_switch_driver_left_half_way_blends_fk_and_ik(rig) -> None:
    rig.pose.bones["shin.L"]["ik_fk"] = 0.5
    curve = rig.driver_add('pose.bones["shin.L"].constraints["IK"].influence')
    variable = curve.driver.variables.new()
    variable.targets[0].id = rig
    variable.targets[0].data_path = 'pose.bones["shin.L"]["ik_fk"]'
    curve.driver.expression = variable.name
    bpy.context.view_layer.update()
    assert tip_error(rig, "shin.L") > 1e-2
    (finding,) = findings_of(rig, "fk_ik_mix")
    assert (finding.severity, finding.fix_id) == (Severity.ERROR, None)
    assert finding.title == "IK/FK switch halfway"
    with pytest.raises(FixError):
        apply_fix(finding)
    assert rig.pose.bones["shin.L"]["ik_fk"] == pytest.approx(0.5), "the switch is left as set"
    rig.pose.bones["shin.L"]["ik_fk"] = 1.0
    rig.update_tag()
    bpy.context.view_layer.update()
    assert findings_of(rig, "fk_ik_mix") == []


def test_reference_rig_has_no_keys(rig) -> None:
    assert findings_of(rig, "fk_ik_mix") == []


def test_keys_that_turn_a_root_a_narrow_limit_folds_by_are_kept() -> None:
    """Issue 25 (fresh seed 109): the arm without a pole, its forearm held on X by a zero-width
    IK limit, the upper arm keyed 0.8, 0.4 rad: the keys twist the upper arm, the forearm folds
    by that twist and the arm lands; cleared, it would stop 6.5% of its reach short. So
    clear_keys waits, and says why."""
    faults = (Fault("no_pole", "arm", 0), Fault("ik_limit", "arm", 0), Fault("fk_keys", "arm", 0.8))
    rig = faulted_rig(faults)
    (verdict,) = [v for v in judge_chains(rig) if v.owner == "forearm.L"]
    assert verdict.state == "pass", verdict.reason
    (keys,) = [f for f in findings_of(rig, "fk_ik_mix") if f.bone == "forearm.L"]
    assert (keys.fix_id, keys.stated["blocked_by"]) == (None, "turned_root")
    assert "upper_arm.L 0.4 rad about its own Y" in (keys.no_fix_reason or "")
    assert list(judge(faults, fixes=True).problems()) == []
    cleared = faulted_rig(faults[:2])
    (verdict,) = [v for v in judge_chains(cleared) if v.owner == "forearm.L"]
    assert verdict.fails, "without the keys' turn the limit stops the arm short"


@pytest.mark.parametrize(("limb", "turn"), [("leg", -30), ("arm", -70)])
def test_keys_whose_flip_a_limit_rotation_clamps_are_not_called_flipping(limb, turn) -> None:
    """Fresh seed 164: the upper bone keyed and the lower posed against its bend flips the
    joint (the error stands), but a Limit Rotation holding the lower bone to 0..0.1 rad about
    its X clamps that turn where the solver starts, and the limb lands: fk_ik_mix read the pose
    without the clamp, as rest_pose no longer does."""
    faults = (Fault("pose_rotation", limb, turn), Fault("fk_keys", limb, 0.55))
    flipped = faulted_rig(faults)
    owner = {"leg": "shin.L", "arm": "forearm.L"}[limb]
    (verdict,) = [v for v in judge_chains(flipped) if v.owner == owner]
    assert verdict.fails and verdict.bend_from_pole > 170  # degrees
    (error,) = findings_of(flipped, "fk_ik_mix")
    assert (error.severity, error.title) == (Severity.ERROR, "FK keys flip the joint")
    judged = judge((*faults, Fault("overriding_constraint", limb, 4)))
    assert judged.holds and not judged.unexplained, "\n".join(judged.problems())
    assert all(v.state == "pass" for v in judged.verdicts)
    assert [f.severity for f in judged.findings if f.check_id == "fk_ik_mix"] == [Severity.INFO]


@pytest.mark.parametrize(("turn", "lands"), [(150, True), (120, True), (60, False)])
def test_keys_that_flip_the_start_under_a_pole_angle_turned_round_land(turn, lands) -> None:
    """Fresh seed 236 (a false error): the arm posed -70° at the elbow and keyed 0.3 rad at the
    upper arm starts bent backwards, but the pole angle turned 120° or 150° turns the chain
    round so the mirrored bend faces the pole, and it lands; turned 60° it ends 117° away.
    (Blender clamps the angle to ±180°: the fault's -150° from the rest -90° is a quarter
    turn, side-on, which this does not read.)"""
    faults = (
        Fault("pose_rotation", "arm", -70),
        Fault("fk_keys", "arm", 0.3),
        Fault("pole_angle", "arm", turn),
    )
    judged = judge(faults)
    assert [v.state for v in judged.verdicts if v.owner == "forearm.L"] == [
        "pass" if lands else "fail"
    ]
    assert list(judged.problems()) == []
    (keys,) = [f for f in judged.findings if f.check_id == "fk_ik_mix"]
    assert keys.severity == (Severity.WARNING if lands else Severity.ERROR)


@pytest.mark.parametrize(
    ("limb", "turned", "lands"),
    [
        ("leg", (Fault("pole_angle", "leg", -110), Fault("pose_rotation", "leg", -50)), True),
        ("arm", (Fault("pole_angle", "arm", 90), Fault("pose_rotation", "arm", -20)), True),
        ("arm", (Fault("tail_off", "arm", 0), Fault("pole_behind", "arm", 0)), False),
    ],
)
def test_keys_that_flip_the_start_a_quarter_turn_off_land_where_the_start_says(
    limb, turned, lands
) -> None:
    """Turned a quarter turn, the mirrored bend ends as far from the pole as the keys started
    it from a half turn: with Use Tail exactly 90°, inside the oracle's 91° (seed 247, a false
    error: the leg's angle turned -110° from rest, clamped to a quarter turn, posed -50°, keyed
    0.5); the arm without Use Tail keyed at the upper arm starts 14° short of it and ends 104°
    away (``core.posed_bend.flipped_turn``)."""
    judged = judge((*turned, Fault("fk_keys", limb, 0.5 if limb == "leg" else 0.3)))
    owner = LIMBS[limb].owner
    assert [v.state for v in judged.verdicts if v.owner == owner] == ["pass" if lands else "fail"]
    assert list(judged.problems()) == []
    (keys,) = [f for f in judged.findings if f.check_id == "fk_ik_mix"]
    assert keys.severity == (Severity.WARNING if lands else Severity.ERROR)


@pytest.mark.parametrize(
    ("limb", "kind", "amount"), [("leg", "ik_limit", 3), ("arm", "ik_lock", 0)]
)
def test_keys_that_bend_a_joint_below_that_inherits_no_rotation_are_kept(
    limb, kind, amount
) -> None:
    """Fresh seed 258 (a trade): the lower bone inherits no rotation and is held on X, so the
    keys on the upper bone bend the joint the solver cannot fold: it lands, and with the keys
    cleared stops 4.9% (the leg) short. The fix waits for the joint to be freed."""
    kept = (Fault(kind, limb, amount), Fault("inherit_rotation_off", limb, 0))
    judged = judge((*kept, Fault("fk_keys", limb, 0.3)))
    owner = LIMBS[limb].owner
    assert [v.state for v in judged.verdicts if v.owner == owner] == ["pass"]
    assert list(judged.problems()) == []
    (keys,) = [f for f in judged.findings if f.check_id == "fk_ik_mix"]
    assert keys.fix_id is None and keys.stated["blocked_by"] == "kept_bend"
    cleared = faulted_rig(kept)
    assert [v.state for v in judge_chains(cleared) if v.owner == owner] == ["fail"]


def test_keys_that_swing_a_bone_locked_on_its_bend_axis_are_kept() -> None:
    """Fresh seed 263 (a trade): the arm without Use Tail, its upper arm IK-locked on X and
    keyed 0.3 rad, starts it turned about its own Z and folds it there (the locks check's
    swung start): it lands, and with the keys cleared stops short. The fix waits."""
    kept = (Fault("tail_off", "arm", 0), Fault("ik_lock", "arm", 1))
    judged = judge((*kept, Fault("fk_keys", "arm", 0.3)))
    assert [v.state for v in judged.verdicts if v.owner == "forearm.L"] == ["pass"]
    assert list(judged.problems()) == []
    (keys,) = [f for f in judged.findings if f.check_id == "fk_ik_mix"]
    assert keys.fix_id is None and keys.stated["blocked_by"] == "swung_hold"
    assert "upper_arm.L 0.045 rad about its own Z" in (keys.no_fix_reason or "")
    cleared = faulted_rig(kept)
    assert [v.state for v in judge_chains(cleared) if v.owner == "forearm.L"] == ["fail"]


@pytest.mark.parametrize(
    ("amount", "turned", "lands"),
    [(0.3, 0, False), (-0.8, 0, False), (0.3, 180, True), (-0.3, 180, True), (0.3, -10, True)],
)
def test_keys_that_twist_a_straight_limb_turned_side_on_decide_its_side(
    amount, turned, lands
) -> None:
    """Fresh seed 265: the straight arm without Use Tail, its upper arm keyed (twisting it 9°
    to 23°), its pole angle turning it a quarter turn: the pole keeps the twist, which turns
    the start past the quarter turn one way (98° to 111° from the pole, a miss under
    warnings) and short of it the other (it lands). Straight at rest there is no rest bend
    for the keys to flip: once the pole fix sets the rest angle the keyed start lands, and
    where the keys are what bends it, clearing them waits."""
    faults = (
        Fault("fk_keys", "arm", amount),
        Fault("tail_off", "arm", 0),
        Fault("straight", "arm", 0),
        Fault("pole_angle", "arm", turned),
    )
    judged = judge(faults)
    assert list(judged.problems()) == []
    assert [v.state for v in judged.verdicts if v.owner == "forearm.L"] == [
        "pass" if lands else "fail"
    ]
    (keys,) = [f for f in judged.findings if f.check_id == "fk_ik_mix"]
    start = next(f for f in judged.findings if f.check_id == "rest_pose")
    if lands:
        assert (keys.severity, start.severity) == (Severity.INFO, Severity.WARNING)
        assert keys.fix_id is None and keys.stated["blocked_by"] == "straight_start"
    else:
        assert (keys.severity, start.severity) == (Severity.ERROR, Severity.ERROR)
        # Twisted 9° past the quarter turn it is turned round; 23° the other way, short of it.
        assert ("posed twist" in start.message) == (amount == 0.3)


@pytest.mark.parametrize(("limb", "held"), [("arm", True), ("leg", False)])
def test_keys_above_a_held_joint_whose_copied_start_they_swing_stay(limb, held) -> None:
    """Fresh seed 304 (a trade): the forearm limited ±3° on X and copying the foot control's
    rotation lands under the upper arm keyed 0.3 rad, which swings that start about the
    forearm's Z, and it folds about Z; with the keys cleared it stopped 6.1% short (the locks
    check's error). The keys stay until the X limit is freed. The shin so built, copying the
    hand control's rotation, starts swung with or without them: their fix goes (and ``judge``
    applies it: the leg still lands)."""
    faults = (
        Fault("fk_keys", limb, 0.3),
        Fault("overriding_constraint", limb, 5),
        Fault("ik_limit", limb, 3),
    )
    judged = judge(faults)
    assert list(judged.problems()) == []
    owner = LIMBS[limb].owner
    assert [v.state for v in judged.verdicts if v.owner == owner] == ["pass"]
    (keys,) = [f for f in judged.findings if f.check_id == "fk_ik_mix" and f.chain[0] == owner]
    if not held:
        assert keys.fix_id == "clear_keys"
        return
    assert (keys.fix_id, keys.stated["blocked_by"]) == (None, "swung_hold")
    assert f"free the X IK axis of {owner} first" in keys.no_fix_reason


@pytest.mark.parametrize("limb", ["arm", "leg"])
@pytest.mark.parametrize(("pose", "waits"), [(-20, True), (-70, True), (20, False)])
def test_keys_turning_the_root_of_a_straight_limb_on_opposed_hinges_wait(limb, pose, waits):
    """Fresh seed 386 (a trade): the straight leg whose hinges fold opposite ways, its shin
    posed -20° the way its limits fold it and its thigh keyed 0.8 rad, lands; the keys cleared,
    the root no longer turns and the leg stops 0.7% short. That fix waits; posed toward the
    pole (which its root's limit leaves short: the rest_pose check's error), the keys may go."""
    faults = (
        Fault("straight_one_sided", limb, 3),
        Fault("fk_keys", limb, 0.8),
        Fault("pose_rotation", limb, pose),
    )
    judged = judge(faults)
    owner = LIMBS[limb].owner
    assert [v.state for v in judged.verdicts if v.owner == owner] == ["pass" if waits else "fail"]
    assert list(judged.problems()) == []
    (keys,) = [f for f in judged.findings if f.check_id == "fk_ik_mix"]
    assert (keys.fix_id is None) == waits
    if waits:
        assert keys.stated["blocked_by"] == "straight_start"
        cleared = judge(faults[::2], fixes=False)
        assert [v.state for v in cleared.verdicts if v.owner == owner] == ["fail"]


@pytest.mark.parametrize(("limb", "pose"), [("leg", 150), ("arm", 140)])
def test_keys_that_start_a_joint_inheriting_no_rotation_on_its_side_are_kept(limb, pose) -> None:
    """Fresh seed 417 (a trade): the lower bone, inheriting no rotation, posed 140° or 150°
    into its bend under an upper bone keyed 0.8 rad starts bent 113° to 119° its way and lands;
    the keys cleared, its own pose starts it past where the body's turn folds it through, and
    it ends 180° from its pole. The fix waits for Inherit Rotation."""
    kept = (Fault("pose_rotation", limb, pose), Fault("inherit_rotation_off", limb, 0))
    judged = judge((*kept, Fault("fk_keys", limb, 0.8)))
    owner = LIMBS[limb].owner
    assert [v.state for v in judged.verdicts if v.owner == owner] == ["pass"]
    assert list(judged.problems()) == []
    (keys,) = [f for f in judged.findings if f.check_id == "fk_ik_mix"]
    assert keys.fix_id is None and keys.stated["blocked_by"] == "kept_bend"
    assert "Inherit Rotation" in keys.no_fix_reason
    cleared = faulted_rig(kept)
    assert [v.state for v in judge_chains(cleared) if v.owner == owner] == ["fail"]


@pytest.mark.parametrize(
    ("limb", "angle", "keys", "override"),
    [("leg", 100, 0.8, 1), ("leg", 150, 0.8, 1), ("arm", 100, 0.3, 0), ("arm", 150, 0.8, 1)],
)
def test_keys_that_turn_a_flipped_start_the_pole_angle_turns_back_stay(
    limb, angle, keys, override
) -> None:
    """Fresh seed 442, a trade: the leg whose shin a Damped Track aims at the foot control, its
    thigh keyed 0.8 and 0.4 rad and the pole angle turned 100°, lands 68° from its pole (the
    track starts the joint bent the other way, the angle turns it back); cleared, the start comes
    the rest way and the angle alone bends it 99° away. Measured on 4.2, the leg and the arm, the
    angle turned ±100° or 150°, keyed 0.1 to 0.8 rad, under each overriding constraint: 8 trades
    of 108 rigs to none."""
    faults = (
        Fault("pole_angle", limb, angle),
        Fault("fk_keys", limb, keys),
        Fault("overriding_constraint", limb, override),
    )
    judged = judge(faults)
    assert list(judged.problems()) == []
    (kept,) = [f for f in judged.findings if f.check_id == "fk_ik_mix"]
    assert kept.fix_id is None and kept.stated["blocked_by"] == "turned_back"
