"""How a chain joint that does not inherit rotation fares, for the inherit check: whether the
chain still lands (something else keeps the joint's side: no pole to judge by, a constraint that
sets its start, a pole behind the bend, an IK that re-aims the bone above, a pose that starts it
bent) or bends away from its pole once the bones above it turn."""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterator
from typing import Any

from mathutils import Matrix, Vector

from ..core.geometry import signed_angle
from ..core.limb import (
    FULL_INFLUENCE,
    bend_limit,
    forward_pose,
    limits_fold,
    one_way_fold,
    parent_motion,
    pole_behind_bend,
    pole_turn,
    root_folds_against,
)
from ..core.names import readable
from ..core.reach import BODY_TURN, stretching_bones
from ..core.rig import AXES, IKChain, RigView
from ..core.start import clamped_by_limit_rotations
from ..core.started import start_set_by
from ._posed_off_axis import held_on, turned_off_its_bend
from ._straight_chain import stretched_straight
from ._tip_motion import TipMotion

OPPOSED_PRE_BEND = 67.5
"""Degrees a straight limb without a pole, its hinges limited opposite ways, must start bent
the way they fold for a joint that inherits no rotation to land, between the measured edges:
the leg and the arm posed 70° and 90° land (0.092% and 0.047% of the reach short); posed 65°
and less they stop 0.13% short with the body turned 40° about Z."""

OPPOSED_GROWN = 1.002
"""Times its built length a bone of such a limb posed longer along its length reaches the
targets its built length reaches with slack, so it lands where it stopped short at full
stretch (measured on the leg and the arm: the thigh or upper arm at 1.003 to 3, or the shin or
forearm at 1.05, land; at 1.001 they stop 0.1% short; the hips scaled evenly, which scale the
targets too, not)."""


Effect = tuple[str, bool, tuple[tuple[str, Any], ...]]
"""A sentence for the message, whether the chain still lands, and the same as facts."""


def rotation_effect(rig: RigView, chain: IKChain, name: str) -> Effect:
    """What a chain bone that does not inherit rotation does to the chain, whether the chain
    still works (a warning then), and the same as the finding's facts: ``effect`` names which
    case, with the constraint (``start``), the IK and the bone it aims (``aimer``) or the turned
    bone (``turned``) the sentence names.

    Measured on the leg and the arm, with the body turned 40° either way about X and Z: the
    joint flips away from its pole, but a joint whose start rotation a constraint sets (a Copy
    Rotation of the shoulder, a Damped Track at the control) bends as that start says (the
    constraint order check judges the start), and under a pole behind the bend the joint bends
    as built or turns to face the pole, both bends the limb was built for. A chain without a
    pole still lands, whichever joint it is: a leg's or an arm's owner, and the shin or the
    forearm inside a foot's or a hand's chain of 3 (at rest and with the hips or the shoulder
    turned 20°, and with the body turned 40° either way about X and Z; what misses by 9-11% there
    is a shin IK of chain length 1 beside it, inheriting or not). A joint its pose starts bent
    further than the body turns (``_start_bend``) keeps its side too.
    """
    if chain.pole is None:
        return (
            _opposed_hinges(rig, chain, name)
            or _narrowly_limited(rig, chain, name)
            or _WITHOUT_POLE
        )
    kept = _stretched_straight(rig, chain) or _limited_side(rig, chain, name)
    if kept is not None:
        return kept
    held = _held_bend_axis(rig, chain, name)
    return (
        _held_and_stretching(rig, chain, name, held)
        or _held_and_turned(rig, chain, name, held)
        or _start_set(rig, chain, name)
        or _pole_behind(rig, chain)
        or _aimed_above(rig, chain, name)
        or _pre_bent(rig, chain, name)
        or _turned_above(rig, name)
    )


def _opposed_hinges(rig: RigView, chain: IKChain, name: str) -> Effect | None:
    """A straight limb without a pole whose hinges fold opposite ways, not posed far enough into
    its fold (``OPPOSED_PRE_BEND``) to keep it."""
    if not root_folds_against(rig, chain) or _posed_longer(rig, chain):
        return None
    bend = _start_bend(rig, chain, name, limits_fold(rig, chain))
    if bend is not None and bend >= OPPOSED_PRE_BEND:
        return None
    return (
        "straight at rest, with its hinges limited opposite ways and no pole, it stops "
        "short once the bones above it turn (measured: the leg and the arm 0.13% of "
        "their reach with the body turned 40° about Z; inheriting, they land)",
        False,
        (("effect", "opposed_hinges"),),
    )


