"""Verify by solving on the animator's frames: the scan finds what fails where it was keyed.

Each rig here is the reference character with a walk keyed on its left foot control: the foot
lifts and swings within the leg's reach. The scan must stay quiet on it, and name the cause it
proves by solving once a fault is added, with a fix after which a rescan finds the foot landing.
"""

from __future__ import annotations

import math
from dataclasses import replace

import bpy
import pytest
from mathutils import Vector

from ik_doctor import apply_fix, diagnose, run_fix
from ik_doctor.core.rig import RigView
from ik_doctor.core.scan_proofs import with_scan_proofs
from ik_doctor.verify.animation import frame_ranges, scan_animation, suspects

FRAMES = range(1, 13)


def key_walk(rig: bpy.types.Object, name: str = "Walk", lift: float = 0.25) -> bpy.types.Action:
    """Key foot_ik.L lifting ``lift`` and swinging forward and back over frames 1-12."""
    animation = rig.animation_data or rig.animation_data_create()
    animation.action = bpy.data.actions.new(name)
    control = rig.pose.bones["foot_ik.L"]
    rest = control.matrix.copy()
    for frame in FRAMES:
        phase = 2.0 * math.pi * (frame - 1) / len(FRAMES)
        offset = Vector((0.0, -0.2 * math.sin(phase), lift + 0.1 * math.cos(phase)))
        matrix = rest.copy()
        matrix.translation = rest.translation + offset
        control.matrix = matrix
        bpy.context.view_layer.update()
        control.keyframe_insert("location", frame=frame)
    control.location = (0.0, 0.0, 0.0)
    return animation.action


def scan_errors(rig: bpy.types.Object, **kwargs) -> list:
    return [f for f in scan_animation(rig, **kwargs) if f.severity in ("error", "warning")]


def test_a_walk_the_leg_can_reach_is_quiet(rig) -> None:
    key_walk(rig)
    assert scan_errors(rig) == []


def test_a_locked_knee_misses_its_keyed_foot_and_freeing_the_lock_lands_it(rig) -> None:
    key_walk(rig)
    rig.pose.bones["shin.L"].lock_ik_x = True
    (finding,) = scan_errors(rig)
    assert (finding.check_id, finding.bone, finding.action) == ("verify", "shin.L", "Walk")
    assert finding.severity == "error" and finding.fix_id == "free_ik_locks"
    assert (finding.args["cause"], finding.args["axes"], finding.args["bones"]) == (
        "ik_lock",
        "x",
        ("shin.L",),
    )
    assert finding.frames and all(1 <= a <= b <= 12 for a, b in finding.frames)
    result = run_fix(finding)
    assert (result.changed, result.touched) == (True, ("shin.L", "IK"))
    assert not rig.pose.bones["shin.L"].lock_ik_x
    assert scan_errors(rig) == []
    assert not run_fix(finding).changed


def test_a_foot_keyed_beyond_the_leg_is_a_warning_with_the_shortfall(rig) -> None:
    key_walk(rig, lift=-0.6)  # below the floor: further than the leg reaches
    (finding,) = scan_errors(rig)
    assert finding.severity == "warning" and finding.args["problem"] == "beyond_reach"
    assert finding.fix_id is None


def test_an_ik_keyed_half_on_leaves_the_tip_between_fk_and_ik(rig) -> None:
    key_walk(rig)
    ik = rig.pose.bones["shin.L"].constraints["IK"]
    for frame, influence in ((1, 1.0), (5, 0.5), (8, 1.0)):
        ik.influence = influence
        ik.keyframe_insert("influence", frame=frame)
    (finding,) = scan_errors(rig)
    assert finding.args["problem"] == "half_switch" and finding.severity == "warning"
    assert finding.frames[0][0] >= 2 and finding.frames[-1][1] <= 7


def test_each_nla_action_is_scanned_on_its_own(rig) -> None:
    walk = key_walk(rig, "Walk")
    broken = key_walk(rig, "Reach", lift=-0.6)
    animation = rig.animation_data
    track = animation.nla_tracks.new()
    track.strips.new("Walk", 1, walk)
    animation.action = broken
    actions = {f.action for f in scan_errors(rig)}
    assert actions == {"Reach"}
    assert scan_errors(rig, actions=["Walk"]) == []


def test_the_scan_changes_nothing_the_animator_can_see(rig) -> None:
    walk = key_walk(rig)
    rig.pose.bones["shin.L"].lock_ik_x = True
    animation = rig.animation_data
    track = animation.nla_tracks.new()
    track.strips.new("Walk", 1, walk)
    track.mute = True
    animation.action = None
    scene = bpy.context.scene
    scene.frame_set(4)
    bpy.context.view_layer.objects.active = rig
    bpy.ops.object.mode_set(mode="POSE")
    rig.pose.bones["hand_ik.R"].location = (0.01, 0.02, 0.03)  # posed by hand, not keyed
    rig.data.bones.active = rig.data.bones["thigh.R"]

    def state() -> tuple:
        return (
            scene.frame_current,
            animation.action,
            animation.use_nla,
            [(t.mute, t.is_solo) for t in animation.nla_tracks],
            [
                (tuple(b.location), tuple(b.rotation_quaternion), tuple(b.scale))
                for b in rig.pose.bones
            ],
            rig.mode,
            rig.data.bones.active.name,
        )

    before = state()
    assert scan_errors(rig), "the locked knee is found in the muted track's action"
    assert state() == before


