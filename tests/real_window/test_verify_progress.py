"""Verify by Solving says how far it got while it runs, in the status bar, and the line goes.

The walk of ``walk.blend`` (make_rigs.py) played over a long manual frame range, so that the
scan lasts seconds: a person presses Verify, and the status bar, photographed while Blender is
still scanning, shows a line that changes as the frames go by; once the scan is over it is
back to what it showed before.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest
from blender_window import SCREEN, BlenderWindow, DebianBlender, Rect
from panel_layout import Sidebar

RIG = "IKDoctorWalk"
FRAMES = 12000
LONGER = f"""
import bpy
walk = bpy.data.actions["Walk"]
walk.use_frame_range = True
walk.frame_start, walk.frame_end = 1, {FRAMES}
bpy.ops.wm.save_as_mainfile(filepath=bpy.data.filepath.replace("walk.blend", "long_walk.blend"))
"""


@pytest.fixture(scope="module")
def window(open_window, blender: DebianBlender, rig_files: Path) -> BlenderWindow:
    made = blender.run("blender", "-b", str(rig_files / "walk.blend"), "--python-expr", LONGER)
    assert made.returncode == 0, made.stdout + made.stderr
    opened = open_window(rig_files / "long_walk.blend")
    opened.wait(lambda s: s["draws"]["WINDOW"] > 0, "the first drawn frame", 180)
    return opened


def status_bar(window: BlenderWindow) -> Rect:
    """The strip under the window's areas (Python lists no status bar area), its left half,
    where a status text is drawn."""
    bottom = min(area["y"] for area in window.state()["windows"][0]["areas"])
    return Rect(0, SCREEN[1] - bottom, SCREEN[0] // 2, bottom)


def strip(pixels: np.ndarray, rect: Rect) -> np.ndarray:
    return pixels[rect.top : rect.bottom, rect.left : rect.right]


def scanned(state: dict) -> bool:
    stored = state["ik_doctor"]["reports"].get(RIG)  # none before the first check
    rows = stored["rows"] if stored else []
    return any(seen["action"] == "Walk" for row in rows for seen in row["occurrences"])


def test_verify_says_its_progress_in_the_status_bar_while_it_scans(window: BlenderWindow) -> None:
    sidebar = Sidebar(window)
    sidebar.open_in_pose_mode()
    verify = sidebar.look("long-walk")[1].buttons[0]
    bar = status_bar(window)
    window.move(*verify.center)
    window.settle()
    idle = strip(window.screen(), bar)
    window.click(*verify.center)
    during: list[np.ndarray] = []
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and not scanned(window.state()):
        tick = window.state()["tick"]
        shot = window.shot("verifying")
        # The observer ticks every quarter second when Blender is idle: none while the screen
        # was photographed, and Blender was still scanning.
        busy = window.state()["tick"] == tick
        seen = strip(window.pixels(shot), bar)
        if busy and (seen != idle).any():
            during.append(seen)
        else:
            shot.unlink()
    assert scanned(window.state()), "the scan did not end in 240 s"
    # The line was drawn while Blender scanned, and its frame count moved on.
    assert len(during) >= 2, f"{len(during)} screenshots showed a status line during the scan"
    assert (during[0] != during[-1]).any()
    cleared = time.monotonic() + 30  # the scan's closing report shows there for a while
    while (strip(window.screen(), bar) != idle).any():
        assert time.monotonic() < cleared, "the status bar did not come back after the scan"
        time.sleep(1)
    window.shot("verified-long-walk")