NARROW_UNTURNED = 80.0
"""Degrees of IK limit range (max less min) about a swing axis below which a two-bone limb's
lower bone that does not inherit rotation stops short without a pole (fresh seed 291, a miss):
measured on the arm and the leg, the lower bone limited ±10° to ±40° on its bend axis, 1.4% to
6.2% of the reach short on 4.2 and 5.3; at ±45° to ±55° the arm stops 0.7% to 3.5% short and
the leg lands; from ±60° both land, and inheriting, ±20° lands."""


def _narrowly_limited(rig: RigView, chain: IKChain, name: str) -> Effect | None:
    """The lower bone of a two-bone limb without a pole, not inheriting rotation, whose IK limit
    holds it within ``NARROW_UNTURNED``: the limit stays put while the bone above turns, and
    the bend the goals need leaves it."""
    if name != chain.owner or len(chain.moving_bones) != 2:
        return None
    pose_bone = rig.pose_bone(name)
    ranges = [
        math.degrees(getattr(pose_bone, f"ik_max_{axis}") - getattr(pose_bone, f"ik_min_{axis}"))
        for axis in "xz"
        if getattr(pose_bone, f"use_ik_limit_{axis}") and not getattr(pose_bone, f"lock_ik_{axis}")
    ]
    narrowest = min(ranges, default=None)
    if narrowest is None or narrowest >= NARROW_UNTURNED or _room_to_fold(rig, name):
        return None
    return (
        f"its IK limit lets it turn only {narrowest:.0f}° in all, measured from a rest that no "
        "longer follows the bone above, and the bend the target needs leaves that range "
        "(measured on the leg and the arm limited ±10° to ±40°: 1.4% to 6.2% of the reach "
        "short; inheriting, they land)",
        False,
        (("effect", "narrowly_limited"),),
    )


FOLD_ROOM = (10.0, 20.0)
"""Degrees straighter (at most) and further (at least) than it rests a narrow limit on the bend
axis lets such a bone turn and the limb still lands: the solver folds it from rest, and only
room to straighten strands it. Fresh seed 340, a false alarm: the leg limited 0° to 30°, without
a pole, landed under this check's error. Measured on 4.2, the leg and the arm, limited 0° to
20°, 30° and 60°, -5° to 25°, -10° to 20° and 30°, 5° to 40° and 10° to 60° land; -15° to 15°,
±20° and (the leg) -20° to 40° stop 2.3% to 5.1% short, as do ±10° and 0° to 10° (the locks
check's)."""


def _room_to_fold(rig: RigView, name: str) -> bool:
    """Whether the bone's limit on its bend axis leaves it the ``FOLD_ROOM`` to fold from rest."""
    limited = bend_limit(rig, name)
    if limited is None:
        return False
    _fold, back, further = limited
    most_back, least_further = FOLD_ROOM
    slack = 1e-4  # limits are stored in single precision
    return (
        back >= -math.radians(most_back) - slack and further >= math.radians(least_further) - slack
    )


def _posed_longer(rig: RigView, chain: IKChain) -> bool:
    """Whether a bone of the chain is posed longer along its length (``OPPOSED_GROWN``)."""
    return any(
        rig.pose_bone(name).matrix_basis.to_scale().y > OPPOSED_GROWN for name in chain.moving_bones
    )


_WITHOUT_POLE: Effect = (
    "without a pole it still reaches, but its bend no longer follows the bones above it",
    True,
    (("effect", "no_pole"),),
)


def _stretched_straight(rig: RigView, chain: IKChain) -> Effect | None:
    """A straight chain that reaches by stretching, its side kept by one-sided limits."""
    if not stretched_straight(rig, chain):
        return None
    return (
        "straight at rest, it reaches by IK Stretch, folded the way its one-sided IK limits "
        "allow (measured: the leg and the arm, stretch 0.1 and 0.5, land with the body turned "
        "40°, posed ±20° and ±70° too; with free hinges they bend away from the pole)",
        True,
        (("effect", "stretched_straight"),),
    )


