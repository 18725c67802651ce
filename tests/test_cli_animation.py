"""``ik-doctor check --animation`` and ``fix --animation``: the scan of the animator's frames
from the command line, in every report format, with the fix proven by a rescan of the file."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from pathlib import Path

import bpy
import pytest
from test_cli import ik_doctor, valid_report
from test_scan_animation import key_walk

from ik_doctor.sample_rig import build_character_rig


@pytest.fixture(scope="module")
def walking(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The reference rig walking its left foot, with the knee's IK locked on its bend axis."""
    path = tmp_path_factory.mktemp("animation") / "walk.blend"
    bpy.ops.wm.read_homefile(use_empty=True)
    rig = build_character_rig()
    key_walk(rig)
    rig.pose.bones["shin.L"].lock_ik_x = True
    bpy.ops.wm.save_as_mainfile(filepath=str(path), check_existing=False)
    return path


def verify_findings(armature: dict) -> list[dict]:
    return [f for f in armature["findings"] if f["check_id"] == "verify"]


def test_check_animation_reports_the_miss_with_its_action_frames_and_curve(walking) -> None:
    """The scan proves the locks check's fault (the same lock on the same axis of the same
    bone): one finding, the lock's, carrying the action and frames the knee misses on."""
    page = walking.with_name("page.html")
    plain = valid_report(ik_doctor("check", walking, "--format", "json", cwd=walking.parent))
    assert verify_findings(plain["files"][0]["armatures"][0]) == []
    process = ik_doctor(
        "check", walking, "--animation", "--format", "json", "--html", page, cwd=walking.parent
    )
    report = valid_report(process)
    assert report["options"]["animation"] is True and "verify" in report["checks"]
    (armature,) = report["files"][0]["armatures"]
    assert verify_findings(armature) == []
    (lock,) = [f for f in armature["findings"] if f["fix_args"].get("cause") == "ik_lock"]
    assert (lock["check_id"], lock["bone"], lock["fix_id"]) == ("locks", "shin.L", "free_axes")
    (walk,) = lock["occurrences"]
    assert walk["action"] == "Walk" and walk["worst"] > 0.01
    assert walk["frames"] and all(1 <= a <= b <= 12 for a, b in walk["frames"])
    (curve,) = [c for c in armature["curves"] if c["owner"] == "shin.L"]
    assert max(m for _, m in curve["misses"]) > curve["limit"]
    html = page.read_text("utf-8")
    assert 'aria-label="miss over the frames of Walk"' in html and "<polyline" in html
    text = ik_doctor("check", walking, "--animation", cwd=walking.parent).stdout
    assert text.count("(shin.L, locks)") == 1 and "(shin.L, verify)" not in text
    junit = ik_doctor("check", walking, "--animation", "--format", "junit", cwd=walking.parent)
    cases = ElementTree.fromstring(junit.stdout).iter("testcase")
    assert [c.find("failure") is not None for c in cases if c.get("name") == "locks"] == [True]


def test_fix_animation_frees_the_lock_and_the_rescan_of_the_written_file_lands(walking) -> None:
    out = walking.parent / "fixed"
    # Only the target check runs statically: the locks check would free the knee before the scan.
    options = ("--checks", "target", "--format", "json")
    process = ik_doctor(
        "fix", walking, "--animation", "--output-dir", out, *options, cwd=walking.parent
    )
    report = valid_report(process)
    (armature,) = report["files"][0]["armatures"]
    applied = [a for a in armature["fix"]["applied"] if a["finding"]["check_id"] == "verify"]
    assert [(a["changed"], a["failed"], a["touched"]) for a in applied] == [
        (True, False, ["shin.L", "IK"])
    ]
    assert [f for f in armature["fix"]["after"] if f["check_id"] == "verify"] == []
    assert process.returncode == 0, process.stdout
    bpy.ops.wm.open_mainfile(filepath=str(out / "walk.blend"))
    assert not bpy.data.objects["IKDoctorRig"].pose.bones["shin.L"].lock_ik_x


RIGS = Path(__file__).resolve().parents[2] / "shared" / "rigs"
ISSUE_RIGS = [
    RIGS / name
    for name in (
        "godotengine_tps-demo_red_robot.blend",
        "quaternius_Trex.blend",
        "quaternius_Horse.blend",
    )
]


@pytest.mark.skipif(not all(p.is_file() for p in ISSUE_RIGS), reason=f"no rigs in {RIGS}")
def test_the_issue_s_three_rigs_read_in_a_page_each_cause_once(tmp_path) -> None:
    """Issue 22 measured 988 lines and 112 findings (84 errors), a nested aim's miss repeated
    once per action: at most 150 lines now, no chain with the same cause twice, and every
    action the scan saw kept in the JSON."""
    text = ik_doctor("check", "--animation", *ISSUE_RIGS, cwd=tmp_path)
    assert text.returncode == 1 and len(text.stdout.splitlines()) <= 150
    report = valid_report(
        ik_doctor("check", "--animation", "--format", "json", *ISSUE_RIGS, cwd=tmp_path)
    )
    found = [(file["path"], f) for file in report["files"] for a in file["armatures"]
             for f in a["findings"]]  # fmt: skip
    causes = [
        (path, f["armature"], str(f["chain"]), f["check_id"], f["fix_id"], f["title"],
         sorted((k, str(v)) for k, v in f["fix_args"].items() if k != "worst_frame"))
        for path, f in found
    ]  # fmt: skip
    findings = [f for _, f in found]
    assert len(causes) == len({repr(cause) for cause in causes})
    nested = [f for f in findings if f["fix_args"].get("cause") == "nested_ik"]
    assert {f["check_id"] for f in nested} == {"constraint_order"} and len(nested) == 4
    assert all(len(f["occurrences"]) == 17 for f in nested)
