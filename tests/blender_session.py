"""One process's Blender module: its user folder kept apart, and a clean way out.

Import it before ``bpy``: Blender reads ``BLENDER_USER_RESOURCES`` when the module loads and
writes its config there, so a test run or a benchmark must not touch the person's own. The
folder is removed on the way out, which ``leave`` takes without Python's teardown: after
importers and Rigify have run, Blender 4.2's module can crash or stall while the interpreter
shuts down, turning a finished run into exit 139.
"""

from __future__ import annotations

import os
import sys
import tempfile
from typing import NoReturn

USER_RESOURCES = tempfile.TemporaryDirectory(prefix="ik_doctor_user_")
os.environ.setdefault("BLENDER_USER_RESOURCES", USER_RESOURCES.name)


def leave(status: int = 0) -> NoReturn:
    """End the process with ``status`` after removing the temporary folders teardown would."""
    from ik_doctor.cli.worker import remove_session_folder

    USER_RESOURCES.cleanup()
    remove_session_folder()
    if (faulted_limbs := sys.modules.get("faulted_limbs")) is not None:
        faulted_limbs.SCRATCH_FOLDER.cleanup()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)