def limited_to_its_side(rig: RigView, chain: IKChain, name: str) -> bool:
    """Whether ``name`` is the joint of a two-bone limb its IK limit lets fold further but never
    straighter than it rests (``one_way_fold``): it cannot cross to the other side however the
    bones above it turn (fresh seed 302: rest_pose's pre-bend of a straight limb so limited gave
    it the inherit error, and it lands). Not where the root's own limit turns it the other way
    (the leg and the arm so built stop 2.7% to 4% short), unless the chain reaches by IK Stretch
    (then they land, as straight)."""
    fold = one_way_fold(rig, chain, name)
    if fold is None:
        return False
    return not root_folds_against(rig, chain, fold) or bool(stretching_bones(rig, chain))


KEPT_SIDE_POLE_TURN = 10.0
"""Degrees the pole angle may turn the chain from its rest pose for a joint its one-sided limit
keeps on its side (``_limited_side``) to land: with the body turned 40° such a joint ends 80°
(the leg) or 73° (the arm) from its pole, and the pole angle's turn adds to that. Fresh seed 362,
a miss: the leg limited 0° to 30°, not inheriting rotation, under a pole angle turned 60°, 138°
from its pole under warnings. Measured on 4.2, limited 0° to 30° or to 150°: the leg lands turned
up to 10° (90°) and fails from 12° (92°), the arm lands up to 15° (87°) and fails from 20°.
Not under a pole behind the bend, where a limb bent as built passes whichever way it faces
(fresh seed 404, a false alarm: the arm so limited under a pole moved behind, its angle turning
the chain 180°, lands; measured on 4.2, the leg and the arm with that angle turned 0° to 200°
further all land)."""


def _limited_side(rig: RigView, chain: IKChain, name: str) -> Effect | None:
    """A joint its one-sided IK limit keeps on its side (``limited_to_its_side``), within
    ``KEPT_SIDE_POLE_TURN`` of the pole angle that keeps the rest pose."""
    if not limited_to_its_side(rig, chain, name):
        return None
    turn = math.degrees(pole_turn(rig, chain) or 0.0)
    if abs(turn) > KEPT_SIDE_POLE_TURN and not pole_behind_bend(rig, chain):
        return (
            "its IK limit keeps it on its side however the bones above it turn, but the pole "
            f"angle turns the chain {turn:+.0f}° from its rest pose, which adds to the turn that "
            "side is left with (measured: the leg limited 0° to 30° ends 80° from its pole with "
            "the body turned 40°, 92° with the pole angle turned 12°, 138° at 60°)",
            False,
            (("effect", "limited_side_turned"),),
        )
    return (
        "its IK limit lets it fold further but never straighter than it rests, so it keeps "
        "its side however the bones above it turn (measured: the leg and the arm limited 0° to "
        "30° up to 0° to 179° land with the body turned 40°; limited -10° to 150°, the leg "
        "stops 5.3% short), but the bend no longer follows the bones above it",
        True,
        (("effect", "limited_to_its_side"),),
    )


def _held_bend_axis(rig: RigView, chain: IKChain, name: str) -> str | None:
    """The bend axis of ``name`` where an IK lock or narrow limit holds it on some axis; None
    otherwise. The cheap test goes first: finding the bend axis builds the chain's tip motion,
    which both held-joint effects read."""
    if len(chain.bones) < 2 or not any(held_on(rig, name, axis) for axis in AXES):
        return None
    return TipMotion(rig, chain).bend_axis(rig, name) or None


def _held_and_stretching(
    rig: RigView, chain: IKChain, name: str, axis: str | None
) -> Effect | None:
    """A joint held on its bend axis (``axis``: ``_held_bend_axis``) in a chain that stretches:
    it reaches by IK Stretch, with no bend of its own to flip (seed 159)."""
    if axis is None or not held_on(rig, name, axis) or not stretching_bones(rig, chain):
        return None
    return (
        "its bend axis is held (the locks check's finding) and the chain reaches by IK Stretch "
        "instead, so it has no bend of its own to flip (measured: the leg and the arm, the "
        "joint locked or limited 0° to ±6° on X, stretch 0.01 to 1 on either bone, land 69° to "
        "81° from the pole with the body turned 40°; with the upper bone held instead, it "
        "flips)",
        True,
        (("effect", "held_and_stretching"),),
    )


def _held_and_turned(rig: RigView, chain: IKChain, name: str, axis: str | None) -> Effect | None:
    """A joint held on its bend axis (``axis``: ``_held_bend_axis``) that the pose above turns
    off it (``_posed_off_axis``): not inheriting is what lets it fold."""
    turned = turned_off_its_bend(rig, chain, name, axis) if axis else None
    if turned is None:
        return None
    return (
        f"its bend axis is held (the locks check's finding), and the pose above, which it does "
        f"not follow, turns it {math.degrees(turned):.2g}° off that axis where the solver "
        "starts, so it folds about the axes left free (measured: the leg and the arm land with "
        "the body turned 40°; inheriting, or unposed, they stop short)",
        True,
        (("effect", "held_and_turned"),),
    )


