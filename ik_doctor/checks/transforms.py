"""Object transforms: the armature, and the empties its IK reaches for, should be unrotated and
unscaled.

Blender solves IK in the armature's own space, so the tip still reaches (measured: tip error
under 1e-4 with the armature rotated, scaled 2, scaled (1, 1, 2) or (-1, 1, 1)). But under a
non-uniform scale a bone's length in the world changes as it rotates, so limbs stretch and the
mesh shears while they bend; a negative scale mirrors the rig, so rolls, pole angles and rotation
directions read mirrored and exporters often mis-handle it. Plain rotation or uniform scale only
make every number in the armature's space differ from the world (bone lengths, locations,
constraint distances). An empty used as target or pole gives the IK only its position (and its
rotation when the IK follows rotation), so its transforms are information.
The fix applies the transforms to the data so that nothing moves in the world.

What it reports:

- Unapplied rotation or scale on an armature with IK: negative or non-uniform scale is a warning
  (limbs stretch and shear as they bend, or read mirrored); rotation or uniform scale is
  information.
- The same on an empty used as IK target or pole: information, IK reads only its position.

What its fixes do:

- Apply the rotation and scale to the data so that nothing moves in the world: bones at rest and
  posed, child meshes, targets. Pose locations are rescaled, and each pole angle keeps the turn
  it gives its chain from rest, turned the other way by a mirror (measured: solved, no bone
  moves; keeping the angle's number moved them up to 0.36 and broke a chain that relied on it).
  A mirror turns one-sided IK limits round to match (an elbow limited 0° to 150° would fold
  only away from its bend, the locks check's error, and miss).
- Not offered when the pose or animated locations cannot survive it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import bpy
from mathutils import Matrix, Vector

from ..core.armature import armature_data, pose_of
from ..core.editing import FixError, current_view_layer, ensure_own_bones, unset_rest_lengths_kept
from ..core.finding import Finding, Severity, chain_finding
from ..core.geometry import is_identity, mean_scale
from ..core.limb import (
    TRANSFORMS,
    animated_bones,
    animated_paths,
    keep_pole_turn,
    pole_turn,
)
from ..core.names import readable
from ..core.registry import Check
from ..core.rig import RigView

TOLERANCE = 1e-4
SHORTEST_BONE_KEPT = 1e-5
"""Leaving Edit Mode deletes bones shorter than 1e-6; 1e-5 keeps a margin for float error."""


def find_transform_problems(rig: RigView, options: Mapping[str, Any]) -> Iterator[Finding]:
    if not rig.chains:
        return
    obj = rig.object
    kind = _unapplied(obj)
    if kind is not None:
        yield _armature_finding(rig, kind)
    reported: set[str] = set()
    for chain in rig.chains:
        for role, target in (("target", chain.target), ("pole", chain.pole)):
            if target is None or target.type != "EMPTY" or readable(target) in reported:
                continue
            kind = _unapplied(target)
            if kind is None:
                continue
            reported.add(readable(target))
            animated = _transforms_animated(rig, target)
            yield chain_finding(
                "transforms",
                rig,
                chain,
                severity=Severity.INFO,
                title=_title(role.title(), kind),
                message=f"The {role} empty '{readable(target)}' of IK '{chain.constraint}' on "
                f"{chain.owner} has {_describe(kind, target)}.",
                why=(
                    "IK reads only the empty's position (and its rotation when the IK follows "
                    "rotation), so the solve is unaffected; but anything parented to the empty "
                    "inherits the rotation and scale."
                ),
                fix_id=None if animated else f"apply_{role}",
                fix_label=None
                if animated
                else f"Apply the rotation and scale of '{readable(target)}' (nothing moves)",
                fix_args=(("object", readable(target)),),
                facts=(("blocked_by", "animated" if animated else None),),
                no_fix_reason=_ANIMATED.format(name=readable(target)) if animated else None,
            )


def _unapplied(obj: bpy.types.Object) -> dict[str, bool] | None:
    """Which transforms the object holds beyond location, or None when it holds none. Read from
    its Rotation and Scale fields as the person sees them: a Scale of (-1, 1, 1) is a mirror, not
    the half turn and (-1, -1, -1) its matrix decomposes into."""
    scale = obj.scale.to_tuple()
    lengths = [abs(s) for s in scale]
    linear = obj.matrix_basis.to_3x3()
    rotation = linear @ Matrix.Diagonal([1.0 / s for s in scale]) if min(lengths) > 0.0 else linear
    kind = {
        "negative": linear.determinant() < 0.0,
        "non_uniform": max(lengths) - min(lengths) > TOLERANCE * max(lengths),
        "scaled": any(abs(s - 1.0) > TOLERANCE for s in lengths),
        "rotated": rotation.to_quaternion().angle > TOLERANCE,
    }
    return kind if any(kind.values()) else None


def _describe(kind: dict[str, bool], obj: bpy.types.Object) -> str:
    scale = ", ".join(f"{s:.3g}" for s in obj.scale.to_tuple())
    parts = []
    if kind["rotated"]:
        parts.append("an unapplied rotation")
    if kind["negative"]:
        parts.append(f"a negative scale ({scale})")
    elif kind["non_uniform"]:
        parts.append(f"a non-uniform scale ({scale})")
    elif kind["scaled"]:
        parts.append(f"an unapplied scale ({scale})")
    return " and ".join(parts)


def _title(what: str, kind: dict[str, bool]) -> str:
    """``what`` and its worst unapplied transform, in a few words."""
    if kind["negative"]:
        return f"{what} mirrored"
    if kind["non_uniform"]:
        return f"{what} scaled unevenly"
    return f"{what} {'scaled' if kind['scaled'] else 'rotated'}"


def _armature_finding(rig: RigView, kind: dict[str, bool]) -> Finding:
    obj = rig.object
    distorting = kind["negative"] or kind["non_uniform"]
    if kind["negative"]:
        why = (
            "IK still reaches (it solves in the armature's space), but the rig is mirrored: "
            "rolls, pole angles and rotation directions read mirrored in the world, and "
            "exporters and mirror tools often mis-handle it."
        )
    elif kind["non_uniform"]:
        why = (
            "IK still reaches (it solves in the armature's space), but a bone's length in the "
            "world changes as it rotates: limbs stretch and the mesh shears while they bend."
        )
    else:
        why = (
            "IK is unaffected, but every length and location in the armature's space differs "
            "from the world (bone lengths, pose locations, constraint distances)."
        )
    blocked_by, reason = _no_fix_reason(rig, kind) or (None, None)
    return Finding(
        check_id="transforms",
        severity=Severity.WARNING if distorting else Severity.INFO,
        armature=rig.name,
        title=_title("Armature", kind),
        message=f"The armature object '{rig.name}' has {_describe(kind, obj)}.",
        why=why,
        fix_id=None if reason else "apply_armature",
        fix_label=None
        if reason
        else (
            "Apply the armature's rotation and scale (changes the bones' rest coordinates; "
            "nothing moves in the world)"
        ),
        # The fix recomputes these chains' pole angles to keep their turn: it changes their
        # owners' IK, so it names them (a name in bytes Python cannot read refuses the fix).
        # A mirror also turns one-sided IK limits round (``_mirror_ik_limits``): named too.
        fix_args=()
        if reason
        else (
            ("poles_kept", _owners_with_a_pole_turn(rig)),
            ("limits_mirrored", _one_sided_limited(rig) if kind["negative"] else ()),
        ),
        facts=(("blocked_by", blocked_by),),
        no_fix_reason=reason,
        changes_rest_pose=reason is None,
    )


def _owners_with_a_pole_turn(rig: RigView) -> tuple[str, ...]:
    return tuple(dict.fromkeys(c.owner for c in rig.chains if pole_turn(rig, c) is not None))


def _one_sided_limited(rig: RigView) -> tuple[str, ...]:
    """Bones with an IK limit that lets them turn further one way than the other."""
    return tuple(
        readable(pose_bone)
        for pose_bone in pose_of(rig.object).bones
        if any(_one_sided(pose_bone, axis) for axis in "xyz")
    )


def _one_sided(pose_bone: bpy.types.PoseBone, axis: str) -> bool:
    low, high = getattr(pose_bone, f"ik_min_{axis}"), getattr(pose_bone, f"ik_max_{axis}")
    return getattr(pose_bone, f"use_ik_limit_{axis}") and abs(low + high) > 1e-6


def _no_fix_reason(rig: RigView, kind: dict[str, bool]) -> tuple[str, str] | None:
    """Why the transforms cannot be applied without moving something, or None: what blocks
    it (zero_scale, tiny_bones, animated, posed or keyed_bones) and the sentence."""
    obj = rig.object
    flat = [
        axis
        for axis, column in zip("XYZ", obj.matrix_basis.to_3x3().col, strict=True)
        if column.length < TOLERANCE
    ]
    if flat:
        return "zero_scale", (
            f"The scale of '{rig.name}' is zero on {'/'.join(flat)}: applying it would flatten "
            "every bone onto a plane and lose their rest shape for good. Give the object a "
            "non-zero scale first."
        )
    linear = obj.matrix_basis.to_3x3()
    vanishing = [
        readable(bone)
        for bone in armature_data(obj).bones
        if (linear @ (bone.tail_local - bone.head_local)).length < SHORTEST_BONE_KEPT
    ]
    if vanishing:
        return "tiny_bones", (
            f"Applying the scale of '{rig.name}' would make {', '.join(vanishing[:3])} shorter "
            f"than {SHORTEST_BONE_KEPT:g}, and Blender deletes such bones when it leaves Edit "
            "Mode. Scale the bones up in Edit Mode first, or keep the object's scale."
        )
    if _transforms_animated(rig, obj):
        return "animated", _ANIMATED.format(name=rig.name)
    if kind["negative"] or kind["non_uniform"]:
        posed = [
            readable(b) for b in pose_of(obj).bones if not is_identity(b.matrix_basis, TOLERANCE)
        ] or sorted(animated_bones(rig))
        if posed:
            return "posed", (
                f"The rig holds a pose ({', '.join(posed[:3])}…): bone rotations cannot keep "
                "their world shape once a mirrored or non-uniform scale is applied. Clear or "
                "bake the pose, then apply."
            )
    elif kind["scaled"]:
        keyed = sorted(animated_bones(rig))
        if keyed:
            return "keyed_bones", (
                f"Actions animate bones of '{rig.name}' ({', '.join(keyed[:3])}…) in the scaled "
                "units: applying the scale would change the animation. Rescale the keys first."
            )
    return None


_ANIMATED = (
    "The rotation or scale of '{name}' is animated: the action would put it back on the next "
    "frame. Apply it in the animation (or bake), not here."
)


def _transforms_animated(rig: RigView, obj: bpy.types.Object) -> bool:
    """Whether an action keys the rotation or scale (keyed locations are kept by the fix)."""
    return any(path in TRANSFORMS - {"location"} for path in animated_paths(rig, obj))


def apply_armature_transforms(obj: bpy.types.Object, finding: Finding) -> str:
    if obj.mode == "EDIT":
        raise FixError(f"'{readable(obj)}' is in Edit Mode: leave it, then apply its transforms.")
    ensure_own_bones(obj)
    basis = obj.matrix_basis.copy()
    linear = basis.to_3x3().to_4x4()
    kind = _unapplied(obj) or {}
    scale = basis.to_scale()
    rig = RigView(obj)
    # A mirror turns every chain the other way about its root-target line.
    mirror = -1.0 if kind.get("negative") else 1.0
    turns = {
        chain.key: mirror * turn
        for chain in rig.chains
        if (turn := pole_turn(rig, chain)) is not None
    }
    armature = armature_data(obj)
    # Keyed by pointer: a name Python cannot read raises when read (bpy 5.3).
    axes_before = {bone.as_pointer(): _axes(bone) for bone in armature.bones}
    with unset_rest_lengths_kept(obj), _children_kept_in_place(obj):
        armature.transform(linear)
        armature.update_tag()  # the depsgraph does not see bones moved by transform() otherwise
        obj.matrix_basis = Matrix.Translation(basis.translation)
        if kind.get("scaled") and not kind.get("non_uniform"):
            # Pose locations are in bone units, which the scale no longer enlarges.
            for pose_bone in pose_of(obj).bones:
                pose_bone.location = pose_bone.location * scale.x
    poles = "".join(keep_pole_turn(obj, key, turn) for key, turn in turns.items())
    mirrored = _mirror_ik_limits(obj, linear, axes_before) if kind.get("negative") else []
    limits = (
        f" IK limits turned to match the mirror: {', '.join(mirrored[:3])}"
        f"{'…' if len(mirrored) > 3 else ''}."
        if mirrored
        else ""
    )
    return (
        f"Applied the rotation and scale of '{readable(obj)}' to its bones (rest pose coordinates "
        "changed); bones, children, skinned meshes and targets keep their place in the world."
        f"{poles}{limits}"
    )


def _axes(bone: bpy.types.Bone) -> dict[str, Vector]:
    """The bone's axes in armature space (``Bone.x_axis`` and its kin are its parent's)."""
    columns = bone.matrix_local.col
    return {axis: columns[i].xyz.normalized() for i, axis in enumerate("xyz")}


def _mirror_ik_limits(
    obj: bpy.types.Object, linear: Matrix, axes_before: dict[int, dict[str, Vector]]
) -> list[str]:
    """After a mirror is applied, the IK limits of each bone axis that became the mirror image
    of its old axis, turned to match: a turn about a mirrored axis runs the other way, so a
    limit that let the joint fold toward its bend would let it fold only away (measured: the
    arm limited 0° to 150° under a scale of (-1, 1, 1) lands, applied it folded only away and
    missed targets nearer its root, the locks check's error). Axes Blender negated while
    rebuilding the roll keep their sense. Only limits in use and one-sided (``_one_sided``, the
    finding's ``limits_mirrored``) are turned. Returns the bones whose limits turned."""
    turned, mirror = [], linear.to_3x3()
    for pose_bone in pose_of(obj).bones:
        before, now = axes_before[pose_bone.bone.as_pointer()], _axes(pose_bone.bone)
        changed = False
        for axis in "xyz":
            if not _one_sided(pose_bone, axis):
                continue
            if now[axis].dot(mirror @ before[axis]) <= 0.0:
                continue
            low, high = getattr(pose_bone, f"ik_min_{axis}"), getattr(pose_bone, f"ik_max_{axis}")
            setattr(pose_bone, f"ik_min_{axis}", -high)
            setattr(pose_bone, f"ik_max_{axis}", -low)
            changed = True
        if changed:
            turned.append(readable(pose_bone))
    return turned


def apply_empty_transforms(obj: bpy.types.Object, finding: Finding) -> str:
    empty = bpy.data.objects.get(str(finding.args["object"]))
    if empty is None:
        raise FixError(f"There is no object named '{finding.args['object']}' any more.")
    basis = empty.matrix_basis.copy()
    size = mean_scale(basis)
    with _children_kept_in_place(empty):
        empty.matrix_basis = Matrix.Translation(basis.translation)
        empty.empty_display_size *= size
    return (
        f"Applied the rotation and scale of '{readable(empty)}': it stays where it was and is "
        "drawn the same size."
    )


@contextmanager
def _children_kept_in_place(parent: bpy.types.Object) -> Iterator[None]:
    """Keep every child of ``parent`` where it is in the world while the parent changes."""
    view_layer = current_view_layer()
    view_layer.update()
    saved = {child: child.matrix_world.copy() for child in parent.children}
    yield
    view_layer.update()
    for child, world in saved.items():
        basis = child.matrix_basis
        correction = child.matrix_world.inverted_safe() @ world
        child.matrix_parent_inverse = (
            child.matrix_parent_inverse @ basis @ correction @ basis.inverted_safe()
        )
    view_layer.update()


CHECK = Check(
    id="transforms",
    title="Object transforms",
    doc=__doc__ or "",
    find=find_transform_problems,
    fixes={
        "apply_armature": apply_armature_transforms,
        "apply_target": apply_empty_transforms,
        "apply_pole": apply_empty_transforms,
    },
    order=35,
)
