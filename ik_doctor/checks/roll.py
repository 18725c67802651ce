"""Roll: the bones of a limb should all bend about the same local axis, the bend plane's normal.

Blender's solver rotates freely rotating bones the same way whatever their roll (measured: a
shin rolled 30° or 90° gives the same solved pose and mesh). Roll starts to matter as soon as a
bone's IK rotation is restricted: IK locks, IK limits and IK stiffness act on the bone's own X,
Y and Z, so a hinge on X bends the joint out of the limb's plane when X is not its bend axis
(measured: a shin rolled 30° with Y and Z locked bends the knee 25° sideways); in longer chains
the free joints take the bend instead (measured on a spider's hinged legs). A bone whose Z
axis lies on the bend plane's normal, not locked and free within its IK limit to turn the way
folding the limb turns it, bends about Z in the plane (BlenRig's shoulder, limited on Z only):
a Z hinge by design, information, not a warning (measured: a shin rolled 90° with Z limited to
-10° to 180° bends 0.00° sideways and lands; limited the other way it stops 2.4% of the reach
short, and with Z 40° off the normal, turned against the limit, the knee swings 40° sideways).
The chain root's X axis is also what the pole angle is measured from, so a roll fix recomputes
the pole angle, keeping the turn it gives the chain from rest (a Damped Track at the pole that
starts the joint bent the other way, turned back by an angle turned 180°, lands; set to rest,
the limb bent 180° from its pole, measured).
A straight chain has no bend plane; the rest_pose check reports it.

What it reports:

- Chain bones whose X axis is more than 10° (option ``max_angle``) off the normal of the plane
  through the root's head, the most bent joint and the tip. X and -X agree only if every bone
  shares the sign.
- Information while the bones rotate freely: the solver ignores roll.
- A warning when IK locks, limits or stiffness on X or Z make a two-bone limb's joint bend out
  of its plane. But information for a bone whose Z axis lies on the normal, unlocked and, within
  its IK limit, free to turn the way folding the limb turns it: it bends about Z in the plane,
  as BlenRig's elbow-pin shoulder does. Measured: a shin or thigh rolled 90° and limited on Z
  that way lands in its plane; limited the other way it stops 2.4% short; with Z 40° off the
  normal, turned against the limit, the knee swings 40° sideways.
- Straight and non-planar chains are skipped.

What its fixes do:

- Roll every chain bone so its X axis is the plane's normal. This changes the rest pose; a held
  pose is turned with the axes, and the pole angle is recomputed so the chain keeps its turn
  from rest (at rest if it was): solved, it stays where it was.
- Not offered when actions animate the chain bones, nor when an inner joint's X IK lock or
  narrow X limit would then lie on the bend (rolled 20° the limb folds about Z and lands; rolled
  back it stops 4.6% to 6.5% short), nor when an evenly stiff limb lands only folding about Z
  (the arm at 0.975 rolled 90°: 0.093% of the reach short; rolled back 0.117%, the locks
  check's error), nor when a Track To the IK overrides on a rolled bone starts the chain the
  rest way (aligned, the forearm rolled 70° under a Track To at the hand control, which lands,
  bends 106° from its pole: the constraint order check's error), nor when a hinge so rolled
  turns a pole angle past 90° back (the leg hinged on X, rolled 130°, its angle turned 100°,
  bends 59° from its pole; aligned, 100°): the pole angle is set first.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from typing import Any

import bpy
from mathutils import Vector

from ..core.armature import armature_data, pose_of
from ..core.editing import edit_bones
from ..core.finding import Finding, Severity, chain_finding
from ..core.limb import (
    animated_bones,
    bend_plane,
    chain_joints,
    chain_shape,
    keep_pole_turn,
    pole_turn,
    rest_bend_axis,
)
from ..core.names import readable
from ..core.reach import FOLD_DEGREES, HELD_SHARE, holds_the_fold
from ..core.registry import Check
from ..core.rig import IKChain, RigView
from ..core.start import overridden_constraints, start_flips_the_bend
from ._hinge_turn import angle_turned_back
from ._iteration_needs import rolled_saves_an_iteration
from ._lock_stiffness import stiffness_held_by_roll

PLANAR_RATIO = 0.01
"""Joints further than this share of the reach from the bend plane: no single plane to align to."""
SHORTEST_ROLL_HELD = 1e-2
"""Blender rebuilds a bone's axes from its single-precision head and tail on every Edit Mode
round trip: below this length they turn by float noise (0.02 at 2e-6, measured), so such a
bone's roll cannot be set."""


