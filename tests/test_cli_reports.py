"""Names from untrusted files cannot break a report or command the terminal that shows it.

An armature, bone, constraint or file name can hold an escape sequence that clears the screen,
a hyperlink, a bell, a carriage return that overwrites the line, a right-to-left override, or a
character XML 1.0 forbids. The renderers are fed such names directly, then a real run reads a
real file whose armature, bone, constraint and file name hold them.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import unicodedata
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Any

import bpy
import jsonschema
import pytest
from test_cli import on_a_terminal

from ik_doctor.cli.report_html import render_html
from ik_doctor.cli.report_json import SCHEMA_PATH, render_json
from ik_doctor.cli.report_junit import render_junit
from ik_doctor.cli.report_text import render_text
from ik_doctor.sample_rig import build_character_rig

SCHEMA = json.loads(SCHEMA_PATH.read_text("utf-8"))
CLEAR = "\x1b[2J"
LINK = "\x1b]8;;http://x\x07link\x1b]8;;\x07"
HOSTILE = f"{CLEAR}\x07\r{LINK}\u202e\x85\x9b"
"""Clear screen, bell, carriage return, an OSC 8 hyperlink, a bidi override and two C1 codes."""
FILE_HOSTILE = f"{CLEAR}\x07\r\x1b]8;;x\x07link\x1b]8;;\x07\u202e\x9b"
"""The same in a file name, which cannot hold '/'."""
COLOUR = re.compile(r"\x1b\[[0-9;]*m")
"""The report's own colour codes: the only escape sequences it may write."""
BIDI = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def raw_controls(text: str) -> list[str]:
    """Characters a terminal or an XML parser would act on, other than line breaks."""
    return [
        char
        for char in COLOUR.sub("", text)
        if char != "\n" and (unicodedata.category(char) in ("Cc", "Cs", "Zl", "Zp") or char in BIDI)
    ]


def finding(text: str) -> dict[str, Any]:
    return {
        "check_id": "target", "severity": "error", "armature": f"rig{text}",
        "title": "No target", "message": f"IK 'IK{text}' on shin{text} has no target.",
        "why": f"why{text}",
        "bone": f"shin{text}", "constraint": f"IK{text}",
        "chain": {"owner": f"shin{text}", "constraint": f"IK{text}"},
        "fix_id": "create_control", "fix_label": f"Create a control{text}", "fix_args": {},
        "no_fix_reason": None, "changes_rest_pose": False, "needs_confirmation": False,
    }  # fmt: skip


def hostile_files(text: str) -> list[dict[str, Any]]:
    """A fixed file, an unreadable one and one without an armature, every string tainted."""
    error = finding(text)
    chain = {
        "owner": f"shin{text}", "constraint": f"IK{text}",
        "bones": [[f"thigh{text}", [0, 0, 1], [0, 0, 0.5]],
                  [f"shin{text}", [0, 0, 0.5], [0, 0, 0]]],
        "parent": [f"hips{text}", [0, 0, 1], [0, 0, 1.2]], "tip": [0, 0, 0],
        "target": None, "pole": None, "bend_normal": None,
    }  # fmt: skip
    armature = {
        "name": f"rig{text}", "library": f"/lib{text}.blend", "override": False, "problem": None,
        "findings": [error, {**finding(text), "severity": "warning", "fix_label": None,
                             "no_fix_reason": f"no{text}"}],
        "chains": [chain],
        "fix": {
            "skipped": f"skipped{text}",
            "applied": [{"finding": error, "result": f"Made{text}", "changed": True,
                         "failed": False, "touched": [f"shin{text}", f"IK{text}"]}],
            "not_applied": [{"finding": error, "reason": f"held{text}"}],
            "after": [error], "chains_after": [chain],
        },
    }  # fmt: skip
    return [
        {"index": 0, "path": f"rigs/a{text}.blend", "status": "failed",
         "problem": f"failed{text}", "armatures": [armature],
         "output": f"out/a{text}.blend", "backup": f"a{text}.blend.ik-doctor-backup"},
        {"index": 1, "path": f"b{text}.blend", "status": "unreadable",
         "problem": f"Blender crashed ({text})", "armatures": [], "output": None, "backup": None},
        {"index": 2, "path": f"c{text}.blend", "status": "no_armature",
         "problem": f"no armature named 'x{text}'", "armatures": [], "output": None,
         "backup": None},
    ]  # fmt: skip


HEADER = {"command": "fix", "blender": "5.3.0", "checks": ["target"],
          "options": {"armature": None, "diagrams": True}, "fail_on": "error"}  # fmt: skip


@pytest.mark.parametrize("colour", [False, True], ids=["to_a_file", "on_a_terminal"])
def test_text_report_shows_control_characters_in_names_as_escapes(colour) -> None:
    report = render_text(hostile_files(HOSTILE), "fix", colour=colour)
    assert raw_controls(report) == []
    assert "rig\\x1b[2J\\x07\\r\\x1b]8;;http://x\\x07link" in report
    assert "\\u202e\\x85\\x9b" in report
    assert "\x1b[2J" not in report and "\x1b]8" not in report


