"""Where a chain bone shears, for the inherit check and the fixes of others that would turn it:
a bone that inherits in full (Inherit Scale 'Full') the uneven pose scale of a bone above it is
sheared once it is turned against that bone's axes, and the solver, which moves rigid bones, no
longer lands the tip where it aims (measured: the foot 7 to 70 mm from points the leg reaches by
hand). A straight limb shows no shear at rest, its root lined up with the scaled bone's axes,
and shears only as it folds (``inherited_shear``, for the rest_pose check)."""

from __future__ import annotations

import bpy
import numpy as np
from mathutils import Matrix, Vector

from ..core.armature import pose_of
from ..core.limb import root_folds_against
from ..core.names import readable
from ..core.reach import solved_by_itasc, stretching_bones
from ..core.rig import IKChain, RigView
from ..core.started import COPIES, start_set_by

SCALE_TOLERANCE = 1e-3
"""A pose scale whose axes differ by more than this share of the largest is uneven."""
REBUILDS_ITS_MATRIX = (*COPIES, bpy.types.TrackToConstraint)
"""Constraints that, setting where the solver starts a bone, build its matrix afresh from a
rotation and the bone's own scale, dropping any shear (``copy_that_drops_the_shear``)."""


def shear_that_stops(
    rig: RigView, chain: IKChain, name: str, turn: Matrix | None = None
) -> str | None:
    """The bone whose uneven scale ``name`` inherits in full, as a shear that leaves ``chain``
    short of its target (this check's error, default tolerance), or None.

    For a fix elsewhere that would make ``name`` turn: the mirror check's copy of Use Tail, or,
    with ``turn`` (armature space) applied to ``name``'s rest, the rest_pose check's pre-bend.
    """
    if solved_by_itasc(rig):
        return None
    scaled = shear_source(rig, chain, name, turn)
    return None if scaled is None or copy_that_drops_the_shear(rig, chain, name) else scaled


def shear_source(rig: RigView, chain: IKChain, name: str, turn: Matrix | None = None) -> str | None:
    """The bone of ``chain``, or the one it hangs from, whose uneven scale ``name`` inherits in
    full (Inherit Scale 'Full') as a shear, whatever else sets its rotation (default tolerance);
    with ``turn``, once ``name``'s rest is turned so."""
    if rig.raw_bone(name).inherit_scale != "FULL":
        return None
    return shearing_bone(
        rig, chain, name, non_uniform_scales(rig, SCALE_TOLERANCE), SCALE_TOLERANCE, turn
    )


def shearing_bone(
    rig: RigView,
    chain: IKChain,
    name: str,
    uneven: dict[str, Vector],
    tolerance: float,
    turn: Matrix | None = None,
) -> str | None:
    """The bone of ``chain``, or the one it hangs from, whose uneven scale shears ``name``."""
    scaled = _shearing_ancestor(rig, name, uneven, tolerance, turn) if uneven else None
    if scaled is not None and (scaled in chain.bones or scaled in rig.ancestors(chain.root)[:1]):
        return scaled
    return None


def copy_that_drops_the_shear(
    rig: RigView, chain: IKChain, name: str
) -> bpy.types.Constraint | None:
    """A Copy Rotation, Copy Transforms or Track To that sets ``name``'s rotation and so drops
    its shear.

    Measured on the arm, its upper arm scaled (1, 2, 1), (1.5, 1, 1) or (1, 1, 0.6): a plain
    Copy Rotation or Copy Transforms in world space rebuilds the forearm's matrix from a
    rotation and lands it; in local space the shear stays (20% to 40% short). A world-space
    Track To at the limb's control builds it from its aim (Blender's ``vectomat``) and lands it
    as well (fresh seed 435: the leg so, its thigh scaled (1, 1.2, 1); measured on 5.3, the arm
    and the leg under (1, 1.2 to 3, 1) land where they do not flip, as the Copy Rotation does).
    A Damped Track or a Limit Rotation keeps the shear: 2.8% to 92% short.
    """
    rebuilt = start_set_by(rig, chain, name)
    return rebuilt if isinstance(rebuilt, REBUILDS_ITS_MATRIX) else None


