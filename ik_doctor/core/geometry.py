"""Geometry that checks, fixes and the sample rig share: bend planes and pole angles."""

from __future__ import annotations

import math

from mathutils import Matrix, Quaternion, Vector


def bend_normal(root: Vector, joint: Vector, tip: Vector) -> Vector | None:
    """Unit normal of the plane through root, middle joint and tip; None for a straight chain.

    Straight means a bend under 1e-5 radians: bone positions are stored as 32-bit floats, so a
    chain drawn straight still bends by about 1e-7 in the numbers.
    """
    upper, lower = joint - root, tip - joint
    normal = upper.cross(lower)
    if normal.length <= 1e-5 * upper.length * lower.length:
        return None
    return normal.normalized()


def signed_angle(start: Vector, end: Vector, about: Vector) -> float:
    """Radians from ``start`` to ``end`` turning about ``about`` (right-handed), in (-pi, pi]:
    negative where ``end`` lies past ``start`` on the other side of the plane ``about`` spans."""
    return math.atan2(start.cross(end).dot(about), start.dot(end))


def degrees_off(axis: Vector, other: Vector) -> float:
    """Degrees (0 to 90) between two unit axes, read either way along each: how far a bone's
    axis lies off the axis its chain folds about."""
    return math.degrees(math.acos(min(1.0, abs(axis.dot(other)))))


def perpendicular(direction: Vector) -> Vector:
    """A unit vector across ``direction`` (not zero), built from Z or, near Z, from X."""
    helper = Vector((0.0, 0.0, 1.0))
    if abs(direction.normalized().dot(helper)) > 0.9:
        helper = Vector((1.0, 0.0, 0.0))
    return direction.cross(helper).normalized()


ROUNDING = 1e-6
"""A share of a length below which an offset is the rounding of Blender's single-precision
coordinates, not a side: a straight leg's rest, once the armature's rotation is applied to its
bones, lies 4e-8 of its reach off its line, to a side that decides nothing (fresh seed 353,
read as a pose bending the joint the other way)."""


def offset_from_line(point: Vector, start: Vector, end: Vector) -> Vector:
    """The part of ``point - start`` perpendicular to the line start→end; zero within
    ``ROUNDING`` of the line's length."""
    axis = end - start
    relative = point - start
    if axis.length_squared == 0.0:
        return relative
    offset = relative - axis * (relative.dot(axis) / axis.length_squared)
    return Vector((0.0, 0.0, 0.0)) if offset.length <= ROUNDING * axis.length else offset


def rest_pole_angle(
    root_head: Vector, root_x: Vector, root_y: Vector, tip: Vector, pole: Vector
) -> float:
    """The pole angle (radians) that leaves the chain where it is at rest.

    With ``q = ((tip - root) x (pole - root)) x Y`` it is the signed angle from ``q`` to the
    root's X axis about its Y axis. Measured in Blender 4.2 and 5.3: the reference notes give
    the angle from X to ``q``, which has the opposite sign and flips the chain.
    """
    normal = (tip - root_head).cross(pole - root_head)
    wanted = normal.cross(root_y)
    if wanted.length < 1e-12:
        return 0.0
    if root_y.dot(tip - root_head) < 0.0:
        # Blender aims the root's X-Z plane from root to tip: a root pointing away from the tip
        # (a hips bone in a leg's chain) turns the other way about that line.
        wanted.negate()
    wanted.normalize()
    return signed_angle(wanted, root_x, root_y)


def mean_scale(matrix: Matrix) -> float:
    """The mean of a matrix's axis scales (mirroring ignored): one size for a whole object."""
    return sum(abs(axis) for axis in matrix.to_scale().to_tuple()) / 3.0


def is_identity(matrix: Matrix, tolerance: float) -> bool:
    """Whether every element of a 4 by 4 matrix is within ``tolerance`` of the identity's: a pose
    left at rest, an object unmoved."""
    return all(
        abs(matrix[row][col] - (1.0 if row == col else 0.0)) < tolerance
        for row in range(4)
        for col in range(4)
    )


def twist_about(turn: Quaternion, axis: Vector) -> float:
    """Degrees (-180 to 180) a rotation turns about ``axis`` (unit, the rotation's own frame):
    its twist, what a channel about that axis would hold, whatever it swings about the others."""
    if turn.w < 0.0:
        turn = turn.copy()
        turn.negate()
    return math.degrees(2.0 * math.atan2(Vector(turn[1:]).dot(axis), turn.w))
