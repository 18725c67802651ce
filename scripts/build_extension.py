"""Build dist/ik_doctor-<version>.zip with Blender's own extension tool, after validating it.

The manifest and licence live at the top of the repository and the add-on in ``ik_doctor/``;
an extension wants them side by side, so they are staged together first. Run with a Python
that has ``bpy`` installed: Blender's ``blender_ext.py`` ships inside the wheel.
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# cli/ ships: an enabled extension is also `blender --command ik_doctor` (cli.blender_command).
EXCLUDE = shutil.ignore_patterns("__pycache__", "*.pyc", "__main__.py")


def blender_scripts() -> Path:
    spec = importlib.util.find_spec("bpy")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("bpy is not installed in this Python: run scripts/test.sh or pip install bpy")
    package = Path(next(iter(spec.submodule_search_locations)))
    versions = sorted(p for p in package.iterdir() if (p / "scripts").is_dir())
    return versions[-1] / "scripts"


def build(output_dir: Path) -> Path:
    scripts = blender_scripts()
    tool = scripts / "addons_core" / "bl_pkg" / "cli" / "blender_ext.py"
    tags = scripts / "modules" / "_bpy_internal" / "extensions" / "tags.py"
    output_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as staging_root:
        staging = Path(staging_root) / "ik_doctor"
        shutil.copytree(ROOT / "ik_doctor", staging, ignore=EXCLUDE)
        shutil.copy(ROOT / "blender_manifest.toml", staging)
        shutil.copy(ROOT / "LICENSE", staging)
        validate = [sys.executable, str(tool), "validate", str(staging)]
        if tags.exists():
            validate += ["--valid-tags", str(tags)]
        subprocess.run(validate, check=True)
        subprocess.run(
            [
                sys.executable,
                str(tool),
                "build",
                "--source-dir",
                str(staging),
                "--output-dir",
                str(output_dir),
            ],
            check=True,
        )
    version = _manifest_version()
    return output_dir / f"ik_doctor-{version}.zip"


def _manifest_version() -> str:
    import tomllib

    with open(ROOT / "blender_manifest.toml", "rb") as manifest:
        return tomllib.load(manifest)["version"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output-dir", type=Path, default=ROOT / "dist")
    print(build(parser.parse_args().output_dir))


if __name__ == "__main__":
    main()
