"""``python -m ik_doctor`` and the ``ik-doctor`` command: start Blender quietly, then the CLI."""

from __future__ import annotations

import os
import sys


def _import_blender_quietly() -> None:
    """Import ``bpy`` with its start-up messages sent to stderr.

    Blender logs to stdout while it starts (for example when ``$OCIO`` names a colour config it
    cannot read); a JSON or JUnit report on stdout must start with the report itself.
    """
    sys.stdout.flush()
    saved = os.dup(1)
    os.dup2(2, 1)
    try:
        import bpy  # noqa: F401
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


def main() -> int:
    _import_blender_quietly()
    from .cli import main as run_command_line

    return run_command_line()


if __name__ == "__main__":
    raise SystemExit(main())
