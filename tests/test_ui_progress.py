"""A scan's progress as the panel says it (ui/progress.py): every frame counted, the window
drawn a few times a second, and the status line gone however the scan ends. The real window
shows the line itself (tests/real_window/test_verify_progress.py)."""

from __future__ import annotations

import bpy
import pytest
import test_ui_support
from test_scan_animation import key_walk

from ik_doctor.ui import progress
from ik_doctor.verify.animation import scan_animation

addon = test_ui_support.addon  # shared fixtures
posed_rig = test_ui_support.posed_rig


def test_a_scan_counts_every_frame_of_its_actions(posed_rig) -> None:
    key_walk(posed_rig)
    key_walk(posed_rig, "Run")  # two actions of 12 frames: one count over both
    posed_rig.animation_data.action = bpy.data.actions["Walk"]
    lines: list[str | None] = []
    drawn: list[tuple[int, int]] = []
    said = progress.ScanProgress(
        "Verify by Solving",
        lines.append,
        lambda done, total: drawn.append((done, total)),
        clock=lambda: 0,
        every=0,
    )
    scan_animation(posed_rig, ["Walk", "Run"], progress=said)
    assert drawn == [(done, 24) for done in range(1, 25)]
    assert said.at == (24, 24) and None not in lines
    said.clear()
    assert said.at is None and lines[-1] is None


@pytest.mark.parametrize(
    ("drawing", "drawn_at"),
    [(0, [1, 26, 51, 76]), (100, [1, 41, 81])],
    ids=["every quarter second", "four drawings' time apart"],
)
def test_the_window_is_drawn_seldom_enough_to_keep_the_scan_fast(drawing, drawn_at) -> None:
    """A frame every 10 ms; drawing the window takes ``drawing`` ms (times in ms)."""
    now = [0]
    drawn: list[int] = []

    def draw(done: int, total: int) -> None:
        drawn.append(done)
        now[0] += drawing

    said = progress.ScanProgress(
        "Verify by Solving", lambda line: None, draw, clock=lambda: now[0], every=250
    )
    for done in range(1, 101):
        now[0] += 10
        said(done, 100)
    assert drawn == drawn_at


def test_the_line_goes_when_the_scan_refuses_the_rig(addon) -> None:
    with pytest.raises(ValueError), progress.shown(bpy.context, "Verify by Solving") as said:
        said(1, 10)
        assert said.at == (1, 10)
        raise ValueError("refused")
    assert said.at is None
