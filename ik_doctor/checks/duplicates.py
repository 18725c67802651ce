"""Duplicates: two live IK constraints on one bone, or two chains of one limb on one control.

Blender solves every IK that shares bones as one tree with several goals. Measured in 4.2 and
5.3: a second IK on the shin aimed at another control leaves that control 0.24 to 0.64 away
(the first wins); a three-bone IK on the foot aimed at the foot control pulls the foot's tail
onto it and leaves the shin's IK 0.17 short. Two that agree (same control, same tip) solve,
but only until one of them is edited. So do two on one control where the winning chain is
straight at rest and nothing bends it: it only aims that line, and the other lies along it
(measured: a thigh IK on the foot control over the straight leg lands), as long as it has a pole:
without one the solver folds it, and the thigh's IK holds it 3.4% of its reach short.

Chains of one limb that share no bone are solved one after the other, the upper first; aimed at
one control with tips at different points (one reaching with the tail, the other with the head,
or two bones' tails), the lower one starts from where the upper one put its tip, and misses
when its root lies further from there than its bones span or nearer than they fold: on the
reference rig a foot IK (length 1, Use Tail) on the ankle's control stays 0.10 short, 58% of
its reach, a hand IK on the wrist's 8.6%; nothing else reports it. An upper chain too short to
reach the control points straight at it, and the lower one must bridge the rest: a forearm IK
of length 1 under an upper-arm IK on the hand control stays 4.4% of its reach short, a shin
under a thigh IK 3.5%.

A Rigify-style IK/FK switch keeps two IKs on the same bone on purpose, one muted, with the mute
or influence driven: such pairs are not reported. When turning Use Tail over on the IK whose tip
lies further from where the control was placed puts its tip on the other's, the fix does that:
both goals agree. Otherwise it mutes the later IK on a shared bone (a muted twin is a switch)
or deletes an IK on another bone, since a lone muted IK would itself read as an IK that does
nothing.

What it reports:

- Two live IKs on one bone, or overlapping chains aimed at the same control: an error when their
  goals differ (the later IK on a bone, or the inner of nested chains, stays 0.17 to 0.64
  short; one agreeing with an IK stacked before both lands with it); a warning when they agree.
  An error when they agree but the IK on the lower bone starts its chain above the other's root
  (the arm's IK without Use Tail beside the upper arm's of length 1): Blender solves them as two
  trees on its threads at once, and now and then one misses (1 to 6 of 30 solves, by 33% to
  all of the reach).
- Also a warning when the chain that wins is straight at rest with nothing to bend it (no pose,
  no Damped Track at its target, no IK Stretch) and the other, one bone, lies along it: both aim
  along one line, and the thigh's or upper arm's IK lands. Not when it has no pole (and its
  root's IK limit does not turn it against its fold): the solver folds it toward the control,
  the other IK holds its top bone on the line, and the straight limb misses (3.4% of its
  reach), an error on its chain. With no pole and its root's IK limit against its fold, its
  hinges limited against each other, rounding decides whether the solver folds it: an error on
  the other IK, which misses where it folds (the upper arm's IK at 17 of 160 turns of the
  shoulder, 1° to 40° either way about X and Z; the thigh's at 6 to 8). Nor when the other has
  two bones or more: it folds to bring its own tip on, and misses (a forearm IK beside a hand
  IK of length 3 on the straight arm's control: 20% of its reach).
- Of overlapping chains on one control (a hand IK of length 2 beside the forearm's), the lower
  misses when its own joint is straight at rest and nothing starts it bent: only the other
  folds, and carries it along its line (the hand in line with the forearm 3.2% to 5.5% short,
  the foot in line with the shin 3.3%); otherwise the inner one does.
- Chains of one limb that share no bone, aimed at one control, with their tips at different
  points, one reaching with the tail and one with the head: an error. The upper chain is solved
  first and the lower one cannot reach: a foot IK on the ankle's control 0.10 short (58% of its
  reach), a hand 8.6%. A warning when the upper chain cannot turn (every bone locked on every
  axis, none stretched): it leaves the lower one where the rest pose put it, which lands; the
  locks and symmetry fixes that would free it wait for this pair.
- A warning, without a fix, where the chain that would win is left behind by a skipped Spline
  IK (the spline_target check's error): which of the pair lands is the order Blender's threads
  evaluate them in (a foot or hand IK of length 1 beside a shin or forearm IK without Use Tail
  misses 24% to 38% of its reach on an idle machine, and lands with every core busy); once the
  Spline IK is fixed, the pair fights and the lower one misses.
- Or one chain too short to reach the control, which points straight at it and leaves the lower
  one the rest to bridge: an error (a forearm IK of chain length 1 under an upper-arm IK on the
  hand control, 4.4% short; a shin under a thigh IK, 3.5%).
- A warning where the upper chain points its head, the lower root, at the control and so pulls
  that root nearer the goals than the lower chain's IK limits let it fold: the arm, its forearm
  limited ±20° to ±32°, under an upper-arm IK of length 1 without Use Tail stops 0.2% to 0.7%
  short, the leg so limited ±20° to ±26° 0.2% to 1.5%; free, or at ±34° and ±28°, they land,
  and pulled much nearer the joint folds about a free axis and lands: the solver decides. An
  error where the root lies on the line of the bone the upper chain turns, where that model
  holds, and comes at most 1% of the reach nearer than the joint folds (the arm: 0.2% to 0.5%).
- A warning where the lower chain lands only by stretching: with IK Stretch on its bones the
  solver lengthens or shrinks them onto the control (a shin IK of length 1 under a thigh IK
  without Use Tail misses 204% of its reach, and lands at IK Stretch 0.05; a foot IK of length 1
  under the leg's misses 59%, and lands at 0.1, shrunk toward its head). Not where it hangs from
  the very point a single upper bone with Use Tail stretches onto the control: it would shrink
  to nothing, and stops 0.4% of its length short whatever its stretch (an error).
- Muted twins, and IKs whose mute or influence is driven (Rigify switches), are left alone; so
  is an IK without a target Blender can resolve, which pulls nothing (its twin reaches).

What its fixes do:

- When turning Use Tail over on the IK whose tip lies further from where the control was placed
  puts its tip on the other's, do that, with its chain length adjusted to keep its top bone: the
  goals agree.
- Else mute the later IK on a shared bone (it becomes a switch twin), or delete the IK aimed
  there by mistake, which muted would read as an IK that does nothing. Both ask first.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping
from dataclasses import replace
from itertools import combinations
from typing import Any

import bpy

from ..core.armature import pose_of
from ..core.editing import constraint_on
from ..core.finding import Finding, Severity, chain_finding
from ..core.names import readable
from ..core.reach import stretching_bones
from ..core.registry import Check
from ..core.rig import IKChain, RigView
from ..core.spline import SplineChain, stranding_spline, where
from ._racing_trees import racing_trees, racing_words
from ._stacked_chains import (
    SAME_POINT,
    frozen,
    just_nearer,
    lower_reaches,
    one_above,
    pulled_nearer_than_it_folds,
    reached_by_stretching,
    same_point,
    shrunk_onto_its_head,
    solving_chains,
)
from ._straight_pairs import along_one_line, straight_pair


def find_duplicates(rig: RigView, options: Mapping[str, Any]) -> Iterator[Finding]:
    """For each IK a fix would change, the worst of its pairs' findings, one per chain that
    misses there (seed 150: an arm IK without Use Tail paired with an upper-arm IK, a warning,
    and with a hand IK that misses by 138%, an error; the warning, found first, hid the error).
    Past the first (a pair apart, if any), only pairs that share bones add theirs, whose loser
    the solver's tree decides (fresh seed 206: an upper-arm IK of length 1 beside a forearm IK
    of length 1 and a hand IK of length 3, all on the hand control; both pairs change the
    upper-arm IK, and the forearm's IK and the upper arm's, which the hand's turns, miss 50%
    and 137% of their reach). Chains one above the other on one bone, beside a third IK that
    agrees with one of them, are not so read: the third decides which misses (two foot IKs
    beside the leg's)."""
    worst: dict[tuple[str, str], dict[tuple[str, str] | None, Finding]] = defaultdict(dict)
    found = (_finding(rig, first, later) for first, later in _candidate_pairs(solving_chains(rig)))
    # A pair apart first: it is kept, whichever order the pairs come in, and the pairs that
    # share bones join it.
    for finding in sorted(
        (finding for finding in found if finding is not None),
        key=lambda finding: bool(dict(finding.facts)["shared"]),
    ):
        kept = worst[(finding.bone or "", finding.constraint or "")]
        rank = min((f.severity.rank for f in kept.values()), default=finding.severity.rank)
        if finding.severity.rank < rank:
            kept.clear()
        if finding.severity.rank <= rank and (not kept or dict(finding.facts)["shared"]):
            kept.setdefault(finding.chain, finding)
    for kept in worst.values():
        yield from kept.values()


def clash_after(rig: RigView, changed: IKChain) -> IKChain | None:
    """The live IK that ``changed``, a chain as a fix elsewhere would leave it (unmuted, say),
    would fight as this check's error; None when both would hold."""
    order = {chain.key: index for index, chain in enumerate(rig.chains)}
    for other in solving_chains(rig):
        if other.key == changed.key:
            continue
        first, later = sorted((other, changed), key=lambda chain: order[chain.key])
        finding = _finding(rig, first, later, fixed_alone=False)
        if finding is not None and finding.severity == Severity.ERROR:
            return other
    return None


def _lands_by_stretching(
    rig: RigView, stacked: tuple[IKChain, IKChain] | None, lower: IKChain
) -> bool:
    """Whether the lower of two stacked chains lands by its IK Stretch (``reached_by_stretching``)
    rather than having to shrink onto its own head (``shrunk_onto_its_head``)."""
    return (
        stacked is not None
        and bool(stretching_bones(rig, lower))
        and not shrunk_onto_its_head(rig, *stacked)
    )


def _candidate_pairs(live: list[IKChain]) -> list[tuple[IKChain, IKChain]]:
    """Pairs of chains on the same owner or aimed at the same control, in rig order."""
    groups: dict[tuple[Any, ...], list[int]] = defaultdict(list)
    for index, chain in enumerate(live):
        groups[("owner", chain.owner)].append(index)
        if chain.target is not None:
            groups[("control", readable(chain.target), chain.subtarget)].append(index)
    pairs = {pair for members in groups.values() for pair in combinations(members, 2)}
    return [(live[first], live[later]) for first, later in sorted(pairs)]


def _finding(
    rig: RigView, first: IKChain, later: IKChain, fixed_alone: bool = True
) -> Finding | None:
    """The pair's finding; ``fixed_alone`` False leaves out whether its fix would make another
    pair fight (asked by ``clash_after``, which a fix's check would otherwise ask again)."""
    if _seconds_a_winner(rig, first, later):
        return None
    same_owner = first.owner == later.owner
    same_control = first.target is not None and first.shares_control(later)
    shared = [bone for bone in later.moving_bones if bone in first.moving_bones]
    agree = same_control and same_point(rig, first, later)
    stacked = None if shared or not same_control or agree else one_above(rig, first, later)
    reaches = not shared and (
        stacked is None or lower_reaches(rig, *stacked) or _carried_by_a_twin(rig, *stacked)
    )
    # Reaching by the model, but pulled nearer than its IK limits fold: the solver decides,
    # unless the model holds and it is only just nearer (``just_nearer``), an error.
    nearer = pulled_nearer_than_it_folds(rig, *stacked) if reaches and stacked else None
    unsure = nearer is not None
    if reaches and not unsure:
        return None  # apart, or solved one after the other, each reaching: both hold
    if not (same_owner or same_control):
        return None
    message = _pair_message(first, later, shared, same_control)
    loser = _loser(rig, first, later, stacked)
    winner = later if loser is first else first
    aims_alike = False
    if shared and same_control:
        aims_alike, winner, loser = along_one_line(rig, winner, loser)
    held = not shared and frozen(rig, winner)
    severity, title, why, outcome = _outcome(
        aims_alike, agree, held, bool(shared), winner, loser, unsure
    )
    if stacked and nearer is not None and just_nearer(rig, stacked[0], nearer):
        severity = Severity.ERROR
        outcome = f": IK '{loser.constraint}' on {loser.owner} misses where the control comes near."
    if agree and (racing := racing_trees(rig, first, later)) is not None:
        severity, title, why, outcome = racing_words(*racing)
        # Its chain the lower one, which misses more often (5 of 30 on the arm, the upper arm's
        # 1) or always, turning the hips (the leg; the thigh's 3 of 30).
        loser = racing[0]
    stranded = None if shared else stranding_spline(rig, winner)
    if stranded is not None:
        severity, why, outcome = _left_behind(winner, loser, stranded)
    elif severity == Severity.ERROR and _lands_by_stretching(rig, stacked, loser):
        severity, why, outcome = reached_by_stretching(winner, loser)
    message += outcome
    # A muted twin on the same bone reads as an IK/FK switch, which is what it becomes; a lone
    # muted IK on another bone would read as an IK that does nothing: that one is removed.
    fix_id, verb = ("mute", "Mute") if same_owner else ("remove", "Delete")
    # On one control, the IK to change is the one whose tip lies further from where the control
    # was placed: the other already reaches for it.
    changed = _further_from_control(rig, first, later) if same_control else later
    # The finding stands on the IK the fix changes, in the chain that misses.
    finding = chain_finding(
        "duplicates",
        rig,
        loser,
        bone=changed.owner,
        constraint=changed.constraint,
        severity=severity,
        title=title,
        message=message,
        why=why,
        fix_id=fix_id,
        fix_label=f"{verb} IK '{changed.constraint}' on {changed.owner} (asks first)",
        facts=_named(first, later, shared, same_control),
        needs_confirmation=True,
    )
    if stranded is not None:
        return replace(finding, fix_id=None, fix_label=None, no_fix_reason=_SPLINE_FIRST)
    kept = first if changed is later else later
    if agree or not same_control or not _toggle_agrees(rig, changed, kept):
        return _waiting_for_a_pair(rig, finding, changed)
    if fixed_alone and _toggle_clashes(rig, changed, kept):
        return _waiting_for_a_pair(rig, finding, changed)
    return _turning_use_tail_over(finding, changed, kept)


def _pair_message(first: IKChain, later: IKChain, shared: list[str], same_control: bool) -> str:
    """The message's start: the two IKs, and the bones they share or the control they aim at."""
    this = f"IK '{later.constraint}' on {later.owner}"
    other = f"IK '{first.constraint}' on {first.owner}"
    if shared:
        return f"{this} and {other} both move {', '.join(reversed(shared))}" + (
            f", aimed at the same control {_control(first)}" if same_control else ""
        )
    return (
        f"{this} and {other}, chains of one limb, are aimed at the same control "
        f"{_control(first)} with their tips at different points ({_tip(later)} and "
        f"{_tip(first)})"
    )


def _named(
    first: IKChain, later: IKChain, shared: list[str], same_control: bool
) -> tuple[tuple[str, Any], ...]:
    """What the pair's message names: both IKs, the bones they share, their control if one."""
    return (
        ("iks", (later.key, first.key)),
        ("shared", tuple(reversed(shared))),
        ("control", (readable(first.target), first.subtarget) if same_control else None),
    )


def _left_behind(winner: IKChain, loser: IKChain, spline: SplineChain) -> tuple[Severity, str, str]:
    """Severity, why and the message's end where the chain that would win is left behind by a
    skipped Spline IK (``stranded_ik``): which of the pair lands is then the order Blender's
    threads happen to evaluate them in (seed 158, measured on 4.2 and 5.3: a foot or hand IK of
    length 1 beside a shin or forearm IK without Use Tail misses 24% to 38% of its reach on an
    idle machine and lands with every core busy, the upper IK 35% to 97% short either way)."""
    why = (
        f"{where(spline)} is skipped, yet Blender still poses its bones in a step of its own, "
        f"which leaves the tip of IK '{winner.constraint}' on {winner.owner} behind (the "
        "spline_target check's error). Which of the two IKs then lands depends on the order "
        "Blender's threads evaluate them in, run by run. Fix the Spline IK first: then the "
        "pair fights as two IKs on one control do."
    )
    outcome = (
        f": IK '{loser.constraint}' on {loser.owner} lands in some evaluations and misses in "
        "others."
    )
    return Severity.WARNING, why, outcome


_SPLINE_FIRST = "fix the Spline IK that leaves the other IK's tip behind first (spline_target)"


def _loser(
    rig: RigView, first: IKChain, later: IKChain, stacked: tuple[IKChain, IKChain] | None
) -> IKChain:
    """Which of the pair misses: of two IKs sharing bones (``stacked`` None), on one bone the
    later, of nested chains the inner one, unless the outer one is itself the later of two on
    its bone that agree (``_follows_a_twin``). Of chains one above the other, the lower one:
    the upper chain is solved first and the lower starts from its result; on one bone, the
    later again, its tip at the bone's head or its tail (measured: the upper arm's head 42% of
    the reach short, its tail 12%; the thigh's head 23%)."""
    same_owner = first.owner == later.owner
    if stacked is None:
        nested = not same_owner and first.owner in later.bones[1:]
        return first if nested and not _follows_a_twin(rig, later, first) else later
    return later if same_owner else stacked[1]


def _follows_a_twin(rig: RigView, chain: IKChain, inner: IKChain) -> bool:
    """Whether an earlier live IK on the chain's bone, aimed at its control with its tip at the
    same point, leaves the ``inner`` chain's bones alone: the chain is then the later of two on
    one bone, and it misses where, alone, the chain nested in it would (measured: the foot IK
    of length 2 after one of length 1 under the leg's IK stops 98% of its reach short and the
    leg lands; the hand's alike, 91%). A twin that turns the inner chain's bones too (two foot
    IKs of length 3) leaves the inner one the loser (seed 13)."""
    return any(
        set(twin.moving_bones).isdisjoint(inner.moving_bones)
        for twin in _agreeing_before(rig, chain, chain)
    )


def _seconds_a_winner(rig: RigView, first: IKChain, later: IKChain) -> bool:
    """Whether ``later``, on ``first``'s bone, agrees with an IK stacked there before ``first``:
    that twin wins against ``first`` and ``later`` lands with it, so the twin's own pair with
    ``first`` tells who misses (seed 168, measured on 4.2: the shin's IK, a second aimed at
    another limb's control and a third on the shin's own control: the second misses 90% of its
    reach, the third lands)."""
    return first.owner == later.owner and any(_agreeing_before(rig, later, first))


def _agreeing_before(rig: RigView, chain: IKChain, before: IKChain) -> Iterator[IKChain]:
    """The live IKs on ``chain``'s bone, stacked above ``before`` there, that agree with
    ``chain`` (``_agrees``)."""
    for twin in rig.chains_on_bone(chain.owner):
        if twin.key == before.key:
            return
        if _agrees(rig, twin, chain):
            yield twin


def _carried_by_a_twin(rig: RigView, upper: IKChain, lower: IKChain) -> bool:
    """Whether a live twin of the lower chain (on its bone, aimed at its control, its tip at the
    same point) shares bones with the upper chain: the lower then lands wherever the pair leaves
    the limb (measured: the foot IK of length 1 beside one of length 2 under the leg's IK, in
    either order on the foot, and the hand's alike; one of the other two misses)."""
    return any(
        _agrees(rig, twin, lower) and not set(twin.moving_bones).isdisjoint(upper.moving_bones)
        for twin in rig.chains_on_bone(lower.owner)
    )


def _agrees(rig: RigView, twin: IKChain, chain: IKChain) -> bool:
    """Whether ``twin`` is another live IK on ``chain``'s bone that agrees with it: aimed at its
    control, its tip at the same point (as a pair this check only warns of)."""
    return (
        twin.key != chain.key
        and twin.live
        and twin.shares_control(chain)
        and same_point(rig, twin, chain)
    )


def _turning_use_tail_over(finding: Finding, changed: IKChain, kept: IKChain) -> Finding:
    """The finding with the fix that turns Use Tail over on ``changed``, its chain length moved
    to keep its top bone, so its tip lands on ``kept``'s: both goals then agree."""
    count = _count_keeping_the_top(changed)
    return replace(
        finding,
        fix_id="agree",
        fix_label=(
            f"Turn Use Tail {'off' if changed.use_tail else 'on'} for IK '{changed.constraint}' "
            f"on {changed.owner} (chain length {changed.chain_count} to {count}, the same top "
            f"bone), so both chains reach for {_tip(kept)}"
        ),
        fix_args=(("use_tail", not changed.use_tail), ("chain_count", count)),
        needs_confirmation=False,
    )


def _outcome(
    aims_alike: bool,
    agree: bool,
    held: bool,
    shared: bool,
    winner: IKChain,
    loser: IKChain,
    unsure: bool,
) -> tuple[Severity, str, str, str]:
    """Severity, title, why, and the end of the message: what the pair does to the loser
    (``unsure``: pulled nearer than its IK limits fold, ``pulled_nearer_than_it_folds``)."""
    if unsure:
        return (
            Severity.WARNING,
            "Two IKs, one control",
            (
                f"IK '{winner.constraint}' on {winner.owner} turns {winner.root} to bring "
                f"{_tip(winner)} toward the control, pulling the lower chain's root nearer its "
                "goals than at rest; that chain's IK limits may not let it fold so near. "
                "Measured with an upper-arm or thigh IK of length 1 without Use Tail: the "
                "forearm limited ±20° to ±32° leaves the arm 0.2% to 0.7% of its reach short, "
                "the shin ±20° to ±26° the leg 0.2% to 1.5%; pulled much nearer, the joint folds "
                "about a free axis and lands. An error where the root lies on the line of the "
                "bone turned and is pulled at most 1% of the reach nearer (the arm's case)."
            ),
            (f": IK '{loser.constraint}' on {loser.owner} may miss where the control comes near."),
        )
    if held:
        return (
            Severity.WARNING,
            "Two IKs, one control",
            (
                f"The chain of IK '{winner.constraint}' on {winner.owner} cannot turn (locked "
                "on every axis), so it leaves the lower chain where the rest pose put it, and "
                "that one lands (measured). Freed, it is solved first and puts its tip on the "
                "control: the lower one then misses."
            ),
            (
                f": IK '{loser.constraint}' on {loser.owner} lands only while {winner.owner}'s "
                "chain cannot turn."
            ),
        )
    if aims_alike:
        return straight_pair(winner, loser)
    if agree:
        severity, why = Severity.WARNING, _agreeing_why(winner, loser)
        title = "Duplicate IK"
        outcome = "."
    else:
        severity, why = (
            Severity.ERROR,
            (
                "Blender solves both toward two goals that the limb cannot reach at once (as one "
                "tree when they share bones, else the upper chain first): one of them wins and "
                "the other's tip stays short of its target."
            ),
        )
        title = "Two IKs fight" if shared else "Two IKs, one control"
        outcome = f": IK '{loser.constraint}' on {loser.owner} misses its target."
    return severity, title, why, outcome


def _agreeing_why(first: IKChain, later: IKChain) -> str:
    """Why two IKs on one bone aimed at one point are only a warning, and what may yet differ."""
    if first.chain_count == later.chain_count:
        return (
            "Blender solves both as one tree; they agree now, but any difference in pole, "
            "chain length or influence makes them pull the chain two ways."
        )
    return (
        "Blender solves both as one tree toward one point, but with chain lengths "
        f"{first.chain_count} and {later.chain_count} they turn different bones, and whether "
        "both land depends on the rig (measured: the hand's IKs of length 2 then 3 leave the "
        "longer 4.4% of its reach short; in the other order, or on the foot, both land)."
    )


def _count_keeping_the_top(chain: IKChain) -> int:
    """The chain length that keeps the chain's top bone once Use Tail is turned over: without
    the tail Blender counts from the owner's parent (a count of 1 then turns the parent)."""
    if chain.chain_count == 0:
        return 0
    return max(chain.chain_count - 1, 1) if chain.use_tail else chain.chain_count + 1


def _waiting_for_a_pair(rig: RigView, finding: Finding, changed: IKChain) -> Finding:
    """The finding without its fix when ``changed`` alone turns the bones between a lower chain
    and an upper one on their control (``_turned_between``): muted or deleted, it would leave
    the lower one short (measured on 5.3 and 4.5: a second IK on the shin muted, the foot IK
    below a shin IK without Use Tail misses)."""
    others = [chain for chain in solving_chains(rig) if chain.key != changed.key]
    # Only a chain hanging from a bone ``changed`` turns can lose it; ancestors are walked once
    # per chain for one_above's test (per pair, a crowd's chains made diagnose 50x slower).
    turned = set(changed.moving_bones)
    hanging = {chain.key: {chain.root, *rig.ancestors(chain.root)} for chain in others}
    lowers = [chain for chain in others if turned.intersection(hanging[chain.key])]
    for upper, lower in ((upper, lower) for lower in lowers for upper in others):
        aimed = upper.shares_control(lower)
        if upper is lower or not aimed or not hanging[lower.key].intersection(upper.moving_bones):
            continue
        if lower_reaches(rig, upper, lower) and not lower_reaches(rig, upper, lower, changed.key):
            return replace(
                finding,
                fix_id=None,
                fix_label=None,
                needs_confirmation=False,
                no_fix_reason=f"IK '{changed.constraint}' on {changed.owner} turns the bones "
                f"IK '{lower.constraint}' on {lower.owner} hangs from: without it that one "
                "misses its control",
            )
    return finding


def _further_from_control(rig: RigView, first: IKChain, later: IKChain) -> IKChain:
    """Of two chains on one control, the one whose tip lies further from the control at rest
    (the later one when the control has no place): the one aimed at it by mistake."""
    control = rig.joint_point(first.target, first.subtarget)
    if control is None:
        return later
    return max((later, first), key=lambda chain: (rig.chain_tip(chain) - control).length)


def _toggle_agrees(rig: RigView, chain: IKChain, other: IKChain) -> bool:
    """Whether turning Use Tail over puts ``chain``'s tip on ``other``'s: the goals then agree (a
    foot's tail on the ankle's control cannot be: its head can; a thigh's cannot either way)."""
    owner = rig.bone(chain.owner)
    toggled = owner.head if chain.use_tail else owner.tail
    reach = max(rig.chain_reach(chain), rig.chain_reach(other), 1e-6)
    return (toggled - rig.chain_tip(other)).length <= SAME_POINT * reach


def _toggle_clashes(rig: RigView, chain: IKChain, other: IKChain) -> bool:
    """Whether ``chain`` with Use Tail turned over (the agree fix) would fight a third live IK
    as this check's error (a property example: the upper arm's IK reaching with its head, so
    turned, shares the upper arm with the forearm's IK on the hand control), or race ``other``
    (``racing_trees``; fresh seed 238: the hand's IK of length 3 turned over beside the
    forearm's of length 1, from their roots the upper arm and the forearm)."""
    toggled = replace(chain, use_tail=not chain.use_tail, chain_count=_count_keeping_the_top(chain))
    clash = clash_after(rig, toggled)
    racing = racing_trees(rig, toggled, other) is not None
    return racing or (clash is not None and clash.key != other.key)


def _tip(chain: IKChain) -> str:
    return f"{chain.owner}'s {'tail' if chain.use_tail else 'head'}"


def _control(chain: IKChain) -> str:
    if chain.target is None:
        return "none"
    return chain.subtarget or f"'{readable(chain.target)}'"


def mute_later_ik(obj: bpy.types.Object, finding: Finding) -> str:
    constraint = constraint_on(obj, finding.bone, finding.constraint, bpy.types.KinematicConstraint)
    constraint.mute = True
    return (
        f"Muted IK '{constraint.name}' on {finding.bone}; unmute it in the Bone Constraints "
        "tab to bring it back."
    )


def make_goals_agree(obj: bpy.types.Object, finding: Finding) -> str:
    ik = constraint_on(obj, finding.bone, finding.constraint, bpy.types.KinematicConstraint)
    before = ik.chain_count
    ik.use_tail = bool(finding.args["use_tail"])
    ik.chain_count = int(finding.args["chain_count"])
    tip = "tail" if ik.use_tail else "head"
    return (
        f"Turned Use Tail {'on' if ik.use_tail else 'off'} for IK '{ik.name}' on {finding.bone} "
        f"(chain length {before} to {ik.chain_count}): it now reaches for its control with the "
        f"bone's {tip}, where the other IK's tip is."
    )


def remove_later_ik(obj: bpy.types.Object, finding: Finding) -> str:
    ik = constraint_on(obj, finding.bone, finding.constraint, bpy.types.KinematicConstraint)
    aimed = readable(ik, "subtarget") or (readable(ik.target) if ik.target else "nothing")
    pose_of(obj).bones[finding.bone or ""].constraints.remove(ik)
    return (
        f"Deleted IK '{finding.constraint}' on {finding.bone} (it aimed at {aimed}); the other "
        "IK alone moves the shared bones now."
    )


CHECK = Check(
    id="duplicates",
    title="Duplicate IK",
    doc=__doc__ or "",
    find=find_duplicates,
    fixes={"mute": mute_later_ik, "remove": remove_later_ik, "agree": make_goals_agree},
    order=15,
)
