"""Real workers (real ``bpy``, real subprocesses) kept on a short leash.

A worker runs untrusted files in a folder someone else filled: it must not import a module
planted there, must tell what it is doing (so a crash names its moment) and must leave when
its work is done, even on Blender 4.5, whose interpreter shutdown hangs after it read a file
with a Python driver. The installed ``ik-doctor`` script is what a pipeline runs, so that is
what these tests start.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import bpy
import pytest

from ik_doctor.cli.pool import worker_command
from ik_doctor.cli.worker import ANSWER_PREFIX, READY_LINE, STAGE_PREFIX
from ik_doctor.sample_rig import build_character_rig

IK_DOCTOR = Path(sys.executable).with_name("ik-doctor")
"""The console script pip installed: ``python -m`` would put the current directory on the
main process's own path, which is Python's doing, not ours."""


def run(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    # os.environ, not the inherited C environment: bpy sets OCIO in there on import.
    return subprocess.run(
        [str(IK_DOCTOR), *map(str, args)],
        cwd=cwd,
        env=dict(os.environ),
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("workers")
    paths = {"good": root / "rigs" / "good.blend", "driven": root / "driven.blend"}
    paths["good"].parent.mkdir()
    bpy.ops.wm.read_homefile(use_empty=True)
    rig = build_character_rig()
    bpy.ops.wm.save_as_mainfile(filepath=str(paths["good"]), check_existing=False)
    # An expression Blender's simple evaluator cannot take: only Python can run it.
    curve = rig.driver_add("location", 0)
    curve.driver.type = "SCRIPTED"
    curve.driver.expression = "len('rig') * 0"
    bpy.ops.wm.save_as_mainfile(filepath=str(paths["driven"]), check_existing=False)
    bpy.ops.wm.read_homefile(use_empty=True)
    rig = build_character_rig()
    rig.pose.bones["shin.L"].constraints["IK"].target = None
    paths["broken"] = root / "broken.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(paths["broken"]), check_existing=False)
    bpy.ops.wm.read_homefile(use_empty=True)
    return {**paths, "root": root}


def test_a_module_planted_beside_the_rigs_never_runs(files) -> None:
    """``cd rigs && echo 'open("pwned","w")' > json.py && ik-doctor check rig.blend`` ran it."""
    planted = [files["root"] / "json.py", files["good"].parent / "json.py"]
    for module in planted:
        module.write_text(f"open({str(module.with_suffix('.ran'))!r}, 'w').write('ran')\n")
    try:
        result = run("check", "rigs/good.blend", cwd=files["root"])
        assert result.returncode == 0, result.stdout + result.stderr
        assert "IKDoctorRig" in result.stdout
        assert not [m for m in planted if m.with_suffix(".ran").exists()]
    finally:
        for module in planted:
            module.unlink()


def test_the_worker_tells_what_blender_is_doing_with_each_file(files, tmp_path) -> None:
    """So a worker killed while saving is not reported as "crashed while reading"."""
    job = {"command": "fix", "path": str(files["broken"]), "output": str(tmp_path / "fixed.blend")}
    worker = subprocess.run(
        worker_command(),
        input=json.dumps(job) + "\n",
        env=dict(os.environ),
        capture_output=True,
        text=True,
        timeout=300,
    )
    said = [line for line in worker.stdout.splitlines() if line.startswith("ik-doctor-")]
    assert said[0] == READY_LINE
    assert [line.removeprefix(STAGE_PREFIX) for line in said[1:-1]] == [
        "reading this file",
        "fixing this file",
        "saving the fixed file",
        "reading back the fixed file",
        "checking the fixed file",
    ]
    assert json.loads(said[-1].removeprefix(ANSWER_PREFIX))["status"] == "ok"
    assert worker.returncode == 0


def test_check_returns_after_a_file_with_a_python_driver(files) -> None:
    """Blender 4.5 hangs in its interpreter shutdown after reading such a file: the worker must
    not need that shutdown, and the main process must not wait for it without a deadline."""
    result = subprocess.run(
        [str(IK_DOCTOR), "check", str(files["driven"]), str(files["good"])],
        cwd=files["root"],
        env=dict(os.environ),
        capture_output=True,
        text=True,
        timeout=120,  # a run takes seconds; before, it never returned on 4.5
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Checked 2 files, 2 armatures" in result.stdout
