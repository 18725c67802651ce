"""Faults accepted on purpose: ``ik_doctor.waive`` keeps a waiver on the armature object, where
it travels with the rig (saved, reopened, linked, appended), and matches its finding by place
and cause, never by words."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import bpy
import pytest
from cli_rigs import broken_rig
from test_old_files import IK, THIGH, old_rig  # noqa: F401  (the fixture)

import ik_doctor
from ik_doctor import FixError, diagnose
from ik_doctor.core.waiver_store import MAX_WAIVERS, PROPERTY
from ik_doctor.core.waivers import STALE_CHECK, apply_waivers, place_of

REASON = "influence 0.1 on purpose"


def _sorted(obj: bpy.types.Object):
    checks = [check.id for check in ik_doctor.all_checks()]
    return apply_waivers(diagnose(obj), ik_doctor.waivers_of(obj), obj.name, checks)


def _no_target(obj: bpy.types.Object) -> ik_doctor.Finding:
    return next(f for f in diagnose(obj) if f.check_id == "target")


def _save(path: Path) -> None:
    bpy.ops.wm.save_as_mainfile(filepath=str(path), check_existing=False)


@pytest.fixture
def waived_library(scene, tmp_path: Path) -> Path:
    """A file whose broken rig has its missing target accepted, in a collection to link."""
    rig = broken_rig()
    ik_doctor.waive(_no_target(rig), REASON)
    collection = bpy.data.collections.new("RigCollection")
    scene.collection.children.link(collection)
    collection.objects.link(rig)
    path = tmp_path / "library.blend"
    _save(path)
    return path


def test_a_waived_finding_leaves_the_findings_with_its_reason(scene) -> None:
    rig = broken_rig()
    finding = _no_target(rig)
    waiver = ik_doctor.waive(finding, f"  {REASON}\n")
    kept = _sorted(rig)
    assert finding not in kept.active
    assert [(f, w.reason) for f, w in kept.waived] == [(finding, REASON)]
    assert waiver.place == place_of(finding)


def test_a_waiver_matches_by_place_and_cause_not_by_words(scene) -> None:
    rig = broken_rig()
    finding = _no_target(rig)
    ik_doctor.waive(dataclasses.replace(finding, message="other words", title="x"), REASON)
    assert [f for f, _ in _sorted(rig).waived] == [finding]
    ik_doctor.unwaive(finding)
    ik_doctor.waive(dataclasses.replace(finding, fix_id="another_fix"), REASON)
    kept = _sorted(rig)
    assert finding in kept.active and not kept.waived


@pytest.mark.parametrize("how", ["reopened", "appended", "linked"])
def test_a_waiver_travels_with_the_rig(waived_library: Path, tmp_path: Path, how: str) -> None:
    bpy.ops.wm.read_homefile(use_empty=True)
    if how == "reopened":
        bpy.ops.wm.open_mainfile(filepath=str(waived_library))
    else:
        with bpy.data.libraries.load(str(waived_library), link=how == "linked") as (_src, dst):
            dst.collections = ["RigCollection"]
        bpy.context.scene.collection.children.link(dst.collections[0])
        _save(tmp_path / "host.blend")  # and the file that links or appends it, reopened
        bpy.ops.wm.open_mainfile(filepath=str(tmp_path / "host.blend"))
    rig = bpy.data.objects["IKDoctorRig"]
    assert (rig.library is not None) == (how == "linked")
    kept = _sorted(rig)
    assert [(f.check_id, f.bone, w.reason) for f, w in kept.waived] == [
        ("target", "shin.L", REASON)
    ]
    assert not any(f.check_id in ("target", STALE_CHECK) for f in kept.active)


def test_a_rig_appended_under_a_new_name_keeps_its_waiver(waived_library: Path) -> None:
    bpy.ops.wm.read_homefile(use_empty=True)
    bpy.data.objects.new("IKDoctorRig", None)  # the name is taken: the rig comes in as .001
    with bpy.data.libraries.load(str(waived_library)) as (_src, dst):
        dst.objects = ["IKDoctorRig"]
    rig = dst.objects[0]
    bpy.context.scene.collection.objects.link(rig)
    assert rig.name == "IKDoctorRig.001"
    assert [f.armature for f, _ in _sorted(rig).waived] == ["IKDoctorRig.001"]


def test_a_linked_rig_refuses_a_waiver_and_keeps_its_own(waived_library: Path) -> None:
    bpy.ops.wm.read_homefile(use_empty=True)
    with bpy.data.libraries.load(str(waived_library), link=True) as (_src, dst):
        dst.objects = ["IKDoctorRig"]
    rig = dst.objects[0]
    bpy.context.scene.collection.objects.link(rig)
    chain_length = next(f for f in diagnose(rig) if f.check_id == "chain_length")
    with pytest.raises(FixError) as refused:
        ik_doctor.waive(chain_length, REASON)
    assert refused.value.cause == "linked"
    with pytest.raises(FixError) as refused:
        ik_doctor.unwaive(_sorted(rig).waived[0][0])
    assert refused.value.cause == "linked"
    assert len(ik_doctor.waivers_of(rig)) == 1


def test_a_waiver_whose_fault_is_gone_is_an_info_finding_until_unwaived(scene) -> None:
    rig = broken_rig()
    ik_doctor.waive(_no_target(rig), REASON)
    ik_doctor.apply_fix(_no_target(rig))
    (stale,) = [f for f in _sorted(rig).active if f.check_id == STALE_CHECK]
    assert (stale.severity, stale.bone) == (ik_doctor.Severity.INFO, "shin.L")
    with pytest.raises(ValueError):
        ik_doctor.waive(stale, REASON)
    assert ik_doctor.unwaive(stale) is True
    assert PROPERTY not in rig
    assert not any(f.check_id == STALE_CHECK for f in _sorted(rig).active)


def test_a_waiver_is_stale_only_for_a_check_that_ran(scene) -> None:
    rig = broken_rig()
    ik_doctor.waive(_no_target(rig), REASON)
    ik_doctor.apply_fix(_no_target(rig))
    kept = apply_waivers(diagnose(rig, ["roll"]), ik_doctor.waivers_of(rig), rig.name, ["roll"])
    assert not kept.active and not kept.waived


def test_a_waiver_needs_a_reason(scene) -> None:
    rig = broken_rig()
    with pytest.raises(ValueError):
        ik_doctor.waive(_no_target(rig), " \n ")
    assert ik_doctor.waivers_of(rig) == []


@pytest.mark.parametrize(
    "stored", ["not json", "{}", "[1, null, {}]", '[{"check_id": "target"}]', "[" * 100_000]
)
def test_whatever_a_file_holds_there_is_no_waiver_and_no_crash(scene, stored: str) -> None:
    rig = broken_rig()
    rig[PROPERTY] = stored
    assert ik_doctor.waivers_of(rig) == []
    ik_doctor.waive(_no_target(rig), REASON)  # and a new waiver replaces what was there
    assert len(ik_doctor.waivers_of(rig)) == 1


def test_a_file_holding_a_flood_of_waivers_yields_a_bounded_number(scene) -> None:
    rig = broken_rig()
    entry = {"check_id": "roll", "bone": "x", "reason": "r"}
    rig[PROPERTY] = json.dumps([entry] * (MAX_WAIVERS * 10))
    assert len(ik_doctor.waivers_of(rig)) == MAX_WAIVERS


def test_a_fault_on_names_python_cannot_read_is_waived_by_their_spelling(
    old_rig,  # noqa: F811
) -> None:
    locks = next(f for f in diagnose(old_rig.obj) if f.check_id == "locks" and f.bone == THIGH)
    waiver = ik_doctor.waive(locks, REASON)
    assert (waiver.bone, waiver.constraint) == (THIGH, IK)
    checks = [check.id for check in ik_doctor.all_checks()]
    found = diagnose(old_rig.obj)
    kept = apply_waivers(found, ik_doctor.waivers_of(old_rig.obj), locks.armature, checks)
    assert [f for f, _ in kept.waived] == [locks]
