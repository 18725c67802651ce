"""What a limb is for: the points its tip reaches when posed by hand within its IK locks and limits.

The oracle poses each chain this way (forward kinematics from the rest pose, no solver) to find
targets the solver must reach; the locks check asks the same question of a chain's IK limits.
One definition, so the two cannot drift apart.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import pairwise
from typing import Literal

import bpy
from mathutils import Matrix, Vector

from .armature import pose_of
from .geometry import signed_angle
from .limb import limits_fold, one_sided_joint, straight_joint_lean
from .names import readable
from .rig import IKChain, RigView

FOLD_DEGREES = 30.0
"""How far each inner joint is folded for the first goal (half as far for the second)."""
FOLDED_AS_FAR = 179.0
"""Degrees each inner joint is folded to find how near its root a limb's limits let it come."""
FREE_FOLD_STEP = 5
"""Degrees between the turns tried of a joint no limit holds, beside one that a limit holds
(``_free_joints_folded_nearer``)."""
SWING_DEGREES = 20.0
"""How far the limb's root is swung sideways for the second goal."""
BODY_TURN = 40.0
"""Degrees an animator turns the bone a limb hangs from (the hips) either way about its X axis:
the oracle's last two goals, and the turn a limb's start must survive."""
BODY_TURNS = ((0.0, "X"), (BODY_TURN, "X"), (-BODY_TURN, "X"), (BODY_TURN, "Z"), (-BODY_TURN, "Z"))
"""The turns of the bone the limb hangs from that every chain is solved under (degrees, axis):
none, then either way about X and about Z, as an animator turns the hips or a shoulder."""
REACH_TOLERANCE = 1e-3
"""A chain reaches when its tip is closer to the target than this fraction of its reach: the
oracle's bar, and the one the checks' measured thresholds are set against."""
FLOAT_STEPS = 4 * 2.0**-23
"""Blender poses in 32-bit floats: a point ``d`` from the world origin is known to about ``d``
times 2^-23. Measured: the reference rig moved 5,000 from the origin lands 3.9e-4 to 6.0e-4
off (1e-7 of the distance, more than 1e-3 of the arm's reach), 20,000 away 1e-3 to 2e-3."""


def landing_tolerance(reach: float, where: Vector) -> float:
    """How near a tip (or a moved target) must come to its goal at ``where`` (world) to have
    landed: ``REACH_TOLERANCE`` of the reach, or on a rig far from the world origin, the few
    float steps Blender can resolve there (``FLOAT_STEPS``), whichever is larger."""
    return max(REACH_TOLERANCE * reach, FLOAT_STEPS * where.length)


HELD_SHARE = 0.5
"""Locks and limits that leave a limb less than this share of its free fold (a single bone less
than this share of its swing) stop it doing what a limb is for."""


@dataclass(frozen=True)
class ClampedFold:
    """An inner joint whose IK limit stops it folding as far as the goals ask."""

    bone: str
    axis: str
    low: float
    high: float
    """The IK limit on ``axis``, radians from the rest pose."""
    folded: float
    """Degrees the joint folds within that limit toward the bend (0: only the other way)."""


def solved_by_itasc(rig: RigView) -> bool:
    """Whether the armature uses iTaSC, on which the shortfalls the checks measured with the
    Standard solver do not hold: it weighs stiffness its own way (a forearm at 0.9 still
    reached) and solves scaled bones as they are (a limb with its upper bone scaled 0.5, or
    shorn by a scale of 2 along it, reached every goal the oracle set, in 4.2 and 5.3)."""
    return pose_of(rig.object).ik_solver == "ITASC"


def stretching_bones(rig: RigView, chain: IKChain) -> tuple[str, ...]:
    """The bones of the chain IK Stretch lengthens: those with IK Stretch above 0, while the
    IK's own Stretch is on.

    Measured on the reference leg and arm (4.2 and 5.3): one such bone, at 0.001 even, lets the
    chain reach the oracle's goals that a straight rest pose, a lock on the bend axis, IK limits
    of ±6°, stiffness 0.99 on any bone or a limb scaled to half its length leave out of reach:
    the solver stretches where it cannot turn. A chain whose bones are all locked on every axis
    reaches them only when every bone stretches.
    """
    if not rig.ik_constraint(chain).use_stretch:
        return ()
    return tuple(name for name in chain.moving_bones if rig.pose_bone(name).ik_stretch > 0.0)


