"""The suspects of a scan's miss: every setting of a chain that could keep its tip off a target
within reach. The scan removes each in turn and names the first whose removal makes the chain
land on its worst frames (``animation``)."""

from __future__ import annotations

from collections.abc import Sequence

import bpy
from mathutils import Euler, Quaternion

from ..core.armature import pose_of
from ..core.editing import constraint_on
from ..core.finding import IK_LIMIT, IK_LOCK, ITERATIONS, NESTED_IK, NESTED_IK_REASON, STIFFNESS
from ..core.names import readable
from ..core.rig import IKChain, RigView
from .scan_findings import Suspect

SOLVER_ITERATIONS = 500


def suspects(obj: bpy.types.Object, rig: RigView, chain: IKChain) -> list[Suspect]:
    """Every setting of the chain that could keep its tip off a target within reach, each axis
    on its own first, then each kind's axes together."""
    bones = [rig.pose_bone(name) for name in chain.moving_bones]
    constraint = constraint_on(obj, chain.owner, chain.constraint, bpy.types.KinematicConstraint)
    return [
        *_locks_and_limits(bones),
        *_stiffness(bones),
        *_iterations(obj, constraint),
        *_stretch(constraint, bones),
        *_nested_iks(rig, chain),
        *_other_constraints(rig, chain),
        _keyed_rotation(bones),
    ]


def _locks_and_limits(bones: Sequence[bpy.types.PoseBone]) -> list[Suspect]:
    found: list[Suspect] = []
    for attribute, fix_id, what, kind in (
        ("lock_ik_{}", "free_ik_locks", "IK lock", IK_LOCK),
        ("use_ik_limit_{}", "drop_ik_limits", "IK limit", IK_LIMIT),
    ):
        axes = [axis for axis in "xyz" if any(getattr(b, attribute.format(axis)) for b in bones)]
        for chosen in [[axis] for axis in axes] + ([axes] if len(axes) > 1 else []):
            on = [
                (b, attribute.format(axis))
                for axis in chosen
                for b in bones
                if getattr(b, attribute.format(axis))
            ]
            names = sorted({readable(b) for b, _ in on})
            axes_text = "/".join(axis.upper() for axis in chosen)
            found.append(
                Suspect(
                    kind=kind,
                    label=f"its {what}{'s' if len(chosen) > 1 else ''} on {axes_text} "
                    f"({', '.join(names)})",
                    title=f"Misses: {what}",
                    changes=tuple((b, name, False) for b, name in on),
                    fix_id=fix_id,
                    fix_label=f"Turn off the {what} on {axes_text} of {', '.join(names)}",
                    fix_args=(("axes", "".join(chosen)), ("bones", tuple(names))),
                )
            )
    return found


def _stiffness(bones: Sequence[bpy.types.PoseBone]) -> list[Suspect]:
    stiff = [b for b in bones if any(getattr(b, f"ik_stiffness_{a}") > 0.0 for a in "xyz")]
    if not stiff:
        return []
    stiff_names = tuple(readable(b) for b in stiff)
    return [
        Suspect(
            kind=STIFFNESS,
            label=f"the IK stiffness of {', '.join(stiff_names)}",
            title="Misses: too stiff",
            changes=tuple((b, f"ik_stiffness_{a}", 0.0) for b in stiff for a in "xyz"),
            fix_id="clear_stiffness",
            fix_label=f"Set the IK stiffness of {', '.join(stiff_names)} to 0",
            fix_args=(("bones", stiff_names),),
        )
    ]


def _iterations(obj: bpy.types.Object, constraint: bpy.types.KinematicConstraint) -> list[Suspect]:
    if pose_of(obj).ik_solver != "LEGACY" or constraint.iterations >= SOLVER_ITERATIONS:
        return []
    return [
        Suspect(
            kind=ITERATIONS,
            label=f"its {constraint.iterations} solver iterations",
            title="Misses: few iterations",
            changes=((constraint, "iterations", SOLVER_ITERATIONS),),
            fix_id="more_iterations",
            fix_label=f"Set the IK's iterations to {SOLVER_ITERATIONS}",
        )
    ]


def _stretch(
    constraint: bpy.types.KinematicConstraint, bones: Sequence[bpy.types.PoseBone]
) -> list[Suspect]:
    if not (constraint.use_stretch and any(b.ik_stretch > 0.0 for b in bones)):
        return []
    return [
        Suspect(
            kind="stretch",
            label="its IK Stretch",
            title="Misses: IK Stretch",
            changes=((constraint, "use_stretch", False),),
            fix_id=None,
            fix_label=None,
            no_fix_reason="whether the limb stretches is the rigger's choice: turn off the "
            "IK's Stretch, or lower the bones' IK Stretch",
        )
    ]


def _nested_iks(rig: RigView, chain: IKChain) -> list[Suspect]:
    found = []
    for other_chain in _overlapping(rig, chain):
        nested = rig.ik_constraint(other_chain)
        if not nested.mute and nested.influence > 0.0:
            shared = [name for name in chain.moving_bones if name in other_chain.bones]
            found.append(
                Suspect(
                    kind=NESTED_IK,
                    label=f"IK '{other_chain.constraint}' on {other_chain.owner}, whose chain "
                    f"also moves {', '.join(shared)}",
                    title="Nested IK misses",
                    changes=((nested, "mute", True),),
                    # Muting either IK breaks the other: which one owns the bone is the
                    # rigger's choice (shorten a chain), not a fix to make for them.
                    fix_id=None,
                    fix_label=None,
                    fix_args=(("outer", other_chain.key),),
                    no_fix_reason=NESTED_IK_REASON,
                )
            )
    return found


def _overlapping(rig: RigView, chain: IKChain) -> list[IKChain]:
    """Other IKs whose chains turn a bone this chain turns: the later solve wins that bone."""
    found: list[IKChain] = []
    for name in chain.moving_bones:
        for other in rig.chains_with_bone(name):
            if other.key != chain.key and other not in found and name in other.moving_bones:
                found.append(other)
    return found


def _other_constraints(rig: RigView, chain: IKChain) -> list[Suspect]:
    return [
        Suspect(
            kind="constraint",
            label=f"{other.type.replace('_', ' ').title()} '{readable(other)}' on "
            f"{name}, which the IK overrides",
            title="Misses: a constraint",
            changes=((other, "mute", True),),
            fix_id="mute_constraint",
            fix_label=f"Mute '{readable(other)}' on {name}",
            fix_args=(("bone", name), ("constraint", readable(other))),
            needs_confirmation=True,
        )
        for name in chain.moving_bones
        for other in rig.constraints(name)
        if other.type != "IK" and not other.mute and other.influence > 0.0
    ]


def _keyed_rotation(bones: Sequence[bpy.types.PoseBone]) -> Suspect:
    return Suspect(
        kind="keyed_rotation",
        label="the keyed rotation of the chain's bones, where the solver starts",
        title="Misses: keyed rotation",
        changes=tuple(
            (b, channel, value)
            for b in bones
            for channel, value in (
                ("rotation_quaternion", Quaternion()),
                ("rotation_euler", Euler()),
                ("rotation_axis_angle", (0.0, 0.0, 1.0, 0.0)),
            )
        ),
        fix_id=None,
        fix_label=None,
        no_fix_reason="the keys are the animator's: key the chain's rotation nearer the pose "
        "it should reach, or clear those keys so the solver starts from rest",
        per_frame=True,
    )
