"""A one-bone IK chain posed longer or shorter than at rest, for the rest_pose check.

A chain of one bone reaches by turning alone: its tip sweeps a sphere as wide as the bone is
long. Posed scaled along its length, the bone sweeps another sphere, and every target on the
one it was built for lies off it. Measured in 4.2 and 5.3 on the reference rig, a thigh or upper
arm IK of chain length 1 on the foot or hand control, under a shin or forearm cut from it: at
0.5 and 1.5 along its length it stops 50% of its reach short of every goal; the limb's own two-
bone chain, which folds, makes up what a bone lacks, and ``rest_pose``'s leftover-pose rule
weighs that.
"""

from __future__ import annotations

import bpy

from ..core.armature import pose_of
from ..core.finding import Finding, Severity, chain_finding
from ..core.reach import solved_by_itasc, stretching_bones
from ..core.rig import IKChain, RigView

SAME_LENGTH = 1e-3
"""A pose scale this close to 1 along the bone leaves its length as built."""


def changed_length(rig: RigView, chain: IKChain, animated: set[tuple[str, str]]) -> Finding | None:
    """The error for a one-bone chain posed scaled along its length (not keyed: an animated
    scale is the animator's), unless IK Stretch or iTaSC lets it change length to the target."""
    if len(chain.moving_bones) != 1:
        return None  # a chain with no bone that turns (locked, or cut off) is not this
    (name,) = chain.moving_bones
    if (name, "scale") in animated or stretching_bones(rig, chain) or solved_by_itasc(rig):
        return None
    length = rig.pose_bone(name).matrix_basis.to_scale().y
    if abs(length - 1.0) <= SAME_LENGTH:
        return None
    how = "shorter" if length < 1.0 else "longer"
    return chain_finding(
        "rest_pose",
        rig,
        chain,
        severity=Severity.ERROR,
        title="Pose changes its length",
        message=(
            f"{name}, the one bone of IK '{chain.constraint}', keeps a leftover scale of "
            f"{length:.3g} along its length: it turns but cannot fold, so its tip sweeps a "
            f"sphere {abs(1.0 - length):.0%} {how} than the one it was built to reach, and "
            "misses the targets on that one (measured: a thigh or upper arm IK at 0.5 and 1.5 "
            "stops 50% of its reach short)."
        ),
        why=(
            "Blender's solver keeps a bone's pose scale: a chain of one bone reaches only "
            "where that bone, turned, puts its tip."
        ),
        fix_id="clear_scale",
        fix_label=f"Clear the scale of {name}",
        fix_args=(("bones", (name,)),),
        facts=(("scaled", (name,)), ("length", length)),
    )


def clear_scale(obj: bpy.types.Object, finding: Finding) -> str:
    """Set the pose scale of the finding's bones back to 1; their rotation and location stay."""
    names = list(finding.args["bones"])
    for name in names:
        pose_of(obj).bones[name].scale = (1.0, 1.0, 1.0)
    return f"Cleared the scale of {', '.join(names)}."