def _start_set(rig: RigView, chain: IKChain, name: str) -> Effect | None:
    """A constraint sets the rotation the solver starts the joint from: the bend follows it."""
    started = start_set_by(rig, chain, name)
    if started is None:
        return None
    kind = started.type.replace("_", " ").title()
    return (
        f"its bend follows {kind} '{readable(started)}', which sets the rotation the solver "
        "starts it from (measured: the leg and the arm still land and bend toward the pole "
        "with the body turned 40°), and would flip away from its pole once that is muted",
        True,
        (("effect", "start_set"), ("start", readable(started))),
    )


def _pole_behind(rig: RigView, chain: IKChain) -> Effect | None:
    """A pole behind the bend: bent as built or turned to face the pole, both land."""
    if not pole_behind_bend(rig, chain):
        return None
    return (
        "its pole sits behind the bend, so bending away from it is how the limb was built "
        "(measured: the leg and the arm still land with the body turned 40°, bent as built "
        "or turned to face the pole), but the bend no longer follows the bones above it",
        True,
        (("effect", "pole_behind_bend"),),
    )


AIMED_ABOVE_DRIFT = 6.6
"""Degrees a joint whose chain hangs from a bone an IK re-aims (``_aimed_above``) still ends
from where its pole angle puts it with the body turned 40°; the pole angle's turn adds to it.
Fresh seed 365, a miss: the arm under a pole angle turned 90° from its rest pose (alone it lands
90.0° from its pole, the oracle's bar), 96.6° from its pole under warnings. Measured on 5.3, the
arm turned ±60° to ±90°: 6.6° further every time, landing up to 83° (89.6°) and failing from
85° (91.6°)."""


AIMED_STRAIGHTER = 2.5
"""Degrees straighter than it rests past which a joint that inherits no rotation, below a bone
an IK re-aims at the chain's target, flips however that aim holds the body's turn off. Fresh
seed 385, a miss: the arm's upper arm keyed 1 rad, flipped 178° under the aimed warning.
Measured on 4.2, the upper arm posed about X: started 1° or 2° straighter (or any amount more
bent) it lands; 3° to 40° straighter, it flips 180°; turned about Y or Z it lands."""


def _rest_bend(rig: RigView, name: str) -> float:
    """Degrees the joint at the head of ``name`` is bent at rest."""
    bone = rig.raw_bone(name)
    if bone.parent is None:
        return 0.0
    return math.degrees(bone.parent.matrix_local.col[1].xyz.angle(bone.matrix_local.col[1].xyz))


def _aimed_above(rig: RigView, chain: IKChain, name: str) -> Effect | None:
    """An IK on the chain's own target re-aims the bone it hangs from (``_aimer_above``), and
    the pose does not start the joint straighter than it rests (``AIMED_STRAIGHTER``)."""
    aimer = _aimer_above(rig, chain)
    if aimer is None:
        return None
    start = _start_bend(rig, chain, name, whole=True)
    if start is not None and start < _rest_bend(rig, name) - AIMED_STRAIGHTER:
        return None
    facts = (("aimer", (aimer.owner, aimer.moving_bones[-1])),)
    turn = math.degrees(pole_turn(rig, chain) or 0.0)
    if abs(turn) + AIMED_ABOVE_DRIFT > 90.0:
        return (
            f"IK '{aimer.constraint}' on {aimer.owner} aims {aimer.moving_bones[-1]}, which "
            "the chain hangs from, so the body's turn barely reaches the joint, but the pole "
            f"angle turns the chain {turn:+.0f}° from its rest pose and the joint ends "
            f"{abs(turn) + AIMED_ABOVE_DRIFT:.0f}° from its pole, past the quarter turn where it "
            "bends away (measured: the arm lands 6.6° further than its pole angle turns it "
            "with the body turned 40°)",
            False,
            (("effect", "aimed_above_turned"), *facts),
        )
    return (
        f"IK '{aimer.constraint}' on {aimer.owner} aims {aimer.moving_bones[-1]}, which the "
        "chain hangs from, at the same target on every evaluation, so the body's turn never "
        "reaches the joint (measured: the arm lands 6.6° from its pole with the body turned "
        "40°), but the bend no longer follows the bones above it",
        True,
        (("effect", "aimed_above"), *facts),
    )


