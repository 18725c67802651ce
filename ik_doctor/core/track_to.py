"""What a Track To does to a bone where Blender's IK solver starts, as Blender builds it."""

from __future__ import annotations

import bpy
from mathutils import Matrix, Vector


def tracked_to(
    constraint: bpy.types.TrackToConstraint, aim: Vector, target_z: Vector, world_up: Vector
) -> Matrix | None:
    """The rotation a world-space Track To gives a bone, as Blender's ``vectomat`` builds it:
    its track axis along ``aim`` (from the bone's head to the target), its up axis toward the
    world's Z (``world_up``, in the frame ``aim`` is read in) or, with Target Z, the target's
    (``target_z``), projected square to the track; None where that is undecided. The world
    does not turn with the body: read in the chain's frame, its up turns back with every turn
    of the hips (measured on the leg, a Track To on the shin at the foot control starts it 128°
    the rest way, and 52° the other way with the hips turned -40° about X)."""
    spaces = (constraint.owner_space, constraint.target_space) == ("WORLD", "WORLD")
    if not spaces or constraint.head_tail != 0.0:
        return None
    track, up_axis = "XYZ".index(constraint.track_axis[-1]), "XYZ".index(constraint.up_axis[-1])
    if track == up_axis or aim.length < 1e-6:
        return None
    up = (target_z if constraint.use_target_z else world_up).normalized()
    tracked = aim.normalized() * (-1.0 if "NEGATIVE" in constraint.track_axis else 1.0)
    square = up - up.project(tracked)
    if square.length < 1e-4:
        return None  # the up axis along the track: Blender picks one, not modelled
    square.normalize()
    rotation = Matrix.Identity(3)
    rotation.col[track], rotation.col[up_axis] = tracked, square
    side = 3 - track - up_axis
    sign = 1.0 if (track - up_axis) in (1, -2) else -1.0  # Blender's basis_cross
    rotation.col[side] = sign * square.cross(tracked).normalized()
    return rotation
