"""Faults in the file, not in the exporter's settings, that a game gets wrong: found by
exporting, and their cause proved by exporting again with the rig changed for that export."""

from __future__ import annotations

import bpy
import pytest
from export_faults import (
    deform_bones_under_a_moving_control,
    spine_euler_wrapping,
    target_in_an_empty_only,
    target_in_an_empty_waving,
    thigh_scale_keyed_unevenly,
    thigh_scaled_evenly,
    thigh_scaled_unevenly,
    walk_in_a_slowed_nla_strip,
    walk_in_nla_only,
    walk_in_nla_under_wave,
)
from test_scan_export import file_state

from ik_doctor import run_fix, scan_export
from ik_doctor.verify.export_compare import SCENE
from ik_doctor.verify.export_rig_changes import action_curves
from ik_doctor.verify.export_settings import GLTF_SCENE_KEY

EXPORTERS = ("gltf", "fbx")
DEFORM_ONLY = {"gltf": {"export_def_bones": True}, "fbx": {"use_armature_deform_only": True}}


@pytest.mark.parametrize("exporter", EXPORTERS)
def test_an_action_keyed_over_an_nla_track_gets_the_track_baked_in(rig, exporter) -> None:
    walk_in_nla_under_wave(rig)
    before = file_state(rig)
    (finding,) = scan_export(rig, exporter)
    assert (finding.check_id, finding.severity, finding.action) == ("export", "error", "Wave")
    assert finding.args["cause"] == "nla" and finding.fix_id is None and finding.no_fix_reason
    assert finding.occurrences[0].worst > 0.05
    assert file_state(rig) == before
    assert not any(track.mute for track in rig.animation_data.nla_tracks)
    for track in rig.animation_data.nla_tracks:
        track.mute = True  # as the finding says
    assert scan_export(rig, exporter) == []


@pytest.mark.parametrize("exporter", EXPORTERS)
@pytest.mark.parametrize("fault", [thigh_scaled_unevenly, thigh_scale_keyed_unevenly])
def test_a_thigh_scaled_unevenly_shears_the_shin_the_file_cannot_hold(rig, exporter, fault) -> None:
    fault(rig)
    bpy.context.scene.frame_set(1)  # the keyed scale as the frame plays it
    scale = tuple(rig.pose.bones["thigh.L"].scale)
    (finding,) = scan_export(rig, exporter)
    assert (finding.action, finding.args["cause"], finding.fix_id) == ("Walk", "scale", None)
    assert finding.no_fix_reason and finding.occurrences[0].worst > 0.01
    assert tuple(rig.pose.bones["thigh.L"].scale) == scale
    assert not any(curve.mute for curve in action_curves(rig.animation_data.action))


def test_the_same_thigh_scaled_evenly_arrives_in_gltf(rig) -> None:
    thigh_scaled_evenly(rig)  # as the finding says: the same on X, Y and Z
    assert scan_export(rig, "gltf") == []


def test_fbx_misses_the_thigh_scaled_evenly_too(rig) -> None:
    thigh_scaled_evenly(rig)
    (finding,) = scan_export(rig, "fbx")
    assert (finding.args["cause"], finding.fix_id) == ("scale", None)
    assert finding.occurrences[0].worst > 0.05


def test_fbx_all_actions_stops_the_empty_the_leg_aims_at(rig) -> None:
    target_in_an_empty_waving(rig)
    frames = (bpy.context.scene.frame_start, bpy.context.scene.frame_end)
    found = scan_export(rig, "fbx")  # All Actions also writes the Empty's action as a take
    (finding,) = [f for f in found if f.action == "Wave"]
    assert (finding.args["cause"], finding.fix_id) == ("scene_take", None)
    assert finding.no_fix_reason and finding.occurrences[0].worst > 0.05
    assert (bpy.context.scene.frame_start, bpy.context.scene.frame_end) == frames
    scene_take = dict(finding.args["settings"])
    bpy.context.scene.frame_end = 12  # the scene's range over the wave, as the finding says
    assert scan_export(rig, "fbx", scene_take) == []


def test_fbx_s_take_of_a_slowed_strip_is_compared_with_the_strip_as_it_plays(rig) -> None:
    walk_in_a_slowed_nla_strip(rig)
    track = rig.animation_data.nla_tracks[0]
    before = file_state(rig)
    assert scan_export(rig, "fbx") == []
    assert file_state(rig) == before
    assert (track.mute, track.is_solo, track.strips[0].mute) == (False, False, False)


def test_gltf_bakes_the_leg_aiming_at_an_empty(rig) -> None:
    target_in_an_empty_waving(rig)
    assert scan_export(rig, "gltf") == []


def test_gltf_writes_no_motion_for_an_armature_only_its_empty_target_moves(rig) -> None:
    target_in_an_empty_only(rig)
    before = file_state(rig)
    (finding,) = scan_export(rig, "gltf")
    assert (finding.action, finding.args["cause"]) == (SCENE, "bake_all")
    assert finding.fix_id == "store_export_setting" and finding.occurrences[0].worst > 0.05
    assert file_state(rig) == before
    assert run_fix(finding).changed
    assert bpy.context.scene[GLTF_SCENE_KEY]["export_bake_animation"] is True
    assert scan_export(rig, "gltf") == []


def test_fbx_writes_no_motion_for_it_either_and_its_scene_take_lands_it(rig) -> None:
    target_in_an_empty_only(rig)
    (finding,) = scan_export(rig, "fbx")
    assert (finding.action, finding.args["cause"], finding.fix_id) == (SCENE, "scene_take", None)
    assert finding.no_fix_reason and finding.occurrences[0].worst > 0.05
    assert scan_export(rig, "fbx", dict(finding.args["settings"])) == []


@pytest.mark.parametrize("exporter", EXPORTERS)
@pytest.mark.parametrize(
    "fault",
    [
        walk_in_nla_only,
        walk_in_a_slowed_nla_strip,
        deform_bones_under_a_moving_control,
        spine_euler_wrapping,
    ],
)
def test_what_the_export_measured_alike_is_quiet(rig, exporter, fault) -> None:
    fault(rig)
    assert scan_export(rig, exporter, DEFORM_ONLY[exporter]) == []
