"""IK chains that pull on one limb together: which ones pull at all, when two reach for one
point, and how Blender solves two stacked on one control (the upper first, the lower one from
where it left the limb). ``duplicates`` reports the pairs that fight; ``locks`` and ``symmetry``
ask whether their fixes would free a chain another one only lands beside."""

from __future__ import annotations

from ..core.finding import Severity
from ..core.geometry import offset_from_line
from ..core.reach import REACH_TOLERANCE, nearest_folded, reachable_tips, stretching_bones
from ..core.rig import IKChain, RigView
from ..core.switches import constraint_switches
from ._tip_motion import blocked_every_way

SAME_POINT = 1e-4
"""Tips closer than this share of the chain's reach are one goal (float noise apart)."""
ON_THE_LINE = 0.05
"""Of the aimed bone's length: a point this near its line lies on it."""


def solving_chains(rig: RigView) -> list[IKChain]:
    """The chains that pull: live, not half of a driven switch, with a target Blender resolves
    (an IK without one, a missing bone or the armature itself, pulls nothing: measured, its
    twin reaches). Read once a pass: ``clash_after`` asks for every muted IK."""

    def read() -> list[IKChain]:
        driven = {(b, c) for (b, c, _), how in constraint_switches(rig).items() if how == "driven"}
        return [c for c in rig.chains if c.key not in driven and rig.pulls(c)]

    return rig.remember("duplicates: solving chains", read)


def same_point(rig: RigView, first: IKChain, later: IKChain) -> bool:
    apart = (rig.chain_tip(first) - rig.chain_tip(later)).length
    return apart <= SAME_POINT * max(rig.chain_reach(first), rig.chain_reach(later), 1e-6)


def one_above(rig: RigView, first: IKChain, later: IKChain) -> tuple[IKChain, IKChain] | None:
    """(upper, lower) when one chain turns a bone the other's root hangs from: Blender solves
    the upper one first and the lower one from where it left the limb. None for chains apart."""
    for upper, lower in ((first, later), (later, first)):
        carried = {lower.root, *rig.ancestors(lower.root)}
        if carried.intersection(upper.moving_bones):
            return upper, lower
    return None


def frozen(rig: RigView, chain: IKChain) -> bool:
    """Whether the solver can move none of the chain's bones: each blocked about every axis,
    none stretched. The chain then leaves a lower one where the rest pose put it (measured: the
    leg or arm so locked stops 36% of its reach short, and a foot's or hand's IK of length 1 on
    its control, which misses by 58% or 8.6% below a limb that reaches, lands)."""
    return not stretching_bones(rig, chain) and blocked_every_way(rig, chain)


def lower_reaches(
    rig: RigView, upper: IKChain, lower: IKChain, ignoring: tuple[str, str] | None = None
) -> bool:
    """Whether the lower chain can still bring its tip onto the control once the upper one has
    put its own tip there: its root keeps its rest distance from the upper chain's tip, and a
    chain reaches between its longest bone less the others and all of them together (a foot's
    IK cannot: its head is the ankle, already on the control, and it is one foot long).

    An upper chain that reaches with its tail and cannot reach the control points straight at
    it instead, its tip ``span`` from its root: the lower root then lies within its rest
    distance of that point, and the lower chain must bridge what is left to the control. A
    forearm IK of chain length 1 under an upper-arm IK on the hand control spans exactly the
    rest, so it lands only with the arm straight (measured: 4.4% of the reach short, a shin
    under a thigh IK 3.5%). An upper chain reaching with its head and out of reach at rest
    only aims that head; the bones it carries to the lower root (a forearm) follow no IK, and
    as their pose swings that root the lower chain must reach from anywhere in the band: a
    hand IK of length 1 under a forearm IK without Use Tail misses (measured on 5.3: the elbow
    on the control, the wrist a forearm from it, the hand 138% of its reach short with the
    forearm turned; the foot under such a shin IK fails too). Left free when nothing hangs
    between and the lower chain can fold (the lower root at the upper head: a foot IK of length
    2 under such a shin IK lands where this model would not) or another IK turns those bones.
    A single bone at the upper head only spans its length: the upper arm's IK with Use Tail
    and its twin without, both on the hand control, leave the twin 42% of its reach short."""
    control = rig.joint_point(upper.target, upper.subtarget)
    root = rig.bone(upper.root).head
    tip = rig.chain_tip(upper)
    span = max(rig.chain_reach(upper), (tip - root).length)
    lengths = [rig.bone(name).length for name in lower.moving_bones]
    if control is None or not lengths:
        return True  # nothing to turn: the chain_length check reports it
    longest, total = max(lengths), sum(lengths)
    slack = SAME_POINT * max(total, 1e-6)
    shortest, furthest_reach = max(0.0, 2.0 * longest - total) - slack, total + slack
    offset = (tip - rig.bone(lower.root).head).length
    beyond = (control - root).length - span
    # Stretching, the upper chain reaches the control (measured: a forearm or shin IK without
    # Use Tail, its upper bone at IK Stretch 0.01 to 1, puts the elbow or knee on the hand or
    # foot control, and the hand or foot IK of length 1 or 2 below it stops 70% to 120% of its
    # reach short, seed 222). Where the lower chain stretches too it was not measured.
    stretches_there = bool(stretching_bones(rig, upper)) and not stretching_bones(rig, lower)
    out_of_reach = beyond > SAME_POINT * span and not stretches_there
    nearest, furthest = (
        (max(0.0, beyond - offset), beyond + offset) if out_of_reach else (offset,) * 2
    )
    if out_of_reach and not upper.use_tail:
        # Bones between its head and the lower root that follow no IK: wherever their pose
        # swings that root within the band, the lower chain must still reach.
        return (
            (offset <= slack and len(lengths) > 1)
            or _turned_between(rig, upper, lower, ignoring)
            or (shortest <= nearest and furthest <= furthest_reach)
        )
    if out_of_reach and len(lengths) == 1:
        # One bone spans one distance: it lands only where the control sits a bone's length
        # beyond the upper tip, as it does at rest on a limb straight at rest (fresh seed 287:
        # the straight leg's shin IK of length 1 under a thigh IK stops 3.0% short).
        return False
    return shortest <= furthest and nearest <= furthest_reach


