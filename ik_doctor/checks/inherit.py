"""Inheritance: chain bones that do not follow their parent's rotation, or shear under its scale.

Measured in 4.2 and 5.3 on the reference leg and arm:

- A chain bone below the chain root with ``use_inherit_rotation`` off keeps its armature-space
  rotation when the bones above it turn: with the root, hips or thigh turned 20 degrees about
  any axis the knee bends away from its pole (the foot still reaches). Only a rig that never
  moves above the limb escapes it, so this is an error even at rest.
  (The chain root itself may drop its parent's rotation; the solve is unaffected.) On the
  owner of a chain without a pole there is no side to judge the bend by and the tip still
  lands: a warning (and the pole check offers no pole until it inherits rotation). So too
  where a constraint sets the joint's start rotation (a Copy Rotation of the shoulder, a Damped
  Track at the control: the bend follows it), or the pole sits behind the bend (the joint
  bends as built or turns to face the pole): the limb still lands with the body turned 40°.
- ``inherit_scale`` Full (Blender's default) passes a parent's non-uniform scale on as shear:
  with the thigh stretched 1.5 along its length, or the hips scaled (1.3, 1, 0.8) above the
  thigh, the foot ends 7 to 70 mm from points the leg reaches by hand (FK). Aligned removes
  it for every pose tried; Fix Shear misses one (18 mm with the thigh swung 20°).
- An unevenly scaled bone further above a chain (the hips above the arms, with the spine,
  chest and shoulder between) breaks it whatever the chain inherits: once a bone in between
  turns the tip misses, by a quarter of the reach for the arms with the shoulder turned 40°.
  Only a uniform scale there fixes it.
- ``inherit_scale`` None keeps the limb at its own size when the rig is scaled: with the root
  scaled 1.5, or the hips 1.2, the targets move out of reach of the unscaled leg (0.06 to 0.31
  of its reach short); scaled down they stay within reach. An error only while a bone above
  the chain is scaled up: the chain's own upper bone scaled 1.2 or 1.5 only makes the limb
  longer, and the leg and the arm still reach every goal (the rest_pose check names the
  leftover scale). IK Stretch on a chain bone makes up the shortfall (measured: the leg and
  the arm land with stretch 0.001 on one bone): a warning then.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, cast

import bpy
import numpy as np
from mathutils import Matrix, Vector

from ..core.armature import armature_data, pose_of
from ..core.editing import edit_bones
from ..core.finding import Finding, Severity, chain_finding
from ..core.limb import animated_bones, pole_behind_bend
from ..core.reach import solved_by_itasc, stretching_bones
from ..core.registry import Check, register
from ..core.rig import IKChain, RigView
from ..core.start import start_set_by

NOT_SCALING = ("NONE", "NONE_LEGACY")


def find_inheritance_problems(rig: RigView, options: Mapping[str, Any]) -> Iterator[Finding]:
    reported: set[tuple[str, str]] = set()
    tolerance = options["scale_tolerance"]
    uneven = _non_uniform_scales(rig, tolerance)
    for chain in rig.chains:
        if chain.mute or chain.influence <= 0.0:
            continue  # it moves nothing: a live twin on the bone carries the findings
        # Most rigs scale nothing unevenly: then no bone above a chain is worth reading.
        above = rig.ancestors(chain.root) if uneven else []
        body = next((name for name in above[1:] if name in uneven), None)
        if body is not None:
            yield _uneven_body(rig, chain, body, uneven[body])
        # Without Use Tail the owner only follows: its head is the tip, whatever it inherits.
        for name in chain.moving_bones:
            for finding in _problems(rig, chain, name, above[:1], uneven, tolerance):
                if (name, finding.fix_id or "") not in reported:
                    reported.add((name, finding.fix_id or ""))
                    yield finding


def _problems(
    rig: RigView,
    chain: IKChain,
    name: str,
    hangs_from: list[str],
    uneven: dict[str, Vector],
    tolerance: float,
) -> Iterator[Finding]:
    """What is wrong with one chain bone; ``hangs_from`` is the bone the chain hangs from (when
    something is scaled unevenly)."""
    bone = rig.raw_bone(name)
    scale_mode = bone.inherit_scale
    shear_possible = scale_mode == "FULL" and bool(uneven)
    if bone.use_inherit_rotation and scale_mode not in NOT_SCALING and not shear_possible:
        return  # inherits rotation and scale, with no unevenly scaled bone to shear it

    def finding(**fields: Any) -> Finding:
        return chain_finding("inherit", rig, chain, bone=name, **fields)

    if not bone.use_inherit_rotation and name != chain.root and bone.parent is not None:
        effect, harmless = _rotation_effect(rig, chain, name)
        yield finding(
            severity=Severity.WARNING if harmless else Severity.ERROR,
            message=(
                f"{name} does not inherit the rotation of {bone.parent.name}, so it ignores "
                f"the bend above it in the chain of {chain.owner}: {effect}."
            ),
            why=(
                "Without inherited rotation the bone keeps its armature-space orientation "
                "while the bones above it turn: the solver's bend lands on the wrong side and "
                "the joint bends away from its pole."
            ),
            fix_id="inherit_rotation",
            fix_label=f"Turn Inherit Rotation back on for {name}",
        )
    scaled = _shearing_ancestor(rig, name, uneven, tolerance) if uneven else None
    shears = scaled is not None and (scaled in chain.bones or scaled in hangs_from)
    if bone.inherit_scale in NOT_SCALING and bone.parent is not None:
        # Full would shear it under an unevenly scaled bone (an error then): Aligned does not.
        mode = "ALIGNED" if shears else "FULL"
        grown = _posed_ancestor(rig, name, _is_grown, skipped=chain.bones)
        stretching = stretching_bones(rig, chain) if grown else ()
        if grown and stretching:
            effect = (
                f"{grown} is scaled up, so the targets are reached only by IK Stretch on "
                f"{', '.join(stretching)}"
            )
        elif grown:
            effect = f"{grown} is scaled up, so the targets are out of its reach now"
        else:
            effect = "scaling the rig up leaves this part of the limb at its old size"
        yield finding(
            severity=Severity.ERROR if grown and not stretching else Severity.WARNING,
            message=f"{name} does not inherit scale from {bone.parent.name}: {effect}.",
            why=(
                f"With Inherit Scale '{bone.inherit_scale.title()}' the limb keeps its length "
                "while the controls move with the scaled rig, so targets drift out of reach."
            ),
            fix_id="inherit_scale",
            fix_label=f"Set Inherit Scale of {name} to {mode.title()}",
            fix_args=(("mode", mode),),
        )
    if bone.inherit_scale == "FULL" and shears:
        assert scaled is not None
        scale = _rounded(uneven[scaled])
        yield finding(
            severity=Severity.WARNING if solved_by_itasc(rig) else Severity.ERROR,
            message=(
                f"{name} inherits the non-uniform scale {scale} of {scaled} in full, "
                "which shears it: the limb cannot reach its target."
            ),
            why=(
                "Inherit Scale 'Full' applies the parent's scale along the parent's axes; "
                "on a bone turned against its parent, unequal scale becomes shear, and the "
                "solver's rotations no longer move the tip where it expects."
            ),
            fix_id="align_scale",
            fix_label=f"Set Inherit Scale of {name} to Aligned",
            fix_args=(("mode", "ALIGNED"),),
        )


def _rotation_effect(rig: RigView, chain: IKChain, name: str) -> tuple[str, bool]:
    """What a chain bone that does not inherit rotation does to the chain, and whether the chain
    still works (a warning then).

    Measured on the leg and the arm, with the body turned 40° either way about X and Z: the
    joint flips away from its pole, but a joint whose start rotation a constraint sets (a Copy
    Rotation of the shoulder, a Damped Track at the control) bends as that start says (the
    constraint order check judges the start), and under a pole behind the bend the joint bends
    as built or turns to face the pole, both bends the limb was built for. A leg's or an arm's
    owner without a pole still lands; a joint further up a longer chain (the shin of a foot's
    chain of 3) misses by 11% once the hips turn.
    """
    started = start_set_by(rig, chain, name)
    if chain.pole is None and name == chain.owner:
        return (
            "without a pole it still reaches, but its bend no longer follows the bones above it",
            True,
        )
    if started is not None:
        kind = started.type.replace("_", " ").title()
        return (
            f"its bend follows {kind} '{started.name}', which sets the rotation the solver "
            "starts it from (measured: the leg and the arm still land and bend toward the pole "
            "with the body turned 40°), and would flip away from its pole once that is muted",
            True,
        )
    if chain.pole is not None and pole_behind_bend(rig, chain):
        return (
            "its pole sits behind the bend, so bending away from it is how the limb was built "
            "(measured: the leg and the arm still land with the body turned 40°, bent as built "
            "or turned to face the pole), but the bend no longer follows the bones above it",
            True,
        )
    turned = _posed_ancestor(rig, name, _is_turned)
    if turned:
        return f"with {turned} turned, the joint bends away from its pole", False
    return (
        "it works at rest, but as soon as a bone above it turns the joint bends away from its pole",
        False,
    )


def _uneven_body(rig: RigView, chain: IKChain, body: str, scale: Vector) -> Finding:
    keyed = body in animated_bones(rig)
    return chain_finding(
        "inherit",
        rig,
        chain,
        severity=Severity.ERROR,
        message=(
            f"{body}, above the chain of IK '{chain.constraint}' on {chain.owner}, is scaled "
            f"unevenly {_rounded(scale)}: the chain misses its target as "
            "soon as a bone between them turns, whatever it inherits."
        ),
        why=(
            "A bone turned inside an unevenly scaled parent is sheared, and the solver, which "
            "moves rigid bones, no longer lands the tip where it aims (measured: the arms 25% "
            "of their reach short with the shoulder turned 40° under hips scaled 1.3, 1, 0.8, "
            "with every Inherit Scale mode). Squash and stretch belong on a bone no chain hangs "
            "from, or in a uniform scale."
        ),
        fix_id=None if keyed else "reset_scale",
        fix_label=None if keyed else f"Reset the scale of {body} to 1 (asks first)",
        fix_args=(("scaled", body),),
        no_fix_reason=(
            f"the scale of {body} is keyed: the action would put it back on the next frame; "
            "change it in the animation"
            if keyed
            else None
        ),
        needs_confirmation=not keyed,
    )


def _posed_ancestor(
    rig: RigView, name: str, posed: Callable[[Matrix], bool], skipped: Collection[str] = ()
) -> str | None:
    """The nearest bone above ``name``, not one of ``skipped``, whose pose (``matrix_basis``)
    matches ``posed``."""
    for ancestor in rig.ancestors(name):
        if ancestor not in skipped and posed(rig.pose_bone(ancestor).matrix_basis):
            return ancestor
    return None


def _is_turned(basis: Matrix) -> bool:
    return basis.to_quaternion().angle > math.radians(1.0)


def _is_grown(basis: Matrix) -> bool:
    return max(basis.to_scale().to_tuple()) > 1.0 + 1e-3


def _rounded(scale: Vector) -> tuple[float, ...]:
    """A scale as the messages show it."""
    return tuple(round(value, 3) for value in scale.to_tuple())


def _non_uniform_scales(rig: RigView, tolerance: float) -> dict[str, Vector]:
    """Pose scales of the bones scaled unevenly, read in one call (most rigs have none)."""
    pose_bones = pose_of(rig.object).bones
    flat = np.empty(len(pose_bones) * 3, dtype=np.float32)
    pose_bones.foreach_get("scale", flat)
    scales = flat.reshape(-1, 3).astype(np.float64)
    spread = scales.max(axis=1) - scales.min(axis=1)
    uneven = np.nonzero(spread > tolerance * np.abs(scales).max(axis=1))[0]
    return {pose_bones[int(i)].name: Vector(scales[i]) for i in uneven}


def _shearing_ancestor(
    rig: RigView, name: str, uneven: dict[str, Vector], tolerance: float
) -> str | None:
    """The nearest bone above ``name`` whose pose scale shears ``name`` at rest, if any.

    Scale along an axis the child shares with the parent (a bend axis) does not shear, so the
    parent's scale is taken into the child's rest frame and checked for off-diagonal terms.
    """
    child = rig.raw_bone(name).matrix_local.to_3x3()
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


@contextmanager
def _lasting_bone(
    obj: bpy.types.Object, name: str
) -> Iterator[bpy.types.Bone | bpy.types.EditBone]:
    """The bone whose inheritance settings last: in Edit Mode the edit bone, since Blender
    rewrites the data bones from the edit bones on the next sync; otherwise the data bone."""
    if obj.mode == "EDIT":
        with edit_bones(obj) as bones:
            yield bones[name]
    else:
        yield armature_data(obj).bones[name]


def reset_scale(obj: bpy.types.Object, finding: Finding) -> str:
    pose_bone = pose_of(obj).bones[str(finding.args["scaled"])]
    before = _rounded(pose_bone.scale)
    pose_bone.scale = (1.0, 1.0, 1.0)
    return f"Reset the scale of {pose_bone.name} from {before} to 1."


def restore_rotation_inheritance(obj: bpy.types.Object, finding: Finding) -> str:
    with _lasting_bone(obj, finding.bone or "") as bone:
        bone.use_inherit_rotation = True
        parent = bone.parent
        assert parent is not None  # the finding stands on a bone below the chain root
        return f"Turned Inherit Rotation on for {bone.name}: it now turns with {parent.name}."


def set_scale_inheritance(obj: bpy.types.Object, finding: Finding) -> str:
    with _lasting_bone(obj, finding.bone or "") as bone:
        before = bone.inherit_scale
        bone.inherit_scale = cast(Any, finding.args["mode"])  # an inherit_scale enum name
        return (
            f"Set Inherit Scale of {bone.name} from '{before.title()}' to "
            f"'{bone.inherit_scale.replace('_', ' ').title()}'."
        )


register(
    Check(
        id="inherit",
        title="Inherited rotation and scale",
        doc=__doc__ or "",
        find=find_inheritance_problems,
        fixes={
            "inherit_rotation": restore_rotation_inheritance,
            "inherit_scale": set_scale_inheritance,
            "align_scale": set_scale_inheritance,
            "reset_scale": reset_scale,
        },
        options={"scale_tolerance": 1e-3},
        order=40,
    )
)
