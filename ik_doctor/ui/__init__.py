"""Everything a user touches inside Blender; it only presents what the core returns.

``report`` keeps the last diagnosis, ``operators`` run the core, ``panel`` draws the sidebar
tab and the Pose menu's submenu, ``keymap`` binds Check Rig, ``preferences`` switches checks
and thresholds, ``overlay`` draws the chains in the viewport.
"""

from __future__ import annotations

import bpy

from . import accept, keymap, operators, overlay, panel, preferences, report

_preferences: list[type[bpy.types.AddonPreferences]] = []


def register() -> None:
    report.register()
    _preferences.append(preferences.make_preferences_class())
    bpy.utils.register_class(_preferences[0])
    for cls in (*operators.CLASSES, *accept.CLASSES):
        bpy.utils.register_class(cls)
    panel.register()
    keymap.register()
    overlay.register()


def unregister() -> None:
    overlay.unregister()
    keymap.unregister()
    panel.unregister()
    for cls in reversed((*operators.CLASSES, *accept.CLASSES)):
        bpy.utils.unregister_class(cls)
    while _preferences:
        bpy.utils.unregister_class(_preferences.pop())
    report.unregister()
