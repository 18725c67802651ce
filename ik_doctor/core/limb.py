"""What the checks of a limb's shape share: its bend, its pole angle at rest, its animation and
the switches that turn its constraint off and on.

The pole, roll, rest_pose, transforms and fk_ik_mix checks judge a chain by the plane its rest
pose bends in, by its animation, and edit bones in ways that must keep it at rest under its pole.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

import bpy
from mathutils import Matrix, Vector

from .editing import constraint_on
from .geometry import bend_normal, degrees_off, offset_from_line, rest_pole_angle, signed_angle
from .names import readable
from .rig import IKChain, RigView

FULL_INFLUENCE = 0.999
"""Below this a constraint visibly blends: an IK at 0.99 leaves its tip 0.004 short of a 0.9
leg, and a copied rotation is no longer the whole of where the solver starts."""
NOISE_LENGTH = 1e-5
"""A bone shorter than this has no direction but float noise: Blender 5.x keeps a zero-length
bone at 2e-6, and at ordinary coordinates float32 cannot move its ends by a share of that."""
MAX_BEND_TURN = 91.0
"""Past 90° (and a degree of rounding) a joint bends to the far side of the pole, or of the side
it rests bent to: the oracle fails such a chain, and the pole check calls the angle that does it
an error."""
STRAIGHT_RATIO = 1e-3
"""A chain whose joints lie closer than this share of its reach to the root-tip line is
straight. Measured: Blender's solver cannot fold a chain bent by less than about 0.06% of a bone
length when the target comes straight toward the root; 0.1% of the reach keeps a margin."""
PRE_BENT = 0.01
"""A two-bone limb whose joint lies at most this share of its reach off its root-tip line is bent
no further than ``rest_pose``'s pre-bend leaves a straight limb (0.005): judged evenly stiff by
``PRE_BENT_EVEN_SHORTFALL``, and its start read as a straight chain's (``core.start``). Measured
on the straight leg and arm pre-bent further, at 0.975: 0.085% of the reach at 0.01, 0.097% to
0.098% at 0.015 and 0.02 (too near the line to call), 0.102% at 0.025; the reference limbs,
0.033 and 0.06, 0.108% and 0.117%."""


def hangs_down(rig: RigView, chain: IKChain) -> bool:
    """Whether the chain runs down from its root to its tip (within 60° of -Z): a leg, whose
    knee bends to the front, as against an arm, whose elbow bends back."""
    reach = rig.chain_tip(chain) - rig.bone(chain.root).head
    return reach.length > 0.0 and reach.normalized().z < -0.5


def chain_joints(rig: RigView, chain: IKChain) -> list[str]:
    """Bones whose heads are the chain's inner joints (the knee, the elbow), root side first."""
    return list(reversed(chain.moving_bones[:-1]))


@dataclass(frozen=True)
class ChainShape:
    """A chain's rest geometry that the pole, roll and rest_pose checks all judge."""

    root: Vector
    """The root's head: where the chain pivots."""
    tip: Vector
    reach: float
    joints: list[str]
    """``chain_joints``, root side first."""
    offsets: list[Vector]
    """Each joint's head off the root-tip line (``offset_from_line``)."""
    most_bent: int | None
    """Index in ``joints`` of the joint furthest off the line (the first of equals)."""


def chain_shape(rig: RigView, chain: IKChain) -> ChainShape:
    """The chain's rest geometry, computed once per pass for every check that reads it."""
    return rig.remember(("chain_shape", chain.bones, chain.use_tail), lambda: _shape(rig, chain))


def _shape(rig: RigView, chain: IKChain) -> ChainShape:
    root, tip, reach = rig.bone(chain.root).head, rig.chain_tip(chain), rig.chain_reach(chain)
    joints = chain_joints(rig, chain)
    offsets = [offset_from_line(rig.bone(n).head, root, tip) for n in joints]
    lengths = [offset.length for offset in offsets]
    most_bent = max(range(len(joints)), key=lengths.__getitem__, default=None)
    return ChainShape(root, tip, reach, joints, offsets, most_bent)


