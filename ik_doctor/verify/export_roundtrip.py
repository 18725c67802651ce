"""What a game gets: an armature exported with Blender's own exporter and read back.

The file is written by the glTF or FBX exporter shipped with Blender (``bpy.ops.export_scene``),
with the settings the user exports with, into a temporary folder, and imported by the matching
importer into a scratch scene. Everything the trip makes (the scene, the imported armature,
its actions) is removed afterwards, the file too, and the user's selection, active object and
mode are put back: the exporter itself needs the armature selected, and FBX leaves Pose Mode.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import bpy

from ..core.names import readable

_ONLY_THE_ARMATURE: dict[str, dict[str, Any]] = {
    "gltf": {
        "use_selection": True,
        "use_visible": False,
        "use_renderable": False,
        "use_active_collection": False,
        "use_active_scene": False,
        "export_format": "GLB",
        "export_skins": True,
        "collection": "",
        "will_save_settings": False,
    },
    "fbx": {
        "use_selection": True,
        "use_visible": False,
        "use_active_collection": False,
        "collection": "",
    },
}
"""What every trip overrides, whatever the user's settings: only the armature and its parents
are written (not a collection exporter's collection), into one file, and the scene's remembered
glTF settings stay as they are. None of these changes how a joint moves."""

_IMPORT: dict[str, dict[str, Any]] = {
    "gltf": {"disable_bone_shape": True},  # its bone shape is made through bpy.ops in a scene
    "fbx": {"anim_offset": 0.0},  # frames as exported
}


class ExportFailed(ValueError):
    """Blender's exporter raised on this rig with these settings (measured: glTF 5.3 divides
    by zero on the Rat with Always Sample Animations off)."""


@dataclass(frozen=True)
class ImportedAction:
    """One action as the file gives it back."""

    source: bpy.types.Action
    """The user's action it was baked from."""
    imported: bpy.types.Action
    offset: int
    """The imported action's frame for the source's frame 0 (glTF's Slide to Zero and FBX's
    takes move it)."""
    strip: str = ""
    """For an FBX take baked from an NLA strip: the strip, whose own timing the take holds
    (measured: the walk's strip scaled 2 came back 23 frames long)."""


@dataclass(frozen=True)
class Trip:
    """The armature read back from the file, in a scene of its own."""

    exporter: str
    scene: bpy.types.Scene
    armature: bpy.types.Object | None
    """None when the file holds no armature (nothing to compare)."""
    actions: tuple[ImportedAction, ...]

    @property
    def depsgraph(self) -> bpy.types.Depsgraph:
        depsgraph = self.scene.view_layers[0].depsgraph
        assert depsgraph is not None  # the stubs make it optional; a scene's layer has one
        return depsgraph


@contextmanager
def round_trip(obj: bpy.types.Object, exporter: str, settings: Mapping[str, Any]) -> Iterator[Trip]:
    """Export ``obj`` with ``settings`` and import the file into a scratch scene; on leaving,
    remove everything made on the way."""
    folder = Path(tempfile.mkdtemp(prefix="ik_doctor_export_"))
    made_before = _every_block()
    try:
        path = folder / ("rig.glb" if exporter == "gltf" else "rig.fbx")
        write_export(obj, exporter, settings, path)
        scene = bpy.data.scenes.new("IK Doctor export check")
        actions_before = set(bpy.data.actions)
        _import(exporter, path, scene)
        new_actions = set(bpy.data.actions) - actions_before
        armature = next((o for o in scene.objects if o.type == "ARMATURE"), None)
        found = () if armature is None else _matched(obj, armature, exporter, settings, new_actions)
        yield Trip(exporter, scene, armature, found)
    finally:
        _remove_made_since(made_before)
        shutil.rmtree(folder, ignore_errors=True)


