"""Debian's real Blender binaries (``scripts/debian_blender.sh``): 5.2 LTS (sid), 4.3 (trixie).

These tests start Blender as a studio's pipeline does: ``blender --command ik_doctor`` with the
built extension installed, and ``ik-doctor --blender PATH``, PATH a launcher script that runs
the binary inside its Debian system. They skip, saying why, where that system is not set up
or cannot be entered (it needs root). They are not part of the ``bpy`` suite; run them on the
5.2 line (the agreement test compares Debian's 5.2.2 with ``bpy`` 5.2.2 from PyPI), with a
temporary folder of their own (pytest prunes its shared ones while other sessions run)::

    .venv/5.2/bin/python -m pytest -p no:cacheprovider --confcutdir tests/real_blender \
        --basetemp /tmp/ik_doctor_real_blender tests/real_blender
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from debian_binaries import ROOT, SUITES, TIMEOUT, DebianBlender, missing_reason


@pytest.fixture(scope="session", params=sorted(SUITES))
def suite(request: pytest.FixtureRequest) -> str:
    """Each Debian suite whose Blender is set up (only ``$IK_DOCTOR_DEBIAN_SUITE`` when set, as
    ``scripts/test_real_blender.sh`` runs one suite at a time); a clear skip for the others."""
    chosen = os.environ.get("IK_DOCTOR_DEBIAN_SUITE")
    if chosen and chosen != request.param:
        pytest.skip(f"IK_DOCTOR_DEBIAN_SUITE={chosen}")
    reason = missing_reason(request.param)
    if reason is not None:
        pytest.skip(reason)
    return str(request.param)


@pytest.fixture(scope="session")
def extension_zip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    built = tmp_path_factory.mktemp("dist")
    build = [sys.executable, str(ROOT / "scripts" / "build_extension.py"), "--output-dir", built]
    subprocess.run(build, check=True, capture_output=True, timeout=TIMEOUT)
    (zip_path,) = built.glob("ik_doctor-*.zip")
    return zip_path


@pytest.fixture(scope="session")
def blender(suite: str, extension_zip: Path, tmp_path_factory) -> DebianBlender:
    """The suite's Blender with the built zip installed as a user would install it."""
    debian = DebianBlender(suite, tmp_path_factory.mktemp(f"home-{suite}"))
    install = ["--command", "extension", "install-file", "-r", "user_default", "-e"]
    installed = debian.run(*install, extension_zip, cwd=debian.home)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    return debian


@pytest.fixture(scope="session")
def made(blender: DebianBlender, tmp_path_factory) -> Path:
    """The rigs of ``make_files.py``, saved by this suite's Blender."""
    out = tmp_path_factory.mktemp(f"files-{blender.suite}")
    script = Path(__file__).with_name("make_files.py")
    made = blender.run(
        "-b", "--factory-startup", "--python-exit-code", "1", "--python", script, "--", ROOT, out,
        cwd=out,
    )  # fmt: skip
    assert made.returncode == 0, made.stdout + made.stderr
    return out