def _pre_bent(rig: RigView, chain: IKChain, name: str) -> Effect | None:
    """A pose that starts the joint bent its way further than the body turns."""
    bend = _start_bend(rig, chain, name)
    if bend is None or not _kept_by_its_start(bend):
        return None
    return (
        f"posed, it starts bent {bend:.0f}° the way it rests, so the bones above must turn "
        "more than that before the joint bends away from its pole (measured: the leg and "
        "the arm started 43° and 44° bent land with the body turned 40°; 38° and 39° bent, "
        "they flip), but the bend no longer follows the bones above it",
        True,
        (("effect", "pre_bent"), ("start_bend", round(bend, 1))),
    )


def _kept_by_its_start(bend: float | None) -> bool:
    """Whether a start bent ``bend`` degrees its way (``_start_bend``) keeps the joint's side as
    the body turns (``_pre_bent``)."""
    return bend is not None and BODY_TURN < bend < 180.0 - BODY_TURN


def joints_below_keys(rig: RigView, chain: IKChain, keyed: Collection[str]) -> Iterator[str]:
    """The chain's joints that inherit no rotation from a keyed parent: the keys bend them."""
    for name in chain.moving_bones[:-1]:
        bone = rig.raw_bone(name)
        parent = bone.parent
        if not bone.use_inherit_rotation and parent is not None and readable(parent) in keyed:
            yield name


def pre_bent_by_keys(rig: RigView, chain: IKChain, keyed: Collection[str]) -> str | None:
    """The joint whose start keyed bones above it bend its way far enough to keep its side
    (``_pre_bent``) where, the keys cleared, its own pose alone would not: clearing them would
    flip it (fresh seed 417, a trade: the leg's shin posed 150°, inheriting no rotation, under a
    thigh keyed 0.8 rad starts bent 113° and lands; cleared, it starts 150° bent, past where the
    body's turn folds it through, and ends 180° from its pole). None otherwise."""
    if chain.pole is None:
        return None
    for name in joints_below_keys(rig, chain, keyed):
        kept = _kept_by_its_start(_start_bend(rig, chain, name))
        if kept and not _kept_by_its_start(_start_bend(rig, chain, name, rested=keyed)):
            return name
    return None


def _turned_above(rig: RigView, name: str) -> Effect:
    """Nothing keeps the joint's side: it bends away from its pole now, or once a bone above
    it turns."""
    turned = posed_ancestor(rig, name, _is_turned)
    if turned:
        return (
            f"with {turned} turned, the joint bends away from its pole",
            False,
            (("effect", "turned_above"), ("turned", turned)),
        )
    return (
        "it works at rest, but as soon as a bone above it turns the joint bends away from its pole",
        False,
        (("effect", "at_rest"),),
    )


def _start_bend(
    rig: RigView,
    chain: IKChain,
    name: str,
    fold: Vector | None = None,
    whole: bool = False,
    rested: Collection[str] = (),
) -> float | None:
    """Degrees the joint at the head of ``name`` starts bent the way it rests (below 0, the other
    way) where the solver starts: the chain's root turned by its channels and by what moves it,
    ``name``, which inherits no rotation, by its own channels alone (not held within its IK
    limits: the solver starts from the pose). None for a joint straight at rest with no limit
    to fold it (``_straight_fold``), turned more than 45° out of its bend plane (no side to
    keep), or not the joint of a two-bone limb stiff no more than ``_keeps_side_stiff`` lets it
    (``fold``: the side of a straight joint, whatever limits its root): only that was measured to
    land pre-bent. Under a shoulder in a chain of 3 the arm posed 70° at the joint still flips.
    ``whole``: the whole angle between the bones, out of the plane too, signed by that side;
    ``rested``: bones read at rest, as once their rotation keys are cleared."""
    bone = rig.raw_bone(name)
    parent = bone.parent
    if parent is None or readable(parent) != chain.root or not _keeps_side_stiff(rig, chain):
        return None
    rest_parent, rest_bone = parent.matrix_local.to_3x3(), bone.matrix_local.to_3x3()
    rest_normal = rest_parent.col[1].cross(rest_bone.col[1])
    if rest_normal.length < 1e-4:
        rest_normal = fold or _straight_fold(rig, chain)
    if rest_normal is None:
        return None
    posed = forward_pose(rig, chain, rested=rested)
    # A Limit Rotation holds the joint's pose back where the solver starts (fresh seed 476, a
    # miss: the arm posed 70°, its forearm held to 0..0.1 rad about X, flipped under a warning).
    posed = clamped_by_limit_rotations(rig, chain, [name], posed) or posed
    parent_pose = posed[readable(parent)]
    above = parent_motion(rig, chain.root).to_3x3().normalized() @ parent_pose.to_3x3().normalized()
    own = (parent.matrix_local @ parent_pose.inverted_safe() @ posed[name]).to_3x3()
    side = (above @ rest_parent.inverted_safe() @ rest_normal).normalized()
    direction, parent_axis = own.col[1].normalized(), above.col[1].normalized()
    if abs(direction.dot(side)) > math.sqrt(0.5):
        return None
    bend = math.degrees(signed_angle(parent_axis, direction, side))
    return math.copysign(math.degrees(parent_axis.angle(direction)), bend) if whole else bend