def find_roll_problems(rig: RigView, options: Mapping[str, Any]) -> Iterator[Finding]:
    seen: set[tuple[str, ...]] = set()
    animated = animated_bones(rig) if rig.chains else set()
    for chain in rig.chains:
        bones = chain.moving_bones
        if bones in seen:
            continue  # Rigify pairs a pole and a no-pole IK on the same bones
        seen.add(bones)
        normal = _planar_normal(rig, chain)
        held = [name for name in bones if rig.bone(name).length >= SHORTEST_ROLL_HELD]
        if normal is None or not held:
            continue
        cosines = {
            name: rig.bone(name).x_axis.dot(across)
            for name in held
            if (across := _rollable_normal(rig, name, normal)) is not None
        }
        if not cosines:
            continue
        sign = 1.0 if sum(cosines.values()) >= 0.0 else -1.0
        angles = {
            name: math.degrees(math.acos(max(-1.0, min(1.0, sign * c))))
            for name, c in cosines.items()
        }
        off = [name for name in reversed(held) if angles.get(name, 0.0) > options["max_angle"]]
        if off:
            keyed = [name for name in bones if name in animated]
            yield _finding(rig, chain, off, angles, sign, normal, options["max_angle"], keyed)


def _planar_normal(rig: RigView, chain: IKChain) -> Vector | None:
    normal = bend_plane(rig, chain)
    if normal is None:
        return None
    shape = chain_shape(rig, chain)
    root, reach = shape.root, shape.reach
    points = [rig.bone(n).head for n in shape.joints] + [shape.tip]
    if any(abs((p - root).dot(normal)) > PLANAR_RATIO * reach for p in points):
        return None
    return normal


def _rollable_normal(rig: RigView, name: str, normal: Vector) -> Vector | None:
    """The X axis a roll can give the bone nearest the plane's normal: the normal taken across
    the bone. A bone off the plane (a disconnected child) cannot lie across the normal exactly;
    one nearly along the normal has no roll that matters to the plane (None)."""
    y_axis = rig.bone(name).y_axis
    across = normal - y_axis * normal.dot(y_axis)
    return across.normalized() if across.length > 1e-2 else None


def _restricted(pose_bone: bpy.types.PoseBone) -> bool:
    """IK locks, limits or stiffness on X or Z: the solver then bends the bone on its own axes.

    A lock on Y alone only stops twisting; the bone still bends about any axis across it.
    """
    return any(
        getattr(pose_bone, f"lock_ik_{axis}")
        or getattr(pose_bone, f"use_ik_limit_{axis}")
        or getattr(pose_bone, f"ik_stiffness_{axis}") > 0.0
        for axis in "xz"
    )


def _bends_on_z(rig: RigView, chain: IKChain, name: str, normal: Vector, limit: float) -> bool:
    """Whether the IK settings leave the bone Z to bend on and Z lies on the bend plane's normal
    (within ``limit`` degrees): then it bends in the limb's plane whatever its X.

    Its IK limit on Z must also let it turn the way folding the limb turns it: a positive turn
    about the normal folds the lower bone further, and the root turns the other way (measured
    with Z on the normal: the shin limited to -180° to 10°, or the thigh to -10° to 180°, stops
    2.4% of the reach short).
    """
    pose_bone = rig.pose_bone(name)
    z_axis = rig.bone(name).z_axis
    across = _rollable_normal(rig, name, normal)
    if pose_bone.lock_ik_z or across is None:
        return False
    if abs(z_axis.dot(across)) < math.cos(math.radians(limit)):
        return False
    if not pose_bone.use_ik_limit_z:
        return True
    turn = -z_axis.dot(normal) if name == chain.moving_bones[-1] else z_axis.dot(normal)
    fold = math.copysign(math.radians(FOLD_DEGREES), turn)
    allowed = min(max(fold, pose_bone.ik_min_z), pose_bone.ik_max_z)
    return allowed * fold > 0.0 and abs(allowed) >= HELD_SHARE * abs(fold)


