"""Runs inside the real Blender (``--python``): reports what the window shows, never acts.

Every quarter second a ``bpy.app.timers`` tick writes ``state.json`` to the folder named by
``IK_DOCTOR_OBSERVER_DIR``: the windows, areas and regions with their rectangles (for the
tests to aim their clicks), the mode, the active and selected bones, the frame, the stored
IK Doctor report, the overlay switch, the add-on's preferences, the last operator run and a
few facts of the rig's IK that the demo faults change (so an undo is seen as the rig coming
back).

A test that needs a measurement the state lacks (a text's width with ``blf``, a property) writes
``ask-N.py`` to the same folder; the next tick runs it with ``bpy`` in scope and writes the value
it leaves in ``result`` (or the traceback) to ``answer-N.json``. Those scripts only read, too:
every action in these tests is a real input event.
"""

from __future__ import annotations

import json
import os
import time
import traceback
from pathlib import Path
from typing import Any

import bpy

FOLDER = Path(os.environ["IK_DOCTOR_OBSERVER_DIR"])
ADDON = "bl_ext.user_default.ik_doctor"
TICK = 0.25
_ticks = [0]
_draws = {"WINDOW": 0, "UI": 0}


def _rect(item: Any) -> dict[str, int]:
    return {"x": item.x, "y": item.y, "width": item.width, "height": item.height}


def _windows(window_manager: bpy.types.WindowManager) -> list[dict[str, Any]]:
    windows = []
    for window in window_manager.windows:
        areas = []
        for area in window.screen.areas:
            regions = []
            for region in area.regions:
                described = {"type": region.type, **_rect(region)}
                if region.type == "UI":
                    described["category"] = getattr(region, "active_panel_category", None)
                regions.append(described)
            space = area.spaces.active
            areas.append(
                {
                    "type": area.type,
                    "ui_type": getattr(area, "ui_type", area.type),
                    "sidebar": bool(getattr(space, "show_region_ui", False)),
                    **_rect(area),
                    "regions": regions,
                }
            )
        windows.append({**_rect(window), "screen": window.screen.name, "areas": areas})
    return windows


def _rig(obj: bpy.types.Object | None) -> dict[str, Any] | None:
    if obj is None or obj.type != "ARMATURE":
        return None
    iks = {}
    for bone in obj.pose.bones:
        for constraint in bone.constraints:
            if constraint.type == "IK":
                iks[f"{bone.name}/{constraint.name}"] = {
                    "subtarget": constraint.subtarget,
                    "chain_count": constraint.chain_count,
                    "pole_subtarget": constraint.pole_subtarget,
                }
    selected = [
        bone.name
        for bone in obj.pose.bones
        if getattr(bone, "select", None) or getattr(bone.bone, "select", False)
    ]
    active = obj.data.bones.active
    return {
        "name": obj.name,
        "mode": obj.mode,
        "parents": {
            bone.name: bone.parent.name if bone.parent else None for bone in obj.data.bones
        },
        "iks": iks,
        "locks": {
            bone.name: [bone.lock_ik_x, bone.lock_ik_y, bone.lock_ik_z]
            for bone in obj.pose.bones
            if bone.lock_ik_x or bone.lock_ik_y or bone.lock_ik_z
        },
        "selected_bones": selected,
        "active_bone": active.name if active else None,
    }


def _report(window_manager: bpy.types.WindowManager) -> dict[str, Any] | None:
    state = getattr(window_manager, "ik_doctor", None)
    if state is None:
        return None
    reports = {}
    for stored in state.reports:
        reports[stored.armature] = {
            "stale": stored.stale,
            "errors": stored.errors,
            "warnings": stored.warnings,
            "infos": stored.infos,
            "active_index": stored.active_index,
            "rows": [
                {
                    "kind": row.kind,
                    "check_id": row.check_id,
                    "severity": row.severity,
                    "bone": row.bone,
                    "fix_id": row.fix_id,
                    "needs_confirmation": row.needs_confirmation,
                    "changes_rest_pose": row.changes_rest_pose,
                    "action": row.action,
                    "frames": json.loads(row.frames_json),
                    "fix_args": json.loads(row.fix_args_json),
                    "occurrences": json.loads(row.occurrences_json),
                }
                for row in stored.rows
            ],
        }
    return {"show_overlay": state.show_overlay, "reports": reports}