def uneven_body(
    rig: RigView, chain: IKChain, tolerance: float = SCALE_TOLERANCE
) -> tuple[str, Vector] | None:
    """The bone above the one the chain hangs from that is scaled unevenly, with its scale: once
    a bone between them turns, it shears the chain (the inherit check's "Body scaled
    unevenly")."""
    uneven = non_uniform_scales(rig, tolerance)
    above = rig.ancestors(chain.root) if uneven else []
    body = next((name for name in above[1:] if name in uneven), None)
    return None if body is None else (body, uneven[body])


def non_uniform_scales(rig: RigView, tolerance: float) -> dict[str, Vector]:
    """Pose scales of the bones scaled unevenly, read in one call once a pass (most rigs have
    none): ``shear_source`` asks again for every copied rotation other checks weigh."""
    return rig.remember(("uneven scales", tolerance), lambda: _read_uneven_scales(rig, tolerance))


def _read_uneven_scales(rig: RigView, tolerance: float) -> dict[str, Vector]:
    pose_bones = pose_of(rig.object).bones
    flat = np.empty(len(pose_bones) * 3, dtype=np.float32)
    pose_bones.foreach_get("scale", flat)
    scales = flat.reshape(-1, 3).astype(np.float64)
    spread = scales.max(axis=1) - scales.min(axis=1)
    uneven = np.nonzero(spread > tolerance * np.abs(scales).max(axis=1))[0]
    return {readable(pose_bones[int(i)]): Vector(scales[i]) for i in uneven}


def _shearing_ancestor(
    rig: RigView,
    name: str,
    uneven: dict[str, Vector],
    tolerance: float,
    turn: Matrix | None = None,
) -> str | None:
    """The nearest bone above ``name`` whose pose scale shears ``name`` at rest (with its rest
    turned by ``turn`` in armature space first), if any.

    Scale along an axis the child shares with the parent (a bend axis) does not shear, so the
    parent's scale is taken into the child's rest frame and checked for off-diagonal terms.
    """
    child = rig.raw_bone(name).matrix_local.to_3x3()
    if turn is not None:
        child = turn @ child
    for ancestor in rig.ancestors(name):
        scale = uneven.get(ancestor)
        if scale is None:
            continue
        relative = rig.raw_bone(ancestor).matrix_local.to_3x3().inverted_safe() @ child
        sheared = relative.transposed() @ Matrix.Diagonal(scale) @ relative
        off_diagonal = max(abs(sheared[i][j]) for i in range(3) for j in range(3) if i != j)
        if off_diagonal > tolerance * max(abs(v) for v in scale.to_tuple()):
            return ancestor
    return None


def stretch_across_the_fold(rig: RigView, chain: IKChain, direction: Vector) -> float | None:
    """How many times the pose scale the chain's root inherits in full from the bone it hangs
    from stretches the axis a straight chain folds about (toward ``direction``) more than its
    line (below 1: less), where they differ beyond the tolerance; else None."""
    root = rig.pose_bone(chain.root)
    parent = root.parent
    if parent is None or root.bone.inherit_scale != "FULL" or solved_by_itasc(rig):
        return None
    if stretching_bones(rig, chain):
        return None
    inherited = parent.matrix.to_3x3() @ parent.bone.matrix_local.to_3x3().inverted_safe()
    line = rig.chain_tip(chain) - rig.bone(chain.root).head
    across = inherited @ line.cross(direction).normalized()
    ratio = across.length / max((inherited @ line.normalized()).length, 1e-12)
    if ratio > 1.0 + SCALE_TOLERANCE or ratio * (1.0 + SCALE_TOLERANCE) < 1.0:
        return ratio
    return None


ACROSS_THAT_STOPS = 1.09
"""How many times more across its fold than along its line the scale a straight chain without a
pole inherits may stretch before it stops short, its hinges free or limited one way. Measured on
4.2 and 5.3 under hips or a shoulder scaled (s, 1, 1/s): the arm lands at 1.075, stops 0.31% of
its reach short at 1.11, 1.1% at 1.18, 12% at 2; the leg lands at 1.08, stops 0.19% at 1.1."""
ALONG_THAT_STOPS = 1.0 / 0.759
"""The same, the scale stretching its line more than the fold's axis: the arm lands at 1.31
(0.01%), stops 0.12% short at 1.32, 4.3% at 1.43, 12% at 2; the leg lands at 1.316 (0.07%),
stops 0.27% at 1.333. As the body turns, the solver turns the fold's plane out of the scaled
axes, and the shear grows."""