def limb_bones(rig: RigView, chain: IKChain) -> tuple[str, ...]:
    """The bones a target within reach is posed on: the chain, or the limb of a one-bone chain.

    A chain length of 1 on a two-bone leg reaches only where the shin alone can point; the
    animator expects the leg's reach, so the goal is posed on the limb (``limb_length``). Longer
    chains are taken as set: a finger's chain of 3 is meant to stop at the knuckle. A chain cut
    short by a missing parent is posed through the bone it starts on (``detached_parent``).
    """
    detached = rig.detached_parent(chain)
    if detached is not None:
        above = [detached, *rig.ancestors(detached)]
        return (*chain.bones, *above[: chain.chain_count - len(chain.moving_bones)])
    natural = rig.limb_length(chain.owner)
    if chain.chain_count != 1 or natural <= 1:
        return chain.bones
    return (*chain.bones, *rig.ancestors(chain.root)[: natural - len(chain.bones)])


def posed_tips(rig: RigView, chain: IKChain, locks: bool) -> list[Vector]:
    """Rest-space tips of the limb folded, then folded less and swung sideways.

    With ``locks`` the joints turn only about axes their IK locks leave free, within their IK
    limits; without, freely.
    """
    return [
        _fk_tip(rig, chain, *_posed_turns(rig, chain, FOLD_DEGREES, 0.0, locks)),
        _fk_tip(rig, chain, *_posed_turns(rig, chain, FOLD_DEGREES / 2.0, SWING_DEGREES, locks)),
    ]


def reachable_tips(rig: RigView, chain: IKChain) -> list[Vector]:
    """The posed tips the solver must reach: within the locks and limits, unless those hold the
    limb back from what a limb is for (then the free ones, which it will miss)."""
    held = posed_tips(rig, chain, locks=True)
    return posed_tips(rig, chain, locks=False) if _held_back(rig, chain, held) else held


def evenly_scaled(rig: RigView, name: str) -> bool:
    """Whether the bone's pose scale is the same on its three axes (to 0.1%)."""
    scale = rig.pose_bone(name).matrix_basis.to_scale().to_tuple()
    return max(scale) - min(scale) <= 1e-3 * max(abs(v) for v in scale)


SPAN_MARGIN = 1e-4
"""How much further than its farthest goal a chain posed shorter must span to land: none but
rounding's, as a chain of one bone spans exactly its own tip's goal, which says nothing of a
target its scaled parent carries nearer (fresh seed 229's shin of chain length 1)."""


def spans_the_goals(rig: RigView, chain: IKChain, times: Mapping[str, float] | None = None) -> bool:
    """Whether a chain whose bones are posed scaled, each evenly, still spans the farthest goal the
    oracle sets it (the limb posed by hand at rest lengths, ``reachable_tips``): each bone's lever
    (its head to the joint below it) at the length its posed scale, and all it inherits, give it;
    with ``times``, bones that many times longer again (a fix that would scale them). Measured: the
    reference leg's shin at 0.97 spans 0.985 of the reach, its goals lie 0.981 away, and it lands;
    the thigh at 0.97, which the shin inherits, spans 0.970 and stops 1.1% short; the last of three
    tail bones at 0.95 lands (1.1% to spare), at 0.9 stops short. The arm of chain length 3, its
    upper arm at 0.9 (the forearm not inheriting it), lands by the 0.03 its upper arm sits off the
    shoulder's tail (seed 202: bone lengths alone said it fell short). No margin but rounding's
    (``SPAN_MARGIN``): a chain spanning its farthest goal by 0.03% lands (fresh seed 419, a false
    alarm at a margin of 0.3%), and one short of it by a fraction stops that fraction short
    (measured on 4.2 and 5.3, the arm of chain length 3 and the leg, spans of 0.9991 to 1.0035 of
    the goal: 0.09% short at 0.9991, none from 1.0001)."""
    moving = chain.moving_bones
    below = [rig.chain_tip(chain)] + [rig.bone(name).head for name in moving[:-1]]
    span = 0.0
    for name, end in zip(moving, below, strict=True):
        if not evenly_scaled(rig, name):
            return False  # scaled unevenly, it shears the bones below: no length says it
        scale = rig.pose_bone(name).matrix.col[1].xyz.length * (times or {}).get(name, 1.0)
        span += (end - rig.bone(name).head).length * scale
    root = rig.bone(chain.root).head
    far = max((tip - root).length for tip in reachable_tips(rig, chain))
    return span >= far * (1.0 + SPAN_MARGIN)


