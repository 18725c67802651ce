"""What the game gets: the IK exported with Blender's own exporters, read back and compared.

The reference character walks its left foot control; the leg follows by IK only, so a file that
holds the keys but not the pose the IK makes leaves the game's leg where it stood. The Trex is
a rig nobody here made, whose legs are IK too.
"""

from __future__ import annotations

from pathlib import Path

import bpy
import pytest
import test_ui_support
from test_scan_animation import key_walk

from ik_doctor import run_fix, scan_export
from ik_doctor.ui import report
from ik_doctor.verify.export_settings import GLTF_SCENE_KEY, SettingsSource, settings_source

addon = test_ui_support.addon  # shared fixtures

TREX = Path(__file__).resolve().parents[2] / "shared" / "rigs" / "quaternius_Trex.blend"
NO_SAMPLING = {"export_force_sampling": False}


def file_state(rig: bpy.types.Object) -> dict:
    """What a scan must leave as it was: every data-block, the frame, the actions, selection."""
    scene = bpy.context.scene
    animation = rig.animation_data
    return {
        "blocks": sorted(
            (prop.identifier, block.name)
            for prop in bpy.types.BlendData.bl_rna.properties
            if prop.type == "COLLECTION"
            for block in getattr(bpy.data, prop.identifier)
        ),
        "frame": scene.frame_current,
        "scene": bpy.context.scene.name,
        "action": animation.action.name if animation and animation.action else None,
        "use_nla": animation.use_nla if animation else None,
        "selected": sorted(o.name for o in bpy.context.view_layer.objects if o.select_get()),
        "active": getattr(bpy.context.view_layer.objects.active, "name", None),
        "mode": rig.mode,
        "settings": dict(scene.get(GLTF_SCENE_KEY) or {}),
    }


def test_a_walk_exported_with_the_defaults_arrives_as_blender_poses_it(rig) -> None:
    key_walk(rig)
    assert scan_export(rig, "gltf") == []


def test_without_sampling_the_leg_stays_behind_and_sampling_is_proved_and_stored(rig) -> None:
    key_walk(rig)
    (finding,) = scan_export(rig, "gltf", NO_SAMPLING)
    assert (finding.check_id, finding.severity, finding.action) == ("export", "error", "Walk")
    assert finding.args["cause"] == "sampling" and finding.fix_id == "store_export_setting"
    assert finding.occurrences[0].worst > 0.005 and finding.frames
    (walk,) = finding.occurrences  # keeps the worst joint's distance on every frame
    series = walk.series
    assert series.name.removesuffix("'s tip") == finding.bone and series.limit == 0.005
    assert series.first_frame == 1 and len(series.values) == 12
    assert max(series.values) == series.values[walk.worst_frame - 1] == round(walk.worst, 4)
    bpy.context.scene[GLTF_SCENE_KEY] = NO_SAMPLING  # as the exporter remembers them
    assert run_fix(finding).changed
    assert bpy.context.scene[GLTF_SCENE_KEY]["export_force_sampling"] is True
    assert scan_export(rig, "gltf") == []
    assert not run_fix(finding).changed


def test_the_scan_leaves_the_file_as_it_was(rig) -> None:
    key_walk(rig)
    bpy.context.view_layer.objects.active = rig
    bpy.ops.object.mode_set(mode="POSE")
    bpy.context.scene.frame_set(7)
    before = file_state(rig)
    for exporter, settings in (("gltf", NO_SAMPLING), ("fbx", None)):
        scan_export(rig, exporter, settings)
        assert file_state(rig) == before


def test_a_setting_the_exporter_does_not_have_is_refused(rig) -> None:
    key_walk(rig)
    before = file_state(rig)
    with pytest.raises(ValueError, match="no setting"):
        scan_export(rig, "gltf", {"export_sample_everything": True})
    assert file_state(rig) == before


@pytest.mark.parametrize(
    ("settings", "cause"),
    [({"bake_anim": False}, "bake"), ({"bake_anim_use_all_actions": False}, "all_actions")],
)
def test_fbx_leaving_the_walk_out_names_the_setting_and_where_to_tick_it(
    rig, settings, cause
) -> None:
    key_walk(rig)
    (finding,) = scan_export(rig, "fbx", settings)
    assert (finding.args["problem"], finding.args["cause"]) == ("left_out", cause)
    assert finding.fix_id is None and finding.no_fix_reason


