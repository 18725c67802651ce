"""Files Blender reads that IK Doctor stumbled on (issue 25), rebuilt by editing saved bytes.

Names Python cannot read: Blender 2.4x saved names in the user's code page, and reading one
raises ``UnicodeDecodeError`` on every line (4.2, 4.5, 5.3); ``diagnose`` crashed and the
command line failed the whole file. The rig here is the reference rig whose armature, left leg,
its IK, pole, target, a Copy Rotation and an action are named with the byte 0xdf: IK Doctor
shows each by its escaped byte (``shin\\xdf.L``, ``core.names``), judges the leg as any other,
and refuses a fix that would have to find one by name.

A file Blender reads with an error: ``open_mainfile`` raises for an invalid embedded node
group, yet loads the file; the command line checks it and carries Blender's message as a note.
"""

from __future__ import annotations

from pathlib import Path

import bpy
import pytest
from cli_rigs import save_with_a_broken_node_group
from faulted_limbs import Fault, faulted_rig, judge
from rig_generation import UNREADABLE, reloaded_with_unreadable_names
from test_cli import ik_doctor, valid_report
from test_ui_support import addon, in_3d_view

from ik_doctor import (
    FixError,
    Severity,
    apply_all_fixes,
    diagnose,
    judge_chains,
    run_fix,
    scan_animation,
)
from ik_doctor.core.names import named, readable
from ik_doctor.sample_rig import build_character_rig
from ik_doctor.ui import report
from ik_doctor.verify.export_scan import NotExportable, scan_export

RIG, THIGH, SHIN = "Rig\\xdf", "thigh\\xdf.L", "shin\\xdf.L"
IK, COPY, WALK = "IK\\xdf", "Copy\\xdf", "Walk\\xdf"
"""How IK Doctor spells the names the old rig saves with 0xdf (``core.names``)."""
RUNNING = tuple(bpy.app.version[:2])

__all__ = ["addon"]  # the add-on fixture, for the panel


class OldRig:
    """The reopened rig, held where pytest does not print it: ``repr()`` of an object whose
    name Python cannot read crashes the process (all three lines), and pytest prints a failing
    test's arguments."""

    def __init__(self, obj: bpy.types.Object) -> None:
        self.obj = obj

    def __repr__(self) -> str:
        return "OldRig()"


def _old_rig() -> bpy.types.Object:
    """The reference rig with a broken left leg (its thigh IK-locked) whose names Python cannot
    read, an action in which its target rises, and a broken left arm named plainly."""
    rig = build_character_rig()
    for name in ("thigh.L", "shin.L", "knee_pole.L", "foot_ik.L"):
        rig.data.bones[name].name = name.replace(".", f"{UNREADABLE}.", 1)
    shin = rig.pose.bones[f"shin{UNREADABLE}.L"]
    ik = shin.constraints["IK"]
    ik.name = f"IK{UNREADABLE}"
    thigh = rig.pose.bones[f"thigh{UNREADABLE}.L"]
    thigh.lock_ik_x = thigh.lock_ik_y = thigh.lock_ik_z = True  # the leg cannot fold: it fails
    copy = shin.constraints.new("COPY_ROTATION")  # overridden by the IK
    copy.name, copy.target, copy.subtarget = f"Copy{UNREADABLE}", rig, "hips"
    rig.pose.bones["forearm.L"].constraints["IK"].chain_count = 1  # a fault a fix can name
    target = rig.pose.bones[f"foot_ik{UNREADABLE}.L"]
    target.keyframe_insert("location", frame=1)
    target.location.z = 0.25  # up toward the hips: the knee must bend
    target.keyframe_insert("location", frame=10)
    target.location.z = 0.0
    rig.animation_data.action.name = f"Walk{UNREADABLE}"
    rig.name = f"Rig{UNREADABLE}"
    return reloaded_with_unreadable_names(rig)


@pytest.fixture
def old_rig(scene) -> OldRig:
    return OldRig(_old_rig())