def clamped_folds(rig: RigView, chain: IKChain) -> list[ClampedFold]:
    """The IK limits that hold this limb back from its fold; empty when it folds well enough.
    The chain's lowest joint, bent at rest, whose limit opens one way alone is read folding the
    way it rests bent (fresh seed 303's class: the arm of chain length 3, its elbow limited 0°
    to 150°, lands, and folded the way that brings the hand nearer the shoulder's head, it read
    as a limit that folds only away; limited -150° to 0°, it stops 6.2% short, and was not
    called). Joints above keep the nearer-root reading (a robot arm of four links, the third
    limited 0° to 68° the way it rests, stops 1.2% short: the locks check's error stands).

    Locks are the locks check's own business (it measures them with the chain's Jacobian); this
    names the limits that let a joint fold a few degrees, or only the wrong way.
    """
    clamps: list[ClampedFold] = []
    folded = _posed_turns(rig, chain, FOLD_DEGREES, 0.0, True, clamps, as_built=True)
    swung = _posed_turns(rig, chain, FOLD_DEGREES / 2.0, SWING_DEGREES, True, as_built=True)
    held = [_fk_tip(rig, chain, *folded), _fk_tip(rig, chain, *swung)]
    if not _held_back(rig, chain, held) or _folded_further_up(rig, chain, clamps):
        return []
    return clamps


def _folded_further_up(rig: RigView, chain: IKChain, clamps: list[ClampedFold]) -> bool:
    """Whether another inner joint of the chain, free to fold, folds the rest of the way once
    the clamped joints have started the bend (each folds some way toward it).

    Measured on the arm with chain length 3 (the shoulder turns, the upper arm folds on it),
    the forearm limited on its bend axis: at ±3° and ±6° the chain lands (0.002% short); at 0°
    (or with the axis locked) it stops 6.2% (5.9%) short, as the shoulder's head, the upper
    arm's and the tip lie on one line: a bend no joint can start is not finished above it.
    """
    if any(clamp.folded <= 0.0 for clamp in clamps):
        return False
    clamped = {clamp.bone for clamp in clamps}
    inner = chain.moving_part(limb_bones(rig, chain))[:-1]
    return any(
        readable(rig.pose_bone(name)) not in clamped
        and _free_turn(rig.pose_bone(name), FOLD_DEGREES, "XZY", True)[0] is not None
        for name in inner
    )


def holds_the_fold(
    rig: RigView, chain: IKChain, name: str, axis: str, low: float, high: float
) -> bool:
    """Whether an IK limit of ``low`` to ``high`` (radians) on ``axis`` of the chain's joint
    ``name`` would hold the limb's first goal's fold (``_fold_way``) back as the locks check's
    narrow limits do (``clamped_folds``): the wrong way only, or bringing the tip less than
    ``HELD_SHARE`` of the way toward the root that the free fold does. Measured by the tip, not
    the angle: a knee limited ±18° folds 60% of the goal's 30° but brings the tip 37% of the way,
    and the leg stops 2.9% of its reach short."""
    limb = limb_bones(rig, chain)
    moving = chain.moving_part(limb)
    if name not in moving[:-1]:
        return False  # the limb's root is swung, not folded
    folds = [_free_turn(rig.pose_bone(name), sign * FOLD_DEGREES, "XZY", True) for sign in (1, -1)]
    fold_axis, angle = _fold_way(rig, chain, limb, {}, name, folds, _built_fold(rig, chain, limb))
    if fold_axis is None or fold_axis.lower() != axis:
        return False
    allowed = min(max(angle, low), high)
    if allowed * angle <= 0.0:
        return True
    order = list(reversed(limb))

    def toward_root(turn: float) -> float:
        tip = _fk_tip(rig, chain, order, {name: _rotation(fold_axis, turn)})
        return _motion(rig, chain, [tip, tip])  # a limb of two bones or more: its fold's tip

    return toward_root(allowed) < HELD_SHARE * toward_root(angle)


