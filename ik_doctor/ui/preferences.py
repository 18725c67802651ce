"""The add-on preferences: which checks run, their thresholds, and the Check Rig shortcut.

The properties are generated from the check registry when the add-on is enabled, so a check
added as a new module shows up here without this file knowing its name.
"""

from __future__ import annotations

import math
from typing import Any

import bpy
from bpy.props import BoolProperty, FloatProperty, IntProperty

from .. import __package__ as base_package
from ..core.registry import Check, all_checks
from . import context_given, keymap


def enabled_name(check: Check) -> str:
    return f"check_{check.id}"


def option_name(check: Check, option: str) -> str:
    return f"{check.id}__{option}"


def settings(context: bpy.types.Context) -> tuple[list[str], dict[str, dict[str, Any]]]:
    """The enabled check ids and each check's thresholds, as ``diagnose`` takes them.

    Without stored preferences (the add-on registered by hand) every check runs with its
    defaults.
    """
    addon = context_given.preferences(context).addons.get(base_package)
    prefs = addon.preferences if addon is not None else None
    enabled: list[str] = []
    options: dict[str, dict[str, Any]] = {}
    for check in all_checks():
        if getattr(prefs, enabled_name(check), True):
            enabled.append(check.id)
        options[check.id] = {
            name: _stored(getattr(prefs, option_name(check, name), default), default)
            for name, default in check.options.items()
        }
    return enabled, options


def _stored(value: Any, default: Any) -> Any:
    """The preference value, or the exact default when it only differs by float32 rounding
    (Blender stores 0.01 as 0.0099999998), so untouched thresholds match the command line."""
    if isinstance(default, float) and math.isclose(value, default, rel_tol=1e-6):
        return default
    return value


def _option_property(check: Check, name: str, default: Any) -> Any:
    label = name.replace("_", " ").capitalize()
    description = f"{check.title}: threshold '{name}' (default {default})"
    if isinstance(default, bool):
        return BoolProperty(name=label, description=description, default=default)
    if isinstance(default, int):
        return IntProperty(name=label, description=description, default=default, min=0)
    return FloatProperty(
        name=label, description=description, default=float(default), min=0.0, precision=4
    )


def _summary(check: Check) -> str:
    """The first sentence of the check's docstring, for the tooltip."""
    first = check.doc.strip().split("\n\n")[0]
    return " ".join(first.split())


def _draw(self: bpy.types.AddonPreferences, context: bpy.types.Context) -> None:
    layout = self.layout
    layout.label(text="Checks")
    for check in all_checks():
        box = layout.box()
        row = box.row()
        row.prop(self, enabled_name(check), text=check.title)
        row.label(text=check.id)
        if check.options:
            column = box.column()
            column.active = getattr(self, enabled_name(check))
            for name in check.options:
                column.prop(self, option_name(check, name))
    layout.label(text="Shortcut")
    keymap.draw_in_preferences(layout, context)


def make_preferences_class() -> type[bpy.types.AddonPreferences]:
    """Build the preferences class from the checks registered now."""
    annotations: dict[str, Any] = {}
    for check in all_checks():
        # The stubs say bpy.props functions return None; Blender returns the definition.
        annotations[enabled_name(check)] = BoolProperty(  # type: ignore[func-returns-value]
            name=check.title, description=_summary(check), default=True
        )
        for name, default in check.options.items():
            annotations[option_name(check, name)] = _option_property(check, name, default)
    return type(
        "IK_DOCTOR_AP_preferences",
        (bpy.types.AddonPreferences,),
        {
            "bl_idname": base_package,
            "__annotations__": annotations,
            "__doc__": "IK Doctor preferences: which checks run and their thresholds",
            "draw": _draw,
        },
    )
