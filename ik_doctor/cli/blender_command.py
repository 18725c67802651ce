"""``blender --command ik_doctor``: the command line inside a studio's own Blender.

A studio on its own build (a patched 4.2, a 4.5 with its own Python) has no ``bpy`` from pip,
so ``ik-doctor`` cannot run there. Enabled as an extension, IK Doctor registers the same
command with Blender (``bpy.utils.register_cli_command``, Blender 4.2+): the same arguments,
reports and exit codes. This Blender only renders the report; its workers are the same Blender
binary (``bpy.app.binary_path``), started in the background as ``--blender`` starts one, so a
file that crashes Blender still costs one line of the report.
"""

from __future__ import annotations

import sys
from typing import Any

import bpy

COMMAND_ID = "ik_doctor"
PROG = f"blender --command {COMMAND_ID}"

_handles: list[Any] = []


def register() -> None:
    # The stub says register_cli_command returns None; Blender returns the handle to unregister.
    _handles.append(bpy.utils.register_cli_command(COMMAND_ID, execute))  # type: ignore[func-returns-value]


def unregister() -> None:
    while _handles:
        bpy.utils.unregister_cli_command(_handles.pop())


def execute(argv: list[str]) -> int:
    """Run ``ik-doctor`` with ``argv`` in this Blender; Blender exits with what it returns.

    argparse ends a usage error (2) and ``--help`` (0) with ``SystemExit``; raised out of
    here, Python's own handling would end Blender on the spot, before Blender's exit. Its code
    is returned instead, as Blender's own commands do (``blender --command asset_listing``).
    """
    from . import main

    try:
        return main(argv, prog=PROG, blender=bpy.app.binary_path or None)
    except SystemExit as ended:
        if ended.code is None or isinstance(ended.code, int):
            return ended.code or 0
        print(ended.code, file=sys.stderr)  # as Python does with sys.exit("message")
        return 1