def mirrored_fold_held_by(rig: RigView, chain: IKChain) -> str | None:
    """The inner joint whose IK limit keeps the limb, folded the other way (a pose that flips
    its joint toward a pole behind the bend starts it there), from bringing its tip as near its
    root as the nearest goal the oracle sets it (``reachable_tips``): turned back through its
    rest bend and on as far as its limit lets it. Measured on the arm (rest bend 13.7°) and the
    leg (7.6°) posed -20° and -70° at the joint under a pole behind the bend: limited ±55° and
    ±40° they stop 0.75% and 1.4% short (±20°: 4.1% and 2.3%); ±60° and ±45° they land."""
    limb = limb_bones(rig, chain)
    moving = chain.moving_part(limb)
    order = list(reversed(limb))
    root = rig.bone(limb[-1]).head
    nearest = min((tip - root).length for tip in reachable_tips(rig, chain))
    for name, parent in pairwise(moving):
        pose_bone = rig.pose_bone(name)
        folds = [_free_turn(pose_bone, sign * FOLD_DEGREES, "XZY", True) for sign in (1, -1)]
        axis, angle = _fold_way(rig, chain, limb, {}, name, folds, _built_fold(rig, chain, limb))
        letter = (axis or "").lower()
        if axis is None or not getattr(pose_bone, f"use_ik_limit_{letter}"):
            continue
        mirrored = math.copysign(math.pi, -angle) - _rest_bend(rig, name, parent, axis)
        low, high = getattr(pose_bone, f"ik_min_{letter}"), getattr(pose_bone, f"ik_max_{letter}")
        folded = _fk_tip(rig, chain, order, {name: _rotation(axis, min(max(mirrored, low), high))})
        if (folded - root).length > nearest + REACH_TOLERANCE * rig.chain_reach(chain):
            return readable(pose_bone)
    return None


def _rest_bend(rig: RigView, name: str, parent: str, axis: str) -> float:
    """How far (radians) the joint at the head of ``name`` is turned about its own ``axis`` off
    its parent's line at rest: the way the bone's turns about that axis count."""
    bone = rig.bone(name)
    around = getattr(bone, f"{axis.lower()}_axis")
    along, before = bone.y_axis, rig.bone(parent).y_axis
    return signed_angle(before, along, around)


def held_back(rig: RigView, chain: IKChain) -> bool:
    """Whether the limb posed by hand within its locks and limits folds less than
    ``HELD_SHARE`` of the way it folds free: then the oracle sets the free goals, which the chain
    misses; else the goals within them, which it reaches."""
    return _held_back(rig, chain, posed_tips(rig, chain, locks=True))


def _held_back(rig: RigView, chain: IKChain, held: list[Vector]) -> bool:
    free = posed_tips(rig, chain, locks=False)
    return _motion(rig, chain, held) < HELD_SHARE * _motion(rig, chain, free)


def _motion(rig: RigView, chain: IKChain, tips: list[Vector]) -> float:
    """How far the tips pull the tip toward the root (for a single bone: swing it sideways)."""
    limb = limb_bones(rig, chain)
    rest_tip = rig.chain_tip(chain)
    if len(chain.moving_part(limb)) < 2:
        return (tips[1] - rest_tip).length
    root = rig.bone(limb[-1]).head
    return (rest_tip - root).length - (tips[0] - root).length