@pytest.fixture(scope="module")
def old_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The old rig saved as a file, and the reference rig with a material whose embedded node
    tree is broken (its ID code zeroed in the saved bytes)."""
    folder = tmp_path_factory.mktemp("old_files")
    paths = {"names": folder / "names.blend", "nodes": folder / "nodes.blend"}
    bpy.ops.wm.read_homefile(use_empty=True)
    _old_rig()
    bpy.ops.wm.save_as_mainfile(filepath=str(paths["names"]), copy=True)
    save_with_a_broken_node_group(paths["nodes"])
    return paths


def test_python_cannot_read_the_names(old_rig) -> None:
    with pytest.raises(UnicodeDecodeError):
        old_rig.obj.name  # noqa: B018  (the read is the test)
    assert readable(old_rig.obj) == RIG


def test_findings_stand_on_names_python_cannot_read(old_rig) -> None:
    found = [(f.check_id, f.armature, f.bone, f.constraint) for f in diagnose(old_rig.obj)]
    assert ("locks", RIG, THIGH, IK) in found
    assert ("constraint_order", RIG, SHIN, COPY) in found
    verdicts = {v.owner: v.state for v in judge_chains(old_rig.obj)}
    assert verdicts == {SHIN: "fail", "shin.R": "pass", "forearm.L": "fail", "forearm.R": "pass"}


def test_the_scan_reports_a_miss_in_an_action_python_cannot_name(old_rig) -> None:
    misses = [(f.check_id, f.action, f.bone, f.fix_id) for f in scan_animation(old_rig.obj)]
    assert ("verify", WALK, SHIN, "free_ik_locks") in misses


def test_a_fix_that_must_find_such_a_name_refuses_and_the_others_apply(old_rig) -> None:
    locked = next(f for f in diagnose(old_rig.obj) if f.check_id == "locks")
    with pytest.raises(FixError):
        run_fix(locked)
    results = {r.finding.bone: (r.changed, r.failed) for r in apply_all_fixes(old_rig.obj)}
    assert (results[THIGH], results["forearm.L"]) == ((False, True), (True, False))
    assert named(old_rig.obj.pose.bones, THIGH).lock_ik_x, "left as it was"
    verdicts = {v.owner: v.state for v in judge_chains(old_rig.obj)}
    assert (verdicts[SHIN], verdicts["forearm.L"]) == ("fail", "pass")


def test_the_panel_lists_selects_and_refuses_on_such_names(addon, old_rig) -> None:
    obj = old_rig.obj
    with bpy.context.temp_override(active_object=obj, object=obj):
        assert bpy.ops.ik_doctor.check_rig() == {"FINISHED"}
    rows = [(row.kind, row.check_id, row.bone) for row in report.report_for(bpy.context, obj).rows]
    locked = rows.index(("FINDING", "locks", THIGH))
    with in_3d_view("UI"), bpy.context.temp_override(active_object=obj, object=obj):
        assert bpy.ops.ik_doctor.select_bone(index=locked) == {"FINISHED"}
        assert readable(obj.data.bones.active) == THIGH
        with pytest.raises(RuntimeError):  # the operator reports the FixError as an error
            bpy.ops.ik_doctor.fix_finding(index=locked)
    assert named(obj.pose.bones, THIGH).lock_ik_x, "left as it was"


def test_the_command_line_checks_and_fixes_a_rig_with_such_names(old_files, tmp_path) -> None:
    checked = ik_doctor("check", old_files["names"], "--format", "json", "--animation",
                        "--html", tmp_path / "r.html", cwd=tmp_path)  # fmt: skip
    (file,) = valid_report(checked)["files"]
    (armature,) = file["armatures"]
    assert (checked.returncode, file["status"], armature["name"]) == (1, "ok", RIG)
    found = {(f["check_id"], f["bone"], f["action"]) for f in armature["findings"]}
    assert {("locks", THIGH, None), ("verify", SHIN, WALK)} <= found
    assert SHIN in (tmp_path / "r.html").read_text("utf-8")
    text = ik_doctor("check", old_files["names"], cwd=tmp_path)
    assert text.returncode == 1 and THIGH in text.stdout and RIG in text.stdout

    fixed = ik_doctor("fix", old_files["names"], "--output-dir", tmp_path / "fixed",
                      "--format", "json", cwd=tmp_path)  # fmt: skip
    (file,) = valid_report(fixed)["files"]
    fix = file["armatures"][0]["fix"]
    applied = {(a["finding"]["bone"], a["changed"]) for a in fix["applied"]}
    assert (fixed.returncode, file["status"]) == (1, "ok")
    assert {(THIGH, False), ("forearm.L", True)} <= applied
    assert {f["bone"] for f in fix["after"] if f["severity"] == "error"} == {THIGH, SHIN}


def test_the_export_is_refused_by_name_and_the_checks_still_stand(old_rig, old_files, tmp_path):
    """The exporters are Python and cannot read such names: ``scan_export`` raised
    UnicodeDecodeError reading the armature's own name, and the command line lost every
    finding on the rig with it. It refuses naming them; the report keeps the checks' findings
    beside an 'Export not verified' warning."""
    with pytest.raises(NotExportable, match=r"Rig\\xdf.*not text"):
        scan_export(old_rig.obj)
    checked = ik_doctor("check", old_files["names"], "--format", "json", "--export", "gltf",
                        cwd=tmp_path)  # fmt: skip
    (file,) = valid_report(checked)["files"]
    (armature,) = file["armatures"]
    assert (file["status"], armature.get("problem")) == ("ok", None)
    found = {(f["check_id"], f["severity"], f["bone"]) for f in armature["findings"]}
    assert {("export", "warning", None), ("locks", "error", THIGH)} <= found


def test_the_generator_breaks_limbs_whose_names_python_cannot_read(scene) -> None:
    """The agreement benchmark's ``unreadable_names`` kind, so the class is held by the
    generator and not by one file: the leg's bones, IK and control saved with 0xdf, its thigh
    IK-locked. The oracle and the findings name them by their escapes and agree, and the fix
    that must name them refuses."""
    faults = (Fault("unreadable_names", "leg", 1), Fault("ik_lock", "leg", 0))
    judged = judge(faults)
    assert judged.holds, "\n".join(judged.problems())
    assert [v.key for v in judged.verdicts if v.fails] == [(SHIN, "IK\\xdf")]
    errors = [f for f in judged.findings if f.severity == Severity.ERROR]
    assert [(f.check_id, f.bone, f.constraint) for f in errors] == [("locks", SHIN, "IK\\xdf")]
    faulted_rig(faults)
    with pytest.raises(FixError):
        run_fix(errors[0])


@pytest.mark.skipif(RUNNING < (4, 5), reason="bpy 4.2 crashes reading it (measured: SIGSEGV)")
def test_a_file_blender_reads_with_an_error_is_checked_with_its_message(
    old_files, tmp_path
) -> None:
    checked = ik_doctor("check", old_files["nodes"], "--format", "json", cwd=tmp_path)
    (file,) = valid_report(checked)["files"]
    assert (checked.returncode, file["status"], file["problem"]) == (1, "ok", None)
    assert "MASkin" in file["note"]
    assert "chain_length" in {f["check_id"] for f in file["armatures"][0]["findings"]}
    junit = ik_doctor("check", old_files["nodes"], "--format", "junit", cwd=tmp_path)
    assert "MASkin" in junit.stdout and 'errors="0"' in junit.stdout

    fixed = ik_doctor("fix", old_files["nodes"], "--output-dir", tmp_path / "fixed",
                      "--format", "json", cwd=tmp_path)  # fmt: skip
    (file,) = valid_report(fixed)["files"]
    assert (file["status"], "MASkin" in file["note"]) == ("ok", True)
    assert "chain_length" not in {f["check_id"] for f in file["armatures"][0]["fix"]["after"]}
    copy = tmp_path / "copy.blend"
    copy.write_bytes(old_files["nodes"].read_bytes())
    in_place = ik_doctor("fix", copy, "--in-place", "--format", "json", cwd=tmp_path)
    (file,) = valid_report(in_place)["files"]
    assert (in_place.returncode, file["status"], file["backup"]) == (2, "failed", None)
    assert copy.read_bytes() == old_files["nodes"].read_bytes(), "saving would drop the tree"


def test_constraints_aimed_at_a_control_python_cannot_name_are_read(scene) -> None:
    """Found by agreement seed 83 on 5.3: the pole check read a chain constraint's subtarget
    plainly, and a Damped Track at a control saved with 0xdf, beside a pole behind the knee,
    raised UnicodeDecodeError from ``diagnose``. So did a root's constraint aimed at such a
    pole, which the check weighs for a root placed on its pole."""
    drawn = ("unreadable_names", 1), ("pole_behind", 0), ("overriding_constraint", 1)
    judged = judge(tuple(Fault(kind, "leg", amount) for kind, amount in drawn))
    assert judged.holds, "\n".join(judged.problems())
    bpy.ops.wm.read_homefile(use_empty=True)
    rig = build_character_rig()
    rig.data.bones["knee_pole.L"].name = f"knee_pole{UNREADABLE}.L"
    copy = rig.pose.bones["thigh.L"].constraints.new("COPY_LOCATION")
    copy.target, copy.subtarget, copy.influence = rig, f"knee_pole{UNREADABLE}.L", 0.0
    rig = reloaded_with_unreadable_names(rig)
    assert [f.title for f in diagnose(rig) if f.check_id == "pole"] == []