def has_degenerate_bone(rig: RigView, chain: IKChain) -> bool:
    """A bone with (almost) no length has no direction: no bend to judge (the degenerate
    check reports it)."""
    shortest = max(1e-3 * rig.chain_reach(chain), NOISE_LENGTH)
    return any(rig.bone(name).length < shortest for name in chain.moving_bones)


def bend_offset(rig: RigView, chain: IKChain) -> float:
    """How far the most bent joint lies off the root-tip line, as a share of the reach."""
    shape = chain_shape(rig, chain)
    most = 0.0 if shape.most_bent is None else shape.offsets[shape.most_bent].length
    return most / max(shape.reach, 1e-12)


def bend_plane(rig: RigView, chain: IKChain) -> Vector | None:
    """Unit normal of the plane through root head, most bent joint and tip (a positive turn about
    it folds the joints further); for a chain straight at rest, the axis its IK limits fold it
    about (``limits_fold``); None when neither says."""
    shape = chain_shape(rig, chain)
    if shape.most_bent is None or has_degenerate_bone(rig, chain):
        return None
    if bend_offset(rig, chain) < STRAIGHT_RATIO:
        return limits_fold(rig, chain)
    joint = rig.bone(shape.joints[shape.most_bent]).head
    return bend_normal(shape.root, joint, shape.tip)


def fold_off_x(rig: RigView, chain: IKChain) -> float | None:
    """Degrees (0 to 90) between the axis the chain's joint folds about (``bend_plane``) and its
    lower bone's X axis, about which bones bend as built: how far the bone is rolled off its
    fold. None when the chain has no bend plane."""
    normal = bend_plane(rig, chain)
    if normal is None:
        return None
    return degrees_off(rig.bone(chain.moving_bones[0]).x_axis, normal)


def one_way_on_x(pose_bone: bpy.types.PoseBone) -> int:
    """+1 or -1 when the bone's X IK limit lets it turn only that way about X, else 0."""
    if not pose_bone.use_ik_limit_x:
        return 0
    low, high = pose_bone.ik_min_x, pose_bone.ik_max_x
    return 1 if low >= 0.0 < high else -1 if high <= 0.0 > low else 0


def limits_fold(rig: RigView, chain: IKChain) -> Vector | None:
    """The axis (armature space, rest pose) the IK limits of a chain straight at rest fold it
    about: a positive turn about it folds each inner joint the way its limit lets it go further.
    None when the chain is bent at rest (its bend decides), or no limit prefers a side, or the
    limits pull its joints to opposite sides.

    A straight chain gives the solver no side to fold to, so a one-sided limit (a robot's elbow
    from -126° to 0°) is the side it was built to fold to: posed by hand within its limits, the
    limb folds that way and reaches (measured on a straight three-bone robot arm, and on the
    reference leg and arm straightened, either way).
    """
    if len(chain.moving_bones) < 2 or has_degenerate_bone(rig, chain):
        return None
    if bend_offset(rig, chain) >= STRAIGHT_RATIO:
        return None
    joints = chain.moving_bones[:-1]
    leans = [lean for name in joints if (lean := _limit_lean(rig, name)) is not None]
    total = sum(leans, Vector())
    if not leans or total.length < 1e-6 or any(lean.dot(total) <= 0.0 for lean in leans):
        return None
    return total.normalized()


def root_folds_against(rig: RigView, chain: IKChain, fold: Vector | None = None) -> bool:
    """Whether the root of a chain has an IK limit that lets it turn further the other way than
    its joint folds about ``fold`` (armature space), by default where the joints' IK limits fold
    a chain straight at rest (``limits_fold``): a robot arm's hinges limited opposite ways."""
    fold = fold if fold is not None else limits_fold(rig, chain)
    lean = _limit_lean(rig, chain.root)
    return fold is not None and lean is not None and lean.dot(fold) < 0.0


ONE_WAY_ROLL = 25.0
"""Degrees a joint's limited axis may lie off the axis it bends about at rest for its one-sided
limit to keep its side (``one_way_fold``): measured on the leg and the arm limited 0° to 150°
and not inheriting rotation, rolled up to 20° either way they land; rolled 30° the leg bends
105° away from its pole, 45° the arm 116°. Between, the edge sits halfway."""


