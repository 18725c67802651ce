"""Verify by Solving on a keyed walk, a fix that asks first, and every operator found with F3.

One window on ``walk.blend`` (make_rigs.py): the left knee's IK lock makes the keyed foot miss
on some frames; the right knee rolled off its hinge has a fix that moves bones of a skinned rig,
so it asks before it runs. The steps run in order, as one person's session.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from blender_window import BlenderWindow
from panel_layout import Sidebar

RIG = "IKDoctorWalk"


@pytest.fixture(scope="module")
def window(open_window, rig_files: Path) -> BlenderWindow:
    opened = open_window(rig_files / "walk.blend")
    opened.wait(lambda s: s["draws"]["WINDOW"] > 0, "the first drawn frame", 180)
    return opened


@pytest.fixture(scope="module")
def sidebar(window: BlenderWindow) -> Sidebar:
    panel = Sidebar(window)
    panel.open_in_pose_mode()
    return panel


def rows(state: dict) -> list[dict]:
    return state["ik_doctor"]["reports"][RIG]["rows"]


def report(state: dict) -> dict:
    return state["ik_doctor"]["reports"][RIG]


def index_of(state: dict, check_id: str) -> int:
    return next(i for i, row in enumerate(rows(state)) if row["check_id"] == check_id)


def has(state: dict, check_id: str) -> bool:
    return any(row["check_id"] == check_id for row in rows(state))


def scanned(state: dict) -> list[int]:
    """The rows the scan proved on the walk: their own, or joined to a check's finding."""
    return [
        i
        for i, row in enumerate(rows(state))
        if any(seen["action"] == "Walk" for seen in row["occurrences"])
    ]


def test_verify_by_solving_finds_the_locked_knee_missing_its_keyed_foot(
    window: BlenderWindow, sidebar: Sidebar
) -> None:
    verify = sidebar.look("walk")[1].buttons[0]  # under Check Rig and the overlay switch
    window.click(*verify.center)
    state = window.wait(scanned, "the scan's findings", 120)
    (found,) = [rows(state)[i] for i in scanned(state)]
    assert (found["bone"], found["severity"]) == ("shin.L", "ERROR")
    sidebar.look("verified")


def test_select_on_a_scan_finding_jumps_to_its_worst_frame(
    window: BlenderWindow, sidebar: Sidebar
) -> None:
    (target,) = scanned(window.state())
    window.click(*sidebar.row_center(sidebar.look("before-verify-row"), target))
    state = window.wait(lambda s: report(s)["active_index"] == target, "the scan's row")
    row = rows(state)[target]
    worst = max(row["occurrences"], key=lambda seen: seen["worst"])["worst_frame"]
    assert state["frame"] != worst
    select = sidebar.details(sidebar.look("verify-row")).buttons[0]
    window.click(*select.center)
    state = window.wait(lambda s: s["frame"] == worst, f"frame {worst}")
    assert state["rig"]["active_bone"] == "shin.L"
    sidebar.look("worst-frame")


def test_a_fix_that_moves_bones_of_a_skinned_rig_asks_first_and_ctrl_z_takes_it_back(
    window: BlenderWindow, sidebar: Sidebar
) -> None:
    state = window.state()
    target = index_of(state, "roll")
    window.click(*sidebar.row_center(sidebar.look("before-roll-row"), target))
    window.wait(lambda s: report(s)["active_index"] == target, "the roll row")
    fix = sidebar.details(sidebar.look("roll-row")).buttons[-1]
    window.click(*fix.center)
    window.settle(4)
    assert has(window.state(), "roll")  # not fixed yet: the dialog waits
    window.shot("fix-asks-first")
    window.key("Return")
    window.wait(lambda s: not has(s, "roll"), "the roll fixed")
    sidebar.look("roll-fixed")
    window.key("ctrl+z")
    window.wait(lambda s: report(s)["stale"], "the fix undone")
    window.key("ctrl+shift+d")
    window.wait(lambda s: not report(s)["stale"] and has(s, "roll"), "the roll fault back")


def search(window: BlenderWindow, name: str) -> None:
    """F3 over the viewport, type the operator's name, run the first match with Return."""
    view = window.region("VIEW_3D", "WINDOW")
    # Near the top: the list opens below the mouse, and no result is under it, so the first
    # match stays the highlighted one (under the mouse, Return ran the hovered one instead).
    window.move(view.left + 6 * window.unit, view.top + 6 * window.unit)
    before = window.screen()
    window.key("F3")
    window.wait_for_change(view, before, "the search menu")
    window.type(name)
    window.settle(3)
    window.shot("f3-" + name.lower().replace(" ", "-").replace("'", ""))
    window.key("Return")


def test_f3_finds_toggle_ik_overlay(window: BlenderWindow) -> None:
    before = window.state()["ik_doctor"]["show_overlay"]
    search(window, "Toggle IK Overlay")
    window.wait(lambda s: s["ik_doctor"]["show_overlay"] != before, "the overlay switched")


def test_f3_finds_check_rig(window: BlenderWindow) -> None:
    window.rest_mouse()
    window.key("ctrl+z")  # an undo leaves the report stale: Check Rig makes it fresh
    window.wait(lambda s: report(s)["stale"], "a stale report")
    search(window, "Check Rig")
    window.wait(lambda s: not report(s)["stale"], "a fresh report")


def test_f3_finds_verify_by_solving(window: BlenderWindow) -> None:
    assert not scanned(window.state())  # Check Rig alone does not play the walk
    search(window, "Verify by Solving")
    window.wait(scanned, "the scan's findings", 120)


def test_f3_finds_select_findings_bone(window: BlenderWindow) -> None:
    state = window.state()
    chosen = rows(state)[report(state)["active_index"]]["bone"]
    search(window, "Select Finding's Bone")
    window.wait(lambda s: s["rig"]["selected_bones"] == [chosen], f"{chosen} selected")


def test_f3_finds_fix_finding(window: BlenderWindow) -> None:
    state = window.state()
    chosen = rows(state)[report(state)["active_index"]]
    assert chosen["fix_id"]
    search(window, "Fix Finding")
    if chosen["changes_rest_pose"]:
        window.settle(4)
        window.key("Return")
    window.wait(
        lambda s: (
            (chosen["check_id"], chosen["bone"])
            not in {(r["check_id"], r["bone"]) for r in rows(s)}
        ),
        f"{chosen['check_id']} on {chosen['bone']} fixed",
        120,
    )


def test_f3_finds_fix_all(window: BlenderWindow, sidebar: Sidebar) -> None:
    search(window, "Fix All")
    window.settle(4)
    window.key("Return")  # it asks first: the roll fix moves bones of a skinned rig
    window.wait(lambda s: report(s)["errors"] == 0, "no error left", 120)
    sidebar.look("all-fixed")