def inherited_shear(
    rig: RigView, chain: IKChain, direction: Vector, started: bool = False, as_built: bool = False
) -> tuple[float | None, str]:
    """For a straight chain without a pole, or ``started`` bent toward its pole, or with one a
    constraint starts bent ``as_built`` (within its IK limits, which take it as their fold): how
    many times the uneven scale its root inherits stretches its fold's axis more than its line
    (``stretch_across_the_fold``), where it stops the chain short, and the words the message
    adds for it. Where its hinges are limited opposite ways (``root_folds_against``) any
    difference does (measured on 4.2, the leg and the arm under hips or a shoulder scaled 0.6
    to 1.6, 0.95 and 1.05 too: 0.4% to 11% of the reach); else past ``ACROSS_THAT_STOPS`` or
    ``ALONG_THAT_STOPS``. Started as built, with a pole, they stop alike (fresh seeds 190 and
    201; measured on 4.2 beside a Damped Track at the control or the pole and a Track To of
    the control, under hips or a shoulder at 0.8 to 1.3: the leg lands to 1.05 and stops 0.19%
    short at 1.1, the arm 0.31% at 1.11 across; opposed hinges 0.33% to 4.9% at any)."""
    if started:
        return _started_shear(rig, chain, direction)
    unaimed = chain.pole is None or as_built
    stretch = stretch_across_the_fold(rig, chain, direction) if unaimed else None
    if stretch is None:
        return None, ""
    opposed = root_folds_against(rig, chain)
    if not opposed and 1.0 / ALONG_THAT_STOPS <= stretch <= ACROSS_THAT_STOPS:
        return None, ""
    if stretch < 1.0:
        hinges = ", and its IK limits turn its two hinges opposite ways" if opposed else ""
        return stretch, (
            f" Its root inherits a pose scale {1.0 / stretch:.3g} times larger along its line "
            f"than across that fold{hinges}: folding, it shears and stops short (measured on "
            "the leg and the arm under hips or a shoulder scaled 0.6 to 1.6: "
            + (
                "0.4% to 11% of the reach; pre-bent, still short)."
                if opposed
                else "from 1.32 times, 0.12% to 12%; pre-bent, still 2.0% to 4.4%)."
            )
        )
    return stretch, (
        f" Its root inherits a pose scale {stretch:.3g} times larger across that fold than "
        "along it: folding, it shears and stops short (measured on the leg and the arm: from "
        "1.1 times, 0.19% to 12% of the reach; pre-bent, still 1.7% to 3.2%, with the shear "
        "then at rest)."
    )


STARTED_SHEAR = 0.005
"""How much more or less than its line (a share) the scale its root inherits must stretch the
fold's axis for a straight limb started bent toward its pole to stop short: measured on the arm
posed 20° or 70° under a shoulder scaled (s, 1, 1/s), at 0.995 0.23% of the reach, at 0.99 and
1.01 0.46%, at 0.6 to 1.6 2.2% to 32%; the leg under hips so scaled alike (2.2% to 36%)."""


def _started_shear(rig: RigView, chain: IKChain, direction: Vector) -> tuple[float | None, str]:
    """``inherited_shear`` for a straight chain with a pole that a pose or a constraint starts
    bent: folding from there it shears either way (seed 124: the arm posed 70° under a shoulder
    scaled (1.3, 1, 0.77) stops 13% of its reach short, where `inherit` reads no shear at rest,
    the straight upper arm lined up with the shoulder's axes)."""
    stretch = stretch_across_the_fold(rig, chain, direction)
    if stretch is None or abs(1.0 - stretch) < STARTED_SHEAR:
        return None, ""
    larger = "across that fold than along its line"
    if stretch < 1.0:
        larger = "along its line than across that fold"
    return stretch, (
        f" Its root inherits a pose scale {max(stretch, 1.0 / stretch):.3g} times larger "
        f"{larger}: folding from its start, it shears and stops short (measured on the leg "
        "and the arm posed 20° or 70° toward the pole under hips or a shoulder scaled 0.6 to "
        "1.6: 2.2% to 36% of the reach; at 0.995, 0.23%)."
    )