ONE_WAY_SPAN = 30.0
"""Degrees such a limit must let the joint fold further for ``one_way_fold``: the leg and the
arm limited 0° to 30° land; a limit held near 0 both ways is a lock (the locks check's)."""


def one_way_fold(rig: RigView, chain: IKChain, name: str) -> Vector | None:
    """For ``name``, the joint of a two-bone chain bent at rest, the axis it bends about where its
    IK limit lets it fold only further than it rests (``one_way_joint``), as a machine's elbow
    stops at its rest angle: it cannot cross to the other side, whatever its start or the bones
    above it do. None otherwise (limited -10° the other way, the leg stops 5.3% short)."""
    if name != chain.owner or len(chain.moving_bones) != 2:
        return None
    if bend_offset(rig, chain) < STRAIGHT_RATIO:
        return None
    return one_way_joint(rig, name)


def one_way_joint(rig: RigView, name: str) -> Vector | None:
    """For a bone bent off its parent at rest, the axis (armature space, rest pose: a positive
    turn folds the joint further) where its IK limit on that axis, within ``ONE_WAY_ROLL`` of it,
    lets it fold at least ``ONE_WAY_SPAN`` further and never straighter than it rests; None
    otherwise."""
    limited = bend_limit(rig, name)
    if limited is None:
        return None
    fold, back, further = limited
    return fold if back >= -1e-6 and further >= math.radians(ONE_WAY_SPAN) else None


def one_way_span(rig: RigView, chain: IKChain, name: str) -> float | None:
    """Degrees further than it rests the IK limit of a joint limited to fold only further
    (``one_way_fold``) lets it fold: its far edge. None for other joints."""
    limited = bend_limit(rig, name) if one_way_fold(rig, chain, name) is not None else None
    return None if limited is None else math.degrees(limited[2])


def one_sided_joint(rig: RigView, name: str) -> Vector | None:
    """``one_way_joint``'s axis where the limit opens either way alone: only further, or only
    straighter (a limb that then cannot fold, the locks check's error)."""
    limited = bend_limit(rig, name)
    if limited is None:
        return None
    fold, back, further = limited
    span = math.radians(ONE_WAY_SPAN)
    opens_further = back >= -1e-6 and further >= span
    return fold if opens_further or (further <= 1e-6 and back <= -span) else None


def rest_bend_axis(rig: RigView, name: str) -> Vector | None:
    """The axis (armature space, unit) the joint at the head of ``name`` is bent about at rest:
    a positive turn about it folds the joint further. None for a root or a straight joint."""
    parent = rig.bone(name).parent
    if parent is None:
        return None
    fold = rig.bone(parent).y_axis.cross(rig.bone(name).y_axis)
    return fold.normalized() if fold.length >= 1e-4 else None


def bend_limit(
    rig: RigView, name: str, unlocked: bool = False
) -> tuple[Vector, float, float] | None:
    """For a bone bent off its parent at rest: the axis it bends about (a positive turn folds it
    further) and the IK limit on its swing axis within ``ONE_WAY_ROLL`` of it, as the turns back
    (straighter, below 0) and further it allows; None for a straight joint, or that axis locked
    (unless ``unlocked``: as once its IK lock is freed) or free."""
    fold = rest_bend_axis(rig, name)
    if fold is None:
        return None
    pose_bone, bone = rig.pose_bone(name), rig.bone(name)
    for axis, direction in (("x", bone.x_axis), ("z", bone.z_axis)):
        along = direction.dot(fold)
        if abs(along) < math.cos(math.radians(ONE_WAY_ROLL)):
            continue
        locked = getattr(pose_bone, f"lock_ik_{axis}") and not unlocked
        if locked or not getattr(pose_bone, f"use_ik_limit_{axis}"):
            return None
        low, high = getattr(pose_bone, f"ik_min_{axis}"), getattr(pose_bone, f"ik_max_{axis}")
        return (fold, low, high) if along > 0.0 else (fold, -high, -low)
    return None


