"""Debian's real Blender, driven from the host: its command line, and a real window under Xvfb.

``DebianBlender`` runs commands inside one suite's system (``scripts/debian_blender.sh run``).
``BlenderWindow`` starts Xvfb, openbox and Blender on a file there, with ``observer.py``
reporting what Blender shows; it presses keys and clicks with ``xdotool`` and photographs the
screen with ImageMagick's ``import``. Coordinates are the screen's: x right, y down, in pixels;
Blender's main window fills the screen, and ``to_screen`` places any window's region there.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
DEBIAN = ROOT / "scripts" / "debian_blender.sh"
OBSERVER = Path(__file__).with_name("observer.py")
SCREEN = (1600, 1000)
BLENDERS_OWN = "/usr/share/blender/"
FRAME = re.compile(r'^  File "([^"]+)"', re.M)
# xdotool turns the F3 keysym into another keycode of Xvfb's map (Blender saw Alt held, no F3):
# pressed by its keycode, F3 opens the menu search.
KEYCODES = {"F3": "69"}
TRACEBACK = re.compile(r"^Traceback \(most recent call last\):\n(?:[ \t].*\n|\n)*.*$", re.M)


@dataclass(frozen=True)
class Rect:
    """A rectangle on the screen: left and top edge, width and height, in pixels."""

    left: int
    top: int
    width: int
    height: int

    @property
    def right(self) -> int:
        return self.left + self.width

    @property
    def bottom(self) -> int:
        return self.top + self.height

    @property
    def center(self) -> tuple[int, int]:
        return self.left + self.width // 2, self.top + self.height // 2


def foreign_tracebacks(log: str) -> list[str]:
    """The Python tracebacks in Blender's output that are not Blender's own.

    Blender's own (Debian's missing ``cattrs``) have every frame in Blender's scripts. Ours may
    name no IK Doctor file: code Blender evaluates for us, such as a property's update lambda,
    is reported as ``File "<string>"``.
    """
    return [
        match.group(0)
        for match in TRACEBACK.finditer(log)
        if any(not frame.startswith(BLENDERS_OWN) for frame in FRAME.findall(match.group(0)))
    ]


class DebianBlender:
    """One suite's Blender (``sid``: 5.2 LTS, ``trixie``: 4.3), with a private home folder."""

    def __init__(self, suite: str, home: Path) -> None:
        self.suite = suite
        self.home = home
        home.mkdir(parents=True, exist_ok=True)

    def run(
        self, *command: str, timeout: float = 300, env: dict[str, str] | None = None
    ) -> subprocess.CompletedProcess[str]:
        """Run ``command`` inside the suite's system with this home; output as text."""
        variables = {"HOME": str(self.home), **(env or {})}
        settings = [f"{key}={value}" for key, value in variables.items()]
        return subprocess.run(
            ["bash", str(DEBIAN), "run", self.suite, "env", *settings, *command],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=ROOT,
        )

    def popen(self, *command: str, log: Path) -> subprocess.Popen[bytes]:
        """Start ``command`` inside the system in its own process group, output to ``log``."""
        with open(log, "wb") as output:
            return subprocess.Popen(
                ["bash", str(DEBIAN), "run", self.suite, "env", f"HOME={self.home}", *command],
                stdout=output,
                stderr=subprocess.STDOUT,
                cwd=ROOT,
                start_new_session=True,
            )


