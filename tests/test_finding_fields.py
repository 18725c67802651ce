"""A field added to ``Finding`` needs that one edit: the panel's rows get a property for it, the
copy into a row and back carry it, and the JSON report prints it.

The field is added as a person would add it: one edit to ``core/finding.py``, in a copy of the
package that a new process imports (Blender registers the row's properties once per process).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import ik_doctor

ANCHOR = "\n    @property\n    def key(self)"
NEW_FIELDS = '''
    mood: str = "calm"
    """A field this test adds."""
    hits: tuple[int, ...] = (1, 2)
'''

PANEL_SCRIPT = """
import json
import sys
from dataclasses import replace

import bpy  # noqa: I001  (before addon_utils, which bpy puts on the path)
import addon_utils

import ik_doctor
from ik_doctor.core.finding import sort_findings
from ik_doctor.sample_rig import build_character_rig
from ik_doctor.ui import report


def fail(error):
    raise error


addon_utils.enable("ik_doctor", default_set=True, handle_error=fail)
try:
    rig = build_character_rig()
    rig.pose.bones["shin.L"].constraints["IK"].target = None
    bpy.context.view_layer.objects.active = rig
    bpy.ops.ik_doctor.check_rig()
    rows = report.report_for(bpy.context, rig).rows
    checked = [[row.mood, json.loads(row.hits_json)] for row in rows if row.kind == "FINDING"]
    changed = [replace(f, mood="grumpy", hits=(3, 4, 5)) for f in ik_doctor.diagnose(rig)]
    back = report.findings_of(report.store(bpy.context, rig, changed))
    seen = {
        "package": ik_doctor.__file__,
        "checked": checked,
        "back": [[finding.mood, finding.hits] for finding in back],
        "equal": back == sort_findings(changed),
    }
finally:
    addon_utils.disable("ik_doctor", default_set=True, handle_error=fail)
bpy.ops.wm.save_as_mainfile(filepath=sys.argv[1])
sys.stdout.write("SEEN " + json.dumps(seen) + "\\n")
"""


def test_a_field_added_to_finding_reaches_the_panel_and_the_json(tmp_path) -> None:
    site = tmp_path / "site"
    shutil.copytree(
        Path(ik_doctor.__file__).parent,
        site / "ik_doctor",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    finding_py = site / "ik_doctor" / "core" / "finding.py"
    source = finding_py.read_text()
    assert source.count(ANCHOR) == 1
    finding_py.write_text(source.replace(ANCHOR, NEW_FIELDS + ANCHOR))
    env = {**os.environ, "PYTHONPATH": str(site)}
    rig = tmp_path / "rig.blend"

    panel = subprocess.run(
        [sys.executable, "-c", PANEL_SCRIPT, str(rig)],
        env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    lines = [line for line in panel.stdout.splitlines() if line.startswith("SEEN ")]
    assert len(lines) == 1, panel.stderr
    seen = json.loads(lines[0].removeprefix("SEEN "))
    assert seen["package"] == str(site / "ik_doctor" / "__init__.py")
    assert seen["checked"]  # each row holds the new fields' defaults
    assert {(mood, tuple(hits)) for mood, hits in seen["checked"]} == {("calm", (1, 2))}
    assert seen["back"] and all(back == ["grumpy", [3, 4, 5]] for back in seen["back"])
    assert seen["equal"] is True

    cli = subprocess.run(
        [sys.executable, "-m", "ik_doctor", "check", str(rig), "--format", "json"],
        env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    (armature,) = json.loads(cli.stdout)["files"][0]["armatures"]
    assert armature["findings"]
    assert {(f["mood"], tuple(f["hits"])) for f in armature["findings"]} == {("calm", (1, 2))}