def _finding(
    rig: RigView,
    chain: IKChain,
    off: list[str],
    angles: dict[str, float],
    sign: float,
    normal: Vector,
    limit: float,
    keyed: list[str],
) -> Finding:
    joint = chain_joints(rig, chain)[0]
    where = f"IK '{chain.constraint}' on {chain.owner}"
    listed = ", ".join(f"{name} {angles[name]:.0f}°" for name in off)
    axis = "X" if sign > 0 else "-X"
    # A hinge turns about the axis line: X and -X bend the same way once a bone is restricted.
    # With more than two bones the free joints take the bend (measured on quaternius' spider:
    # rolling its hinged third bones changes neither the bend nor the tip).
    two_bones = len(chain.moving_bones) == 2
    hinged = [
        name
        for name in off
        if two_bones
        and _restricted(rig.pose_bone(name))
        and min(angles[name], 180.0 - angles[name]) > limit
    ]
    on_z = [name for name in hinged if _bends_on_z(rig, chain, name, normal, limit)]
    restricted = [name for name in hinged if name not in on_z]
    held, blocked_by = _held(rig, chain, off, keyed, normal * sign)
    if restricted:
        severity, title = Severity.WARNING, "Roll twists the limb"
        why = (
            f"{', '.join(restricted)} has IK locks, limits or stiffness on X or Z, which act "
            "on the bone's own axes: its X axis is not the axis the limb bends on, so the joint "
            "bends out of the limb's plane and the limb twists."
        )
    elif on_z:
        severity, title = Severity.INFO, "Bends on its Z axis"
        why = (
            f"{', '.join(on_z)} bends about its Z axis, which lies on the bend plane's normal "
            "and which its IK locks and limits leave free to fold: the joint stays in the "
            "limb's plane. Its X axis still matters for rotating it in FK, for IK locks or "
            "limits on X added later, and for the pole angle, which is measured from the "
            "root's X axis."
        )
    else:
        severity, title = Severity.INFO, "Roll off the bend axis"
        why = (
            "Blender's solver ignores roll while the bones rotate freely, so IK still works; but "
            "an IK lock or limit on X would bend the joint out of the limb's plane, rotating the "
            "bone on X in FK does not bend it cleanly, and the pole angle is measured from the "
            "root's X axis."
        )
    return chain_finding(
        "roll",
        rig,
        chain,
        severity=severity,
        title=title,
        message=(
            f"The bones of {where} disagree on their bend axis: the {axis} axis is off the "
            f"normal of the plane bent at {joint} by {listed}."
        ),
        why=why,
        fix_id=None if keyed or held else "align_rolls",
        fix_label=None
        if keyed or held
        else (
            f"Roll the chain's bones so their {axis} axes are the bend plane's normal "
            "(changes the rest pose)"
        ),
        fix_args=(("sign", sign),),
        facts=_facts(off, angles, keyed, blocked_by),
        no_fix_reason=(
            f"Actions animate {', '.join(keyed)} in the current bone axes: a new roll would "
            "change what every key does. Fix the roll before animating, or re-key after."
        )
        if keyed
        else held,
        changes_rest_pose=True,
    )


def _facts(
    off: list[str], angles: dict[str, float], keyed: list[str], blocked_by: str | None
) -> tuple[tuple[str, Any], ...]:
    """What the message lists (the bones off the axis, in degrees), and what keeps the roll
    fix back: 'keyed' bones, an X lock or limit that would hold the fold ('holds_fold'),
    stiffness the chain lands with only folding about Z ('stiffness'), a Track To whose start
    turns with the roll ('start'), a pole angle the roll would turn back ('pole_angle'), or
    iterations that land only rolled ('iterations')."""
    return (
        ("off", tuple((name, angles[name]) for name in off)),
        ("keyed", tuple(keyed)),
        ("blocked_by", blocked_by),
    )


def _held(
    rig: RigView, chain: IKChain, off: list[str], keyed: list[str], aligned_x: Vector
) -> tuple[str | None, str | None]:
    """Why rolling would break the chain (``_held_once_aligned``, ``stiffness_held_by_roll``,
    ``_track_that_turns_with_the_roll``, ``angle_turned_back``, ``rolled_saves_an_iteration``:
    the first that speaks), and what keeps the fix back, in a word (the finding's
    'blocked_by')."""
    reasons = (
        ("holds_fold", lambda: _held_once_aligned(rig, chain, off, aligned_x)),
        ("stiffness", lambda: stiffness_held_by_roll(rig, chain)),
        ("start", lambda: _track_that_turns_with_the_roll(rig, chain, off)),
        ("pole_angle", lambda: angle_turned_back(rig, chain, "rolled into line")),
        ("iterations", lambda: rolled_saves_an_iteration(rig, chain)),
    )
    for word, reason in reasons:
        held = reason()
        if held is not None:
            return held, "keyed" if keyed else word
    return None, "keyed" if keyed else None