def write_export(
    obj: bpy.types.Object, exporter: str, settings: Mapping[str, Any], path: Path
) -> None:
    """Write ``obj`` and its parents to ``path`` with the exporter and ``settings``, as the trip
    does (the benchmark times this alone)."""
    with _selection_kept(obj):
        _export(exporter, path, {**settings, **_ONLY_THE_ARMATURE[exporter]})


def exporter_default(exporter: str, name: str) -> Any:
    """The exporter's own default for one of its settings (None for no such setting)."""
    prop = _settings_of(exporter).get(name)
    return None if prop is None else prop.default


def _settings_of(exporter: str) -> Any:
    operator = bpy.ops.export_scene.gltf if exporter == "gltf" else bpy.ops.export_scene.fbx
    # The stubs take get_rna_type for an unbound method; it is called on the operator.
    return operator.get_rna_type().properties  # type: ignore[call-arg]


def _export(exporter: str, path: Path, settings: Mapping[str, Any]) -> None:
    unknown = sorted(set(settings) - set(_settings_of(exporter).keys()))
    if unknown:
        raise ValueError(f"The {exporter} exporter has no setting {', '.join(unknown)}.")
    operator = bpy.ops.export_scene.gltf if exporter == "gltf" else bpy.ops.export_scene.fbx
    try:
        operator(filepath=str(path), **settings)
    except RuntimeError as error:  # the exporter's own exception, as its operator reports it
        lines = [line for line in str(error).splitlines() if line.strip()]
        said = [line for line in lines if not line.startswith("Location:")][-1:] or ["?"]
        raise ExportFailed(f"Blender's {exporter} exporter failed on this rig: {said[0]}") from None


def _import(exporter: str, path: Path, scene: bpy.types.Scene) -> None:
    """Import into ``scene``, shown in the window meanwhile: the importers act on the window's
    active object (FBX's enters Edit Mode on it; measured: with no active object in the user's
    view layer it failed, with one it would have edited the user's), and glTF's leaves the
    window on the scene it imported into. The window's scene and view layer are put back."""
    operator = bpy.ops.import_scene.gltf if exporter == "gltf" else bpy.ops.import_scene.fbx
    window = bpy.context.window
    shown = (window.scene, window.view_layer) if window is not None else None
    layer = scene.view_layers[0]
    try:
        if window is not None:
            window.scene = scene
            window.view_layer = layer
        with bpy.context.temp_override(scene=scene, view_layer=layer, collection=scene.collection):
            operator(filepath=str(path), **_IMPORT[exporter])
    finally:
        if window is not None and shown is not None:
            window.scene = shown[0]
            window.view_layer = shown[1]


def _matched(
    obj: bpy.types.Object,
    armature: bpy.types.Object,
    exporter: str,
    settings: Mapping[str, Any],
    new_actions: set[bpy.types.Action],
) -> tuple[ImportedAction, ...]:
    """Each imported action with the user's action it came from, found by the name the exporter
    gave it: glTF's animation is the action's name (its NLA track's, on import), FBX's take is
    "Object|Action" and its importer adds "Imported|" in front. A take named for no action (a
    scene-wide bake) came from the active action."""
    animation = armature.animation_data
    candidates: list[tuple[str, bpy.types.Action]] = []
    if animation is not None:
        for track in animation.nla_tracks:
            candidates += [(track.name, s.action) for s in track.strips if s.action is not None]
        if animation.action is not None and not candidates:
            candidates.append((animation.action.name, animation.action))
    candidates += [(a.name, a) for a in new_actions if all(a is not c for _, c in candidates)]
    active = obj.animation_data.action if obj.animation_data is not None else None
    strips = _fbx_strips(obj, settings) if exporter == "fbx" else {}
    found: dict[str, ImportedAction] = {}
    for name, imported in candidates:
        if exporter == "fbx":
            name = name.removeprefix(f"{armature.name}|")
            strip = strips.get(name)
            if strip is not None and strip.action.name not in found:
                offset = -round(strip.frame_start)  # the take starts at 0
                found[strip.action.name] = ImportedAction(strip.action, imported, offset, name)
                continue
            name = name.removeprefix(f"{obj.name}|")
        source = bpy.data.actions.get(name)
        if source is None or source in new_actions:
            source = active
        if source is None or source.name in found:
            continue
        offset = _slide(source, settings) if exporter == "gltf" else _take_start(source, settings)
        found[source.name] = ImportedAction(source, imported, offset)
    return tuple(found.values())


