"""``python -m ik_doctor`` and the ``ik-doctor`` command: start Blender quietly, then the CLI."""

from __future__ import annotations

import os
import signal
import sys


def _import_blender_quietly() -> None:
    """Import ``bpy`` with its start-up messages sent to stderr.

    Blender logs to stdout while it starts (for example when ``$OCIO`` names a colour config it
    cannot read); a JSON or JUnit report on stdout must start with the report itself.
    A Ctrl-C meanwhile is held until ``bpy`` has started: raised inside its import, bpy prints
    the traceback and carries on half-started.
    """
    held: list[int] = []
    python_handler = signal.getsignal(signal.SIGINT)
    if python_handler is signal.default_int_handler:  # not ignored, as under nohup
        signal.signal(signal.SIGINT, lambda number, _frame: held.append(number))
    sys.stdout.flush()
    saved = os.dup(1)
    os.dup2(2, 1)
    try:
        import bpy  # noqa: F401
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)
        signal.signal(signal.SIGINT, python_handler)
    if held:
        raise KeyboardInterrupt


def main() -> int:
    try:
        _import_blender_quietly()
        from .cli import main as run_command_line

        return run_command_line()
    except KeyboardInterrupt:  # before or after the files are read; meanwhile cli.interrupt
        print("\nik-doctor: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
