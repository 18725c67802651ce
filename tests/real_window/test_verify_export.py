"""Verify Export clicked in the real window: what the game gets of a walk the IK makes.

One window on ``export.blend`` (make_rigs.py): the left foot control walks, the leg follows by
IK only, and the scene remembers the glTF settings of a person who exported it once with
*Always Sample Animations* off, so the file the game gets leaves the leg behind. The steps run
in order, as one person's session: Export lists the miss and leaves the file as it was; its fix
stores sampling on the scene, and Export then finds the game's joints where Blender puts them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from blender_window import BlenderWindow
from panel_layout import Sidebar

RIG = "IKDoctorExport"
VERIFY_EXPORT = "IK_DOCTOR_OT_verify_export"
FILE_STATE = """
window = bpy.data.window_managers[0].windows[0]
scene, layer = window.scene, window.view_layer
remembered = scene.get("glTF2ExportSettings")
rig = bpy.data.objects["IKDoctorExport"]
result = {
    "blocks": sorted(
        f"{prop.identifier}/{block.name}"
        for prop in bpy.types.BlendData.bl_rna.properties
        if prop.type == "COLLECTION"
        for block in getattr(bpy.data, prop.identifier)
    ),
    "scene": scene.name,
    "frame": scene.frame_current,
    "action": rig.animation_data.action.name,
    "selected": sorted(o.name for o in layer.objects if o.select_get(view_layer=layer)),
    "settings": remembered.to_dict() if remembered is not None else {},
}
"""
"""What Export must leave as it was: every data-block, the scene shown, the frame, the action,
the selection, the exporter's remembered settings."""


@pytest.fixture(scope="module")
def window(open_window, rig_files: Path) -> BlenderWindow:
    opened = open_window(rig_files / "export.blend")
    opened.wait(lambda s: s["draws"]["WINDOW"] > 0, "the first drawn frame", 180)
    return opened


@pytest.fixture(scope="module")
def sidebar(window: BlenderWindow) -> Sidebar:
    panel = Sidebar(window)
    panel.open_in_pose_mode()
    return panel


def report(state: dict) -> dict:
    return state["ik_doctor"]["reports"][RIG]


def exported(state: dict) -> list[dict]:
    return [row for row in report(state)["rows"] if row["check_id"] == "export"]


def click_export(window: BlenderWindow, sidebar: Sidebar, name: str) -> dict[str, Any]:
    """Click Export (under Check Rig, beside Verify) and wait until its run has ended."""
    before = window.state()["last_operator"]
    export = sidebar.look(name)[1].buttons[1]
    window.click(*export.center)
    return window.wait(
        lambda s: s["last_operator"] != before and s["last_operator"][0] == VERIFY_EXPORT,
        "Verify Export to end",
        180,
    )


def test_export_lists_the_leg_left_behind_and_leaves_the_file_as_it_was(
    window: BlenderWindow, sidebar: Sidebar
) -> None:
    before, shown = window.ask(FILE_STATE), window.state()
    assert before["settings"] == {"export_force_sampling": False}
    state = click_export(window, sidebar, "before-export")
    (found,) = exported(state)
    cause = (found["severity"], found["action"], dict(found["fix_args"])["cause"])
    assert cause == ("ERROR", "Walk", "sampling") and found["fix_id"] and found["frames"]
    assert window.ask(FILE_STATE) == before
    assert (state["active_object"], state["mode"]) == (shown["active_object"], shown["mode"])
    sidebar.look("exported")


def test_its_fix_stores_sampling_and_the_game_then_gets_the_walk(
    window: BlenderWindow, sidebar: Sidebar
) -> None:
    state = window.state()
    target = next(i for i, row in enumerate(report(state)["rows"]) if row["check_id"] == "export")
    window.click(*sidebar.row_center(sidebar.look("before-export-row"), target))
    window.wait(lambda s: report(s)["active_index"] == target, "the export's row")
    fix = sidebar.details(sidebar.look("export-row")).buttons[-1]
    window.click(*fix.center)
    window.wait(lambda s: not exported(s), "the export's finding fixed")
    assert window.ask(FILE_STATE)["settings"]["export_force_sampling"] is True
    state = click_export(window, sidebar, "before-export-again")
    assert exported(state) == [] and not report(state)["stale"]
    sidebar.look("exported-again")
