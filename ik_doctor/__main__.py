"""``python -m ik_doctor`` and the ``ik-doctor`` command.

This process starts no Blender for ``check``, ``fix`` and ``merge``: the workers read the files
(see ``cli.pool``), and this process only writes what they answer. ``demo`` builds its rig here
(see ``cli.quiet_start``).
"""

from __future__ import annotations

import sys


def main() -> int:
    try:
        from .cli import main as run_command_line

        return run_command_line()
    except KeyboardInterrupt:  # before or after the files are read; meanwhile cli.interrupt
        print("\nik-doctor: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
