"""Rest pose: the state the solver starts from must leave it a pose to solve and a side to bend.

An armature in Rest Position shows the rest pose and evaluates no pose at all: IK is dead. A
chain modelled perfectly straight gives the solver no bend direction (measured: with a pole it
does not bend at all, tip error 0.22 on a 0.9 leg; without one it cannot fold when the target
comes straight toward the root, and bends to whatever side the target leans), unless the
solver starts it bent: posed 20° toward the pole, or turned by a Damped Track at its own
target, the straight leg and arm land (a warning); posed away, they bend away from the pole.
Blender's solver starts from the chain's posed rotations: a leftover rotation on a chain bone
steers the bend of a chain without a pole, and one that bends a joint the other way makes a
chain with a pole bend away from it (toward it, and the leg lands, under a pole behind the
bend: a warning); a leftover scale below 1 along a bone shortens it, so the tip falls short
(measured: a thigh scaled 0.8 along its length leaves the foot 0.022 from the target), while a
scale across the bone or a scale-up keeps the reach but no longer matches the model. IK Stretch
on a chain bone makes up both shortfalls (measured on the leg and the arm: straight, or the
upper bone scaled 0.5, they land with stretch 0.001 on one bone): warnings then.
Bones whose transforms an action or NLA strip animates are left alone: that pose is animation.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from typing import Any

import bpy
from mathutils import Matrix, Vector

from ..core.armature import armature_data, pose_of
from ..core.editing import edit_bones
from ..core.finding import Finding, Severity, chain_finding
from ..core.geometry import offset_from_line
from ..core.limb import (
    STRAIGHT_RATIO,
    animated_bones,
    bend_offset,
    chain_joints,
    forward_pose,
    forward_tip,
    has_degenerate_bone,
    keep_pole_at_rest,
    pole_behind_bend,
    pose_flips_bend,
    switched_off,
)
from ..core.reach import solved_by_itasc, stretching_bones
from ..core.registry import Check, register
from ..core.rig import IKChain, RigView
from ..core.start import target_tracking_joint

PRE_BEND = 0.01
"""The pre-bend moves each inner joint by this share of the length of the bone above it (or of
the chain's average bone, if that is longer, so a short bone still gives a clear bend)."""


def find_rest_pose_problems(rig: RigView, options: Mapping[str, Any]) -> Iterator[Finding]:
    live = [chain for chain in rig.chains if not chain.mute and chain.influence > 0.0]
    if live and armature_data(rig.object).pose_position == "REST":
        yield _rest_position_finding(rig)
    animated = animated_bones(rig)
    seen: set[tuple[str, ...]] = set()
    # The live IK of a switch pair first: a twin switched off is judged through it.
    for chain in sorted(rig.chains, key=lambda chain: switched_off(rig, chain)):
        bones = chain.moving_bones
        if len(bones) < 2 or bones in seen:
            continue  # Rigify pairs a pole and a no-pole IK on the same bones
        seen.add(bones)
        if has_degenerate_bone(rig, chain):
            continue
        if bend_offset(rig, chain) < STRAIGHT_RATIO:
            yield _straight_finding(rig, chain)
            continue
        if rig.turned_or_scaled.isdisjoint(bones) and options["pose_angle"] >= 0.0:
            continue  # the chain's rotation and scale are at rest: no pose left over
        leftover = _leftover_pose(rig, chain, animated, options["pose_angle"])
        if leftover is not None:
            yield leftover


def _rest_position_finding(rig: RigView) -> Finding:
    return Finding(
        check_id="rest_pose",
        severity=Severity.ERROR,
        armature=rig.name,
        message=f"'{rig.name}' is set to Rest Position: no pose is evaluated, so IK does nothing.",
        why=(
            "In Rest Position (Armature properties > Pose Position) Blender shows every bone at "
            "its rest pose and skips constraints: moving an IK target moves nothing."
        ),
        fix_id="pose_position",
        fix_label="Switch the armature to Pose Position",
    )


def _straight_finding(rig: RigView, chain: IKChain) -> Finding:
    where = f"IK '{chain.constraint}' on {chain.owner}"
    joint = chain_joints(rig, chain)[0]
    direction, side = _bend_direction(rig, chain)
    stretching = stretching_bones(rig, chain)
    start = _start_bend(rig, chain) if chain.pole is not None else None
    if chain.pole is not None and stretching:
        severity = Severity.WARNING
        effect = (
            "with its pole it does not bend at all, and reaches only by IK Stretch on "
            f"{', '.join(stretching)} (measured: it lands, stretched straight)."
        )
    elif start is not None and start[1]:
        severity = Severity.WARNING
        effect = (
            f"the solver starts from the bend {start[0]} gives it, toward the pole, and folds "
            "from there (measured: the leg and the arm land with the lower bone posed 20° "
            "toward the pole or tracking the control); without it the limb would not bend."
        )
    elif start is not None:
        severity = Severity.ERROR
        effect = (
            f"{start[0]} bends it away from its pole where the solver starts, so the joint "
            "bends away from the pole."
        )
    elif chain.pole is not None:
        severity = Severity.ERROR
        effect = "with its pole it does not bend at all and the tip stops short of the target."
    else:
        severity = Severity.WARNING
        effect = (
            "it cannot fold when the target comes straight toward the root, and bends to "
            "whatever side the target leans."
        )
    return chain_finding(
        "rest_pose",
        rig,
        chain,
        severity=severity,
        message=f"{where} is perfectly straight in the rest pose: {effect}",
        why=(
            "The solver bends a chain the way its rest pose is already bent; a straight chain "
            f"gives it no direction. A slight pre-bend of {joint} tells it which way to go."
        ),
        fix_id="pre_bend",
        fix_label=f"Pre-bend {joint} slightly {side} (changes the rest pose)",
        fix_args=(("direction", direction.to_tuple()), ("side", side)),
        changes_rest_pose=True,
    )


def _start_bend(rig: RigView, chain: IKChain) -> tuple[str, bool] | None:
    """What bends a chain that is straight at rest where the solver starts, and whether toward
    its pole: a Damped Track on an inner joint aimed at the chain's own target (it points the
    bone at the target wherever the target goes: the leg and the arm then land, measured), or
    the posed rotations (forward kinematics); None when the start is straight too."""
    tracking = target_tracking_joint(rig, chain)
    if tracking is not None:
        return f"Damped Track '{tracking[1]}' on {tracking[0]}, aimed at the target,", True
    joints = chain_joints(rig, chain)
    posed = forward_pose(rig, chain)
    root, tip = posed[chain.root].translation, forward_tip(rig, chain, posed)
    bend = sum((offset_from_line(posed[name].translation, root, tip) for name in joints), Vector())
    pole = rig.joint_point(chain.pole, chain.pole_subtarget)
    if bend.length < STRAIGHT_RATIO * rig.chain_reach(chain) or pole is None:
        return None
    side = offset_from_line(pole, rig.bone(chain.root).head, rig.chain_tip(chain))
    turned = [
        name for name in joints if rig.pose_bone(name).matrix_basis.to_quaternion().angle > 1e-4
    ]
    return f"the posed rotation of {', '.join(turned) or 'its bones'}", bend.dot(side) > 0.0


def _bend_direction(rig: RigView, chain: IKChain) -> tuple[Vector, str]:
    """Toward the pole when there is one, else the natural side: knees front, elbows back."""
    root, tip = rig.bone(chain.root).head, rig.chain_tip(chain)
    pole = rig.joint_point(chain.pole, chain.pole_subtarget)
    if pole is not None and not chain.pole_bone_missing:
        toward = offset_from_line(pole, root, tip)
        if toward.length > STRAIGHT_RATIO * rig.chain_reach(chain):
            return toward.normalized(), "toward its pole"
    pointing_down = (tip - root).normalized().z < -0.5
    choices = [(Vector((0.0, -1.0, 0.0)), "to the front (-Y)")] if pointing_down else []
    choices += [(Vector((0.0, 1.0, 0.0)), "to the back (+Y)"), (Vector((0, 0, -1.0)), "down")]
    for axis, side in choices:
        toward = offset_from_line(root + axis, root, tip)
        if toward.length > 0.1:
            return toward.normalized(), side
    raise AssertionError("a line is perpendicular to Y or to Z")


def _leftover_pose(
    rig: RigView, chain: IKChain, animated: set[str], max_angle: float
) -> Finding | None:
    bones = chain.moving_bones
    rotated, scaled, shrunk = [], [], []
    for name in bones:
        if name in animated:
            continue
        basis = rig.pose_bone(name).matrix_basis
        _location, rotation, scale = basis.decompose()
        if math.degrees(rotation.angle) > max_angle:
            rotated.append(name)
        if any(abs(s - 1.0) > 1e-3 for s in scale.to_tuple()):
            scaled.append(name)
            if scale.y < 1.0 - 1e-3:  # Y runs along the bone: only this shortens the reach
                shrunk.append(name)
    if not rotated and not scaled:
        return None
    where = f"IK '{chain.constraint}' on {chain.owner}"
    flipped = chain.pole is not None and pose_flips_bend(rig, chain)
    if rotated and chain.pole is not None and not flipped and not scaled:
        return None  # measured: the pole sets the plane and the solve is the same
    effects = []
    # Stretch makes up a bone scaled down evenly; one scaled down along its length alone shears
    # the bones below, which no stretching undoes (measured: a thigh at (1, 0.5, 1) still fails).
    even = all(_evenly_scaled(rig, name) for name in shrunk)
    stretching = stretching_bones(rig, chain) if shrunk and even else ()
    if shrunk and stretching:
        effects.append(
            f"{', '.join(shrunk)} {'is' if len(shrunk) == 1 else 'are'} scaled down along "
            f"{'its' if len(shrunk) == 1 else 'their'} length: the limb reaches targets it was "
            f"built to reach only by IK Stretch on {', '.join(stretching)}"
        )
    elif shrunk:
        effects.append(
            f"{', '.join(shrunk)} {'is' if len(shrunk) == 1 else 'are'} scaled down along "
            f"{'its' if len(shrunk) == 1 else 'their'} length, so the tip falls short of targets "
            "the limb was built to reach"
        )
    elif scaled:
        effects.append(
            f"{', '.join(scaled)} {'is' if len(scaled) == 1 else 'are'} scaled up or across "
            f"{'its' if len(scaled) == 1 else 'their'} length: the limb still reaches but no "
            "longer matches its model"
        )
    # Under a pole behind the bend, bending the other way is bending toward the pole: the leg
    # posed -70° at the knee still lands, facing the pole (measured).
    behind = flipped and pole_behind_bend(rig, chain)
    if behind:
        effects.append(
            "the posed rotation bends the joint the other way, toward its pole, which sits "
            "behind the bend (measured: the leg still lands, bent toward the pole)"
        )
    elif flipped:
        effects.append(
            "the posed rotation bends the joint the other way, so the chain bends away from "
            "its pole"
        )
    elif rotated and chain.pole is None:
        effects.append(
            f"the rotation of {', '.join(rotated)} steers which way the chain bends: the same "
            "target gives a different pose"
        )
    falls_short = shrunk and not stretching and not solved_by_itasc(rig)
    severity = Severity.ERROR if (flipped and not behind) or falls_short else Severity.WARNING
    posed = sorted(set(rotated) | set(scaled), key=bones.index)
    return chain_finding(
        "rest_pose",
        rig,
        chain,
        severity=severity,
        message=f"Chain bones of {where} keep a leftover pose: {'; '.join(effects)}.",
        why=(
            "Blender's solver starts from the chain's posed rotations and keeps its scale: a "
            "pose left on the bones under IK changes the solution."
        ),
        fix_id="clear_pose",
        fix_label=f"Clear the rotation and scale of {', '.join(reversed(posed))} (loses that pose)",
        fix_args=(("bones", tuple(posed)),),
        needs_confirmation=True,
    )


def _evenly_scaled(rig: RigView, name: str) -> bool:
    scale = rig.pose_bone(name).matrix_basis.to_scale().to_tuple()
    return max(scale) - min(scale) <= 1e-3 * max(abs(v) for v in scale)


def set_pose_position(obj: bpy.types.Object, finding: Finding) -> str:
    armature = armature_data(obj)
    armature.pose_position = "POSE"
    return f"Switched '{armature.name}' to Pose Position: poses and IK are evaluated again."


def pre_bend(obj: bpy.types.Object, finding: Finding) -> str:
    rig = RigView(obj)
    chain = rig.chain_of(finding)
    direction = Vector(finding.args["direction"])
    joints = chain_joints(rig, chain)
    typical = rig.chain_reach(chain) / len(chain.moving_bones)
    moved = []
    with edit_bones(obj) as bones:
        for name in joints:
            bone, parent = bones[name], bones[name].parent
            assert parent is not None  # an inner joint: its bone hangs from the chain
            shift = direction * (PRE_BEND * max(parent.length, typical))
            head = bone.head + shift
            if bone.use_connect or (bone.head - parent.tail).length < 1e-6:
                parent.tail = head
            bone.head = head
            moved.append(f"{name} by {shift.length:.3g}")
    if obj.mode == "EDIT":
        obj.update_from_editmode()  # the bones the pole angle is computed from
    pole = keep_pole_at_rest(obj, chain.key)
    return (
        f"Pre-bent IK '{chain.constraint}' on {chain.owner} {finding.args['side']}: moved the "
        f"head of {', '.join(moved)} (rest pose changed; meshes bound to this rig keep their "
        f"rest shape).{pole}"
    )


def clear_pose(obj: bpy.types.Object, finding: Finding) -> str:
    names = list(finding.args["bones"])
    for name in names:
        pose_bone = pose_of(obj).bones[name]
        pose_bone.matrix_basis = Matrix.Translation(pose_bone.matrix_basis.translation)
    return f"Cleared the pose rotation and scale of {', '.join(reversed(names))}."


register(
    Check(
        id="rest_pose",
        title="Rest pose",
        doc=__doc__ or "",
        find=find_rest_pose_problems,
        fixes={
            "pose_position": set_pose_position,
            "pre_bend": pre_bend,
            "clear_pose": clear_pose,
        },
        options={"pose_angle": 1.0},
        order=45,
    )
)
