"""How a run stops on SIGINT (Ctrl-C) or SIGTERM (a farm or CI cancelling the job).

The first signal stops handing out files: the files in flight finish (a fix in place is never
cut short by the signal), the others are reported as not checked, the partial report is
written, and the command exits 130 (SIGINT) or 143 (SIGTERM), as a shell reports a signal.
A second signal kills the workers at once; what they were writing is a temporary file that
never replaces anything.
"""

from __future__ import annotations

import contextlib
import signal
import sys
from collections.abc import Iterator
from types import FrameType

from .pool import Stop

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Interrupt:
    """The signals of one run: caught while it runs, then read for the exit code."""

    def __init__(self, early: list[int] | None = None) -> None:
        self.stop = Stop()
        self.signal: int | None = None
        self._early = early if early is not None else []
        """Signals held before this run caught them (while Python imported the command)."""

    @contextlib.contextmanager
    def caught(self) -> Iterator[Stop]:
        """Catch SIGINT and SIGTERM in this block (unless ignored, as under ``nohup``)."""
        previous = {
            number: signal.signal(number, self._receive)
            for number in SIGNALS
            if signal.getsignal(number) is not signal.SIG_IGN
        }
        for number in self._early:
            self._receive(number, None)
        self._early.clear()
        try:
            yield self.stop
        finally:
            for number, handler in previous.items():
                # None: a handler set from C (Blender's own, under `blender --command`), which
                # Python cannot put back; the default ends the process, as Blender's would.
                signal.signal(number, signal.SIG_DFL if handler is None else handler)

    @property
    def exit_code(self) -> int | None:
        """128 plus the first signal's number, as a shell reports it; None without one."""
        return None if self.signal is None else 128 + self.signal

    def _receive(self, number: int, _frame: FrameType | None) -> None:
        name = signal.Signals(number).name
        if self.signal is None:
            self.signal = number
            self.stop.gently()
            print(
                ("\n" if sys.stderr.isatty() else "")  # after the progress bar's line
                + f"ik-doctor: {name}: finishing the files in flight, starting no other "
                "(send it again to stop at once)",
                file=sys.stderr,
            )
        else:
            self.stop.now()
            print(f"ik-doctor: {name} again: stopping now", file=sys.stderr)
