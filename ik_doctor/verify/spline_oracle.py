"""The spline oracle: judge every Spline IK chain by letting Blender lay it on its curve.

A chain passes when, with the depsgraph evaluated:

- every joint (each bone's head and the owner's tail) lies on the evaluated curve (hooks and
  all, the first spline, which is the only one Spline IK reads) within 1e-3 of the chain's
  length, in order along it, the root's head on the curve's first point;
- the chain stays where it hangs: its root's head lies within 1% of the chain's length of where
  the chain's FK pose puts it (the Spline IK muted), so a curve drawn from the tip, one far from
  the rig or a chain count that drags the rig's root onto the curve fails, as the chain jumps
  there the moment the constraint is on (Chain Offset keeps the root in place: then the joints
  are compared with the curve moved onto the root);
- moving each bone of the rig that moves the curve (hook controls, a parent bone, constraint
  targets), or the curve object when nothing of the rig does, by a tenth of the chain's length
  moves the curve, and the chain follows it: every joint still on the curve, in order from its
  first point (so it moved wherever the curve under it moved: a control past the end of a
  longer curve moves the chain hardly at all), and still there when the rig and curve are
  evaluated again with nothing changed (a dependency cycle lets the chain drift).

A muted (or zero-influence) Spline IK that keys, a driver or another live Spline IK on the bone
switch is ``off``; a chain of no length is ``untested``. Everything moved is put back exactly.
The verdicts are ``ChainVerdict``\\ s (``reach`` the chain's length, ``tip_error`` the farthest
joint off the curve), so ``oracle.disagreements`` weighs the findings against them.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from itertools import pairwise
from typing import Any

import bpy
from mathutils import Matrix, Vector

from ..core.armature import armature_data, pose_bone_of
from ..core.editing import constraint_on
from ..core.geometry import mean_scale, perpendicular
from ..core.limb import NOISE_LENGTH
from ..core.names import readable
from ..core.reach import REACH_TOLERANCE
from ..core.rig import RigView
from ..core.spline import SplineChain, curve_links, spline_chains, spline_switched_by
from .oracle import ChainVerdict
from .solve import channels, evaluate, set_channels
from .target_moves import everything_restored

ATTACH_TOLERANCE = 0.01
"""The root's head may land this share of the chain's length from its FK place: a jump any
smaller is not seen (the placement check reports a curve's start from the same share)."""
SHIFT = 0.1
"""Each control is moved this share of the chain's length, across the chain."""
FOLLOWS = 0.5
"""The curve must move at least this share of the shift for the moved bone to drive it."""
SETTLE_PASSES = 2
"""Evaluations, with nothing changed, after which a chain in a dependency cycle has drifted
(measured in 5.3: not always after one)."""


def judge_spline_chains(obj: bpy.types.Object) -> list[ChainVerdict]:
    """Evaluate and judge every Spline IK chain of ``obj``; restore everything."""
    with everything_restored():
        evaluate(obj)
        rig = RigView(obj)
        return [_judge(obj, rig, chain) for chain in spline_chains(rig)]


def _judge(obj: bpy.types.Object, rig: RigView, chain: SplineChain) -> ChainVerdict:
    length = sum(rig.bone(name).length for name in chain.bones) * mean_scale(obj.matrix_world)

    def verdict(state: str, reason: str, miss: float | None = None) -> ChainVerdict:
        return ChainVerdict(
            rig.name, chain.owner, chain.constraint, state, reason, length, miss, None, None
        )

    if not chain.live:
        switch = spline_switched_by(rig, chain)
        if switch is not None:
            return verdict("off", f"switched off on purpose: {switch}")
    if armature_data(obj).pose_position == "REST":
        return verdict("fail", "the armature shows its rest position: no pose, no Spline IK")
    curve = chain.curve
    if curve is None or curve.type != "CURVE":
        return verdict("fail", "it has no curve to follow")
    if not length > NOISE_LENGTH:
        return verdict("untested", f"the chain has no length to lay on a curve ({length:.3g})")
    tolerance = REACH_TOLERANCE * length
    path = evaluated_path(curve)
    if len(path) < 2:
        return verdict("fail", "its curve has no first spline of two points or more")
    miss, why = _laid_on(obj, chain, path, tolerance)
    if why:
        return verdict("fail", why, miss)
    jump = _jump(obj, chain)
    if not chain.use_chain_offset and jump > ATTACH_TOLERANCE * length:
        return verdict(
            "fail",
            f"its root's head jumps {jump:.3g} from where the chain hangs ({jump / length:.1%} "
            "of the chain) onto the curve's first point",
            miss,
        )
    for mover, name in _movers(obj, rig, chain, curve):
        follows = _follows(obj, chain, curve, mover, length, tolerance)
        if follows:
            return verdict("fail", f"moving {name} {follows}", miss)
    return verdict("pass", "it lies on its curve, from its first point, and follows it", miss)


# --- the curve as Blender evaluates it -----------------------------------------------------------


def evaluated_path(curve: bpy.types.Object) -> list[Vector]:
    """The evaluated curve's first spline (hooks and modifiers applied) as world points, from
    its first point: the polyline from the evaluated mesh's first vertex."""
    evaluated = curve.evaluated_get(bpy.context.evaluated_depsgraph_get())
    mesh = evaluated.to_mesh()
    try:
        if mesh is None or not mesh.vertices:
            return []
        neighbours: dict[int, list[int]] = {}
        for edge in mesh.edges:
            a, b = edge.vertices
            neighbours.setdefault(a, []).append(b)
            neighbours.setdefault(b, []).append(a)
        order, seen = [0], {0}
        while ahead := [n for n in neighbours.get(order[-1], []) if n not in seen]:
            order.append(ahead[0])  # edges run along the spline: its next point comes first
            seen.add(ahead[0])
        if len(order) > 2 and 0 in neighbours.get(order[-1], []):
            order.append(0)  # a cyclic spline ends where it starts
        world = evaluated.matrix_world
        return [world @ mesh.vertices[index].co for index in order]
    finally:
        evaluated.to_mesh_clear()


def _along(point: Vector, path: list[Vector]) -> tuple[float, float]:
    """(distance from ``point`` to the polyline, how far along it the nearest point lies)."""
    best, where, done = float("inf"), 0.0, 0.0
    for start, end in pairwise(path):
        step = end - start
        span = step.length
        t = 0.0 if span == 0.0 else min(max((point - start).dot(step) / span**2, 0.0), 1.0)
        distance = (start + step * t - point).length
        if distance < best:
            best, where = distance, done + t * span
        done += span
    return best, where


def _joints(obj: bpy.types.Object, chain: SplineChain) -> list[Vector]:
    """World heads of the chain's bones, root first, and the owner's tail, as last evaluated."""
    world = obj.matrix_world
    return [world @ pose_bone_of(obj, name).head for name in reversed(chain.bones)] + [
        world @ pose_bone_of(obj, chain.owner).tail
    ]


def _laid_on(
    obj: bpy.types.Object, chain: SplineChain, path: list[Vector], tolerance: float
) -> tuple[float, str]:
    """How far the farthest joint lies off the curve, and why the chain is not laid on it in
    order from its first point ("" when it is)."""
    joints = _joints(obj, chain)
    if chain.use_chain_offset:
        offset = joints[0] - path[0]
        joints = [joint - offset for joint in joints]
    placed = [_along(joint, path) for joint in joints]
    miss = max(distance for distance, _ in placed)
    if miss > tolerance:
        return miss, f"a joint lies {miss:.3g} off its curve ({miss / tolerance:.0f} times 1e-3)"
    start = placed[0][1]
    if start > tolerance:
        return miss, f"its root lies {start:.3g} along its curve, not on its first point"
    steps = [b - a for (_, a), (_, b) in pairwise(placed)]
    if min(steps) < -tolerance:
        return miss, "its joints lie along its curve out of order"
    return miss, ""


def _jump(obj: bpy.types.Object, chain: SplineChain) -> float:
    """How far the root's head lands from where the chain's FK pose (the Spline IK muted)
    puts it."""
    constraint = constraint_on(obj, chain.owner, chain.constraint, bpy.types.SplineIKConstraint)
    laid = _joints(obj, chain)[0]
    muted = constraint.mute
    constraint.mute = True
    try:
        evaluate(obj)
        return (_joints(obj, chain)[0] - laid).length
    finally:
        constraint.mute = muted
        evaluate(obj)


# --- moving what moves the curve -----------------------------------------------------------------


def _movers(
    obj: bpy.types.Object, rig: RigView, chain: SplineChain, curve: bpy.types.Object
) -> Iterator[tuple[Any, str]]:
    """Each bone of the rig that moves the curve, or the curve object when none does."""
    names = [link.bone for link in curve_links(rig, curve) if link.bone is not None]
    names = list(dict.fromkeys(name for name in names if rig.has_bone(name)))
    if not names:
        yield curve, f"the curve '{readable(curve)}'"
    for name in names:
        yield rig.pose_bone(name), f"bone {name}"


def _follows(
    obj: bpy.types.Object,
    chain: SplineChain,
    curve: bpy.types.Object,
    mover: Any,
    length: float,
    tolerance: float,
) -> str:
    """What goes wrong when ``mover`` moves by ``SHIFT`` of the chain's length across the chain
    ("" when the curve moves and the chain follows it)."""
    before_path, before_joints = evaluated_path(curve), _joints(obj, chain)
    shift = _across(before_joints) * (SHIFT * length)
    with _shifted(obj, mover, shift):
        path = evaluated_path(curve)
        moved = _largest_move(before_path, path)
        if moved < FOLLOWS * shift.length:
            return f"moves the curve only {moved:.3g}: it does not drive it"
        _, why = _laid_on(obj, chain, path, tolerance) if len(path) >= 2 else (0.0, "")
        if why:
            return f"leaves the chain behind: {why}"
        drift = _drift(obj, chain, curve, _joints(obj, chain))
        if drift > tolerance:
            return (
                f"leaves the chain unsettled: evaluated again, unchanged, it moves {drift:.3g} "
                "(a dependency cycle, resolved in a different order each time)"
            )
    return ""


def _drift(
    obj: bpy.types.Object, chain: SplineChain, curve: bpy.types.Object, joints: list[Vector]
) -> float:
    """How far the joints move when nothing changes but the rig and curve being evaluated again
    (``SETTLE_PASSES`` times): 0 unless a dependency cycle feeds the chain back into its curve
    (measured in 5.3: a tip moves 0.09 over two passes with a hook on a chain bone)."""
    worst = 0.0
    for _ in range(SETTLE_PASSES):
        obj.update_tag()
        curve.update_tag()
        evaluate(obj)
        again = _joints(obj, chain)
        worst = max(worst, *((a - b).length for a, b in zip(again, joints, strict=True)))
    return worst


def _largest_move(before: list[Vector], after: list[Vector]) -> float:
    if len(before) != len(after):
        return float("inf")
    return max((a - b).length for a, b in zip(before, after, strict=True))


def _across(joints: list[Vector]) -> Vector:
    """A unit direction across the chain's root-to-tip line."""
    line = joints[-1] - joints[0]
    return Vector((1.0, 0.0, 0.0)) if line.length < 1e-9 else perpendicular(line)


@contextmanager
def _shifted(obj: bpy.types.Object, mover: Any, shift: Vector) -> Iterator[None]:
    """Move a pose bone or object by a world offset, evaluate; put it back on leaving."""
    saved = channels(mover)
    try:
        if isinstance(mover, bpy.types.PoseBone):
            matrix = mover.matrix.copy()
            matrix.translation += obj.matrix_world.inverted_safe().to_3x3() @ shift
            mover.matrix = matrix
        else:
            mover.matrix_world = Matrix.Translation(shift) @ mover.matrix_world
        evaluate(obj)
        yield
    finally:
        set_channels(mover, saved)
        evaluate(obj)