def straight_joint_lean(rig: RigView, name: str) -> Vector | None:
    """For a bone in line with its parent at rest (their joint straight), the axis its IK limits
    let it fold further about (``_limit_lean``); None for a joint bent at rest, or limited alike
    both ways. A straight joint gives the solver no side to fold to, even where the chain as a
    whole has no fold (``limits_fold``): its one-sided limit chooses (seed 94: an arm of chain
    length 3, shoulder, upper arm and forearm in line, the two hinges limited opposite ways,
    lands without a pole). The oracle poses its goals so too. A joint bent off the line by
    ``rest_pose``'s pre-bend (0.66°) keeps the nearer-root rule: widened to 2°, the rule moved
    the oracle's goals for a robot arm that fails into ones it reaches."""
    parent = rig.bone(name).parent
    if parent is None:
        return None
    sine = rig.bone(name).y_axis.cross(rig.bone(parent).y_axis).length
    return _limit_lean(rig, name) if sine < 1e-3 else None  # in line within 0.06°


def _limit_lean(rig: RigView, name: str) -> Vector | None:
    """The axis a joint's IK limits let it fold further about (armature space, signed by the
    way, as long as that way is the further), or None: its swing axes free, locked, or limited
    alike both ways."""
    pose_bone = rig.pose_bone(name)
    bone = rig.bone(name)
    lean = Vector()
    for axis, direction in (("x", bone.x_axis), ("z", bone.z_axis)):
        if getattr(pose_bone, f"lock_ik_{axis}") or not getattr(pose_bone, f"use_ik_limit_{axis}"):
            continue
        low, high = getattr(pose_bone, f"ik_min_{axis}"), getattr(pose_bone, f"ik_max_{axis}")
        lean += direction * (max(high, 0.0) - max(-low, 0.0))
    return lean if lean.length > 1e-6 else None


def built_bend(rig: RigView, chain: IKChain) -> Vector | None:
    """The side (unit, armature space) the chain is built to bend to, off its root-tip line:
    where its inner joints sit at rest, or, for a chain straight at rest, where its IK limits
    fold them (``limits_fold``); None when neither says."""
    shape = chain_shape(rig, chain)
    if bend_offset(rig, chain) >= STRAIGHT_RATIO:
        bend = sum(shape.offsets, Vector())
        return bend.normalized() if bend.length > 1e-9 * shape.reach else None
    fold = limits_fold(rig, chain)
    if fold is None:
        return None
    return (shape.tip - shape.root).cross(fold).normalized()


def pole_rest_angle(rig: RigView, chain: IKChain) -> float | None:
    """The pole angle that leaves the chain where it is at rest; None without a usable pole."""
    pole = rig.joint_point(chain.pole, chain.pole_subtarget)
    if pole is None or chain.pole_bone_missing:
        return None
    root = rig.bone(chain.root)
    return rest_pole_angle(root.head, root.x_axis, root.y_axis, rig.chain_tip(chain), pole)


def pole_turn(rig: RigView, chain: IKChain) -> float | None:
    """Radians the pole angle turns the chain about its root-target line from its rest pose
    (raising the angle by d turns it by +d, measured); None without a usable pole."""
    rest = pole_rest_angle(rig, chain)
    return None if rest is None else math.remainder(chain.pole_angle - rest, math.tau)


def pole_behind_bend(rig: RigView, chain: IKChain, pole: Vector | None = None) -> bool:
    """Whether the pole (``pole``, armature space, or the chain's own) sits on the far side of
    the side every inner joint bends to at rest (a knee, not an S-curve), or that the IK limits
    of a chain straight at rest fold it to (``built_bend``).

    Such a limb is built bending away from its pole: the solver keeps that bend or turns the
    limb round to face the pole, and either is a bend the limb was built for (the oracle passes
    both), so a joint that ends up bending away from this pole does what it was modelled to.
    """
    if pole is None and not chain.pole_bone_missing:
        pole = rig.joint_point(chain.pole, chain.pole_subtarget)
    bend = built_bend(rig, chain)
    if pole is None or bend is None:
        return False
    shape = chain_shape(rig, chain)
    one_way = all(offset.dot(bend) >= 0.0 for offset in shape.offsets)
    return one_way and bend.dot(offset_from_line(pole, shape.root, shape.tip)) < 0.0