def _posed_turns(
    rig: RigView,
    chain: IKChain,
    fold: float,
    swing: float,
    locks: bool,
    clamps: list[ClampedFold] | None = None,
    as_built: bool = False,
) -> tuple[list[str], dict[str, Matrix]]:
    """The limb's bones, root first, and their turns (for ``_fk_tip``) with its inner joints
    folded and its root swung (degrees).

    Each fold goes the way that brings the tip nearer the root, chosen before the IK limits cut
    it: a knee whose limits let it fold only backwards is held back, not posed backwards. A
    chain straight at rest, which has no nearer way, folds the way its limits choose
    (``limits_fold``); with ``as_built`` (the locks check's reading, not the oracle's goals),
    so does the chain's lowest joint bent at rest whose limit opens one way alone
    (``one_sided_joint``). The limits that cut a fold short are added to ``clamps``.
    """
    limb = limb_bones(rig, chain)
    order = list(reversed(limb))
    turns: dict[str, Matrix] = {}
    if swing:
        root = rig.pose_bone(limb[-1])
        turns[limb[-1]] = _limited(root, *_free_turn(root, swing, "ZXY", locks), locks)[0]
    moving = chain.moving_part(limb)
    built = _built_fold(rig, chain, limb) if locks else None
    for name in reversed(moving[:-1]):
        pose_bone = rig.pose_bone(name)
        folds = [_free_turn(pose_bone, sign * fold, "XZY", locks) for sign in (1, -1)]
        chosen = built if built is not None else straight_joint_lean(rig, name) if locks else None
        if chosen is None and as_built and name == chain.owner:
            chosen = one_sided_joint(rig, name)
        axis, angle = _fold_way(rig, chain, limb, turns, name, folds, chosen)
        turns[name], clamp = _limited(pose_bone, axis, angle, locks, fold=True)
        if clamp is not None and clamps is not None:
            clamps.append(clamp)
    return order, turns


def _built_fold(rig: RigView, chain: IKChain, limb: tuple[str, ...]) -> Vector | None:
    """``limits_fold`` for a limb that is the chain itself (a chain of length 1 posed on the
    limb around it keeps the nearer-root rule)."""
    return limits_fold(rig, chain) if limb == chain.bones else None


def _fold_way(
    rig: RigView,
    chain: IKChain,
    limb: tuple[str, ...],
    turns: dict[str, Matrix],
    name: str,
    folds: list[tuple[str | None, float]],
    built: Vector | None,
) -> tuple[str | None, float]:
    """Of a joint's two folds (one axis, either way), the one a limb folds by: about the axis its
    straight chain's limits fold it (``limits_fold``), else the one that brings the tip nearer
    the limb's root, the way the chain is bent."""
    axis = folds[0][0]
    if built is not None and axis is not None:
        lean = getattr(rig.bone(name), f"{axis.lower()}_axis").dot(built)
        if abs(lean) > 1e-3:
            return folds[0] if lean * folds[0][1] > 0.0 else folds[1]
    order = list(reversed(limb))
    root_head = rig.bone(limb[-1]).head
    distances = [
        (_fk_tip(rig, chain, order, {**turns, name: _rotation(*fold)}) - root_head).length
        for fold in folds
    ]
    return folds[distances.index(min(distances))]


def _free_turn(
    pose_bone: bpy.types.PoseBone, degrees: float, axes: str, locks: bool
) -> tuple[str | None, float]:
    """The first axis in ``axes`` that IK may turn (any, without ``locks``) and the angle in
    radians; no axis when every one is locked."""
    for axis in axes:
        if not (locks and getattr(pose_bone, f"lock_ik_{axis.lower()}")):
            return axis, math.radians(degrees)
    return None, 0.0


def _rotation(axis: str | None, angle: float) -> Matrix:
    return Matrix.Identity(4) if axis is None else Matrix.Rotation(angle, 4, axis)


