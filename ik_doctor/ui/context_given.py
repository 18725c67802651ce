"""What Blender's context always holds where the panel's code runs, though the stubs make it
optional: the window manager, the preferences, the scene, the view layer, a panel's layout.

Each says so once, for the type checker and for people, and fails loudly if that ever stops
being true (``core.editing.current_view_layer`` does the same for the core).
"""

from __future__ import annotations

import bpy


def window_manager(context: bpy.types.Context) -> bpy.types.WindowManager:
    """Blender has one window manager, headless too."""
    manager = context.window_manager
    assert manager is not None
    return manager


def preferences(context: bpy.types.Context) -> bpy.types.Preferences:
    found = context.preferences
    assert found is not None
    return found


def scene(context: bpy.types.Context) -> bpy.types.Scene:
    """The window's scene: an operator or a panel always runs in one."""
    found = context.scene
    assert found is not None
    return found


def view_layer(context: bpy.types.Context) -> bpy.types.ViewLayer:
    found = context.view_layer
    assert found is not None
    return found


def layout_of(ui: bpy.types.Panel | bpy.types.Menu) -> bpy.types.UILayout:
    """A panel's or menu's layout: Blender sets it before it calls ``draw``."""
    layout = ui.layout
    assert layout is not None
    return layout
