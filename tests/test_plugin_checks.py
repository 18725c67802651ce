"""A check from another package, found through its entry point (``ik_doctor.checks``), runs
everywhere a built-in check runs: the panel's rows, a switch and a threshold in the
preferences, ``--checks``, and every report format.

The plug-in is a real distribution: a module and its ``.dist-info`` (what pip writes) in a
folder on ``PYTHONPATH``, where ``importlib.metadata`` finds its entry point as it finds an
installed package's. Each run is a new process, as the registry is collected once per process.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from xml.etree import ElementTree

import pytest

PLUGIN_ID = "plugin_seen"
PLUGIN_TITLE = "Seen by a plug-in"
PLUGIN_MODULE = '''
from ik_doctor import Check, Finding, Severity


def find(rig, options):
    """One warning per rig with at least ``min_chains`` IK chains."""
    if len(rig.chains) >= options["min_chains"]:
        yield Finding(
            check_id="plugin_seen",
            severity=Severity.WARNING,
            armature=rig.name,
            title="Seen by a plug-in",
            message=f"{rig.name} has {len(rig.chains)} IK chains.",
            why="A check from another package counted them.",
            bone=rig.chains[0].owner,
        )


CHECK = Check(
    id="plugin_seen",
    title="A plug-in's check",
    doc="Counts IK chains; installed from another package.",
    find=find,
    options={"min_chains": 1.0},
)
'''

PANEL_SCRIPT = """
import json
import sys

import bpy  # noqa: I001  (before addon_utils, which bpy puts on the path)
import addon_utils

from ik_doctor.sample_rig import build_character_rig
from ik_doctor.ui import report


def fail(error):
    raise error


addon_utils.enable("ik_doctor", default_set=True, handle_error=fail)
try:
    preferences = bpy.context.preferences.addons["ik_doctor"].preferences
    rig = build_character_rig()
    bpy.context.view_layer.objects.active = rig
    bpy.ops.ik_doctor.check_rig()
    rows = report.report_for(bpy.context, rig).rows
    seen = {
        "switch": preferences.check_plugin_seen,
        "threshold": preferences.plugin_seen__min_chains,
        "rows": [[row.check_id, row.severity, row.title] for row in rows if row.kind == "FINDING"],
    }
    preferences.check_plugin_seen = False
    bpy.ops.ik_doctor.check_rig()
    seen["switched_off"] = [row.check_id for row in report.report_for(bpy.context, rig).rows]
finally:
    addon_utils.disable("ik_doctor", default_set=True, handle_error=fail)
sys.stdout.write("SEEN " + json.dumps(seen) + "\\n")
"""


@pytest.fixture(scope="module")
def plugin_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of a process where the plug-in package is installed."""
    site = tmp_path_factory.mktemp("plugin_site")
    (site / "ikd_plugin_seen.py").write_text(PLUGIN_MODULE)
    info = site / "ikd_plugin_seen-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: ikd-plugin-seen\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        f"[ik_doctor.checks]\n{PLUGIN_ID} = ikd_plugin_seen:CHECK\n"
    )
    (info / "RECORD").write_text("")
    (info / "INSTALLER").write_text("test\n")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(site), env.get("PYTHONPATH")]))
    return env


def run(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], env=env, cwd=cwd, capture_output=True, text=True, timeout=300
    )


def test_the_registry_takes_the_plugin_from_its_entry_point(plugin_env, tmp_path) -> None:
    """Whatever is imported first (here the registry alone): every check, the scans' too."""
    script = textwrap.dedent("""
        from ik_doctor.core.registry import all_checks, get_check
        ids = [check.id for check in all_checks()]
        print(get_check("plugin_seen").find.__module__, ids.count("plugin_seen"))
        print(*sorted({"verify", "export"} - set(ids)) or ["none-missing"])
    """)
    result = run(["-c", script], plugin_env, tmp_path)
    assert result.stdout.split() == ["ikd_plugin_seen", "1", "none-missing"], result.stderr
    without = run(["-c", "import ik_doctor; ik_doctor.get_check('plugin_seen')"], {
        **plugin_env, "PYTHONPATH": os.environ.get("PYTHONPATH", "")}, tmp_path)  # fmt: skip
    assert without.returncode != 0  # the test's plug-in comes from its entry point, nowhere else


def test_the_plugin_check_shows_in_the_panel_and_the_preferences(plugin_env, tmp_path) -> None:
    result = run(["-c", PANEL_SCRIPT], plugin_env, tmp_path)
    lines = [line for line in result.stdout.splitlines() if line.startswith("SEEN ")]
    assert len(lines) == 1, result.stderr
    line = lines[0]
    seen = json.loads(line.removeprefix("SEEN "))
    assert seen["switch"] is True
    assert seen["threshold"] == 1.0
    assert [PLUGIN_ID, "WARNING", PLUGIN_TITLE] in seen["rows"]
    assert PLUGIN_ID not in seen["switched_off"]


