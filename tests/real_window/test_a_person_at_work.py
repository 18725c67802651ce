"""An animator at work on the demo rig, step by step, with the mouse and the keyboard only.

The steps run in order in one Blender window, as one person's session: each test is one step
and leaves the window where the next one starts. The observer reports what happened; every
action is an X input event, so Ctrl+Z undoes what a button press pushed on Blender's undo stack.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from blender_window import BlenderWindow, Rect
from panel_layout import Sidebar, find_bars, text_lines

ERROR_RGB = np.array([242, 51, 51])  # ui/overlay_geometry.COLORS["error"] in 8 bits
DEMO_ERRORS = {("chain_length", "forearm.L"), ("parenting", "forearm.R"), ("target", "shin.L")}
DEMO_FAULTS = {  # what each demo fault leaves in the rig, as the observer reports it
    "forearm.L chain": ("iks", "forearm.L/IK", "chain_count", 1),
    "forearm.R parent": ("parents", "forearm.R", None, None),
    "shin.L target": ("iks", "shin.L/IK", "subtarget", "foot_ik.L.001"),
}


@pytest.fixture(scope="module")
def window(open_window, rig_files: Path) -> BlenderWindow:
    return open_window(rig_files / "demo.blend")


@pytest.fixture(scope="module")
def sidebar(window: BlenderWindow) -> Sidebar:
    return Sidebar(window)


def report(state: dict) -> dict:
    return state["ik_doctor"]["reports"]["IKDoctorDemo"]


def errors(state: dict) -> set[tuple[str, str]]:
    rows = report(state)["rows"]
    return {(r["check_id"], r["bone"]) for r in rows if r["severity"] == "ERROR"}


def fault_present(state: dict, fault: str) -> bool:
    table, key, field, value = DEMO_FAULTS[fault]
    entry = state["rig"][table][key]
    return (entry if field is None else entry[field]) == value


def row_index(state: dict, check_id: str) -> int:
    rows = report(state)["rows"]
    return next(i for i, r in enumerate(rows) if r["check_id"] == check_id)


def error_pixels(pixels: np.ndarray, view: Rect) -> int:
    block = pixels[view.top : view.bottom, view.left : view.right].astype(int)
    return int((np.abs(block - ERROR_RGB).max(axis=2) <= 24).sum())


def test_the_file_opens_with_the_extension_enabled(window: BlenderWindow) -> None:
    state = window.wait(lambda s: s["draws"]["WINDOW"] > 0, "the first drawn frame", 180)
    assert state["addon_enabled"]
    assert (state["active_object"], state["mode"]) == ("IKDoctorDemo", "OBJECT")
    window.shot("opened")


def test_ctrl_tab_over_the_viewport_enters_pose_mode(window: BlenderWindow) -> None:
    window.rest_mouse()
    window.key("ctrl+Tab")
    window.wait(lambda s: s["mode"] == "POSE", "Pose Mode")


def test_n_opens_the_sidebar_and_its_tab_shows_the_panel(
    window: BlenderWindow, sidebar: Sidebar
) -> None:
    window.key("n")
    sidebar.open_tab("IK Doctor")
    first, second = sidebar.look("tab")
    assert len(first.buttons) == 2  # Check Rig, the overlay switch
    assert len(second.buttons) == 2  # Verify, Export


def test_check_rig_lists_the_three_demo_faults(window: BlenderWindow, sidebar: Sidebar) -> None:
    first = sidebar.look("before-check")[0]
    window.click(*first.buttons[0].center)
    state = window.wait(lambda s: s["ik_doctor"]["reports"], "a report")
    assert errors(state) == DEMO_ERRORS
    bars = sidebar.look("checked")
    assert any(bar.is_alert for bar in bars)  # the selected error's box is red


def test_the_overlay_switch_draws_the_failing_chains_red(
    window: BlenderWindow, sidebar: Sidebar
) -> None:
    view = window.region("VIEW_3D", "WINDOW")
    off = error_pixels(window.pixels(window.shot("overlay-off")), view)
    first = sidebar.look("before-overlay")[0]
    drawn = window.state()["draws"]["WINDOW"]
    window.click(*first.buttons[-1].center)
    window.wait(lambda s: s["ik_doctor"]["show_overlay"], "the overlay switched on")
    window.wait(lambda s: s["draws"]["WINDOW"] > drawn, "the viewport drawn again")
    window.rest_mouse()
    on = error_pixels(window.pixels(window.shot("overlay-on")), view)
    assert on - off > 200, (off, on)


def test_clicking_a_row_shows_that_finding(window: BlenderWindow, sidebar: Sidebar) -> None:
    bars = sidebar.look("before-row")
    target = row_index(window.state(), "parenting")
    window.click(*sidebar.row_center(bars, target))
    window.wait(lambda s: report(s)["active_index"] == target, f"row {target} selected")
    sidebar.look("row")


def test_select_selects_and_frames_the_findings_bone(
    window: BlenderWindow, sidebar: Sidebar
) -> None:
    details = sidebar.details(sidebar.look("before-select"))
    window.click(*details.buttons[0].center)
    state = window.wait(lambda s: s["rig"]["active_bone"] == "forearm.R", "forearm.R active")
    assert state["rig"]["selected_bones"] == ["forearm.R"]


def test_fix_then_ctrl_z_takes_the_fix_back(window: BlenderWindow, sidebar: Sidebar) -> None:
    details = sidebar.details(sidebar.look("before-fix"))
    window.click(*details.buttons[-1].center)
    state = window.wait(lambda s: not fault_present(s, "forearm.R parent"), "forearm.R parented")
    assert ("parenting", "forearm.R") not in errors(state)
    sidebar.look("fixed")
    window.rest_mouse()
    window.key("ctrl+z")
    state = window.wait(lambda s: fault_present(s, "forearm.R parent"), "the fix undone")
    assert report(state)["stale"]
    sidebar.look("fix-undone")


def test_ctrl_shift_d_checks_the_rig_again_and_the_sidebar_shows_it(
    window: BlenderWindow, sidebar: Sidebar
) -> None:
    window.rest_mouse()
    drawn = window.settle()["draws"]["UI"]
    window.key("ctrl+shift+d")
    state = window.wait(lambda s: not report(s)["stale"], "a fresh report")
    assert errors(state) == DEMO_ERRORS
    window.wait(lambda s: s["draws"]["UI"] > drawn, "the sidebar drawn again", 10)
    sidebar.look("checked-by-shortcut")


def test_fix_all_then_ctrl_z_brings_every_fault_back(
    window: BlenderWindow, sidebar: Sidebar
) -> None:
    fix_all = sidebar.fix_all(sidebar.look("before-fix-all"))
    window.click(*fix_all.rect.center)
    state = window.wait(lambda s: not errors(s), "no error left")
    assert not any(fault_present(state, fault) for fault in DEMO_FAULTS)
    sidebar.look("fixed-all")
    window.rest_mouse()
    window.key("ctrl+z")
    state = window.wait(
        lambda s: all(fault_present(s, fault) for fault in DEMO_FAULTS), "every fault back"
    )
    window.key("ctrl+shift+d")
    state = window.wait(lambda s: not report(s)["stale"], "a fresh report")
    assert errors(state) == DEMO_ERRORS
    sidebar.look("fix-all-undone")


def test_the_preferences_list_the_extension_and_open_its_settings(window: BlenderWindow) -> None:
    window.rest_mouse()
    window.key("ctrl+comma")
    state = window.wait(lambda s: len(s["windows"]) == 2, "the Preferences window")
    (area,) = state["windows"][1]["areas"]
    # The section list: "UI" in Blender 5.2, "NAVIGATION_BAR" before.
    (sections,) = [r["type"] for r in area["regions"] if r["type"] in ("UI", "NAVIGATION_BAR")]
    nav = window.region("PREFERENCES", sections, window=1)
    lines: list[int] = []
    for _ in range(60):  # a new window draws its first frame a while after it opens
        lines = text_lines(window.screen(), nav, window.unit)  # each section's name
        if len(lines) > 5:
            break
        window.settle()
    window.shot("preferences")
    for y in lines:
        if state["preferences_section"] == "ADDONS":
            break
        window.click(nav.left + nav.width // 2, y)
        state = window.settle()
    assert state["preferences_section"] == "ADDONS"
    main = window.region("PREFERENCES", "WINDOW", window=1)
    window.rest_mouse()
    search = find_bars(window.pixels(window.shot("add-ons")), main, window.unit)[0]
    window.click(*search.rect.center)
    window.type("IK Doctor")
    window.key("Return")
    window.rest_mouse()
    window.settle()
    unit = window.unit
    found = text_lines(window.pixels(window.shot("add-on-found")), main, unit)
    window.click(search.rect.left + 0.7 * unit, search.rect.top + 2.15 * unit)  # its arrow
    window.rest_mouse()
    window.settle()
    # Open, the entry draws a line per check (its switch) and per threshold.
    opened = text_lines(window.pixels(window.shot("add-on-preferences")), main, unit)
    assert len(opened) >= len(found) + 8, (found, opened)
