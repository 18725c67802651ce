"""A long scan's progress where a person sees it: a line in the status bar, drawn as it goes.

An operator's ``execute`` holds Blender's event loop, so nothing it changes is drawn before it
returns: ``progress_update`` only turns the mouse cursor into a number. The scan therefore
writes its line with ``WorkSpace.status_text_set`` and asks Blender to draw it a few times a
second with ``wm.redraw_timer`` (made to time drawing, it draws there and then); the line
goes when the scan ends, however it ends. The scan stays blocking on purpose: it switches the
rig's actions and the scene's frame, which a person must not edit meanwhile.
"""

from __future__ import annotations

import contextlib
import io
import time
from collections.abc import Callable, Iterator

import bpy

from . import context_given

REDRAW_EVERY = 0.25  # seconds between two drawings of the window during a scan


class ScanProgress:
    """``progress(done, total)`` for a scan: ``at`` is the last (done, total) said. ``show``
    gets the status line and ``redraw(done, total)`` is called at most every ``every`` seconds,
    and never sooner than four times the last drawing took after it (drawing with software
    OpenGL took seconds: it must not make the scan slower by more than a fifth); ``clear`` gives
    ``show`` None."""

    def __init__(
        self,
        what: str,
        show: Callable[[str | None], None],
        redraw: Callable[[int, int], None],
        clock: Callable[[], float] = time.monotonic,
        every: float = REDRAW_EVERY,
    ) -> None:
        self.what = what
        self.at: tuple[int, int] | None = None
        self._show, self._redraw, self._clock, self._every = show, redraw, clock, every
        self._next: float | None = None

    def __call__(self, done: int, total: int) -> None:
        self.at = (done, total)
        start = self._clock()
        if self._next is not None and start < self._next:
            return
        self._show(f"{self.what}: frame {done} of {total} ({100 * done // max(total, 1)}%)")
        self._redraw(done, total)
        end = self._clock()
        self._next = end + max(self._every, 4 * (end - start))

    def clear(self) -> None:
        self.at = None
        self._show(None)


@contextlib.contextmanager
def shown(context: bpy.types.Context, what: str) -> Iterator[ScanProgress]:
    """A ``ScanProgress`` for this window's status bar and cursor, cleared on leaving."""
    window_manager = context_given.window_manager(context)
    workspace = context.workspace

    def show(line: str | None) -> None:
        if workspace is not None:
            workspace.status_text_set(line)

    def cursor_and_window(done: int, total: int) -> None:
        window_manager.progress_update(100 * done // max(total, 1))
        _redraw_window(context)

    progress = ScanProgress(what, show, cursor_and_window)
    window_manager.progress_begin(0, 100)
    try:
        yield progress
    finally:
        progress.clear()
        window_manager.progress_end()


def _redraw_window(context: bpy.types.Context) -> None:
    """Draw the window now, where there is one to draw (not in a background Blender): what
    changed, the status bar and the button's region, not the whole window (DRAW_WIN_SWAP drew
    the 3D View too, in seconds with software OpenGL)."""
    if bpy.app.background or context.window is None:
        return
    # It reports its timing, which a call from Python prints: not the user's business.
    with contextlib.redirect_stdout(io.StringIO()):
        bpy.ops.wm.redraw_timer(type="DRAW_SWAP", iterations=1)