UNEVEN_STIFFNESS_KEEPS_SIDE = 0.6
"""IK stiffness up to which a two-bone limb whose joint inherits no rotation lands from a pose
that starts it bent its way as an unstiff one does, whichever bones are stiff. Fresh seed 381, a
false alarm: the arm at 0.665 on both bones, posed 50°, landed under the error. Measured on 5.3,
the arm and the leg posed 30° to 120° into their bend: one bone at 0.5 or 0.6 lands as unstiff;
at 0.665 the shin alone lands but the thigh alone leaves the leg posed 70° short; at 0.7 the upper
arm alone leaves the arm posed 35° short."""
EVEN_STIFFNESS_KEEPS_SIDE = 0.9
"""The same, where both bones are as stiff on every axis: the arm lands up to 0.93 (0.95 stops
short, 0.105% inheriting no rotation, 0.078% inheriting), the leg to 0.95 (0.975 short)."""


def _keeps_side_stiff(rig: RigView, chain: IKChain) -> bool:
    """Whether the limb's IK stiffness is mild enough that a start bent its way still lands
    (``UNEVEN_STIFFNESS_KEEPS_SIDE``, ``EVEN_STIFFNESS_KEEPS_SIDE``)."""
    stiffness = [
        round(getattr(rig.pose_bone(moving), f"ik_stiffness_{axis}"), 4)  # 0.6 reads 0.6000000238
        for moving in chain.moving_bones
        for axis in "xyz"
    ]
    even = max(stiffness) - min(stiffness) < 1e-3
    return max(stiffness) <= (EVEN_STIFFNESS_KEEPS_SIDE if even else UNEVEN_STIFFNESS_KEEPS_SIDE)


def _straight_fold(rig: RigView, chain: IKChain) -> Vector | None:
    """For a chain straight at rest, the axis its joint's one-sided IK limit folds it about
    (``limits_fold``), while its root turns free of IK limits; None otherwise. Measured on the
    leg and the arm straightened, the lower bone folding 0° to 150° toward the pole and not
    inheriting rotation: posed 42° to 70° that way they land with the body turned 40°, 40°
    and less they stop 3.4% short; with the upper bone limited the other way (0° to -150°) the
    posed limb stops 9% to 29% short, inheriting or not."""
    root = rig.pose_bone(chain.root)
    if any(getattr(root, f"use_ik_limit_{axis}") for axis in "xyz"):
        return None
    return limits_fold(rig, chain)


def _aimer_above(rig: RigView, chain: IKChain) -> IKChain | None:
    """A live IK at full influence that turns the bone the chain hangs from, aimed at the chain's
    own target, and turns no bone another limb hangs from: an upper-arm IK without Use Tail
    aimed at the hand control re-aims the shoulder from the target wherever the body turns.
    Measured: the forearm that inherits no rotation lands 6.6° from its pole (66.6° with the
    pole angle turned 60°) with the body turned 40° either way about X and Z; the same IK on
    the thigh turns the hips, which carry the other leg, and the shin flips 107°."""
    hangs_from = rig.raw_bone(chain.root).parent
    if hangs_from is None:
        return None
    for other in rig.chains:
        if (
            other is not chain
            and not other.mute
            and other.influence >= FULL_INFLUENCE
            and readable(hangs_from) in other.moving_bones
            and other.shares_control(chain)
            and not other.target_bone_missing
            and not rig.limb_carriers(other)
        ):
            return other
    return None


def posed_ancestor(
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
