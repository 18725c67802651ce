"""Where the settings the user exports with are kept, which is where a fix must store one.

Blender 4.2+ keeps exporters on a collection (Collection Exporters, the collection's Export
panel), each with its own copy of the exporter's settings, and Export All writes the file with
those (measured on 4.2 and 5.3 with the reference walk: a glTF collection exporter with Always
Sample Animations on wrote 280 sampled curves while the scene remembered it off, and 3 curves
once set off; a new one starts from the exporter's defaults, not from the scene's memory). So
an armature in a collection with an exporter of the format is exported as that exporter says.
Otherwise the glTF exporter starts from the settings it remembers on the scene, else its
defaults; the FBX exporter remembers none, so there is nowhere to store an FBX setting.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import bpy

from ..core.names import readable

EXPORTERS = ("gltf", "fbx")
EXPORTER_NAMES = {"gltf": "glTF", "fbx": "FBX"}
GLTF_SCENE_KEY = "glTF2ExportSettings"
"""Where the glTF exporter keeps its last settings on the scene, when told to remember them."""
_NOT_SETTINGS = frozenset({"filepath", "check_existing", "filter_glob"})
"""A collection exporter's properties that say where to write, not how."""


@dataclass(frozen=True)
class SettingsSource:
    """The settings one exporter uses for one armature: a collection's exporter (the first of
    the format on ``collection``), or without one the scene's (glTF) or the defaults."""

    exporter: str
    collection: str | None = None

    def read(self) -> dict[str, Any]:
        """The settings as kept, by the exporter's property names: only those set."""
        exporter = self._collection_exporter()
        if exporter is not None:
            props = exporter.export_properties
            return {
                p.identifier: _plain(getattr(props, p.identifier))
                for p in props.bl_rna.properties
                if p.identifier not in _NOT_SETTINGS
                and p.type not in {"POINTER", "COLLECTION"}
                and props.is_property_set(p.identifier)
            }
        scene = bpy.context.scene
        if self.exporter != "gltf" or self.collection is not None or scene is None:
            return {}
        # The stubs say ID.get returns None; it returns the stored property.
        remembered: Any = scene.get(GLTF_SCENE_KEY)  # type: ignore[func-returns-value]
        if not remembered:
            return {}
        return dict(remembered.to_dict() if hasattr(remembered, "to_dict") else remembered)

    @property
    def can_store(self) -> bool:
        """A collection's exporter keeps any setting; the scene keeps glTF's only."""
        return self.collection is not None or self.exporter == "gltf"

    def store(self, settings: Mapping[str, Any]) -> None:
        """Keep ``settings`` where the next export reads them."""
        exporter = self._collection_exporter()
        if exporter is not None:
            for name, value in settings.items():
                setattr(exporter.export_properties, name, value)
            return
        scene = bpy.context.scene
        if not self.can_store or self.collection is not None or scene is None:
            raise ValueError(f"There is nowhere to keep {EXPORTER_NAMES[self.exporter]} settings.")
        scene[GLTF_SCENE_KEY] = {**self.read(), **settings}

    def text(self) -> str:
        """Where the settings came from, as a person reads it."""
        if self.collection is None and not self.read():
            return f"{EXPORTER_NAMES[self.exporter]}'s default settings"
        return self.keeper()

    def keeper(self) -> str:
        """Where ``store`` keeps settings, as a person reads it."""
        if self.collection is not None:
            name = EXPORTER_NAMES[self.exporter]
            return f"the {name} exporter of the collection '{self.collection}'"
        return "the scene's remembered glTF settings"

    def _collection_exporter(self) -> Any:
        collection = bpy.data.collections.get(self.collection) if self.collection else None
        return None if collection is None else _exporter_on(collection, self.exporter)


def settings_source(obj: bpy.types.Object, exporter: str) -> SettingsSource:
    """Where ``obj`` gets its ``exporter`` settings from: the first collection holding it
    (directly, then through a child collection, by name) with an exporter of the format."""
    if exporter not in EXPORTERS:
        raise ValueError(f"Unknown exporter {exporter!r}: choose one of {', '.join(EXPORTERS)}.")
    holding = [c for c in bpy.data.collections if c.all_objects.get(obj.name) is obj]
    holding.sort(key=lambda c: (c.objects.get(obj.name) is not obj, readable(c)))
    for collection in holding:
        if _exporter_on(collection, exporter) is not None:
            return SettingsSource(exporter, readable(collection))
    return SettingsSource(exporter)


def user_settings(
    obj: bpy.types.Object, exporter: str, overrides: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The settings ``obj`` is exported with (see ``settings_source``); ``overrides`` win."""
    return {**settings_source(obj, exporter).read(), **(overrides or {})}


def _exporter_on(collection: bpy.types.Collection, exporter: str) -> Any:
    """The collection's first exporter of the format; None before Blender 4.2 or without."""
    operator = bpy.ops.export_scene.gltf if exporter == "gltf" else bpy.ops.export_scene.fbx
    # The stubs take idname for an unbound method; it is called on the operator.
    wanted = operator.idname()  # type: ignore[call-arg]
    for candidate in getattr(collection, "exporters", ()):
        if candidate.export_properties.bl_rna.identifier == wanted:
            return candidate
    return None


def _plain(value: Any) -> Any:
    """A property's value as the operator takes it back: arrays as tuples."""
    if isinstance(value, str | set | bool | int | float):
        return value
    return tuple(value)
