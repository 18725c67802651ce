"""IK Doctor in Debian's real Blender, in a real window, driven by real input events.

Run apart from the ``bpy`` suites, with the host's pytest driving Blender inside its Debian
system (``scripts/debian_blender.sh``): ``scripts/test_real_blender.sh [sid|trixie]``, which
sets ``IK_DOCTOR_DEBIAN_SUITE`` (sid: Blender 5.2 LTS, trixie: 4.3).

Fixtures, for any test in this folder:
- ``blender`` (session): the suite's Blender with a private home where the zip built by
  ``scripts/build_extension.py`` (``extension_zip``) was installed and enabled by Blender's
  own ``extension install-file``; ``blender.run(*command)`` runs any command inside the system.
- ``rig_files`` (session): ``demo.blend`` (the demo rig with its three faults),
  ``walk.blend`` (a walk the locked left knee cannot follow, a right knee rolled off its bend
  axis) and ``export.blend`` (a walk whose scene remembers glTF settings without sampling),
  saved by that Blender (``make_rigs.py``).
- ``open_window`` (module): ``open_window(blend)`` starts Xvfb, openbox and Blender on a file
  and returns a ``BlenderWindow`` (blender_window.py): ``state()`` / ``wait(...)`` read what the
  observer reports (mode, report rows, region rectangles...), ``ask(code)`` runs a read-only
  measurement in Blender, ``click``, ``key``, ``type`` act through ``xdotool``, and
  ``shot(name)`` keeps a numbered screenshot in ``.venv/real_window_shots/SUITE/`` (emptied
  when a session starts: two sessions of one suite at once mix and delete each other's).
  ``sidebar(window)`` finds the IK Doctor panel's buttons on a screenshot (panel_layout.py).
  The windows close when the module ends.
Every test fails if a Blender it opened printed a Python traceback that is not Blender's own
(blender_window.foreign_tracebacks: Debian's missing ``cattrs`` is Blender's, and ignored; a
property's update lambda of ours shows up as ``File "<string>"`` and counts).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from blender_window import ROOT, BlenderWindow, DebianBlender, Shots

SUITES = {"sid": (5, 2), "trixie": (4, 3)}


@pytest.fixture(scope="session")
def suite() -> str:
    name = os.environ.get("IK_DOCTOR_DEBIAN_SUITE", "sid")
    if name not in SUITES:
        pytest.fail(f"IK_DOCTOR_DEBIAN_SUITE={name}: use one of {sorted(SUITES)}")
    if not (ROOT / ".venv" / f"debian-{name}" / ".ik_doctor_ready").exists():
        pytest.fail(
            f"Debian {name}'s Blender is not set up: scripts/debian_blender.sh setup {name}"
        )
    return name


@pytest.fixture(scope="session")
def extension_zip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    build = [sys.executable, str(ROOT / "scripts" / "build_extension.py"), "--output-dir", out]
    subprocess.run(build, check=True, capture_output=True, timeout=300)
    (zip_path,) = out.glob("ik_doctor-*.zip")
    return zip_path


@pytest.fixture(scope="session")
def bare_blender(suite: str, tmp_path_factory: pytest.TempPathFactory) -> DebianBlender:
    """The suite's Blender with an empty private home."""
    return DebianBlender(suite, tmp_path_factory.mktemp(f"home-{suite}"))


@pytest.fixture(scope="session")
def installed(bare_blender: DebianBlender, extension_zip: Path) -> subprocess.CompletedProcess[str]:
    """Blender's own ``extension install-file -e`` of the zip, into the private home."""
    install = ("blender", "--command", "extension", "install-file", "-r", "user_default", "-e")
    return bare_blender.run(*install, str(extension_zip))


@pytest.fixture(scope="session")
def blender(
    bare_blender: DebianBlender, installed: subprocess.CompletedProcess[str]
) -> DebianBlender:
    assert installed.returncode == 0, installed.stdout + installed.stderr
    return bare_blender


@pytest.fixture(scope="session")
def rig_files(blender: DebianBlender, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp(f"rigs-{blender.suite}")
    script = Path(__file__).with_name("make_rigs.py")
    made = blender.run(
        "blender", "-b", "--factory-startup", "--python-exit-code", "1",
        "--python", str(script), "--", str(ROOT), str(out),
    )  # fmt: skip
    assert made.returncode == 0, made.stdout + made.stderr
    return out


@pytest.fixture(scope="session")
def shots(suite: str) -> Shots:
    # IK_DOCTOR_SHOTS_TAG keeps two runs on one suite (two engineers at once) out of each
    # other's folders; scripts/readme_pictures.py reads the untagged one.
    tag = os.environ.get("IK_DOCTOR_SHOTS_TAG", "")
    return Shots(ROOT / ".venv" / "real_window_shots" / (f"{suite}-{tag}" if tag else suite))


@pytest.fixture(scope="module")
def open_window(
    blender: DebianBlender, shots: Shots, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Callable[[Path], BlenderWindow]]:
    windows: list[BlenderWindow] = []

    def open_on(blend: Path) -> BlenderWindow:
        window = BlenderWindow(blender, blend, tmp_path_factory.mktemp("window"), shots)
        windows.append(window)
        _open_windows.append(window)
        return window

    yield open_on
    for window in windows:
        window.close()
        _open_windows.remove(window)


_open_windows: list[BlenderWindow] = []


@pytest.fixture(autouse=True)
def no_traceback_from_ik_doctor() -> Iterator[None]:
    """Fail the test during which an open Blender printed a traceback through IK Doctor."""
    before = {id(window): len(window.tracebacks()) for window in _open_windows}
    yield
    for window in _open_windows:
        new = window.tracebacks()[before.get(id(window), 0) :]
        assert not new, "Blender printed a traceback from IK Doctor:\n" + "\n".join(new)