def _limited(
    pose_bone: bpy.types.PoseBone, axis: str | None, angle: float, locks: bool, fold: bool = False
) -> tuple[Matrix, ClampedFold | None]:
    """The turn within the bone's IK limit (with ``locks``), and the limit when it cut it short.

    A fold the limit allows only the other way does not happen at all.
    """
    letter = (axis or "").lower()
    if axis is None or not (locks and getattr(pose_bone, f"use_ik_limit_{letter}")):
        return _rotation(axis, angle), None
    low = getattr(pose_bone, f"ik_min_{letter}")
    high = getattr(pose_bone, f"ik_max_{letter}")
    limited = min(max(angle, low), high)
    if fold and limited * angle <= 0.0:
        limited = 0.0
    clamp = None
    if abs(limited) < abs(angle) - 1e-6:
        clamp = ClampedFold(readable(pose_bone), letter, low, high, abs(math.degrees(limited)))
    return _rotation(axis, limited), clamp


def _fk_tip(
    rig: RigView,
    chain: IKChain,
    order: list[str],
    turns: dict[str, Matrix],
    lengths: dict[str, float] | None = None,
) -> Vector:
    """Forward kinematics in rest armature space, root first; with ``lengths``, each bone
    that many times its rest length (the bones below start that much further along it)."""
    matrix = Matrix.Identity(4)
    previous_rest = Matrix.Identity(4)
    previous = None
    for name in order:
        rest = rig.raw_bone(name).matrix_local
        turn = turns.get(name, Matrix.Identity(4))
        if lengths and previous is not None:
            step = previous_rest.inverted_safe() @ rest
            step.translation = step.translation * lengths.get(previous, 1.0)
            matrix = matrix @ step @ turn
        else:
            # Multiplied in this order: a straight limb's two folds tie, and the last bits of
            # the product decide which the goals take (``_fold_way``).
            matrix = matrix @ previous_rest.inverted_safe() @ rest @ turn
        previous_rest, previous = rest, name
    if chain.use_tail:
        length = rig.bone(chain.owner).length * (lengths or {}).get(chain.owner, 1.0)
        return (matrix @ Vector((0.0, length, 0.0, 1.0))).xyz
    return matrix.translation.copy()


def posed_longer(rig: RigView, chain: IKChain) -> dict[str, float]:
    """The limb's bones that their posed scale, or one they inherit within the limb, makes
    longer than at rest (by 0.1% or more), each with how many times its rest length it is. A
    scale from above the limb scales the oracle's goals with it, and IK Stretch is not a pose
    (``channel_lengths``)."""
    lengths = channel_lengths(rig, chain)
    return {name: lengths[name] for name in limb_bones(rig, chain) if lengths[name] > 1.001}


def channel_lengths(rig: RigView, chain: IKChain) -> dict[str, float]:
    """How many times its rest length each of the limb's bones is by its posed channels and
    what it inherits of them within the limb (its Inherit Scale honoured), constraints aside:
    the length IK Stretch starts from, which the evaluated pose has already stretched toward
    the target."""
    matrices: dict[str, Matrix] = {}
    for name in reversed(limb_bones(rig, chain)):
        bone = rig.raw_bone(name)
        basis = rig.pose_bone(name).matrix_basis
        parent = bone.parent
        if parent is None:
            matrices[name] = bone.convert_local_to_pose(basis, bone.matrix_local)
            continue
        # The limb's parent held at rest: what moves the whole limb scales the goals too.
        at = matrices.get(readable(parent), parent.matrix_local)
        matrices[name] = bone.convert_local_to_pose(
            basis, bone.matrix_local, parent_matrix=at, parent_matrix_local=parent.matrix_local
        )
    return {name: matrix.col[1].xyz.length for name, matrix in matrices.items()}


