"""Robot and servo arms drawn at random: 3 to 6 links stacked up from a base, straight or bent at
rest, each link a hinge (free about X, or about Z where its roll turns Z onto the same line), a
turntable, or free, with one-sided or two-sided IK limits, and no pole: the class of rig the
locks check judged from a two-bone limb's shape (``checks/_other_joints.py``). Mostly the hinges
share one line, as real arms are built; one arm in five mixes X and Z at random.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import bpy
from mathutils import Vector


@dataclass(frozen=True)
class RobotArm:
    rig: bpy.types.Object
    joints: tuple[str, ...]
    """Per link, root first: "Y" (a turntable), "x" or "z" (a hinge), "x[-60,0]" (a limited
    hinge, degrees), "free"."""


def build_robot_arm(seed: int) -> RobotArm:
    """The arm drawn by ``seed``, in the current file, its IK aimed at a control on the base."""
    rng = random.Random(seed)
    data = bpy.data.armatures.new("Robot")
    rig = bpy.data.objects.new("Robot", data)
    bpy.context.scene.collection.objects.link(rig)
    bpy.context.view_layer.objects.active = rig
    bpy.ops.object.mode_set(mode="EDIT")
    links = rng.randint(3, 6)
    base = data.edit_bones.new("base")
    base.head, base.tail = (0.0, 0.0, 0.0), (0.0, 0.0, 0.2)
    parent, point, names = base, Vector((0.0, 0.0, 0.2)), []
    bent = rng.random() < 0.5
    for index in range(links):
        bone = data.edit_bones.new(f"link{index}")
        lean = rng.uniform(-0.3, 0.3) if bent else 0.0
        direction = Vector((0.0, lean, 1.0)).normalized() * rng.uniform(0.2, 0.8)
        bone.head, bone.tail = point, point + direction
        bone.parent, bone.use_connect = parent, True
        if rng.random() < 0.3:
            bone.roll = rng.choice([math.pi / 2, -math.pi / 2, math.pi])
        parent, point = bone, bone.tail
        names.append(bone.name)
    control = data.edit_bones.new("target")
    control.head, control.tail, control.parent = point, point + Vector((0.0, 0.1, 0.0)), base
    bpy.ops.object.mode_set(mode="POSE")
    ik = rig.pose.bones[names[-1]].constraints.new("IK")
    ik.target, ik.subtarget, ik.chain_count = rig, "target", links
    if rng.random() < 0.3:
        ik.iterations = rng.choice([50, 100, 500])
    coherent = rng.random() < 0.8
    joints = tuple(_joint(rig, name, index, rng, coherent) for index, name in enumerate(names))
    bpy.ops.object.mode_set(mode="OBJECT")
    bpy.context.view_layer.update()
    return RobotArm(rig, joints)


def _joint(rig: bpy.types.Object, name: str, index: int, rng: random.Random, coherent: bool) -> str:
    pose_bone = rig.pose.bones[name]
    roll = rng.random()
    if index == 0 and roll < 0.5:
        pose_bone.lock_ik_x = pose_bone.lock_ik_z = True
        return "Y"
    if roll >= 0.85:
        return "free"
    rolled = abs(rig.data.bones[name].matrix_local.col[0].xyz.x) < 0.5
    free = ("z" if rolled else "x") if coherent else rng.choice("xz")
    for axis in "xyz":
        setattr(pose_bone, f"lock_ik_{axis}", axis != free)
    if rng.random() >= 0.6:
        return free
    kind = rng.random()
    if kind < 0.4:
        low, high = -rng.uniform(0.5, 2.5), 0.0
    elif kind < 0.8:
        low, high = 0.0, rng.uniform(0.5, 2.5)
    else:
        low, high = -rng.uniform(0.3, 2.0), rng.uniform(0.3, 2.0)
    setattr(pose_bone, f"use_ik_limit_{free}", True)
    setattr(pose_bone, f"ik_min_{free}", low)
    setattr(pose_bone, f"ik_max_{free}", high)
    return f"{free}[{math.degrees(low):.0f},{math.degrees(high):.0f}]"
