"""Shared helpers for the UI tests (no tests here): the add-on enabled as Blender enables it,
a 3D View context, and a fake layout that records what a panel draws."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import addon_utils
import bpy
import pytest

from ik_doctor.ui import panel

ADDON = "ik_doctor"


def _raise(error: Exception) -> None:
    raise error


def enable() -> bpy.types.AddonPreferences:
    addon_utils.enable(ADDON, default_set=True, handle_error=_raise)
    return bpy.context.preferences.addons[ADDON].preferences


def disable() -> None:
    addon_utils.disable(ADDON, default_set=True, handle_error=_raise)


@pytest.fixture
def addon(scene) -> Iterator[bpy.types.AddonPreferences]:
    """The add-on enabled as Blender enables it; always disabled again (a panel left
    registered at exit can hang the process)."""
    prefs = enable()
    try:
        yield prefs
    finally:
        disable()


@pytest.fixture
def posed_rig(addon, rig) -> bpy.types.Object:
    """The reference rig, active and in Pose Mode, with the left leg's target gone."""
    rig.pose.bones["shin.L"].constraints["IK"].target = None
    bpy.context.view_layer.objects.active = rig
    bpy.ops.object.mode_set(mode="POSE")
    return rig


class FakeLayout:
    """Stands in for a UILayout: records every call, accepts every attribute."""

    def __init__(self, log: list[tuple[str, tuple, dict]] | None = None) -> None:
        self.__dict__["log"] = [] if log is None else log
        self.__dict__["settings"] = {}

    def __setattr__(self, name: str, value: Any) -> None:
        self.settings[name] = value

    def __getattr__(self, name: str) -> Any:
        if name in self.settings:
            return self.settings[name]

        def call(*args: Any, **kwargs: Any) -> Any:
            child = FakeLayout(self.log)
            self.log.append((name, args, {**kwargs, "layout": self, "result": child}))
            return child

        return call

    def calls(self, name: str) -> list[tuple[tuple, dict]]:
        return [(args, kwargs) for called, args, kwargs in self.log if called == name]

    def texts(self) -> list[str]:
        return [kwargs.get("text", "") for _, kwargs in self.calls("label")]


def in_3d_view(region_type: str = "WINDOW") -> Any:
    """A context override inside the 3D View of the headless window (its regions exist, but
    nothing is drawn)."""
    window = bpy.context.window_manager.windows[0]
    area = next(a for a in window.screen.areas if a.type == "VIEW_3D")
    region = next(r for r in area.regions if r.type == region_type)
    return bpy.context.temp_override(window=window, area=area, region=region)


def draw_panel(context: bpy.types.Context) -> FakeLayout:
    layout = FakeLayout()
    panel.IK_DOCTOR_PT_panel.draw(SimpleNamespace(layout=layout), context)
    return layout


class WithLayout:
    """An add-on preferences object with a fake layout, for calling its ``draw``."""

    def __init__(self, target: Any, layout: FakeLayout) -> None:
        self.target, self.layout = target, layout

    def __getattr__(self, name: str) -> Any:
        return getattr(self.target, name)
