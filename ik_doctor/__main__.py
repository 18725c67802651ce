"""``python -m ik_doctor`` and the ``ik-doctor`` command.

This process starts no Blender for ``check``, ``fix`` and ``merge``: the workers read the files
(see ``cli.pool``), and this process only writes what they answer. ``demo`` builds its rig here
(see ``cli.quiet_start``).
"""

from __future__ import annotations

import contextlib
import signal
import sys
from collections.abc import Iterator


def main() -> int:
    with _signals_held() as early:
        from .cli import main as run_command_line
    try:
        return run_command_line(early_signals=early)
    except KeyboardInterrupt:  # after the run's own handlers (cli.interrupt) are put back
        print("\nik-doctor: interrupted", file=sys.stderr)
        return 130


@contextlib.contextmanager
def _signals_held() -> Iterator[list[int]]:
    """Hold SIGINT and SIGTERM while Python imports the command (unless ignored, as under
    ``nohup``): the run takes them over and still writes its report."""
    held: list[int] = []
    previous = {
        number: signal.signal(number, lambda received, _frame: held.append(received))
        for number in (signal.SIGINT, signal.SIGTERM)
        if signal.getsignal(number) is not signal.SIG_IGN
    }
    try:
        yield held
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


if __name__ == "__main__":
    raise SystemExit(main())