def _track_that_turns_with_the_roll(rig: RigView, chain: IKChain, off: list[str]) -> str | None:
    """Why rolling would flip the chain: a Track To the IK overrides on a bone the fix rolls aims
    that bone's own axes, so the start it sets turns with the roll, and the chain lands on the
    start it sets now (fresh seed 190: the forearm rolled 70° under a Track To at the hand
    control lands; aligned, it bends 106° from its pole, as unrolled)."""
    for bone, constraint in overridden_constraints(rig, chain.moving_bones[:-1]):
        if (
            bone in off
            and constraint.type == "TRACK_TO"
            and not start_flips_the_bend(rig, chain, bone, constraint)
        ):
            return (
                f"'{readable(constraint)}' on {bone} aims the bone's own axes, so the start "
                "it sets turns with the roll: rolled onto the bend, it would start the joint "
                "bent away from the pole (the constraint order check's error); mute that "
                "constraint first"
            )
    return None


def _held_once_aligned(
    rig: RigView, chain: IKChain, off: list[str], aligned_x: Vector
) -> str | None:
    """Why rolling would stop the chain folding: an inner joint's X IK lock, or an X IK limit
    too narrow to fold (``holds_the_fold``) or that would let it fold only straighter once X
    lies on ``aligned_x`` (``_unfolds_once_aligned``), that the roll keeps off the bend now would
    lie on it (measured on the leg and the arm rolled 20° or 40°: with an X lock or a ±6° limit
    they land, aligned they stop 4.6% to 6.5% of the reach short, the locks check's error)."""
    for name in off:
        if name not in chain.moving_bones[:-1]:
            continue  # the chain's root is swung, not folded
        pose_bone = rig.pose_bone(name)
        low, high = pose_bone.ik_min_x, pose_bone.ik_max_x
        limited = pose_bone.use_ik_limit_x and (
            holds_the_fold(rig, chain, name, "x", low, high)
            or _unfolds_once_aligned(rig, chain, name, aligned_x)
        )
        if pose_bone.lock_ik_x or limited:
            what = "IK lock" if pose_bone.lock_ik_x else "IK limit"
            return (
                f"rolled onto the bend, the X {what} of {name} would stop the joint folding "
                "(the locks check's error): free that axis first"
            )
    return None


def _unfolds_once_aligned(rig: RigView, chain: IKChain, name: str, aligned_x: Vector) -> bool:
    """Whether the X IK limit of the joint ``name``, once its X axis lies on ``aligned_x``, lets
    it fold only straighter than it rests (fresh seed 303, a trade: the forearm rolled 130° and
    limited -150° to 0° lands, folding about its rolled X; aligned, that limit unfolds it only,
    the locks check's error)."""
    fold = rest_bend_axis(rig, name)
    if fold is None:
        return False
    pose_bone = rig.pose_bone(name)
    if aligned_x.dot(fold) > 0.0:
        return pose_bone.ik_max_x <= 1e-6
    return pose_bone.ik_min_x >= -1e-6


def align_rolls(obj: bpy.types.Object, finding: Finding) -> str:
    rig = RigView(obj)
    chain = rig.chain_of(finding)
    normal = _planar_normal(rig, chain)
    assert normal is not None
    normal = normal * float(finding.args["sign"])
    bones = chain.moving_bones
    pole_turned = pole_turn(rig, chain) or 0.0  # kept: the chain may rely on it
    old_axes = {name: armature_data(obj).bones[name].matrix_local.to_3x3() for name in bones}
    with edit_bones(obj) as edit:
        for name in bones:
            bone = edit[name]
            bone.align_roll(normal.cross(bone.vector.normalized()))
    if obj.mode == "EDIT":
        obj.update_from_editmode()  # the bones the pole angle is computed from
    new_bones = armature_data(obj).bones
    for name in bones:
        # A pose is stored in the bone's own axes: turn it with them so it stays the same pose.
        turn = (old_axes[name].inverted() @ new_bones[name].matrix_local.to_3x3()).to_4x4()
        pose_bone = pose_of(obj).bones[name]
        pose_bone.matrix_basis = turn.inverted() @ pose_bone.matrix_basis @ turn
    pole = keep_pole_turn(obj, chain.key, pole_turned)
    return (
        f"Rolled {', '.join(reversed(bones))} so every X axis is the bend plane's normal (rest "
        "pose changed: only the bones' orientation about their length; meshes keep their rest "
        f"shape).{pole}"
    )


CHECK = Check(
    id="roll",
    title="Bone roll",
    doc=__doc__ or "",
    find=find_roll_problems,
    fixes={"align_rolls": align_rolls},
    options={"max_angle": 10.0},
    order=48,
)