@pytest.fixture(scope="module")
def rig_file(plugin_env, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("plugin_rig") / "rig.blend"
    script = (
        "import bpy\nfrom ik_doctor.sample_rig import build_character_rig\n"
        "rig = build_character_rig()\n"
        "rig.pose.bones['shin.L'].constraints['IK'].target = None\n"  # a target check's error
        f"bpy.ops.wm.save_as_mainfile(filepath={str(path)!r})\n"
    )
    result = run(["-c", script], plugin_env, path.parent)
    assert path.exists(), result.stderr
    return path


def test_checks_names_the_plugin_and_every_report_carries_it(plugin_env, rig_file) -> None:
    where = rig_file.parent
    # A plug-in and a scan, both in the registry; the plug-in's warning decides the exit code.
    checks = ["--checks", f"{PLUGIN_ID},verify", "--fail-on", "warning"]
    as_json = run(["-m", "ik_doctor", "check", rig_file, *checks, "--format", "json",
                   "--html", "page.html"], plugin_env, where)  # fmt: skip
    assert as_json.returncode == 1, as_json.stderr
    report = json.loads(as_json.stdout)
    assert PLUGIN_ID in report["checks"]
    (armature,) = report["files"][0]["armatures"]
    assert [(f["check_id"], f["severity"], f["title"]) for f in armature["findings"]] == [
        (PLUGIN_ID, "warning", PLUGIN_TITLE)
    ]
    assert PLUGIN_TITLE in (where / "page.html").read_text()
    as_junit = run(["-m", "ik_doctor", "check", rig_file, *checks, "--format", "junit",
                    "--output", "junit.xml"], plugin_env, where)  # fmt: skip
    assert as_junit.returncode == 1, as_junit.stderr
    cases = ElementTree.parse(where / "junit.xml").getroot().iter("testcase")
    (case,) = [case for case in cases if case.get("name") == PLUGIN_ID]
    assert case.find("failure").get("type") == "warning"
    as_text = run(["-m", "ik_doctor", "check", rig_file, *checks], plugin_env, where)
    assert as_text.returncode == 1, as_text.stderr
    assert PLUGIN_TITLE in as_text.stdout


def test_checks_refuses_an_id_no_check_has(plugin_env, rig_file) -> None:
    result = run(["-m", "ik_doctor", "check", rig_file, "--checks", "plugin_unseen"],
                 plugin_env, rig_file.parent)  # fmt: skip
    assert result.returncode == 2
    assert PLUGIN_ID in result.stderr  # the known ids listed are the registry's


def test_a_project_that_ignores_a_check_still_runs_the_plugin(plugin_env, rig_file, tmp_path):
    """``ignore`` leaves the rest of the worker's registry on, not only the built-in checks."""
    shutil.copy(rig_file, tmp_path / "rig.blend")
    (tmp_path / "ik-doctor.toml").write_text('ignore = ["target"]\n')
    result = run(["-m", "ik_doctor", "check", "rig.blend", "--format", "json"],
                 plugin_env, tmp_path)  # fmt: skip
    (armature,) = json.loads(result.stdout)["files"][0]["armatures"]
    checks = {finding["check_id"] for finding in armature["findings"]}
    assert PLUGIN_ID in checks
    assert "target" not in checks


def test_a_settings_file_names_the_plugin_check_as_it_names_a_built_in_one(
    plugin_env, rig_file, tmp_path
) -> None:
    """Its id in ``severity``, ``options`` and ``ignore`` is checked against the registry the
    worker collects, and applied; an id no check has is still a usage error naming the key."""
    shutil.copy(rig_file, tmp_path / "rig.blend")
    settings = tmp_path / "ik-doctor.toml"

    def plugin_findings(text: str) -> list[str]:
        settings.write_text(text)
        result = run(["-m", "ik_doctor", "check", "rig.blend", "--format", "json"],
                     plugin_env, tmp_path)  # fmt: skip
        assert result.returncode in (0, 1), result.stderr
        (armature,) = json.loads(result.stdout)["files"][0]["armatures"]
        return [f["severity"] for f in armature["findings"] if f["check_id"] == PLUGIN_ID]

    assert plugin_findings(f'[severity]\n{PLUGIN_ID} = "info"\n') == ["info"]
    assert plugin_findings(f"[options.{PLUGIN_ID}]\nmin-chains = 99\n") == []
    assert plugin_findings(f'ignore = ["{PLUGIN_ID}"]\n') == []
    assert plugin_findings("") == ["warning"]
    settings.write_text('[severity]\nplugin_unseen = "info"\n')
    refused = run(["-m", "ik_doctor", "check", "rig.blend"], plugin_env, tmp_path)
    assert (refused.returncode, refused.stdout) == (2, "")
    assert "'severity.plugin_unseen'" in refused.stderr and str(settings) in refused.stderr
    assert PLUGIN_ID in refused.stderr  # the known ids listed are the registry's
