"""Where the sidebar's buttons are, read off a screenshot: what a person finds by looking.

Blender gives Python no button rectangles, and the panel's rows move as its text wraps, so the
tests find them as a person does: a button is a bar of one flat colour, one row high, that
stands out from what is above and below it; buttons side by side in an aligned row are split by
a thin line. The tab strip's tabs are runs of colour at the region's right edge.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np
from blender_window import BlenderWindow, Rect


@dataclass(frozen=True)
class Bar:
    """A row of buttons: its colour, its rectangle and each button's rectangle, left to right."""

    color: tuple[int, int, int]
    rect: Rect
    buttons: tuple[Rect, ...]

    @property
    def is_alert(self) -> bool:
        """Blender paints a button in an alert layout red."""
        red, green, blue = self.color
        return red > green + 60 and red > blue + 60


def find_bars(pixels: np.ndarray, area: Rect, unit: float) -> list[Bar]:
    """Every button bar inside ``area`` (a panel), top to bottom."""
    colors = [_longest_run(pixels[y, area.left : area.right]) for y in range(area.top, area.bottom)]
    bars = []
    start = 0
    for index in range(1, len(colors) + 1):
        if index < len(colors) and colors[index][0] == colors[start][0]:
            continue
        height = index - start
        color, width = colors[start][0], max(w for _, w in colors[start:index])
        above = colors[start - 1][0] if start > 0 else None
        below = colors[index][0] if index < len(colors) else None
        if (
            0.75 * unit <= height <= 1.1 * unit
            and width >= 1.5 * unit
            and color not in (above, below)
        ):
            top = area.top + start
            bars.append(_bar(pixels, area, color, top, height))
        start = index
    return bars


def find_tabs(pixels: np.ndarray, region: Rect, unit: float) -> list[Rect]:
    """The category tabs on the right edge of a sidebar region, top to bottom: one stack from
    the top (what lies further down, like 4.3's region corner, is not a tab)."""
    tabs = _tabs_at(pixels, region, round(region.right - 0.9 * unit), unit)
    stacked = tabs[:1]
    for tab in tabs[1:]:
        if tab.top - stacked[-1].bottom > unit:
            break
        stacked.append(tab)
    return stacked


def _tabs_at(pixels: np.ndarray, region: Rect, x: int, unit: float) -> list[Rect]:
    column = pixels[region.top : region.bottom, x].astype(int)
    background = column[1]
    # An inactive tab is 5 levels off the strip in Blender 4.3's theme (29 on 24).
    differs = np.abs(column - background).max(axis=1) > 3
    tabs = []
    start = None
    for index, inside in enumerate([*differs, False]):
        if inside and start is None:
            start = index
        elif not inside and start is not None:
            if unit <= index - start <= 8 * unit:  # a tab, not the region's whole border
                tabs.append(
                    Rect(x - round(unit / 2), region.top + start, round(unit), index - start)
                )
            start = None
    return tabs


def _longest_run(row: np.ndarray) -> tuple[tuple[int, int, int], int]:
    """The colour of the longest run of identical pixels in ``row``, and its length."""
    changes = np.flatnonzero(np.any(row[1:] != row[:-1], axis=1)) + 1
    edges = np.concatenate(([0], changes, [len(row)]))
    lengths = np.diff(edges)
    longest = int(np.argmax(lengths))
    color = tuple(int(value) for value in row[edges[longest]])
    return (color[0], color[1], color[2]), int(lengths[longest])


def _bar(pixels: np.ndarray, area: Rect, color: tuple[int, int, int], top: int, height: int) -> Bar:
    block = pixels[top : top + height, area.left : area.right]
    painted = np.all(block == np.array(color, dtype=pixels.dtype), axis=2).any(axis=0)
    buttons = []
    start = None
    for index, inside in enumerate([*painted, False]):
        if inside and start is None:
            start = index
        elif not inside and start is not None:
            if index - start >= height // 2:  # a button, not a stray pixel of its colour
                buttons.append(Rect(area.left + start, top, index - start, height))
            start = None
    left, right = buttons[0].left, buttons[-1].right
    return Bar(color, Rect(left, top, right - left, height), tuple(buttons))


