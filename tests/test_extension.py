"""The built zip installs into real Blender as an extension and enables/disables cleanly."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

INSTALL_SCRIPT = textwrap.dedent(
    """
    import os, sys, tempfile, zipfile
    os.environ["BLENDER_USER_RESOURCES"] = tempfile.mkdtemp()
    import bpy, addon_utils
    zip_path, repo_dir = sys.argv[1], sys.argv[2]
    with zipfile.ZipFile(zip_path) as archive:
        archive.extractall(os.path.join(repo_dir, "ik_doctor"))
    bpy.context.preferences.extensions.repos.new(
        name="local_test", module="local_test", custom_directory=repo_dir, source="USER")
    module = "bl_ext.local_test.ik_doctor"

    def ours():
        return sorted(c for c in dir(bpy.types) if c.startswith("IK_DOCTOR_"))

    before = ours()
    for attempt in range(2):
        addon_utils.enable(module, default_set=True, handle_error=None)
        assert module in bpy.context.preferences.addons, "not enabled"
        assert hasattr(bpy.ops.ik_doctor, "check_rig")
        assert ours(), "no classes registered"
        addon_utils.disable(module, default_set=True, handle_error=None)
        assert module not in bpy.context.preferences.addons
        assert ours() == before, f"left behind: {set(ours()) - set(before)}"
    print("EXTENSION OK")
    sys.stdout.flush()
    os._exit(0)
    """
)


def test_built_zip_installs_enables_and_disables_twice(tmp_path) -> None:
    build = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "build_extension.py"),
            "--output-dir",
            str(tmp_path / "dist"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert build.returncode == 0, build.stdout + build.stderr
    zip_path = tmp_path / "dist" / "ik_doctor-0.1.0.zip"
    with zipfile.ZipFile(zip_path) as archive:
        names = archive.namelist()
    assert "blender_manifest.toml" in names and "__init__.py" in names and "LICENSE" in names
    assert not any("__pycache__" in name for name in names)
    script = tmp_path / "install.py"
    script.write_text(INSTALL_SCRIPT)
    result = subprocess.run(
        [sys.executable, str(script), str(zip_path), str(tmp_path / "repo")],
        env={**os.environ, "TMPDIR": str(tmp_path)},  # it ends by os._exit, removing nothing
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert "EXTENSION OK" in result.stdout, result.stdout[-3000:] + result.stderr[-3000:]