def test_the_verify_export_button_lists_the_miss_and_its_fix_stores_sampling(addon, rig) -> None:
    key_walk(rig)
    bpy.context.view_layer.objects.active = rig
    bpy.ops.object.mode_set(mode="POSE")
    bpy.context.scene[GLTF_SCENE_KEY] = NO_SAMPLING
    assert bpy.ops.ik_doctor.verify_export() == {"FINISHED"}
    rows = list(report.report_for(bpy.context, rig).rows)
    (row,) = [r for r in rows if r.kind == "FINDING" and r.check_id == "export"]
    assert (row.action, report.to_finding(row).args["cause"]) == ("Walk", "sampling")
    assert bpy.ops.ik_doctor.fix_finding(index=rows.index(row)) == {"FINISHED"}
    assert bpy.context.scene[GLTF_SCENE_KEY]["export_force_sampling"] is True
    assert rig.mode == "POSE" and bpy.context.view_layer.objects.active == rig


@pytest.mark.skipif(not TREX.exists(), reason=f"no shared rig at {TREX}")
def test_the_trex_arrives_with_the_defaults_and_misses_without_sampling() -> None:
    bpy.ops.wm.open_mainfile(filepath=str(TREX))
    rig = bpy.data.objects["Armature"]
    assert scan_export(rig, "gltf") == []
    (finding,) = scan_export(rig, "gltf", NO_SAMPLING)
    assert finding.args["cause"] == "sampling" and len(finding.occurrences) == 6
    assert [o.series is not None for o in finding.occurrences].count(True) == 1
    assert max(o.worst for o in finding.occurrences) > 0.1


def test_fbx_baking_the_scene_s_range_cuts_the_walk_where_the_scene_ends(rig) -> None:
    key_walk(rig)
    bpy.context.scene.frame_end = 6
    scene_take = {"bake_anim_use_all_actions": False, "bake_anim_use_nla_strips": False}
    (finding,) = scan_export(rig, "fbx", scene_take)
    assert (finding.args["problem"], finding.args["cause"]) == ("left_out", "all_actions")
    assert finding.frames == ((7, 12),) and bpy.context.scene.frame_end == 6


COLLECTION_EXPORTERS = "exporters" in bpy.types.Collection.bl_rna.properties


def exported_by_collection(rig: bpy.types.Object, handler: str, **settings) -> SettingsSource:
    """The rig moved into a collection whose exporter (Blender 4.2+) holds ``settings``."""
    collection = bpy.data.collections.new("Characters")
    bpy.context.scene.collection.children.link(collection)
    for holder in list(rig.users_collection):
        holder.objects.unlink(rig)
    collection.objects.link(rig)
    with bpy.context.temp_override(collection=collection):
        assert bpy.ops.collection.exporter_add(name=handler) == {"FINISHED"}
    for name, value in settings.items():
        setattr(collection.exporters[0].export_properties, name, value)
    return settings_source(rig, "gltf" if handler == "IO_FH_gltf2" else "fbx")


@pytest.mark.skipif(not COLLECTION_EXPORTERS, reason="Collection Exporters came in Blender 4.2")
def test_a_collection_s_gltf_exporter_is_what_the_user_exports_with_and_its_fix_goes_there(
    rig,
) -> None:
    key_walk(rig)
    bpy.context.scene[GLTF_SCENE_KEY] = {"export_force_sampling": True}
    source = exported_by_collection(rig, "IO_FH_gltf2", export_force_sampling=False)
    assert source.collection == "Characters" and source.read() == NO_SAMPLING
    (finding,) = scan_export(rig, "gltf")
    assert (finding.args["cause"], finding.args["collection"]) == ("sampling", "Characters")
    assert run_fix(finding).changed
    assert source.read() == {"export_force_sampling": True}
    assert bpy.context.scene[GLTF_SCENE_KEY]["export_force_sampling"] is True
    assert scan_export(rig, "gltf") == []
    assert not run_fix(finding).changed


@pytest.mark.skipif(not COLLECTION_EXPORTERS, reason="Collection Exporters came in Blender 4.2")
def test_a_collection_s_fbx_exporter_keeps_the_setting_fbx_itself_cannot(rig) -> None:
    key_walk(rig)
    exported_by_collection(rig, "IO_FH_fbx", bake_anim_use_all_actions=False)
    (finding,) = scan_export(rig, "fbx")
    assert (finding.args["problem"], finding.args["cause"]) == ("left_out", "all_actions")
    assert finding.fix_id == "store_export_setting" and finding.no_fix_reason is None
    assert run_fix(finding).changed
    assert scan_export(rig, "fbx") == []
