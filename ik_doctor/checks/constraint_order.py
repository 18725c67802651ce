"""Constraint order: what happens to an IK and to the other constraints of its chain.

Blender solves an IK after every other constraint of the chain's bones, whatever their order in
the stack (measured in 4.2 and 5.3). So a Copy Rotation, Copy Transforms or Damped Track on a
chain bone is silently overridden, and a Limit Rotation does not limit the IK: only the bone's
IK limits (``use_ik_limit_*``) do. Overridden is not harmless on an inner joint (a knee): the
solver starts from the rotation such a constraint sets, and a start bent the other way flips the
knee away from its pole (measured: an error, where the warning is for a start that bends the rest
way). A muted IK, or one at influence 0, does nothing; at a lower
influence the tip stops short of the target. An IK whose owner lies inside another active IK's
chain is solved in one tree with it, and the outer chain's target wins.

A muted IK that is half of a switch (a second IK on the same bone, as Rigify pairs a pole and a
no-pole IK, or an IK whose mute or influence is driven or keyed) is off on purpose: that is
information, not a fault.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

import bpy
from mathutils import Matrix, Vector

from ..core.finding import Finding, Severity
from ..core.limb import forward_pose, switched_by
from ..core.reach import BODY_TURN, limb_bones
from ..core.registry import Check, register
from ..core.rig import IKChain, RigView

OVERRIDDEN = {
    "COPY_ROTATION": "copies the rotation of {target}",
    "COPY_TRANSFORMS": "copies the transforms of {target}",
    "DAMPED_TRACK": "points the bone at {target}",
    "TRACK_TO": "points the bone at {target}",
    "LOCKED_TRACK": "turns the bone toward {target} about one axis",
    "TRANSFORM": "maps the transforms of {target} to the bone's rotation",
}
"""Constraints whose effect on a chain bone is a rotation, which the IK solved after them
replaces (measured: the chain ends where it would without them)."""

FULL_INFLUENCE = 0.999
"""Below this the tip visibly stops short: influence 0.99 leaves 0.004 of a 0.9 leg."""

AXES = "xyz"
FLAT_FOLD = 165.0
"""Degrees of bend past which a joint is folded nearly flat, and the side its bone lies on says
little (measured on the shin: Damped Track starts at 167° and 170° on the far side unfolded the
rest way, as the swing that put them there says; copied rotations at 176° flipped, as their
side says)."""


def find_constraint_order_problems(rig: RigView, options: Mapping[str, Any]) -> Iterator[Finding]:
    nested = {finding.chain: finding for finding in _overlaps(rig)}
    reported: set[tuple[str, str]] = set()
    for chain in rig.chains:
        reason = switched_by(rig, chain)
        if not _solves(chain) or chain.influence < FULL_INFLUENCE:
            weak = _weak_ik(rig, chain, reason)
            if weak.fix_id is None and chain.key in nested:
                # Both would say something about this IK with no fix: one finding, one key.
                weak = _also_switched(nested.pop(chain.key), weak)
            yield weak
        if chain.influence < FULL_INFLUENCE or not _solves(chain) or reason is not None:
            # The other constraints of the chain show whenever this IK is off or blended.
            continue
        for bone in chain.bones:
            for constraint in rig.constraints(bone):
                if (bone, constraint.name) in reported or not _acts(constraint):
                    continue
                finding = _overridden(rig, chain, bone, constraint)
                if finding is not None:
                    reported.add((bone, constraint.name))
                    yield finding
    yield from nested.values()


def _weak_ik(rig: RigView, chain: IKChain, switch_reason: str | None) -> Finding:
    where = f"IK '{chain.constraint}' on {chain.owner}"
    state = "muted" if chain.mute else f"at influence {chain.influence:.3g}"
    common = dict(
        check_id="constraint_order",
        armature=rig.name,
        bone=chain.owner,
        constraint=chain.constraint,
        chain=chain.key,
    )
    if switch_reason is not None:
        return Finding(
            severity=Severity.INFO,
            message=f"{where} is {state} on purpose: {switch_reason}.",
            why="It is one half of an IK switch; the rig turns it on when it is needed.",
            no_fix_reason="nothing to fix: the rig switches this IK itself",
            **common,
        )
    if not _solves(chain):
        message = f"{where} is {state}: the IK does nothing."
        why = "A muted IK, or one at influence 0, is skipped: the chain stays in its FK pose."
    else:
        message = f"{where} is {state}: the tip stops short of the target."
        why = (
            "Influence blends the solved pose with the FK pose, so the chain moves only part "
            "of the way to the target; nothing drives or keys the influence."
        )
    return Finding(
        severity=Severity.ERROR,
        message=message,
        why=why,
        fix_id="enable_ik",
        fix_label="Unmute the IK and set its influence to 1",
        **common,
    )


def _also_switched(nested: Finding, switch_note: Finding) -> Finding:
    """The nested IK's error, also saying that its mute or influence is a switch's doing."""
    return replace(nested, message=f"{nested.message} {switch_note.message}")


def _acts(constraint: bpy.types.Constraint) -> bool:
    return (
        constraint.type != "IK"
        and not constraint.mute
        and constraint.influence > 0.0
        and constraint.is_valid
    )


def _overridden(
    rig: RigView, chain: IKChain, bone: str, constraint: bpy.types.Constraint
) -> Finding | None:
    common = dict(
        check_id="constraint_order",
        severity=Severity.WARNING,
        armature=rig.name,
        bone=bone,
        constraint=constraint.name,
        chain=chain.key,
    )
    ik = f"IK '{chain.constraint}' on {chain.owner}"
    if constraint.type == "LIMIT_ROTATION":
        axes = _limited_axes(constraint)
        if not axes or _ik_limits_match(rig.pose_bone(bone), constraint, axes):
            return None
        convertible = constraint.owner_space == "LOCAL"
        return Finding(
            message=(
                f"Limit Rotation '{constraint.name}' on {bone} does not limit {ik}: the "
                f"chain turns past its {'/'.join(a.upper() for a in axes)} range."
            ),
            why=(
                "Blender solves IK after the other constraints of the chain and ignores their "
                "limits; only the bone's IK limits (use_ik_limit_*) bound the solver."
            ),
            fix_id="convert_limit" if convertible else None,
            fix_label=(f"Copy its ranges to {bone}'s IK limits" if convertible else None),
            no_fix_reason=(
                None
                if convertible
                else f"its ranges are in {constraint.owner_space.replace('_', ' ').lower()} "
                "space, and IK limits are angles from the rest pose in the bone's own axes: "
                "set them by hand (Bone properties > Inverse Kinematics)"
            ),
            **common,
        )
    purpose = OVERRIDDEN.get(constraint.type)
    if purpose is None or (constraint.type == "TRANSFORM" and constraint.map_to != "ROTATION"):
        return None
    kind = constraint.type.replace("_", " ").title()
    what = purpose.format(target=_target_name(constraint))
    moves_head = constraint.type == "COPY_TRANSFORMS" and not rig.bone(bone).use_connect
    if _flips_the_start(rig, chain, bone, constraint):
        common["severity"] = Severity.ERROR
        effect = (
            "but the solver starts from the rotation it sets, which bends the joint the other "
            "way (or not at all): it ends up bent away from its pole, or short of the target."
        )
        why = (
            "Blender solves IK after the chain's other constraints, starting from the pose they "
            "leave; started bent backwards, it settles on the mirrored bend, and the pole only "
            "turns that bend's plane."
        )
    else:
        effect = (
            "only the location it copies still applies."
            if moves_head
            else "the rotation it sets never shows."
        )
        why = (
            "Blender solves IK after every other constraint of the chain's bones, whatever "
            "the stack order, and the solver replaces their rotation with its own."
        )
    return Finding(
        message=f"{kind} '{constraint.name}' on {bone} ({what}) is overridden by {ik}: {effect}",
        why=why,
        fix_id=None if moves_head else "mute_overridden",
        fix_label=None if moves_head else f"Mute '{constraint.name}' (it {what})",
        fix_args=(("purpose", what),),
        no_fix_reason=(
            "muting it would also drop the location it copies, which still moves the chain: "
            "use Copy Location instead if that is what it is for"
            if moves_head
            else None
        ),
        needs_confirmation=not moves_head,
        **common,
    )


def _flips_the_start(
    rig: RigView, chain: IKChain, bone: str, constraint: bpy.types.Constraint
) -> bool:
    """Whether the rotation this constraint gives an inner joint's bone, where the solver
    starts, makes a pole chain bend the wrong way or not at all.

    Measured on the reference leg: a start bent the other way from the rest bend, or straight,
    or turned more than 45° out of the bend plane, flips or stalls the knee, and so does a
    copied rotation bent the rest way by less than the body turns (it does not turn with the
    hips); Track To on the shin did in every case, so what is not modelled counts as a flip.
    Without a pole the start decides the bend plane anyway, and the chain root's rotation is
    replaced by the pole's.
    """
    parent = rig.raw_bone(bone).parent
    if chain.pole is None or bone == chain.root or parent is None or parent.name not in chain.bones:
        return False
    posed = forward_pose(rig, chain)
    start = _started_rotation(rig, chain, constraint, posed[bone])
    if start is None:
        return True
    rest_parent = parent.matrix_local.to_3x3()
    rest_bone = rig.raw_bone(bone).matrix_local.to_3x3()
    rest_normal = rest_parent.col[1].cross(rest_bone.col[1])
    if rest_normal.length < 1e-4:
        return False  # straight at rest: the degenerate and pole checks judge it
    parent_rotation = posed[parent.name].to_3x3().normalized()
    # The bend the start shows: the bone's direction from its parent's, signed by the rest side.
    side = (parent_rotation @ rest_parent.inverted_safe() @ rest_normal).normalized()
    direction, parent_axis = start.col[1], parent_rotation.col[1]
    if abs(direction.dot(side)) > math.sqrt(0.5):
        return True  # turned more than 45° out of its bend plane: no side of it to keep
    bend = math.degrees(
        math.atan2(parent_axis.cross(direction).dot(side), parent_axis.dot(direction))
    )
    if abs(bend) > FLAT_FOLD and constraint.type == "DAMPED_TRACK":
        # Folded nearly flat, the side the bone lies on says little. A Damped Track swings the
        # bone the shortest way from its own pose: that swing about the rest bend's axis (what
        # the joint's channels would hold) says whether it folded on or unfolded past straight.
        joint = (parent_rotation @ rest_parent.inverted_safe() @ rest_bone).inverted_safe() @ start
        turn = joint.to_quaternion()
        if turn.w < 0.0:
            turn.negate()
        axis = (rest_bone.inverted_safe() @ rest_normal).normalized()
        extra = math.degrees(2.0 * math.atan2(Vector(turn[1:]).dot(axis), turn.w))
        bend = math.degrees(rest_parent.col[1].angle(rest_bone.col[1])) + extra
    if not 0.0 < bend < 180.0:
        return True
    copies = constraint.type in ("COPY_ROTATION", "COPY_TRANSFORMS")
    return copies and bend < BODY_TURN and not _turns_with_the_body(rig, chain, constraint)


def _turns_with_the_body(rig: RigView, chain: IKChain, constraint: bpy.types.Constraint) -> bool:
    """Whether the bone a rotation is copied from turns with the bone the limb hangs from (a
    bone of another IK chain does not: its IK holds it on its own target)."""
    body = rig.raw_bone(limb_bones(rig, chain)[-1]).parent
    subtarget = constraint.subtarget
    if constraint.target != rig.object or body is None or not rig.has_bone(subtarget):
        return False
    carried = {subtarget, *rig.ancestors(subtarget)}
    in_ik = any(subtarget in other.bones for other in rig.chains if not other.mute)
    return body.name in carried and not in_ik


def _started_rotation(
    rig: RigView, chain: IKChain, constraint: bpy.types.Constraint, posed: Matrix
) -> Matrix | None:
    """The armature-space rotation a Copy Rotation, Copy Transforms, Damped Track or Locked
    Track gives its bone (posed by its own channels at ``posed``) before the IK runs, when it
    plainly sets it from a target the chain does not move; None for anything else (mixed,
    partial, local spaces, other axes), which is not modelled."""
    if constraint.influence < FULL_INFLUENCE:
        return None
    target, subtarget = constraint.target, constraint.subtarget
    if target == rig.object and rig.has_bone(subtarget):
        if {subtarget, *rig.ancestors(subtarget)}.intersection(chain.bones):
            return None  # the IK moves the target too: where it starts is not where it was
        matrix = rig.pose_bone(subtarget).matrix
    elif target is not None and target != rig.object and not subtarget:
        matrix = rig.object.matrix_world.inverted_safe() @ target.matrix_world
    else:
        return None
    own = posed.to_3x3().normalized()
    if constraint.type in ("DAMPED_TRACK", "LOCKED_TRACK"):
        if constraint.track_axis != "TRACK_Y" or constraint.head_tail != 0.0:
            return None
        aim = matrix.translation - posed.translation
        if constraint.type == "LOCKED_TRACK":
            # It turns the bone about its locked axis only: the aim, flattened across that axis.
            if constraint.lock_axis == "LOCK_Y":
                return None
            locked = own.col["XYZ".index(constraint.lock_axis[-1])]
            aim = aim - locked * aim.dot(locked)
        if aim.length < 1e-6:
            return None
        return own.col[1].rotation_difference(aim).to_matrix() @ own  # the shortest swing
    if constraint.type not in ("COPY_ROTATION", "COPY_TRANSFORMS"):
        return None
    plain = constraint.mix_mode == "REPLACE" and (
        constraint.owner_space,
        constraint.target_space,
    ) == ("WORLD", "WORLD")
    if constraint.type == "COPY_ROTATION":
        plain = plain and all(getattr(constraint, f"use_{axis}") for axis in AXES)
        plain = plain and not any(getattr(constraint, f"invert_{axis}") for axis in AXES)
    return matrix.to_3x3().normalized() if plain else None


def _target_name(constraint: bpy.types.Constraint) -> str:
    target = getattr(constraint, "target", None)
    if target is None:
        return "its target"
    subtarget = getattr(constraint, "subtarget", "")
    return f"'{subtarget}'" if subtarget else f"'{target.name}'"


def _limited_axes(constraint: bpy.types.Constraint) -> list[str]:
    return [axis for axis in AXES if getattr(constraint, f"use_limit_{axis}")]


def _ik_range(constraint: bpy.types.Constraint, axis: str) -> tuple[float, float]:
    """The Limit Rotation range on one axis, clamped to what IK limits can hold."""
    low = getattr(constraint, f"min_{axis}")
    high = getattr(constraint, f"max_{axis}")
    return min(max(low, -math.pi), 0.0), max(min(high, math.pi), 0.0)


def _ik_limits_match(
    pose_bone: bpy.types.PoseBone, constraint: bpy.types.Constraint, axes: list[str]
) -> bool:
    for axis in axes:
        low, high = _ik_range(constraint, axis)
        if not (
            getattr(pose_bone, f"use_ik_limit_{axis}")
            and math.isclose(getattr(pose_bone, f"ik_min_{axis}"), low, abs_tol=1e-5)
            and math.isclose(getattr(pose_bone, f"ik_max_{axis}"), high, abs_tol=1e-5)
        ):
            return False
    return True


def _overlaps(rig: RigView) -> Iterator[Finding]:
    """IKs whose owner lies inside another active IK's chain: the outer chain wins.

    Chains that only share their upper bones (two legs whose chains reach the hips) are solved
    together and both reach (measured); an IK nested inside a longer chain toward another target
    misses it (0.13 of a 0.45 thigh in the measured case).
    """
    for inner in rig.chains:
        if not _solves(inner):
            continue
        for outer in rig.chains_with_bone(inner.owner):
            nested = _solves(outer) and inner.owner in outer.bones[1:]
            same_goal = (inner.target, inner.subtarget) == (outer.target, outer.subtarget)
            if not nested or same_goal:
                continue
            yield Finding(
                check_id="constraint_order",
                severity=Severity.ERROR,
                armature=rig.name,
                bone=inner.owner,
                constraint=inner.constraint,
                chain=inner.key,
                message=(
                    f"IK '{inner.constraint}' on {inner.owner} sits inside the chain of IK "
                    f"'{outer.constraint}' on {outer.owner}, which also moves "
                    f"{', '.join(b for b in inner.bones if b in outer.bones)}: it misses its "
                    "target."
                ),
                why=(
                    "Blender solves IKs that share bones as one tree; the longer chain pulls the "
                    "shared bones toward its own target, so the inner IK's target is not reached."
                ),
                no_fix_reason=(
                    "which IK should move the shared bones is a rigging decision: shorten one "
                    "chain (its Chain Length) so they no longer overlap, or mute one"
                ),
            )
            break


def _solves(chain: IKChain) -> bool:
    return not chain.mute and chain.influence > 0.0


def enable_ik(obj: bpy.types.Object, finding: Finding) -> str:
    constraint = obj.pose.bones[finding.bone or ""].constraints[finding.constraint or ""]
    was = "muted" if constraint.mute else f"at influence {constraint.influence:.3g}"
    constraint.mute = False
    constraint.influence = 1.0
    return f"IK '{constraint.name}' on {finding.bone} was {was}; it is now on at influence 1."


def mute_overridden(obj: bpy.types.Object, finding: Finding) -> str:
    constraint = obj.pose.bones[finding.bone or ""].constraints[finding.constraint or ""]
    constraint.mute = True
    owner, ik = finding.chain or ("", "")
    return (
        f"Muted '{constraint.name}' on {finding.bone}, which {finding.args['purpose']} but "
        f"was overridden by IK '{ik}' on {owner}."
    )


def convert_limit(obj: bpy.types.Object, finding: Finding) -> str:
    pose_bone = obj.pose.bones[finding.bone or ""]
    constraint = pose_bone.constraints[finding.constraint or ""]
    ranges = []
    for axis in _limited_axes(constraint):
        low, high = _ik_range(constraint, axis)
        setattr(pose_bone, f"use_ik_limit_{axis}", True)
        setattr(pose_bone, f"ik_min_{axis}", low)
        setattr(pose_bone, f"ik_max_{axis}", high)
        clamped = (low, high) != (
            getattr(constraint, f"min_{axis}"),
            getattr(constraint, f"max_{axis}"),
        )
        ranges.append(
            f"{axis.upper()} {math.degrees(low):.4g}° to {math.degrees(high):.4g}°"
            + (" (clamped: IK limits run from -180° to 0° and 0° to 180°)" if clamped else "")
        )
    return (
        f"Set the IK limits of {finding.bone} to the ranges of Limit Rotation "
        f"'{constraint.name}': {', '.join(ranges)}."
    )


register(
    Check(
        id="constraint_order",
        title="Constraint order",
        doc=__doc__ or "",
        find=find_constraint_order_problems,
        fixes={
            "enable_ik": enable_ik,
            "mute_overridden": mute_overridden,
            "convert_limit": convert_limit,
        },
        order=40,
    )
)