def held_off_when_posed(
    rig: RigView, chain: IKChain, grown: Mapping[str, float] | None = None, limited: bool = True
) -> Literal["limits", "length"] | None:
    """What keeps a limb its pose makes longer (``posed_longer``) from bringing its tip as near
    its root as the nearest goal the oracle sets it at rest lengths: its IK limits ("limits"),
    folded as far as they let it, or, free, its own proportions ("length": one bone longer than
    the others together by more than that goal's distance); None when it still comes that near.
    With ``grown``, as if those bones were that many times longer again (a fix that would
    lengthen them); without ``limited``, as if no IK limit held the fold (a joint rolled off its
    bend axis folds in its plane about another free axis: ``_narrow_limits.folds_off_plane``).

    Measured: the arm and the leg whose lower joint folds ±20° land, and with the upper bone
    scaled 1.1 or 1.5 (the lower one not inheriting it) stop short, ±90° lands; the arm without
    Use Tail (the shoulder and the upper arm) with its upper arm at 2.5 stops 14.9% short, at
    1.5 lands."""
    longer = posed_longer(rig, chain)
    moving = chain.moving_part(limb_bones(rig, chain))
    if not longer or len(moving) < 2:
        return None
    for name, times in (grown or {}).items():
        longer[name] = longer.get(name, 1.0) * times
    folded, clamped = nearest_folded(rig, chain, longer, limited)
    root = rig.bone(limb_bones(rig, chain)[-1]).head
    nearest = min((tip - root).length for tip in reachable_tips(rig, chain))
    if folded <= nearest + REACH_TOLERANCE * rig.chain_reach(chain):
        return None
    return "limits" if clamped else "length"


def nearest_folded(
    rig: RigView, chain: IKChain, longer: Mapping[str, float] | None = None, limited: bool = True
) -> tuple[float, bool]:
    """How near its root the limb can bring its tip, each inner joint folded as far as its IK
    limits let it (those beside a held one turned to wherever brings the tip nearest), and
    whether a limit holds it (free, a limb comes as near as its longest bone outreaches the
    rest). ``longer``: bones that many times their rest length; without ``limited``, free."""
    longer = dict(longer or {})
    clamps: list[ClampedFold] = []
    order, turns = _posed_turns(rig, chain, FOLDED_AS_FAR, 0.0, True, clamps)
    if clamps and limited:
        held = {clamp.bone for clamp in clamps}
        return _free_joints_folded_nearer(rig, chain, order, turns, longer, held), True
    # Each bone's lever runs from its head to the joint below it (the chain's tip for the
    # lowest): a bone set off its parent's tail swings that gap too (seed 114: the arm without
    # Use Tail, its upper arm 0.03 off the shoulder and scaled 2.2, lands).
    moving = chain.moving_part(limb_bones(rig, chain))
    below = [rig.chain_tip(chain)] + [rig.bone(name).head for name in moving[:-1]]
    levers = [
        (end - rig.bone(name).head).length * longer.get(name, 1.0)
        for name, end in zip(moving, below, strict=True)
    ]
    return 2.0 * max(levers) - sum(levers), False


def _free_joints_folded_nearer(
    rig: RigView,
    chain: IKChain,
    order: list[str],
    turns: dict[str, Matrix],
    longer: dict[str, float],
    held: set[str],
) -> float:
    """How near its root the tip comes with the limits' joints held where they stop and each
    other inner joint turned, within its own limit, to wherever on its fold axis brings the tip
    nearest: folded all the way, a bone across the limb points away again. Fresh seed 437's
    false alarm: the leg's chain of 3 to the foot, its shin limited ±28° under a thigh at 1.3,
    read 0.995 from the hip with the foot folded 179°; its foot turned 90° up, the leg lands
    on the goal 0.857 away."""
    root = rig.bone(order[0]).head
    turns = dict(turns)

    def distance() -> float:
        return (_fk_tip(rig, chain, order, turns, longer) - root).length

    for name in chain.moving_part(limb_bones(rig, chain))[:-1]:
        pose_bone = rig.pose_bone(name)
        axis = _free_turn(pose_bone, 0.0, "XZY", True)[0]
        if name in held or axis is None:
            continue
        best = (distance(), turns.get(name, Matrix.Identity(4)))
        for degrees in range(-180, 181, FREE_FOLD_STEP):
            turns[name] = _limited(pose_bone, axis, math.radians(degrees), True)[0]
            best = min(best, (distance(), turns[name]), key=lambda pair: pair[0])
        turns[name] = best[1]
    return distance()
