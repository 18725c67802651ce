"""The changes an export is repeated with to prove why the game misses, in the order tried.

First the exporter's settings that differ from the user's (sampling on, deform bones only off,
the whole action baked...), then changes for what the rig does (``export_rig_changes``: NLA
tracks muted, a bone's scale made 1, the scene baked as it plays). ``export_scan`` names the
first after which the game's pose matches; each says whether storing it is a safe fix.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import bpy

from .export_rig_changes import (
    NLA_MUTED,
    UNIFORM_SCALE,
    moved_by_others,
    nla_under_action,
    scaled_bones,
    target_objects_animated,
)
from .export_roundtrip import exporter_default


def remedies(
    obj: bpy.types.Object,
    exporter: str,
    settings: Mapping[str, Any],
    actions: Sequence[bpy.types.Action],
) -> list[Remedy]:
    """Every change worth trying for ``actions`` exported with ``settings``, in order."""
    return [
        *_setting_remedies(exporter, settings),
        *_rig_remedies(obj, exporter, settings, actions),
    ]


@dataclass(frozen=True)
class Remedy:
    """One change to the export that may make the game's pose match Blender's."""

    kind: str
    title: str
    """The finding's title when this is the cause."""
    label: str
    """The change, in the exporter's own words: "Always Sample Animations on"."""
    settings: Mapping[str, Any]
    scene_range: bool = False
    """Instead of a setting: the scene's frame range stretched over the action for the export."""
    no_fix_reason: str | None = None
    """Set when storing the setting is not safe or would not help; whether there is a place to
    store it is the settings source's to say (``export_settings``)."""
    change: str = ""
    """Instead of a setting: a change to the rig for the export (see ``export_rig_changes``)."""
    bones: tuple[str, ...] = ()
    """The bones the change is made on."""


DEFORM_REASON = (
    "the game would get the control bones too: make the deform bones' parents deform, "
    "or parent the deform bones to deform bones"
)


def _setting_remedies(exporter: str, settings: Mapping[str, Any]) -> list[Remedy]:
    """The settings worth changing, for the settings as they are: each one differs from them."""

    def value(name: str) -> Any:
        return settings.get(name, exporter_default(exporter, name))

    return _gltf_remedies(value) if exporter == "gltf" else _fbx_remedies(value)


def _gltf_remedies(value: Callable[[str], Any]) -> list[Remedy]:
    found = []
    if not value("export_force_sampling"):
        found.append(
            Remedy(
                "sampling",
                "Game misses: no sampling",
                "Always Sample Animations on",
                {"export_force_sampling": True},
            )
        )
    if value("export_def_bones"):
        found.append(
            Remedy(
                "deform_only",
                "Game misses: deform only",
                "Deform Bones Only off",
                {"export_def_bones": False},
                no_fix_reason=DEFORM_REASON,
            )
        )
    if value("export_frame_range"):
        found.append(
            Remedy(
                "frame_range",
                "Export cuts the action",
                "Limit to Playback Range off",
                {"export_frame_range": False},
            )
        )
    return found


def _fbx_remedies(value: Callable[[str], Any]) -> list[Remedy]:
    found = []
    if not value("bake_anim"):
        found.append(
            Remedy(
                "bake",
                "Export bakes nothing",
                "Baked Animation on",
                {"bake_anim": True},
            )
        )
    if not value("bake_anim_use_all_actions"):
        found.append(
            Remedy(
                "all_actions",
                "Export leaves actions out",
                "All Actions on",
                {"bake_anim_use_all_actions": True},
            )
        )
    if value("bake_anim_simplify_factor") > 0.0:
        found.append(
            Remedy(
                "simplify",
                "Game misses: simplified",
                "Simplify 0",
                {"bake_anim_simplify_factor": 0.0},
            )
        )
    if value("use_armature_deform_only"):
        found.append(
            Remedy(
                "deform_only",
                "Game misses: deform only",
                "Only Deform Bones off",
                {"use_armature_deform_only": False},
                no_fix_reason=DEFORM_REASON,
            )
        )
    if not value("bake_anim_use_all_actions") and not value("bake_anim_use_nla_strips"):
        found.append(
            Remedy(
                "scene_range",
                "Export cuts the action",
                "the scene's frame range covering the action",
                {},
                scene_range=True,
                no_fix_reason="without All Actions the FBX exporter bakes the scene's frame "
                "range: tick All Actions, or set the scene's range to the action's",
            )
        )
    return found


def _rig_remedies(
    obj: bpy.types.Object,
    exporter: str,
    settings: Mapping[str, Any],
    actions: Sequence[bpy.types.Action],
) -> list[Remedy]:
    """The changes worth trying for what the rig does, after the settings: only glTF's Bake
    All Objects Animations can be stored as a fix; the others change what Blender plays, the
    rig, or which actions the file holds."""

    def value(name: str) -> Any:
        return settings.get(name, exporter_default(exporter, name))

    found = []
    if nla_under_action(obj):
        found.append(
            Remedy(
                "nla",
                "Game gets the NLA too",
                "the armature's NLA tracks muted",
                {},
                change=NLA_MUTED,
                no_fix_reason="the exporter bakes the NLA tracks playing under the active "
                "action into it: mute the tracks before exporting",
            )
        )
    evenly_too = exporter == "fbx"
    scaled = tuple(scaled_bones(obj, actions, evenly_too))
    if scaled:
        found.append(
            Remedy(
                "scale",
                "Game misses: bone scale" if evenly_too else "Game misses: bone shear",
                f"{', '.join(scaled)} scaled 1",
                {},
                change=UNIFORM_SCALE,
                bones=scaled,
                no_fix_reason=SCALE_REASONS[exporter],
            )
        )
    targets = ", ".join(target_objects_animated(obj))
    if exporter == "gltf" and moved_by_others(obj) and not value("export_bake_animation"):
        found.append(
            Remedy(
                "bake_all",
                "Game misses: no motion",
                "Bake All Objects Animations on",
                {"export_bake_animation": True},
            )
        )
    if exporter == "fbx" and targets and value("bake_anim_use_all_actions"):
        found.append(
            Remedy(
                "scene_take",
                "Game misses: no motion" if moved_by_others(obj) else "Game misses: target stops",
                "All Actions and NLA Strips off (the scene baked as it plays)",
                {"bake_anim_use_all_actions": False, "bake_anim_use_nla_strips": False},
                scene_range=True,
                no_fix_reason=_scene_take_reason(obj, targets),
            )
        )
    return found


SCALE_REASONS = {
    "gltf": "a bone scaled unevenly shears its children, and glTF holds no shear: scale it the "
    "same on X, Y and Z",
    "fbx": "a bone's pose scale does not reach its children through FBX as it does in Blender "
    "(measured: a thigh scaled 1.6 evenly, 9.9% of the rig's size off; unevenly, 3.7%): keep "
    "the pose scale of a bone with children at 1",
}


def _scene_take_reason(obj: bpy.types.Object, targets: str) -> str:
    if moved_by_others(obj):
        return (
            f"the armature has no action of its own and FBX bakes actions: export with All "
            f"Actions and NLA Strips off, the scene's range over {targets}'s motion, or key "
            "the motion on the armature"
        )
    return (
        f"FBX's All Actions bakes each action with {targets} standing still, and without it "
        "the file holds the active action alone: export that action with All Actions and NLA "
        "Strips off and the scene's range over it, or make the target a bone of the armature"
    )


UNEXPLAINED = Remedy(
    "unknown",
    "Game misses: unexplained",
    "",
    {},
    no_fix_reason="no single export setting tried explains it (each was exported again)",
)