def _fbx_strips(obj: bpy.types.Object, settings: Mapping[str, Any]) -> dict[str, Any]:
    """The NLA strips FBX bakes into takes of their own, named by the strip (NLA Strips on):
    each playing strip of a playing track."""
    animation = obj.animation_data
    if animation is None or not settings.get("bake_anim_use_nla_strips", True):
        return {}
    return {
        strip.name: strip
        for track in animation.nla_tracks
        if not track.mute
        for strip in track.strips
        if not strip.mute and strip.action is not None
    }


def _take_start(action: bpy.types.Action, settings: Mapping[str, Any]) -> int:
    """FBX writes an action's take from time 0 (measured: a walk keyed on frames 1-12 came back
    on 0-11 with the importer's offset at 0); the scene-wide take (without All Actions or NLA
    Strips) keeps the scene's frames (measured: frames 1-6 came back as 1-6)."""
    whole_scene = not settings.get("bake_anim_use_all_actions", True) and not settings.get(
        "bake_anim_use_nla_strips", True
    )
    return 0 if whole_scene else -round(action.frame_range[0])


def _slide(action: bpy.types.Action, settings: Mapping[str, Any]) -> int:
    """glTF's Slide to Zero starts each animation at frame 0 (at the scene's start when the
    export is limited to the playback range)."""
    if not settings.get("export_anim_slide_to_zero"):
        return 0
    scene = bpy.context.scene
    if settings.get("export_frame_range") and scene is not None:
        return -scene.frame_start
    return -round(action.frame_range[0])


# --- leaving the user's file as it was -------------------------------------------------------


@contextmanager
def _selection_kept(obj: bpy.types.Object) -> Iterator[None]:
    """Select only ``obj`` and its parents for the exporter; put back the selection, the
    active object and its mode."""
    layer = bpy.context.view_layer
    if layer is None or layer.objects.get(obj.name) is not obj:
        raise ValueError(f"'{readable(obj)}' is not in the view layer: the exporter cannot see it.")
    selected = [o for o in layer.objects if o.select_get()]
    active = layer.objects.active
    mode = active.mode if active is not None else "OBJECT"
    wanted = [obj]
    while wanted[-1].parent is not None:
        wanted.append(wanted[-1].parent)
    try:
        for other in selected:
            other.select_set(False)
        for chosen in wanted:
            if layer.objects.get(chosen.name) is chosen:
                chosen.select_set(True)
        yield
    finally:
        for other in layer.objects:
            other.select_set(other in selected)
        layer.objects.active = active
        if active is not None and active.mode != mode and bpy.ops.object.mode_set.poll():
            bpy.ops.object.mode_set(mode=mode)


def _collections() -> list[Any]:
    """Every collection of data-blocks in ``bpy.data`` that can be removed from."""
    found = []
    for prop in bpy.types.BlendData.bl_rna.properties:
        if prop.type == "COLLECTION" and prop.identifier not in {"window_managers", "screens"}:
            blocks = getattr(bpy.data, prop.identifier)
            if hasattr(blocks, "remove") and prop.identifier != "workspaces":
                found.append(blocks)
    return found


def _every_block() -> set[Any]:
    return {block for blocks in _collections() for block in blocks}


def _remove_made_since(before: set[Any]) -> None:
    """Remove every data-block that was not there ``before``: the scratch scene and all the
    importer and exporter made."""
    made = [block for blocks in _collections() for block in blocks if block not in before]
    if made:
        bpy.data.batch_remove(made)
