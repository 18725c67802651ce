"""``diagnose`` only reads: it never switches modes, evaluates the depsgraph or changes the rig
(in Edit Mode it copies the edit bones into the armature's bones first, as leaving would).

The panel reruns it on a shortcut and pipelines on thousands of files: a diagnosis that
evaluated the rig or toggled Edit Mode would cost more than the rig itself.
"""

from __future__ import annotations

import bpy
import pytest
from solving import pose_snapshot

from ik_doctor import diagnose


@pytest.fixture
def depsgraph_updates():
    calls: list[int] = []

    def count(scene, depsgraph=None):
        calls.append(1)

    bpy.app.handlers.depsgraph_update_post.append(count)
    yield calls
    bpy.app.handlers.depsgraph_update_post.remove(count)


@pytest.mark.parametrize("mode", ["OBJECT", "POSE"])
def test_diagnose_triggers_no_depsgraph_evaluation_and_no_mode_switch(
    rig, mode, depsgraph_updates
) -> None:
    bpy.context.view_layer.objects.active = rig
    bpy.ops.object.mode_set(mode=mode)
    rig.pose.bones["shin.L"].constraints["IK"].chain_count = 0  # something to find
    bpy.context.view_layer.update()
    depsgraph_updates.clear()
    before = pose_snapshot(rig)
    findings = diagnose(rig)
    assert findings
    assert depsgraph_updates == []
    assert rig.mode == mode
    assert pose_snapshot(rig) == before


def _edit_bones(rig: bpy.types.Object) -> dict[str, tuple]:
    return {
        bone.name: (tuple(bone.head), tuple(bone.tail), bone.roll, bone.use_connect)
        for bone in rig.data.edit_bones
    }


def test_diagnose_in_edit_mode_reads_the_edit_bones_and_stays_in_edit_mode(
    rig, depsgraph_updates
) -> None:
    bpy.context.view_layer.objects.active = rig
    bpy.ops.object.mode_set(mode="EDIT")
    shin = rig.data.edit_bones["shin.L"]
    shin.use_connect = False
    shin.head.z += 0.05  # a gap at the knee, made in Edit Mode and not yet left
    edited = _edit_bones(rig)
    depsgraph_updates.clear()
    findings = diagnose(rig)
    assert ("parenting", "shin.L", "connect") in {(f.check_id, f.bone, f.fix_id) for f in findings}
    assert depsgraph_updates == []
    assert rig.mode == "EDIT"
    assert _edit_bones(rig) == edited
    # What it writes: the edit bones copied into the armature's bones, as leaving Edit Mode does.
    assert tuple(rig.data.bones["shin.L"].head_local) == edited["shin.L"][0]


def test_diagnose_twice_gives_the_same_findings(rig) -> None:
    rig.pose.bones["forearm.R"].constraints["IK"].target = None
    assert diagnose(rig) == diagnose(rig)
