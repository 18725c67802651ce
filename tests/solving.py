"""Assertions that prove IK works by letting Blender solve, not by reading settings."""

from __future__ import annotations

import bpy

from ik_doctor import solve_within_reach

TIP_TOLERANCE = 1e-3


def assert_ik_works(obj: bpy.types.Object, owners: list[str] | None = None) -> None:
    """Every chain (or the named owners') reaches a target moved within reach and bends
    toward its pole."""
    results = [s for s in solve_within_reach(obj) if owners is None or s.owner in owners]
    assert results, "no IK chain was solved"
    for solved in results:
        assert solved.tip_error is not None, f"{solved.owner}: target unresolved"
        assert solved.tip_error < TIP_TOLERANCE, f"{solved.owner}: tip error {solved.tip_error}"
        assert solved.bends_toward_pole in (True, None), f"{solved.owner} bends away from its pole"


def tip_error(obj: bpy.types.Object, owner: str) -> float | None:
    """The tip error of one chain for a target within reach."""
    for solved in solve_within_reach(obj):
        if solved.owner == owner:
            return solved.tip_error
    raise KeyError(owner)


def findings_of(obj: bpy.types.Object, check_id: str) -> list:
    from ik_doctor import diagnose

    return [f for f in diagnose(obj) if f.check_id == check_id]


def pose_snapshot(obj: bpy.types.Object) -> dict[str, tuple]:
    """Rest and pose state of every bone, to prove a fix left the rest of the rig alone."""
    return {
        b.name: (
            tuple(b.head_local),
            tuple(b.tail_local),
            b.parent.name if b.parent else None,
            tuple(obj.pose.bones[b.name].matrix_basis.col[3]),
        )
        for b in obj.data.bones
    }