def _preferences() -> dict[str, Any] | None:
    addon = bpy.context.preferences.addons.get(ADDON)
    if addon is None or addon.preferences is None:
        return None
    prefs = addon.preferences
    return {
        name: getattr(prefs, name)
        for name in prefs.bl_rna.properties.keys()  # noqa: SIM118 (RNA collection)
        if name.startswith("check_")
    }


def snapshot() -> dict[str, Any]:
    window_manager = bpy.data.window_managers[0]
    preferences = bpy.context.preferences
    window = window_manager.windows[0] if window_manager.windows else None
    view_layer = window.view_layer if window is not None else bpy.context.view_layer
    obj = view_layer.objects.active
    return {
        "tick": _ticks[0],
        "draws": dict(_draws),
        "time": time.time(),
        "version": list(bpy.app.version),
        "ui_scale": preferences.system.ui_scale,
        "pixel_size": preferences.system.pixel_size,
        "addon_enabled": ADDON in preferences.addons,
        "frame": bpy.context.scene.frame_current,
        "windows": _windows(window_manager),
        "active_object": obj.name if obj else None,
        "mode": obj.mode if obj else None,
        "rig": _rig(obj),
        "ik_doctor": _report(window_manager),
        "preferences": _preferences(),
        "preferences_section": preferences.active_section,
        "keymap": _keymap(window_manager),
        "last_operator": _last_operator(window_manager),
    }


def _last_operator(window_manager: bpy.types.WindowManager) -> list[Any] | None:
    """The last run of an operator that registers (its idname, and its address, which tells one
    run from the next): a button's run is seen to end even where it changes nothing shown."""
    if not window_manager.operators:
        return None
    last = window_manager.operators[-1]
    return [last.bl_idname, last.as_pointer()]


def _keymap(window_manager: bpy.types.WindowManager) -> list[str]:
    """Every user keymap item that runs an IK Doctor operator, as 'idname ctrl shift KEY'."""
    found = []
    for keymap in window_manager.keyconfigs.user.keymaps:
        for item in keymap.keymap_items:
            if item.idname.startswith("ik_doctor."):
                mods = [m for m in ("ctrl", "shift", "alt") if getattr(item, m)]
                found.append(" ".join([item.idname, *mods, item.type]))
    return found


def _write(name: str, value: Any) -> None:
    partial = FOLDER / f".{name}.partial"
    partial.write_text(json.dumps(value, default=str), encoding="utf-8")
    partial.replace(FOLDER / name)


def _answer_questions() -> None:
    for question in sorted(FOLDER.glob("ask-*.py")):
        answer = question.name.replace("ask-", "answer-").replace(".py", ".json")
        scope: dict[str, Any] = {"bpy": bpy, "result": None}
        try:
            exec(compile(question.read_text(encoding="utf-8"), str(question), "exec"), scope)
            value = {"result": scope["result"]}
        except Exception:  # the asking test reads it; Blender's log stays free of it
            value = {"error": traceback.format_exc()}
        question.unlink()
        _write(answer, value)


def tick() -> float:
    _ticks[0] += 1
    try:
        _answer_questions()
        _write("state.json", snapshot())
    except Exception:
        _write("observer_error.json", {"error": traceback.format_exc()})
    return TICK


def _counter(region_type: str) -> Any:
    def count() -> None:
        _draws[region_type] += 1

    return count


bpy.app.timers.register(tick, first_interval=TICK, persistent=True)
for _region_type in _draws:  # how often the 3D View and its sidebar were drawn
    bpy.types.SpaceView3D.draw_handler_add(_counter(_region_type), (), _region_type, "POST_PIXEL")