def keep_pole_at_rest(obj: bpy.types.Object, chain_key: tuple[str, str]) -> str:
    """Set the pole angle that leaves the chain where it is at rest; say so if it changed.

    The pole angle is measured from the chain root's X axis, so any edit of the root's
    orientation (roll, pre-bend) moves the chain at rest unless the angle follows.
    """
    return keep_pole_turn(obj, chain_key, 0.0)


def keep_pole_turn(obj: bpy.types.Object, chain_key: tuple[str, str], turn: float) -> str:
    """Set the pole angle that turns the chain ``turn`` radians from its rest pose
    (``pole_turn``, read before an edit of the rest); say so if it changed. A turn the chain
    relies on is kept, not reset: a start that a constraint the IK overrides bends the other
    way, turned back by the pole angle, lands, and lands no more once the angle is at rest."""
    rig = RigView(obj)
    chain = rig.chain(*chain_key)
    rest = None if chain is None else pole_rest_angle(rig, chain)
    if chain is None or rest is None:
        return ""
    angle = math.remainder(rest + turn, math.tau)  # Blender holds pole angles within ±180°
    if abs(math.remainder(angle - chain.pole_angle, math.tau)) < 1e-5:
        return ""
    constraint_on(obj, *chain.key, bpy.types.KinematicConstraint).pole_angle = angle
    keeps = (
        "stays where it is at rest and bends toward its pole"
        if abs(turn) < 1e-5
        else f"keeps its turn of {math.degrees(turn):.1f}° from its rest pose"
    )
    return (
        f" Recomputed the pole angle of IK '{chain.constraint}' on {chain.owner} from "
        f"{math.degrees(chain.pole_angle):.1f}° to {math.degrees(angle):.1f}° so the chain "
        f"{keeps}."
    )


def animated_paths(rig: RigView, obj: bpy.types.Object | None = None) -> set[str]:
    """Data paths the action or NLA strips of ``obj`` (the rig's by default) animate: they win
    on every frame change. Read once per pass: an NLA stack can hold hundreds of curves."""
    obj = obj or rig.object
    return rig.remember(("animated_paths", obj.as_pointer()), lambda: _animated_paths(obj))


def _animated_paths(obj: bpy.types.Object) -> set[str]:
    animation = obj.animation_data
    if animation is None:
        return set()
    sources = [(animation.action, getattr(animation, "action_slot", None))]
    for track in animation.nla_tracks:
        sources += [(strip.action, getattr(strip, "action_slot", None)) for strip in track.strips]
    return {
        readable(curve, "data_path") for action, slot in sources for curve in fcurves(action, slot)
    }


def set_elsewhere(rig: RigView) -> dict[str, list[tuple[str | None, str, str]]]:
    """Per pose bone, each (constraint or None, setting, "driven" or "keyed") of it that a
    driver or the rig's action or NLA strips set; a driver wins over keys. Read once per pass:
    a production rig drives thousands."""

    def read() -> dict[str, list[tuple[str | None, str, str]]]:
        animation = rig.object.animation_data
        sources = {path: "keyed" for path in animated_paths(rig)}
        if animation is not None:
            sources.update({readable(d, "data_path"): "driven" for d in animation.drivers})
        by_bone: dict[str, list[tuple[str | None, str, str]]] = {}
        for path, how in sources.items():
            parsed = _pose_bone_setting(path)
            if parsed is not None:
                bone, constraint, setting = parsed
                by_bone.setdefault(bone, []).append((constraint, setting, how))
        return by_bone

    return rig.remember("set_elsewhere", read)