def pulled_nearer_than_it_folds(rig: RigView, upper: IKChain, lower: IKChain) -> float | None:
    """How much nearer a goal (of the lower chain's reach, the most over its goals) the upper
    chain, pointing its head at each goal the oracle sets the lower one (which hangs from that
    head), pulls the lower root than the lower chain's IK limits let it fold about the axis they
    hold; None where it pulls it no nearer. Free, the lower chain folds as near as it must
    (measured: the hand and the foot land under an upper-arm or thigh IK of chain length 1
    without Use Tail). Limited, it may miss: the forearm limited ±20° to ±32° about X stops 0.2%
    to 0.7% of the arm's reach short (±34° lands), the shin ±20° to ±26° 0.2% to 1.5% (±28°
    lands); but pulled much nearer (the thigh connected to the hips' tail, 0.28 of the reach
    nearer) the knee folds about its free Z axis and the leg lands (``just_nearer``)."""
    if upper.use_tail or len(lower.moving_bones) < 2:
        return None  # a tail on the control stays there; one bone does not fold
    pivot, head = rig.bone(upper.root).head, rig.chain_tip(upper)
    radius = (head - pivot).length  # the head swings round the pivot
    control = rig.joint_point(upper.target, upper.subtarget)
    if control is None or (control - pivot).length <= radius:
        return None  # the head reaches the control: it does not point at it
    if (head - rig.bone(lower.root).head).length > SAME_POINT * radius:
        return None  # bones hang between (``lower_reaches``)
    nearest, clamped = nearest_folded(rig, lower)
    reach = rig.chain_reach(lower)
    short = nearest - REACH_TOLERANCE * reach
    gaps = [(goal - pivot).length - radius for goal in reachable_tips(rig, lower)]
    nearer = [short - gap for gap in gaps if 0.0 < gap < short]
    return max(nearer) / reach if clamped and nearer else None


JUST_NEARER = 0.01
"""Of the lower chain's reach: pulled no more than this nearer than its IK limits fold, the
lower chain stays in its plane and stops short (``just_nearer``)."""


def just_nearer(rig: RigView, upper: IKChain, nearer: float) -> bool:
    """Whether the lower root, pulled ``nearer`` (``pulled_nearer_than_it_folds``), lies on the
    line of the bone the upper chain aims, where that model holds, and only just nearer: the
    lower chain then stops short. Measured on the arm, the forearm limited ±20° to ±32° (0.2% to
    0.5% of the reach nearer, the shoulder apart or connected): 0.2% to 0.7% short. Pulled
    0.28 nearer (the thigh connected to the hips' tail) the knee folds about Z and lands; off
    the line (the thigh beside the hips) the model says 11% to 13% nearer and the leg stops
    0.2% to 1.5% short at ±20° to ±26°, lands at ±28°: neither is read."""
    aimed = rig.bone(upper.moving_bones[0])
    off = offset_from_line(rig.chain_tip(upper), aimed.head, aimed.tail).length
    return nearer <= JUST_NEARER and off <= ON_THE_LINE * aimed.length