def test_junit_stays_valid_xml_whatever_the_names_hold() -> None:
    files = hostile_files(HOSTILE + "\x00\x01\ufffe\udcff")
    suites = ElementTree.fromstring(render_junit(files, ["target"], "error"))
    names = [suite.get("name") for suite in suites.iter("testsuite")]
    assert names[0] == "rigs/a\\x1b[2J\\x07\\r\\x1b]8;;http://x\\x07link\\x1b]8;;\\x07" + (
        "\\u202e\\x85\\x9b\\x00\\x01\\ufffe\\xff.blend"  # a byte that is not UTF-8, as such
    )
    everything = ElementTree.tostring(suites, encoding="unicode")
    assert raw_controls(everything) == []


def test_html_escapes_markup_and_shows_control_characters_in_names() -> None:
    page = render_html(hostile_files(HOSTILE + "<script>"), "fix", blender="5.3.0")
    assert raw_controls(page) == []
    assert page.count("<script>") == 1 and "&lt;script&gt;" in page  # one: the page's filters
    assert "shin\\x1b[2J" in page  # the diagram's bone titles too


def test_json_keeps_names_exact_but_writes_only_ascii() -> None:
    files = hostile_files(HOSTILE + "\udcff")
    text = render_json(files, HEADER)
    assert text.isascii()
    document = json.loads(text)
    jsonschema.Draft202012Validator(SCHEMA).validate(document)
    assert document["files"][0]["armatures"][0]["name"] == f"rig{HOSTILE}\udcff"


@pytest.fixture(scope="module")
def hostile_rig(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real file whose armature, bone, IK constraint and file name hold hostile characters."""
    folder = tmp_path_factory.mktemp("hostile")
    bpy.ops.wm.read_homefile(use_empty=True)
    rig = build_character_rig(name=f"rig{HOSTILE}")
    constraint = rig.pose.bones["shin.L"].constraints["IK"]
    constraint.target = None
    constraint.name = f"IK{HOSTILE}"
    rig.data.bones["shin.L"].name = f"shin{HOSTILE}"
    assert rig.name == f"rig{HOSTILE}" and constraint.name == f"IK{HOSTILE}"  # Blender keeps them
    plain = folder / "plain.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(plain), check_existing=False)
    bpy.ops.wm.read_homefile(use_empty=True)
    path = folder / f"rig{FILE_HOSTILE}.blend"
    plain.rename(path)
    (folder / "plain.blend1").unlink(missing_ok=True)
    return path


def ik_doctor(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ik_doctor", *map(str, args)],
        cwd=cwd,
        env=dict(os.environ),
        capture_output=True,
        text=True,
        errors="surrogateescape",
        timeout=300,
    )


def test_a_real_rig_with_hostile_names_gives_safe_reports_in_every_format(hostile_rig) -> None:
    folder = hostile_rig.parent
    common = ["--checks", "target"]
    text = ik_doctor("check", folder, *common, cwd=folder)
    as_json = ik_doctor("check", folder, *common, "--format", "json", cwd=folder)
    junit = ik_doctor("check", folder, *common, "--format", "junit", "--output", "r.xml",
                      "--html", "r.html", cwd=folder)  # fmt: skip

    assert text.returncode == as_json.returncode == junit.returncode == 1, text.stderr
    assert "\x1b" not in text.stdout and raw_controls(text.stdout) == []
    assert "rig\\x1b[2J\\x07\\r\\x1b]8;;http://x\\x07link" in text.stdout  # the armature
    assert "shin\\x1b[2J" in text.stdout and "IK\\x1b[2J" in text.stdout  # bone, constraint
    assert "\\x1b]8;;x\\x07link\\x1b]8;;\\x07\\u202e\\x9b.blend" in text.stdout  # the file

    report = json.loads(as_json.stdout)
    jsonschema.Draft202012Validator(SCHEMA).validate(report)
    assert as_json.stdout.isascii()
    (file,) = report["files"]
    assert file["path"] == str(hostile_rig)
    (error,) = file["armatures"][0]["findings"]
    assert (error["armature"], error["bone"], error["constraint"]) == (
        f"rig{HOSTILE}",
        f"shin{HOSTILE}",
        f"IK{HOSTILE}",
    )

    suites = ElementTree.parse(folder / "r.xml").getroot()
    assert suites.get("failures") == "1"
    page = (folder / "r.html").read_text("utf-8")
    assert raw_controls(page) == [] and "shin\\x1b[2J" in page


def test_the_terminal_sees_no_escape_sequence_from_a_name(hostile_rig, tmp_path) -> None:
    """On a terminal: colour codes and the progress bar's own, nothing from the names."""
    other = tmp_path / "other.blend"
    other.write_bytes(hostile_rig.read_bytes())
    code, output = on_a_terminal(
        "check", hostile_rig, other, "--checks", "target", "--jobs", "1", cwd=tmp_path
    )
    assert code == 1
    shown = output.decode("utf-8", "surrogateescape")
    ours = re.compile(r"\x1b\[[0-9;]*[mK]|\r\x1b\[K")  # colours; the bar clearing its line
    assert "\x1b[31mERROR" in shown
    assert "2/2 other.blend" in shown
    assert raw_controls(ours.sub("", shown).replace("\r\n", "\n")) == []