def most_common(pixels: np.ndarray, area: Rect) -> tuple[int, int, int]:
    block = pixels[area.top : area.bottom, area.left : area.right].reshape(-1, 3)
    color = Counter(map(tuple, block.tolist())).most_common(1)[0][0]
    return (int(color[0]), int(color[1]), int(color[2]))


class Sidebar:
    """The IK Doctor tab of a window's 3D View sidebar, its buttons found on a fresh screenshot."""

    def __init__(self, window: BlenderWindow) -> None:
        self.window = window

    @property
    def region(self) -> Rect:
        return self.window.region("VIEW_3D", "UI")

    def panel_area(self) -> Rect:
        """The sidebar left of its tab strip, where the panels are."""
        region = self.region
        return Rect(
            region.left, region.top, round(region.width - 1.2 * self.window.unit), region.height
        )

    def look(self, name: str) -> list[Bar]:
        """Take the step's screenshot with the mouse off the panel (a hovered button is lighter)
        and return the panel's button bars, top to bottom."""
        self.window.rest_mouse()
        self.window.settle()
        pixels = self.window.pixels(self.window.shot(name))
        return find_bars(pixels, self.panel_area(), self.window.unit)

    def open_in_pose_mode(self) -> None:
        """As a person starts: Ctrl+Tab over the viewport, N for the sidebar, then the tab."""
        window = self.window
        window.rest_mouse()
        window.key("ctrl+Tab")
        window.wait(lambda s: s["mode"] == "POSE", "Pose Mode")
        window.key("n")
        self.open_tab()

    def wait_open(self) -> None:
        """Wait until the sidebar is open and drawn at its full width (it slides open)."""
        window, previous = self.window, None
        for _ in range(40):
            state = window.settle()
            now = self.region
            if now == previous and now.width > 5 * window.unit and state["draws"]["UI"] > 0:
                return
            previous = now
        raise AssertionError(f"the sidebar did not open: {previous}")

    def open_tab(self, name: str = "IK Doctor") -> None:
        """Click the tabs from the last up until the sidebar shows ``name`` (add-ons' tabs come
        after Blender's own)."""
        window = self.window
        self.wait_open()
        pixels = window.pixels(window.shot("sidebar"))
        for tab in reversed(find_tabs(pixels, self.region, window.unit)):
            window.click(*tab.center)
            shown = window.settle()
            if _category(shown) == name:
                return
        raise AssertionError(f"no tab of the sidebar opened '{name}'")

    @staticmethod
    def fix_all(bars: list[Bar]) -> Bar:
        """Fix All: the first bar under the list's selected row (the list has no other)."""
        selected = next(i for i, bar in enumerate(bars) if _is_selection(bar.color))
        return bars[selected + 1]

    @staticmethod
    def details(bars: list[Bar]) -> Bar:
        """The selected finding's own buttons (Select, Fix): the first bar under Fix All."""
        selected = next(i for i, bar in enumerate(bars) if _is_selection(bar.color))
        return bars[selected + 2]

    def row_center(self, bars: list[Bar], index: int) -> tuple[int, int]:
        """Where to click row ``index`` of the findings list: on its text, counted in rows
        from the selected row (the one blue bar)."""
        selected = next(bar for bar in bars if _is_selection(bar.color))
        active = self.window.state()["ik_doctor"]["reports"]
        (report,) = active.values()
        unit = self.window.unit
        y = selected.rect.top + (index - report["active_index"]) * unit + selected.rect.height / 2
        return selected.rect.left + round(2 * unit), round(y)


def _is_selection(color: tuple[int, int, int]) -> bool:
    red, _green, blue = color
    return blue > red + 60


def _category(state: dict) -> str | None:
    for area in state["windows"][0]["areas"]:
        for region in area["regions"]:
            if area["type"] == "VIEW_3D" and region["type"] == "UI":
                return region.get("category")
    return None


def text_lines(pixels: np.ndarray, area: Rect, unit: float) -> list[int]:
    """The middle of each line of text in ``area``, top to bottom: rows with light pixels."""
    block = pixels[area.top : area.bottom, area.left : area.right].astype(int)
    lit = (block.min(axis=2) > 150).any(axis=1)
    lines, start = [], None
    for index, inside in enumerate([*lit, False]):
        if inside and start is None:
            start = index
        elif not inside and start is not None:
            if index - start >= unit / 4:
                lines.append(area.top + (start + index) // 2)
            start = None
    return lines
