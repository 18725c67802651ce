"""Shared fixtures: every test runs against the real ``bpy`` module, in an empty scene."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

# Blender writes its user config on start: keep it away from the user's own.
os.environ.setdefault("BLENDER_USER_RESOURCES", tempfile.mkdtemp(prefix="ik_doctor_user_"))

import bpy
import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ik_doctor.sample_rig import build_character_rig  # noqa: E402


@pytest.fixture
def scene() -> bpy.types.Scene:
    """A fresh, empty file: nothing one test builds leaks into the next."""
    bpy.ops.wm.read_homefile(use_empty=True)
    return bpy.context.scene


@pytest.fixture
def rig(scene: bpy.types.Scene) -> bpy.types.Object:
    """The correct reference character rig (two-bone IK legs and arms with poles)."""
    return build_character_rig()