def test_a_rig_without_animation_is_judged_at_the_oracle_s_goals(rig) -> None:
    for name in ("thigh.L", "shin.L"):
        bone = rig.pose.bones[name]
        bone.ik_stiffness_x = bone.ik_stiffness_y = bone.ik_stiffness_z = 0.99
    findings = scan_errors(rig)
    assert [(f.bone, f.severity, f.action) for f in findings] == [("shin.L", "error", None)]
    assert (findings[0].args["problem"], findings[0].args["cause"]) == ("miss", "stiffness")


def test_frame_ranges_join_runs() -> None:
    assert frame_ranges([7, 1, 2, 3, 9, 8, 12]) == ((1, 3), (7, 9), (12, 12))


def test_an_unknown_action_name_is_a_clear_error(rig) -> None:
    with pytest.raises(ValueError, match="no action named 'Nope'"):
        scan_animation(rig, actions=["Nope"])


def test_a_narrow_knee_limit_is_named_as_the_cause_and_dropped(rig) -> None:
    key_walk(rig)
    shin = rig.pose.bones["shin.L"]
    shin.use_ik_limit_x, shin.ik_min_x, shin.ik_max_x = True, 0.0, math.radians(5.0)
    (finding,) = [f for f in scan_errors(rig) if f.args["problem"] == "miss"]
    assert finding.fix_id == "drop_ik_limits" and finding.args["bones"] == ("shin.L",)
    assert (finding.args["cause"], finding.args["axes"]) == ("ik_limit", "x")
    apply_fix(finding)
    assert not shin.use_ik_limit_x and shin.ik_max_x == pytest.approx(math.radians(5.0))
    assert [f for f in scan_errors(rig) if f.args["problem"] == "miss"] == []


def test_every_suspect_names_the_bones_it_changes(rig) -> None:
    for name in ("thigh.L", "shin.L"):
        rig.pose.bones[name].ik_stiffness_y = 0.5
    rig.pose.bones["shin.L"].lock_ik_z = True
    chain = RigView(rig).chain("shin.L", "IK")
    found = {s.fix_id: s for s in suspects(rig, RigView(rig), chain) if s.fix_id}
    assert found["clear_stiffness"].fix_args == (("bones", ("shin.L", "thigh.L")),)
    assert dict(found["free_ik_locks"].fix_args) == {"axes": "z", "bones": ("shin.L",)}
    changed = {(owner.name, name) for owner, name, _ in found["clear_stiffness"].changes}
    assert ("thigh.L", "ik_stiffness_y") in changed


def test_the_same_lock_in_two_actions_is_one_finding_listing_both(rig) -> None:
    walk = key_walk(rig, "Walk")
    key_walk(rig, "Stride", lift=0.3)
    rig.animation_data.nla_tracks.new().strips.new("Walk", 1, walk)
    rig.pose.bones["shin.L"].lock_ik_x = True
    (finding,) = scan_errors(rig)
    assert finding.fix_id == "free_ik_locks" and finding.args["cause"] == "ik_lock"
    assert {o.action for o in finding.occurrences} == {"Walk", "Stride"}
    worst = max(finding.occurrences, key=lambda o: o.worst)
    assert (finding.action, finding.frames) == (worst.action, worst.frames)
    assert finding.args["worst_frame"] == worst.worst_frame
    assert all(o.frames and o.worst > 0.01 for o in finding.occurrences)
    apply_fix(finding)
    assert scan_errors(rig) == []


def test_an_aim_nested_in_the_leg_is_the_nesting_finding_proved_not_a_second_error(rig) -> None:
    key_walk(rig)
    aim = rig.pose.bones["thigh.L"].constraints.new("IK")
    aim.target, aim.subtarget, aim.chain_count = rig, "hand_ik.L", 1
    bpy.context.view_layer.update()
    found = with_scan_proofs(diagnose(rig), scan_animation(rig))
    on_aim = [f for f in found if f.chain == ("thigh.L", aim.name)]
    (nested,) = [f for f in on_aim if f.args.get("cause") == "nested_ik"]
    assert (nested.check_id, nested.severity, nested.action) == ("constraint_order", "error", None)
    assert [o.action for o in nested.occurrences] == ["Walk"]
    assert not [f for f in on_aim if f.check_id == "verify" and f.args.get("problem") == "miss"]


def test_a_locked_knee_is_the_locks_finding_proved_not_a_second_error(rig) -> None:
    key_walk(rig)
    rig.pose.bones["shin.L"].lock_ik_x = True
    found = with_scan_proofs(diagnose(rig), scan_animation(rig))
    on_shin = [f for f in found if f.args.get("cause") == "ik_lock"]
    (lock,) = on_shin
    assert (lock.check_id, lock.fix_id, lock.severity) == ("locks", "free_axes", "error")
    assert (lock.args["axes"], lock.args["bones"], lock.action) == ("x", ("shin.L",), None)
    assert [o.action for o in lock.occurrences] == ["Walk"]
    assert not [f for f in found if f.check_id == "verify" and f.args.get("problem") == "miss"]


def test_a_lock_the_check_names_on_other_axes_than_the_scan_proves_stays_apart(rig) -> None:
    key_walk(rig)
    rig.pose.bones["shin.L"].lock_ik_x = True
    scanned = [
        replace(f, fix_args=tuple((k, "z" if k == "axes" else v) for k, v in f.fix_args))
        for f in scan_animation(rig)
    ]
    found = with_scan_proofs(diagnose(rig), scanned)
    assert {f.check_id for f in found if f.args.get("cause") == "ik_lock"} == {"locks", "verify"}
