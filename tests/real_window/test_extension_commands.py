"""Blender's own extension commands accept the built zip: validate, build, install and enable."""

from __future__ import annotations

import subprocess
import zipfile
from pathlib import Path

from blender_window import DebianBlender, foreign_tracebacks


def test_blender_validates_the_zip(bare_blender: DebianBlender, extension_zip: Path) -> None:
    done = bare_blender.run("blender", "--command", "extension", "validate", str(extension_zip))
    assert done.returncode == 0, done.stdout + done.stderr


def test_blender_builds_the_same_extension_from_its_source(
    bare_blender: DebianBlender, extension_zip: Path, tmp_path: Path
) -> None:
    source, out = tmp_path / "source", tmp_path / "out"
    out.mkdir()
    with zipfile.ZipFile(extension_zip) as built:
        built.extractall(source)
        ours = sorted(built.namelist())
    done = bare_blender.run(
        "blender", "--command", "extension", "build", "--source-dir", str(source),
        "--output-dir", str(out),
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    (rebuilt,) = out.glob("ik_doctor-*.zip")
    with zipfile.ZipFile(rebuilt) as theirs:
        assert sorted(theirs.namelist()) == ours


def test_blender_installs_and_enables_the_zip(
    blender: DebianBlender, installed: subprocess.CompletedProcess[str]
) -> None:
    assert foreign_tracebacks(installed.stdout + installed.stderr) == []
    asked = blender.run(
        "blender", "-b", "--python-expr",
        "import bpy, addon_utils; print('ENABLED', 'bl_ext.user_default.ik_doctor' in "
        "bpy.context.preferences.addons, bpy.types.WindowManager.bl_rna.properties.get("
        "'ik_doctor') is not None)",
    )  # fmt: skip
    assert "ENABLED True True" in asked.stdout, asked.stdout + asked.stderr
    assert foreign_tracebacks(asked.stdout + asked.stderr) == []