def _pose_bone_setting(path: str) -> tuple[str, str | None, str] | None:
    """(bone, constraint or None, setting) a pose bone's data path sets; None for another."""
    prefix = 'pose.bones["'
    if not path.startswith(prefix):
        return None
    unescape = bpy.utils.unescape_identifier
    bone, found, rest = path[len(prefix) :].partition('"].constraints["')
    if found:
        constraint, found, setting = rest.partition('"].')
        return (unescape(bone), unescape(constraint), setting) if found else None
    bone, found, setting = bone.partition('"].')
    return (unescape(bone), None, setting) if found else None


def solved_with(rig: RigView, chain: IKChain) -> list[IKChain]:
    """The other IKs Blender solves (``RigView.pulls``) that turn a bone this chain turns, in rig
    order: Blender solves them with it as one tree, each pulling toward its own target."""
    order = rig.remember("chain order", lambda: {c.key: i for i, c in enumerate(rig.chains)})
    turned = set(chain.moving_bones)
    sharing = {o.key: o for name in chain.moving_bones for o in rig.chains_with_bone(name)}
    found = [
        other
        for other in sharing.values()
        if other.key != chain.key and turned & set(other.moving_bones) and rig.pulls(other)
    ]
    return sorted(found, key=lambda other: order[other.key])


def animated_bones(rig: RigView) -> set[str]:
    """Bones whose location, rotation or scale the rig's action or NLA strips animate."""
    return {bone for bone, _channel in animated_channels(rig)}


def animated_channels(rig: RigView) -> set[tuple[str, str]]:
    """(bone, "location", "rotation" or "scale") that the rig's action or NLA strips animate:
    a bone keyed in rotation keeps whatever scale is left on it."""
    prefix = 'pose.bones["'
    return rig.remember(
        "animated_channels",
        lambda: {
            (path[len(prefix) : path.index('"]')], path.rsplit(".", 1)[-1].split("_")[0])
            for path in animated_paths(rig)
            if path.startswith(prefix) and path.rsplit(".", 1)[-1] in TRANSFORMS
        },
    )


TRANSFORMS = {
    "location",
    "rotation_quaternion",
    "rotation_euler",
    "rotation_axis_angle",
    "scale",
}
"""The data paths of an object's or pose bone's own transform."""


def fcurves(action: bpy.types.Action | None, slot: Any) -> Any:
    """The F-curves of an action for one slot, on both the flat (4.x) and layered (5.x) API."""
    if action is None:
        return ()
    if hasattr(action, "fcurves"):  # Blender before 5.0: one flat list per action
        return action.fcurves
    # Blender 4.4+ (layered actions): the 4.2 stubs predate it.
    from bpy_extras.anim_utils import (  # type: ignore[attr-defined]
        action_get_channelbag_for_slot,
    )

    channelbag = action_get_channelbag_for_slot(action, slot)
    return channelbag.fcurves if channelbag is not None else ()


def forward_pose(
    rig: RigView,
    chain: IKChain,
    within_limits: bool = False,
    rested: Collection[str] = (),
    cleared: Collection[str] = (),
    hinged: bool = False,
) -> dict[str, Matrix]:
    """Armature-space matrices of the chain's bones from their posed channels alone (forward
    kinematics, no constraints), root first; the root keeps its rest place. ``within_limits``:
    each moving bone's rotation held within its IK limits (``_within_ik_limits``); ``rested``:
    bones whose rotation is read at rest, as once their rotation keys are cleared; ``cleared``:
    bones whose rotation and scale are, as once their pose is cleared; ``hinged``: a bone with
    Inherit Rotation off keeps its rest orientation as its parent turns, as Blender poses it
    (its head still follows)."""
    posed: dict[str, Matrix] = {}
    # All the chain's bones: without use_tail the owner does not turn, but its head is the tip.
    for name in reversed(chain.bones):
        bone = rig.raw_bone(name)
        basis = rig.pose_bone(name).matrix_basis.copy()
        if name in rested:
            basis = Matrix.LocRotScale(basis.translation, None, basis.to_scale())
        if name in cleared:
            basis = Matrix.Translation(basis.translation)
        if within_limits and name in chain.moving_bones:
            basis = _within_ik_limits(rig.pose_bone(name), basis)
        if bone.use_connect:
            basis.translation = Vector()  # Blender ignores the location of connected bones
        parent = bone.parent
        if parent is not None and readable(parent) in posed:
            relative = parent.matrix_local.inverted() @ bone.matrix_local
            placed = posed[readable(parent)] @ relative
            if hinged and not bone.use_inherit_rotation:
                placed = (
                    Matrix.Translation(placed.translation) @ bone.matrix_local.to_3x3().to_4x4()
                )
            posed[name] = placed @ basis
        else:
            posed[name] = bone.matrix_local @ basis
    return posed


