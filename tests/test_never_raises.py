"""Data Blender loads never makes IK Doctor raise: one regression test per class of crash found.

Each was found on real files nobody here made (issue 13): ``diagnose`` raised on a constraint of
a type this Blender cannot name (``UnknownType``, from files saved by Blender 2.4x), and
``judge_chains`` divided by a chain's reach of zero. ``diagnose``, ``judge_chains``,
``solve_within_reach`` and every fix must work or refuse with ``FixError``.
"""

from __future__ import annotations

import bpy
from rig_generation import LEFTOVER, reloaded_with_unknown_types
from solving import assert_ik_works

from ik_doctor import Severity, apply_all_fixes, diagnose, solve_within_reach
from ik_doctor.core.editing import edit_bones
from ik_doctor.core.fix_policy import FixPermission
from ik_doctor.verify.oracle import judge_chains


def _errors(obj: bpy.types.Object) -> list:
    return [f for f in diagnose(obj) if f.severity == Severity.ERROR]


def _ik(obj: bpy.types.Object, owner: str, target: str, count: int, use_tail: bool = True):
    ik = obj.pose.bones[owner].constraints.new("IK")
    ik.target, ik.subtarget, ik.chain_count, ik.use_tail = obj, target, count, use_tail
    return ik


def test_constraint_of_a_type_this_blender_cannot_name_is_skipped(rig) -> None:
    """2.4x files hold Null constraints: Blender loads them as ``UnknownType`` (no name, type,
    mute or target) and skips them; reading ``.type`` raised AttributeError."""
    target = bpy.data.objects.new("HandTarget", None)
    bpy.context.scene.collection.objects.link(target)
    target.location = rig.pose.bones["hand_ik.R"].head
    ik = rig.pose.bones["forearm.R"].constraints["IK"]
    ik.target, ik.subtarget = target, ""  # an object target: its own stack is read too
    rig.pose.bones["thigh.L"].constraints.new("COPY_LOCATION").name = f"{LEFTOVER}thigh"
    target.constraints.new("COPY_LOCATION").name = f"{LEFTOVER}target"
    rig.pose.bones["forearm.L"].constraints["IK"].chain_count = 1  # a fault to fix beside them
    rig = reloaded_with_unknown_types(rig)
    unknown = [
        c for c in rig.pose.bones["thigh.L"].constraints if type(c).__name__ == "UnknownType"
    ]
    assert unknown and not hasattr(unknown[0], "type"), "the file holds no unknown constraint"

    errors = _errors(rig)
    assert ("chain_length", "forearm.L") in [(f.check_id, f.bone) for f in errors]
    assert [f for f in errors if f.bone != "forearm.L"] == [], "the leftovers are no fault"
    assert {v.owner: v.state for v in judge_chains(rig)}["shin.L"] == "pass"
    assert all(s.tip_error is not None for s in solve_within_reach(rig))
    results = apply_all_fixes(rig, permission=FixPermission(rebind_meshes=True, discard=True))
    assert results and not [r for r in results if r.failed]
    assert _errors(rig) == []
    assert_ik_works(rig)
    assert len(rig.pose.bones["thigh.L"].constraints) == 1, "the leftover is kept as it was"


def test_chain_without_its_tail_counts_from_the_owners_parent(rig) -> None:
    """Without Use Tail Blender's chain starts at the owner's parent: a count of 1 turns it
    (measured). Taken as the owner alone, the chain had no bones to turn, a reach of 0, and
    ``judge_chains`` divided by it."""
    rig.pose.bones["shin.L"].constraints.remove(rig.pose.bones["shin.L"].constraints["IK"])
    ik = _ik(rig, "foot.L", "foot_ik.L", 1, use_tail=False)
    verdict = next(v for v in judge_chains(rig) if v.owner == "foot.L")
    assert verdict.state == "fail" and verdict.reach > 0.4, "the shin alone cannot fold the leg"
    (finding,) = [f for f in _errors(rig) if f.check_id == "chain_length"]
    assert finding.bone == "foot.L" and finding.args["length"] == 2
    ik.chain_count = 2  # the shin and the thigh: the whole leg
    assert next(v for v in judge_chains(rig) if v.owner == "foot.L").state == "pass"
    assert _errors(rig) == []
    assert_ik_works(rig, ["foot.L"])


def test_chain_of_no_length_is_untested_not_a_crash(rig) -> None:
    """A chain with nothing to turn (no tail on a bone without a parent), one of bones shorter
    than float noise, or an armature scaled to 0: no goal can be measured against no length."""
    with edit_bones(rig) as bones:
        stub = bones.new("stub")
        stub.head, stub.tail = (0.0, 1.0, 1.0), (0.0, 1.0, 1.1)
        tiny = bones.new("tiny")
        tiny.head, tiny.tail = (0.0, 2.0, 1.0), (0.0, 2.0, 1.000004)
        tiny_child = bones.new("tiny_child")
        tiny_child.head, tiny_child.tail = tiny.tail, (0.0, 2.0, 1.000008)
        tiny_child.parent, tiny_child.use_connect = tiny, True
    _ik(rig, "stub", "foot_ik.L", 1, use_tail=False)
    _ik(rig, "tiny_child", "hand_ik.L", 2)
    states = {v.owner: (v.state, v.reason) for v in judge_chains(rig)}
    for owner in ("stub", "tiny_child"):
        assert states[owner][0] == "untested" and "no length" in states[owner][1], states[owner]
    assert states["shin.L"][0] == "pass"
    diagnose(rig)
    solve_within_reach(rig)
    rig.scale = (0.0, 0.0, 0.0)
    bpy.context.view_layer.update()
    assert {v.state for v in judge_chains(rig)} == {"untested"}
    diagnose(rig)
    solve_within_reach(rig)