def _turned_between(
    rig: RigView, upper: IKChain, lower: IKChain, ignoring: tuple[str, str] | None
) -> bool:
    """Whether another IK turns a bone between the upper chain and the lower one's root (a
    second IK on the forearm between the shoulder's chain and the hand's): not modelled, the
    lower one is left free (measured: the hand and foot then land)."""
    between: set[str] = set()
    for name in rig.ancestors(lower.root):
        if name in upper.moving_bones:
            break
        between.add(name)
    chains = [chain for chain in solving_chains(rig) if chain.key != ignoring]
    return any(between.intersection(chain.moving_bones) for chain in chains)


def held_below(rig: RigView, chain: IKChain) -> IKChain | None:
    """The IK below ``chain`` on its control that lands only because ``chain`` cannot turn:
    freed (its locks cleared), ``chain`` would put its tip on the control and leave that one
    short, this check's error. None when there is none."""
    if not frozen(rig, chain):
        return None
    for other in solving_chains(rig):
        same_control = other.key != chain.key and other.shares_control(chain)
        if not same_control or set(other.moving_bones) & set(chain.moving_bones):
            continue
        if same_point(rig, chain, other):
            continue
        if one_above(rig, chain, other) == (chain, other) and not lower_reaches(rig, chain, other):
            return other
    return None


def agreeing_twin(rig: RigView, chain: IKChain) -> IKChain | None:
    """Another live IK, on another bone, that turns the same bones toward the same point of the
    same control (a pair this check calls agreeing): it pulls the chain harder against its IK
    stiffness (``locks``; measured: a hand's IK without Use Tail beside the forearm's, where a
    second IK on the shin itself stops as short as the leg's alone). None when there is none."""
    solving = solving_chains(rig)
    if chain.key not in {other.key for other in solving}:
        return None
    for other in solving:
        if (
            other.owner != chain.owner
            and set(other.moving_bones) == set(chain.moving_bones)
            and other.shares_control(chain)
            and same_point(rig, chain, other)
        ):
            return other
    return None


def shrunk_onto_its_head(rig: RigView, upper: IKChain, lower: IKChain) -> bool:
    """Whether the lower chain hangs from the very point where the upper one, a single bone with
    Use Tail and IK Stretch, stretches its tip onto the control: the lower must shrink to
    nothing, and IK Stretch stops short of that. Fresh seed 447, a miss under this check's
    warning: the shin's IK of length 1 under the thigh's on the foot control. Measured on 4.2,
    whatever the lower chain's stretch (0.005 to 1): the shin stops 0.39% of its length short
    with the thigh stretching 0.02 to 0.5, the forearm 0.38%; with the upper bone not
    stretching it points at the control, and the lower one lands by stretching along that line."""
    return (
        upper.use_tail
        and len(upper.moving_bones) == 1
        and bool(stretching_bones(rig, upper))
        and (rig.bone(lower.root).head - rig.chain_tip(upper)).length
        <= SAME_POINT * max(rig.chain_reach(lower), 1e-6)
    )


def reached_by_stretching(upper: IKChain, lower: IKChain) -> tuple[Severity, str, str]:
    """Severity, why and the message's end for a lower chain that lands only because IK Stretch
    lengthens or shortens its bones (fresh seed 192, measured on 4.2: a shin or forearm IK of
    chain length 1 under a thigh or upper-arm IK without Use Tail on one control misses 204% or
    39% of its reach, and lands with IK Stretch 0.05 to 0.355; a foot or hand IK of length 1
    under the limb's misses 59% or 8.6%, and lands with 0.1, shrunk toward its head)."""
    why = (
        f"IK '{upper.constraint}' on {upper.owner} is solved first; from where it leaves the "
        f"limb, IK '{lower.constraint}' on {lower.owner} cannot turn its tip onto the control, "
        "and lands only because IK Stretch lengthens or shortens its bones (measured: without "
        "it such chains miss 9% to 204% of their reach). The bones then change length as the "
        "control moves."
    )
    return (
        Severity.WARNING,
        why,
        f": IK '{lower.constraint}' on {lower.owner} reaches it only by stretching its bones.",
    )
