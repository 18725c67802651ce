"""Starting Blender in the command's own process, which only ``demo`` does.

``check`` and ``fix`` leave Blender to their workers (see ``pool``): the main process only
renders what they answer, and a second start-up of Blender in it cost every run 0.7 to 0.9 s
of CPU before any file was read.
"""

from __future__ import annotations

import os
import signal
import sys


def import_bpy_quietly() -> None:
    """Import ``bpy`` with its start-up messages sent to stderr.

    Blender logs to stdout while it starts (for example when ``$OCIO`` names a colour config it
    cannot read); what the command prints on stdout must start with its own output.
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
