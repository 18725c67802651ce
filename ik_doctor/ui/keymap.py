"""The Check Rig shortcut: Ctrl+Shift+D in the Pose keymap of the add-on keyconfig.

Ctrl+Shift+D is bound in no keymap of Blender's default keyconfig that is active in Pose Mode
or the 3D View (tests/test_ui.py checks this against the default keymap data).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

import bpy
import rna_keymap_ui

from . import context_given

if TYPE_CHECKING:
    from bpy.stub_internal.rna_enums import EventTypeItems, EventValueItems


class Key(TypedDict):
    """A key press as ``KeyMapItems.new`` takes it."""

    type: EventTypeItems
    value: EventValueItems
    ctrl: bool
    shift: bool


CHECK_RIG = "ik_doctor.check_rig"
KEYMAP_NAME = "Pose"
DEFAULT_KEY: Key = {"type": "D", "value": "PRESS", "ctrl": True, "shift": True}

_added: list[tuple[bpy.types.KeyMap, bpy.types.KeyMapItem]] = []


def register() -> None:
    keyconfig = context_given.window_manager(bpy.context).keyconfigs.addon
    if keyconfig is None:  # background mode without keyconfigs: nothing to bind
        return
    keymap = keyconfig.keymaps.new(name=KEYMAP_NAME, space_type="EMPTY")
    item = keymap.keymap_items.new(CHECK_RIG, **DEFAULT_KEY)
    _added.append((keymap, item))


def unregister() -> None:
    for keymap, item in _added:
        keymap.keymap_items.remove(item)
    _added.clear()


def draw_in_preferences(layout: bpy.types.UILayout, context: bpy.types.Context) -> None:
    """Draw the shortcut as Blender's keymap editor does, from the user keyconfig when it has
    it, so a change there is what the user keeps."""
    keyconfigs = context_given.window_manager(context).keyconfigs
    for keyconfig in (keyconfigs.user, keyconfigs.addon):
        keymap = keyconfig.keymaps.get(KEYMAP_NAME) if keyconfig else None
        item = _find_item(keymap)
        if item is not None:
            layout.context_pointer_set("keymap", keymap)
            rna_keymap_ui.draw_kmi([], keyconfig, keymap, item, layout, 0)
            return
    layout.label(text="No shortcut: the keymap for Check Rig was removed.", icon="ERROR")


def _find_item(keymap: bpy.types.KeyMap | None) -> bpy.types.KeyMapItem | None:
    if keymap is None:
        return None
    for item in keymap.keymap_items:
        if item.idname == CHECK_RIG:
            return item
    return None
