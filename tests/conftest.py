"""Shared fixtures: every test runs against the real ``bpy`` module, in an empty scene."""

from __future__ import annotations

import sys
from pathlib import Path

import blender_session  # before bpy: Blender's user folder apart from the person's
import bpy
import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import hypothesis_profiles  # noqa: E402, F401  (registered before --hypothesis-profile is read)

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


@pytest.fixture
def temporary_folder_for_killed_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A temporary folder in the test's own for the commands it starts: a run killed with
    SIGKILL cannot remove its workers' folders, which otherwise piled up in the system's."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setenv("TMPDIR", str(folder))
    return folder


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    """Leave without Python's teardown once pytest has reported.

    After importers and Rigify have run, Blender 4.2's module can crash (or stall) while the
    interpreter shuts down, turning a green run into exit 139. Every result is printed by now,
    so end the process with pytest's own exit status (``blender_session.leave``).
    """
    status = getattr(config, "_ik_doctor_exit_status", None)
    if status is None:
        return
    blender_session.leave(int(status))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    session.config._ik_doctor_exit_status = exitstatus  # type: ignore[attr-defined]
