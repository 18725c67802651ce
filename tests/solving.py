"""Assertions that prove IK works by letting Blender solve, not by reading settings."""

from __future__ import annotations

import math
from collections.abc import Callable

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


HAND_POSES = (
    ((30, 0, 0), (0, 0, 0)),
    ((15, 0, 0), (0, 0, 20)),
    ((60, 0, 0), (0, 0, 0)),
    ((30, 0, 0), (0, 0, -20)),
    ((45, 0, 0), (15, 0, 10)),
)
"""Euler turns (degrees) of a two-bone chain's owner and its parent: folds, swings, a twist."""


def hand_posed_miss(
    obj: bpy.types.Object, owner: str, body: str | None = None, body_turn: float = 0.0
) -> float:
    """Worst distance by which the two-bone IK chain on ``owner`` misses points it reaches when
    posed by hand (IK muted, ``HAND_POSES``), with ``body`` turned ``body_turn`` degrees about X
    either way too. The most direct proof of reach: Blender poses the limb, whatever its scales
    and inheritance do, and then solves toward where the limb was."""
    bones = obj.pose.bones
    ik = next(c for c in bones[owner].constraints if c.type == "IK")
    target = bones[ik.subtarget]
    moved = [bones[owner], bones[owner].parent, target, *([bones[body]] if body else [])]
    saved = [
        (pose_bone, pose_bone.rotation_mode, pose_bone.matrix_basis.copy()) for pose_bone in moved
    ]
    worst = 0.0
    try:
        for pose_bone in moved:
            pose_bone.rotation_mode = "XYZ"
        for turn in {0.0, body_turn, -body_turn}:
            if body:
                bones[body].rotation_euler = (math.radians(turn), 0.0, 0.0)
            for lower, upper in HAND_POSES:
                ik.mute = True
                bones[owner].rotation_euler = [math.radians(a) for a in lower]
                bones[owner].parent.rotation_euler = [math.radians(a) for a in upper]
                bpy.context.view_layer.update()
                tip = bones[owner].tail.copy()
                ik.mute = False
                bones[owner].rotation_euler = bones[owner].parent.rotation_euler = (0.0, 0.0, 0.0)
                placed = target.matrix.copy()
                placed.translation = tip
                target.matrix = placed
                bpy.context.view_layer.update()
                worst = max(worst, (bones[owner].tail - tip).length)
    finally:
        ik.mute = False
        for pose_bone, mode, basis in saved:
            pose_bone.rotation_mode = mode
            pose_bone.matrix_basis = basis
        bpy.context.view_layer.update()
    return worst


def flipped_start_turned_back(
    obj: bpy.types.Object, owner: str, turn: float
) -> Callable[[float], None]:
    """Pose ``owner`` -20° about X, which starts the solver bent the other way, and turn its
    pole angle ``turn`` degrees from where it was; returns what turns it to another angle."""
    pose_bone = obj.pose.bones[owner]
    pose_bone.rotation_mode = "XYZ"
    pose_bone.rotation_euler = (math.radians(-20), 0.0, 0.0)
    ik = pose_bone.constraints["IK"]
    rest = ik.pole_angle

    def turn_to(degrees: float) -> None:
        ik.pole_angle = rest + math.radians(degrees)

    turn_to(turn)
    return turn_to
