"""Debian's Blender 5.2.2 and ``bpy`` 5.2.2 from PyPI find the same on every shared rig.

A studio that runs the checks in its own Blender must get what the ``bpy`` suite tested: the
same findings, check by check, bone by bone, severity by severity, from the same Blender
version built by someone else (Debian, against its system Python) on every real rig in
``../shared/rigs`` (all of them .blend files 5.2 reads). Run with the 5.2 line
(``.venv/5.2``, ``scripts/env.sh``), whose workers import ``bpy`` 5.2.2.
"""

from __future__ import annotations

import json
from collections import Counter
from importlib.metadata import version
from pathlib import Path

import pytest
from debian_binaries import ROOT, DebianBlender, ik_doctor

RIGS = ROOT.parent / "shared" / "rigs"
BPY = "5.2.2"


def findings_by_file(report: dict) -> dict[str, tuple]:
    """Each file's status and problem, and its findings counted by what names them."""
    return {
        Path(file["path"]).name: (
            file["status"],
            file["problem"],
            Counter(
                (armature["name"], f["check_id"], f["bone"], f["constraint"], f["severity"])
                for armature in file["armatures"]
                for f in armature["findings"]
            ),
        )
        for file in report["files"]
    }


@pytest.mark.parametrize("suite", ["sid"], indirect=True)
def test_debian_blender_and_bpy_from_pypi_find_the_same_on_every_shared_rig(
    blender: DebianBlender, tmp_path: Path
) -> None:
    if version("bpy") != BPY:
        pytest.skip(f"compares with bpy {BPY} (the 5.2 line, .venv/5.2), not {version('bpy')}")
    if not any(RIGS.glob("*.blend")):
        pytest.skip(f"no shared rigs in {RIGS}")
    as_json = ["--jobs", "2", "--format", "json", "--output"]
    with_bpy = ik_doctor("check", RIGS, *as_json, tmp_path / "bpy.json", cwd=tmp_path)
    inside = blender.command("check", RIGS, *as_json, tmp_path / "debian.json", cwd=tmp_path)
    assert with_bpy.returncode == inside.returncode, with_bpy.stderr + inside.stderr
    ours = json.loads((tmp_path / "bpy.json").read_text("utf-8"))
    theirs = json.loads((tmp_path / "debian.json").read_text("utf-8"))
    assert ours["blender"].split()[0] == theirs["blender"].split()[0] == BPY
    read = findings_by_file(theirs)
    assert [name for name, (status, _, _) in read.items() if status != "ok"] == []
    assert read == findings_by_file(ours)
    assert sum(sum(found.values()) for _, _, found in read.values()) > 0
