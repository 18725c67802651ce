"""Where Spline IK fixes change a curve: guards, moving its points, hooking them to controls.

A curve's points are edited as data in Object Mode. Hook modifiers name points by index (three
per bezier point: left handle, point, right handle), so an edit that keeps the points keeps the
hooks; shape keys keep their own copy of every point, so a curve with them is refused.
"""

from __future__ import annotations

from collections.abc import Iterable

import bpy
from mathutils import Matrix, Vector

from .armature import armature_data
from .controls import add_control_bone
from .editing import FixError
from .names import readable
from .rig import RigView
from .spline import SplineChain, curve_data, curve_to_rig


def ensure_curve_editable(curve: bpy.types.Object) -> bpy.types.Curve:
    """The curve's data, once it is sure a fix may change its points; else ``FixError``."""
    data, name = curve_data(curve), readable(curve)
    for block, what in ((curve, "object"), (data, "curve data")):
        if block.library is not None or block.override_library is not None:
            raise FixError(f"The {what} of '{name}' comes from a linked file: fix the curve there.")
    if curve.mode == "EDIT":
        raise FixError(
            f"'{name}' is in Edit Mode, which writes its own copy of the points back on "
            "leaving: leave Edit Mode first."
        )
    if data.shape_keys is not None:
        raise FixError(
            f"'{name}' has shape keys, which keep their own copy of every point: edit it "
            "in Edit Mode, which updates them."
        )
    return data


def point_vertices(spline: bpy.types.Spline, index: int) -> list[int]:
    """The vertex indices a hook uses for point ``index`` of the curve's first spline."""
    return [3 * index, 3 * index + 1, 3 * index + 2] if spline.type == "BEZIER" else [index]


def point_positions(spline: bpy.types.Spline) -> list[Vector]:
    """The spline's points, in the curve object's space."""
    if spline.type == "BEZIER":
        return [point.co.copy() for point in spline.bezier_points]
    return [point.co.xyz for point in spline.points]


def first_point(curve: bpy.types.Object) -> Vector:
    """Where the curve's first spline starts, in the curve object's space, once it is sure a fix
    may change its points."""
    return point_positions(ensure_curve_editable(curve).splines[0])[0]


def move_points(curve: bpy.types.Object, matrix: Matrix) -> str:
    """Move every point by ``matrix`` (``transform_points``); return what the fix's sentence
    adds about the curve's hooks, whose control bones stay where they are."""
    transform_points(curve, matrix)
    hooked = any(isinstance(m, bpy.types.HookModifier) for m in curve.modifiers)
    return " (its hook controls stay where they are)" if hooked else ""


def transform_points(curve: bpy.types.Object, matrix: Matrix) -> None:
    """Move every point and handle of the curve by ``matrix`` (in the curve object's space)."""
    data = ensure_curve_editable(curve)
    if data.users > 1:
        raise FixError(
            f"The curve data '{readable(data)}' is shared by {data.users} objects: moving its "
            f"points would move the others too. Give '{readable(curve)}' its own copy first."
        )
    for spline in data.splines:
        for bezier in spline.bezier_points:
            bezier.co, bezier.handle_left, bezier.handle_right = (
                matrix @ bezier.co,
                matrix @ bezier.handle_left,
                matrix @ bezier.handle_right,
            )
        for point in spline.points:
            moved = matrix @ point.co.xyz
            point.co = (moved.x, moved.y, moved.z, point.co.w)


def hook_to_new_controls(
    obj: bpy.types.Object, chain: SplineChain, curve: bpy.types.Object, indices: Iterable[int]
) -> list[str]:
    """Add a control bone on each of these points of the curve's first spline and hook the
    point to it; return the bones' names.

    Each hook is set so that it leaves its point where it is while its bone is at rest.
    """
    spline = ensure_curve_editable(curve).splines[0]
    points = point_positions(spline)
    to_rig = curve_to_rig(obj, curve)
    made = []
    for index in indices:
        here = to_rig @ points[index]
        after = points[index + 1] if index + 1 < len(points) else None
        aim = to_rig @ after - here if after is not None else here - to_rig @ points[index - 1]
        name, _parent = add_control_bone(
            obj, RigView(obj), chain, f"CTRL-{readable(curve)}.{index:03d}", here, aim
        )
        made.append((index, name))
    for index, name in made:
        hook = curve.modifiers.new(f"Hook-{name}", "HOOK")
        assert isinstance(hook, bpy.types.HookModifier)
        hook.object, hook.subtarget = obj, name
        hook.vertex_indices_set(point_vertices(spline, index))
        bone_world = obj.matrix_world @ armature_data(obj).bones[name].matrix_local
        hook.matrix_inverse = bone_world.inverted_safe() @ curve.matrix_world
        hook.center = points[index]
    return [name for _index, name in made]