def parent_motion(rig: RigView, name: str, own: IKChain | None = None) -> Matrix:
    """Armature-space transform the parent of ``name`` applies to the rest pose now, as last
    evaluated (identity without a parent): what moves a chain whose root is ``name`` as a
    whole, and what ``forward_pose``, which keeps the root where it rests, leaves out.

    ``own``: a chain read as it would be with Use Tail or another count, whose IK, as it is now,
    turns bones above that root; those are read by their channels, as they will be (seed 128:
    the arm without Use Tail turns its shoulder to put the forearm's head on the hand control,
    and read so, its forearm's Damped Track at the pole seemed to start it bent the right way;
    with the twin's Use Tail it flips)."""
    parent = rig.pose_bone(name).parent
    if parent is None:
        return Matrix.Identity(4)
    now = rig.chain(*own.key) if own is not None else None
    if now is not None and readable(parent) in now.moving_bones:
        rest = parent.bone.matrix_local
        basis = parent.matrix_basis.copy()
        if parent.bone.use_connect:
            basis.translation = Vector()
        return parent_motion(rig, readable(parent), own) @ rest @ basis @ rest.inverted_safe()
    return parent.matrix @ parent.bone.matrix_local.inverted_safe()


def forward_tip(rig: RigView, chain: IKChain, posed: dict[str, Matrix]) -> Vector:
    """The chain's tip in a ``forward_pose``."""
    owner = posed[chain.owner]
    tail = Vector((0.0, rig.bone(chain.owner).length, 0.0))
    return owner @ tail if chain.use_tail else owner.translation


def bend_from_x(root: Matrix, tip: Vector, joints: list[Vector]) -> float | None:
    """Signed angle (radians) about the root-tip line from the root's X axis to the bend."""
    head = root.translation
    axis = tip - head
    bend = sum((offset_from_line(joint, head, tip) for joint in joints), Vector())
    if axis.length < 1e-9 or bend.length < STRAIGHT_RATIO * axis.length:
        return None
    axis.normalize()
    x = root.to_3x3().col[0]
    x = x - axis * x.dot(axis)
    return signed_angle(x, bend, axis)


def rest_bend_from_x(rig: RigView, chain: IKChain) -> float | None:
    """The chain's rest bend as ``bend_from_x`` reads it: where a posed or started bend is
    measured from, as the pole angle turns it."""
    joints = [rig.bone(name).head for name in chain_joints(rig, chain)]
    return bend_from_x(rig.raw_bone(chain.root).matrix_local, rig.chain_tip(chain), joints)


def _within_ik_limits(pose_bone: bpy.types.PoseBone, basis: Matrix) -> Matrix:
    """``basis`` with its rotation held within the bone's IK limits, axis by axis: the solver
    turns a joint only within them, so a pose beyond a one-sided limit does not start it bent
    that way (measured: the leg and the arm folding only toward their pole, posed -20° and -70°
    at the joint, land)."""
    location, rotation, scale = basis.decompose()
    euler = rotation.to_euler("XYZ")
    for index, axis in enumerate("xyz"):
        if not getattr(pose_bone, f"lock_ik_{axis}") and getattr(pose_bone, f"use_ik_limit_{axis}"):
            low, high = getattr(pose_bone, f"ik_min_{axis}"), getattr(pose_bone, f"ik_max_{axis}")
            euler[index] = min(max(euler[index], low), high)
    return Matrix.LocRotScale(location, euler, scale)