class BlenderWindow:
    """Blender in a real window on ``blend``; every action is an X input event.

    ``state()`` is the observer's last report (see observer.py); ``wait(predicate, what)``
    waits for a report that satisfies it. ``shot(name)`` keeps a numbered screenshot.
    """

    def __init__(self, blender: DebianBlender, blend: Path, folder: Path, shots: Shots) -> None:
        self.blender = blender
        self.folder = folder
        self.shots = shots
        self.log = folder / "blender.log"
        self.display = ""
        self._asked = 0
        folder.mkdir(parents=True, exist_ok=True)
        script = folder / "start.sh"
        script.write_text(_START.format(folder=folder, blend=blend, observer=OBSERVER))
        self.process = blender.popen("bash", str(script), log=self.log)
        self.started = time.monotonic()
        display_file = folder / "display"
        self._until(lambda: display_file.exists() and display_file.read_text().strip(), 30)
        self.display = ":" + display_file.read_text().strip()

    # What Blender shows
    def state(self) -> dict[str, Any]:
        path = self.folder / "state.json"
        for _ in range(50):
            try:
                return json.loads(path.read_text(encoding="utf-8"))
            except (FileNotFoundError, json.JSONDecodeError):
                time.sleep(0.1)
        raise AssertionError(f"the observer wrote no state in {self.folder}")

    def wait(
        self, predicate: Callable[[dict[str, Any]], Any], what: str, timeout: float = 60
    ) -> dict[str, Any]:
        """The first fresh state that satisfies ``predicate``; fails saying ``what`` it wanted."""
        deadline = time.monotonic() + timeout
        state: dict[str, Any] = {}
        while time.monotonic() < deadline:
            self._alive()
            if (self.folder / "state.json").exists():
                state = self.state()
                try:
                    if predicate(state):
                        return state
                except (KeyError, TypeError, IndexError):
                    pass
            time.sleep(0.2)
        self.shot(f"timeout-{re.sub(r'[^a-z0-9]+', '-', what.lower())[:40]}")
        raise AssertionError(f"waited {timeout:.0f} s for {what}; last state: {_brief(state)}")

    def settle(self, ticks: int = 2) -> dict[str, Any]:
        """Wait until the observer has ticked ``ticks`` more times: Blender is idle again."""
        start = self.state()["tick"]
        return self.wait(lambda s: s["tick"] >= start + ticks, "Blender to be idle")

    def ask(self, code: str, timeout: float = 30) -> Any:
        """Run read-only ``code`` in Blender at the next tick; the value it put in ``result``."""
        self._asked += 1
        question = self.folder / f"ask-{self._asked:04d}.py"
        answer = self.folder / f"answer-{self._asked:04d}.json"
        partial = self.folder / f".ask-{self._asked:04d}"
        partial.write_text(code, encoding="utf-8")
        partial.replace(question)
        self._until(answer.exists, timeout)
        value = json.loads(answer.read_text(encoding="utf-8"))
        if "error" in value:
            raise AssertionError(f"the question failed in Blender:\n{value['error']}")
        return value["result"]

    def region(self, area: str, region: str, window: int = 0) -> Rect:
        """The rectangle of the first ``area``'s ``region`` (e.g. VIEW_3D, UI) on the screen."""
        found = self.state()["windows"][window]
        for each in found["areas"]:
            if each["type"] == area:
                for inner in each["regions"]:
                    if inner["type"] == region:
                        return self.to_screen(inner, window)
        raise AssertionError(f"no {area} {region} region in window {window}")

    def to_screen(self, rect: dict[str, int], window: int = 0) -> Rect:
        """A rectangle in a Blender window's coordinates (y up, from the window's bottom left,
        which Blender gives from the screen's bottom left) as a screen rectangle (y down)."""
        placed = self.state()["windows"][window]
        left = placed["x"] + rect["x"]
        top = SCREEN[1] - placed["y"] - rect["y"] - rect["height"]
        return Rect(left, top, rect["width"], rect["height"])

    @property
    def unit(self) -> float:
        """Blender's widget unit (one button row's height at this UI scale), in pixels."""
        return 20 * self.state()["ui_scale"]

    # What a person does
    def xdotool(self, *arguments: str) -> None:
        self._inside("xdotool", *arguments)

    def move(self, x: float, y: float) -> None:
        self.xdotool("mousemove", "--sync", str(round(x)), str(round(y)))

    def click(self, x: float, y: float, button: int = 1) -> None:
        """Move there first (Blender highlights the button under the mouse), then click."""
        self.xdotool(
            "mousemove", "--sync", str(round(x)), str(round(y)), "sleep", "0.3",
            "mousemove", "--sync", str(round(x) + 1), str(round(y)), "sleep", "0.2",
            "click", str(button),
        )  # fmt: skip

    def rest_mouse(self) -> None:
        """Put the mouse over an empty corner of the 3D View: keys then reach the viewport's
        keymap (they go to the area under the mouse) and no button is highlighted."""
        view = self.region("VIEW_3D", "WINDOW")
        self.move(view.left + 4 * self.unit, view.bottom - 4 * self.unit)

    def key(self, *keys: str) -> None:
        """Press keys (xdotool names: ``ctrl+z``, ``Return``) where the mouse is."""
        self.xdotool("key", "--delay", "120", *(KEYCODES.get(key, key) for key in keys))

    def type(self, text: str) -> None:
        self.xdotool("type", "--delay", "60", text)

    # What the screen shows
    def shot(self, name: str) -> Path:
        """Keep a screenshot of the whole screen as the next numbered step."""
        path = self.shots.next(name)
        self._inside("import", "-window", "root", str(path))
        return path

    def pixels(self, shot: Path) -> np.ndarray:
        """A screenshot's pixels, (height, width, RGB) in 0-255."""
        raw = self.folder / "pixels.rgb"
        self._inside("convert", str(shot), "-depth", "8", f"rgb:{raw}")
        return np.fromfile(raw, dtype=np.uint8).reshape(SCREEN[1], SCREEN[0], 3)

    def screen(self) -> np.ndarray:
        """The screen's pixels now, without keeping a screenshot."""
        grab, raw = self.folder / "grab.png", self.folder / "grab.rgb"
        self._inside("sh", "-c", f"import -window root {grab} && convert {grab} -depth 8 rgb:{raw}")
        return np.fromfile(raw, dtype=np.uint8).reshape(SCREEN[1], SCREEN[0], 3)

    def wait_for_change(
        self, rect: Rect, before: np.ndarray, what: str, timeout: float = 30
    ) -> None:
        """Wait until the screen inside ``rect`` differs from ``before`` (a menu opened)."""
        deadline = time.monotonic() + timeout
        area = (slice(rect.top, rect.bottom), slice(rect.left, rect.right))
        while time.monotonic() < deadline:
            if (self.screen()[area] != before[area]).any(axis=2).mean() > 0.02:
                return
            time.sleep(0.3)
        self.shot("timeout-" + what.replace(" ", "-"))
        raise AssertionError(f"waited {timeout:.0f} s for {what}")

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def tracebacks(self) -> list[str]:
        """Tracebacks Blender printed that are not Blender's own (IK Doctor's, the observer's)."""
        return foreign_tracebacks(self.output())

    def close(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)

    def _inside(self, *command: str) -> None:
        done = self.blender.run(*command, env={"DISPLAY": self.display}, timeout=60)
        if done.returncode != 0:
            raise AssertionError(f"{command[0]} failed: {done.stderr.strip()[-500:]}")

    def _alive(self) -> None:
        if self.process.poll() is not None:
            raise AssertionError(f"Blender ended (exit {self.process.returncode}):\n"
                                 + self.output()[-3000:])  # fmt: skip

    def _until(self, condition: Callable[[], Any], timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            self._alive()
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out after {timeout:.0f} s in {self.folder}")
            time.sleep(0.1)


class Shots:
    """Numbered screenshots in one folder: ``01-opened.png``, ``02-pose-mode.png``..."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.count = 0
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("*.png"):
            old.unlink()

    def next(self, name: str) -> Path:
        self.count += 1
        return self.folder / f"{self.count:02d}-{name}.png"


def _brief(state: dict[str, Any]) -> str:
    keep = ("tick", "mode", "active_object", "frame", "ik_doctor", "rig")
    return json.dumps({key: state.get(key) for key in keep}, default=str)[:2000]


# Xvfb picks a free display itself (-displayfd): other Blenders may be running on this machine.
# At 96 dpi Blender's UI scale is 1.0, its default; at Xvfb's own 100 dpi it was 1.04.
_START = """\
set -e
Xvfb -displayfd 3 -screen 0 {screen} -dpi 96 -nolisten tcp 3>{folder}/display.partial \
  >{folder}/xvfb.log 2>&1 &
while [ ! -s {folder}/display.partial ]; do sleep 0.1; done
mv {folder}/display.partial {folder}/display
export DISPLAY=:$(cat {folder}/display)
openbox >{folder}/openbox.log 2>&1 &
sleep 0.5
export IK_DOCTOR_OBSERVER_DIR={folder}
exec blender --window-fullscreen {blend} --python {observer}
""".replace("{screen}", f"{SCREEN[0]}x{SCREEN[1]}x24")
