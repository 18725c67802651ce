"""Debian's Blender binaries from the host: a launcher for ``--blender``, ``blender`` itself
with a home of its own, and the ``ik-doctor`` of this Python (see ``conftest``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEBIAN = ROOT / "scripts" / "debian_blender.sh"
SUITES = {"sid": "5.2.2", "trixie": "4.3.2"}
"""Each Debian suite and the Blender version it carries."""
IK_DOCTOR = Path(sys.executable).with_name("ik-doctor")
TIMEOUT = 600


def missing_reason(suite: str) -> str | None:
    """Why Debian's Blender of ``suite`` cannot run here; None when it can."""
    if not (ROOT / ".venv" / f"debian-{suite}" / ".ik_doctor_ready").exists():
        return f"Debian {suite}'s Blender is not set up (scripts/debian_blender.sh setup {suite})"
    if os.geteuid() != 0:
        return "entering Debian's system (chroot, mount namespace) needs root"
    return None


class DebianBlender:
    """One suite's Blender: a launcher for ``--blender``, and ``blender`` run with a home of
    its own, where the built extension is installed."""

    def __init__(self, suite: str, home: Path) -> None:
        self.suite, self.home = suite, home
        self.version = SUITES[suite]
        self.launcher = home / f"blender-{suite}"
        self.launcher.write_text(f'#!/bin/sh\nexec "{DEBIAN}" run {suite} blender "$@"\n')
        self.launcher.chmod(0o755)

    def run(self, *args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.launcher), *map(str, args)],
            cwd=cwd,
            env={**os.environ, "HOME": str(self.home)},
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )

    def command(self, *args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
        """``blender --command ik_doctor ARGS``."""
        return self.run("--command", "ik_doctor", *args, cwd=cwd)


def ik_doctor(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The ``ik-doctor`` console script of this Python, as a pipeline runs it."""
    return subprocess.run(
        [str(IK_DOCTOR), *map(str, args)],
        cwd=cwd,
        env=dict(os.environ),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
