"""Chain length: how many bones the IK may rotate, counted up from the owner.

Blender's ``chain_count`` of 0 means "every parent up to the root": on a full rig a leg's IK then
drags the hips and spine. A count longer than the hierarchy silently acts as 0. A count that
reaches past the limb into a bone other limbs hang from (the hips, the chest) turns that bone
whenever the target moves, measured 23° to 28° for a leg of length 3, 32° for an arm of length
4 (``RigView.limb_carriers``): the tip lands, and the body moves with it. A count of 1 on a
limb leaves the parent (the thigh, the upper arm) frozen, so the tip falls short of the target,
unless the IK sits inside another live IK's longer chain that turns its bone (a makeshift pole
aim inside the hand IK): then the outer target wins at any length, and constraint_order reports
the nesting; or unless IK Stretch on the owner lands the tip by stretching it (a warning).
Without Use Tail the count starts at the owner's parent. The fix sets the limb's
natural length (see ``RigView.limb_length``), or for a chain reaching into the body the length
that stops where the limb starts away from its parent's tail.

What it reports:

- Any length, 0 included, that reaches past the limb into a bone other limbs hang from (the
  hips, the chest: a chain bone the next one down does not sit on, with other children): an
  error. Moving the target turns that bone, measured 23° to 28° for a leg of length 3 and 32°
  for an arm of length 4, while the tip still lands.
- 0 that reaches past the limb otherwise: a warning.
- Longer than the hierarchy: a warning.
- 1 on a limb whose parent should bend: an error. Not for an IK nested inside another live IK's
  longer chain that turns its bone, whose target wins at any length (measured: the aim still
  misses at length 2, and ``constraint_order`` reports the nesting). A warning when IK Stretch
  on the owner lands the tip by stretching it (measured on the leg and the arm at stretch 0.001;
  without it, 11% of the reach short).
- Use Tail off on a bone with no parent: an error, the IK turns nothing.
- Use Tail set by a driver or keys: a warning, no fix. Blender builds the chain from it when
  the file loads and keeps that chain when it changes (the reference arm, switched on by a
  driver or by keys after loading, stopped 89% of its reach short; saved and loaded again, it
  lands).
- Each is a warning on an IK switched off beside a live twin.
- Without Use Tail the count starts at the owner's parent, as Blender counts (measured).

What its fixes do:

- The limb's natural length (usually 2). For a chain reaching into the body, the length that
  stops where the limb starts away from its parent's tail.
- None without a parent to turn, nor for a chain of length 1 that lands by IK Stretch while
  its bone inherits no rotation: longer, it would bend 180° from its pole (the arm at stretch
  0.405 and the leg at 0.1, measured); nor while its pole angle would turn the longer chain's
  bend away from the pole (the arm and the leg at stretch 0.1, the angle turned 150°): the
  pole's fix first.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import bpy

from ..core.driven import setting_source
from ..core.editing import constraint_on
from ..core.finding import Finding, Severity, chain_finding
from ..core.reach import stretching_bones
from ..core.registry import Check
from ..core.rig import IKChain, RigView
from ..core.started import start_felt_once_joined
from .pole import angle_fails_at_length


def find_chain_length_problems(rig: RigView, options: Mapping[str, Any]) -> Iterator[Finding]:
    for chain in rig.chains:
        switched = _tail_switched(rig, chain)
        if switched is not None:
            yield switched
        problem = _problem(rig, chain)
        if problem is None:
            continue
        severity, title, message, why, bones, facts = problem
        length = chain.count_for(bones)
        fix: dict[str, Any] = dict(
            fix_id="set_length",
            fix_label=f"Set chain length to {length}",
            fix_args=(("length", length),),
        )
        if length == chain.chain_count or not chain.moving_part(chain.bones[:bones]):
            # Without Use Tail the owner's parent is the first bone turned: no length helps.
            fix = dict(no_fix_reason="turn on Use Tail, or move the IK to the bone below")
        elif severity == Severity.WARNING and (why_not := _longer_fails(rig, chain, length)):
            fix = dict(no_fix_reason=why_not)
        yield chain_finding(
            "chain_length",
            rig,
            chain,
            severity=severity,
            title=title,
            message=message,
            why=why,
            facts=facts,
            **fix,
        )


def _longer_fails(rig: RigView, chain: IKChain, length: int) -> str | None:
    """Why a chain of length 1 that lands (by IK Stretch) would fail at the limb's length, or
    None. Its bone inherits no rotation: the longer chain would fold a joint that ignores its
    parent's turn (fresh seed 259: the forearm IK with IK Stretch 0.405, the forearm not
    inheriting rotation, lands; at length 2 it bends 180° from its pole). Or its pole angle,
    which turns nothing at length 1, would turn the longer chain's bend away from the pole. Or
    a constraint the IK overrides sets where the solver starts it (``start_felt_once_joined``:
    fresh seed 369, the shin copying the hand control's rotation, 91° from its pole at length
    2)."""
    if chain.chain_count != 1:
        return None
    if not rig.raw_bone(chain.owner).use_inherit_rotation:
        return (
            f"{chain.owner} inherits no rotation: longer, the chain would bend it from a joint "
            "that ignores the bend above (the inherit check's error); turn on the Inherit "
            f"Rotation of {chain.owner} first"
        )
    setting = start_felt_once_joined(rig, chain, chain.owner)
    if setting is not None:
        return (
            f"'{setting}' on {chain.owner} sets where the solver starts it: longer, the chain "
            "would bend its joint from that start, away from its pole (the constraint_order "
            "check's error); fix that first"
        )
    return angle_fails_at_length(rig, chain, length)


def _tail_switched(rig: RigView, chain: IKChain) -> Finding | None:
    """Use Tail set by a driver or keys: Blender builds each IK chain from it when it loads the
    file (or the rig's relations change), and does not rebuild it when the setting changes."""
    how = setting_source(rig, chain.owner, chain.constraint, "use_tail")
    if how is None:
        return None
    source = "a driver sets" if how == "driven" else "keys set"
    return chain_finding(
        "chain_length",
        rig,
        chain,
        severity=Severity.WARNING,
        title="Use Tail switched",
        message=f"On IK '{chain.constraint}' on {chain.owner}, {source} Use Tail.",
        why=(
            "Blender builds the IK chain from Use Tail when it loads the file, and keeps that "
            "chain when the setting changes: switched afterwards, the solver turns the old one "
            "(measured on the reference arm, switched on by a driver or by keys after loading: "
            "the tip 89% of the reach short; the file saved and loaded again, it lands)."
        ),
        no_fix_reason=(
            f"{'the driver' if how == 'driven' else 'the keys'} would set it back: keep Use "
            "Tail constant, and switch between two IKs by their influence instead"
        ),
    )


_Problem = tuple[Severity, str, str, str, int, tuple[tuple[str, Any], ...]]
"""Severity, title, message, why, how many bones from the owner up the chain should span, and
the finding's facts: what the message names."""


def _problem(rig: RigView, chain: IKChain) -> _Problem | None:
    """The chain's length problem, if it has one."""
    where = f"IK '{chain.constraint}' on {chain.owner}"
    carriers = rig.limb_carriers(chain)
    if carriers:
        return _reaches_the_body(rig, chain, carriers[0], where)
    if chain.chain_count not in (0, 1) and not chain.is_cut_short:
        return None  # a set length that the hierarchy holds: none of the cases below
    natural = max(rig.limb_length(chain.owner), _twin_span(rig, chain))
    limb = " → ".join(reversed(chain.bones[:natural]))
    if not chain.moving_bones:
        return (
            Severity.ERROR,
            "IK turns nothing",
            f"{where} has Use Tail off and {chain.owner} has no parent: the IK turns nothing.",
            "Without Use Tail the owner's head is the tip and the chain starts at its parent; "
            "a bone without a parent leaves the IK nothing to turn.",
            natural,
            (),
        )
    if chain.chain_count == 0 and len(chain.bones) > natural:
        dragged = ", ".join(reversed(chain.bones[natural:]))
        return (
            Severity.WARNING,
            "Chain length 0",
            f"{where} has chain length 0, which reaches past the limb into {dragged}.",
            "Chain length 0 means every parent up to the root: moving the target bends the "
            f"body ({dragged}) as well as the limb ({limb}).",
            natural,
            (),
        )
    if chain.is_cut_short and rig.detached_parent(chain) is None:
        return (
            Severity.WARNING,
            "Chain longer than rig",
            f"{where} has chain length {chain.chain_count}, but only "
            f"{len(chain.moving_bones)} bones lie above it.",
            "Blender stops at the root, so the extra length does nothing now, and moves the "
            "root too if the rig is later parented.",
            natural,
            (),
        )
    # Inside another live IK's longer chain that turns its bone, the outer target wins at any
    # length (measured on the Godot robot: at length 2 the arms still stop 0.205 and 0.662
    # short): the nesting is the fault, and constraint_order reports it.
    one_short = chain.chain_count == 1 and len(chain.bones) < natural
    if one_short and rig.nesting_chain(chain) is None:
        # Measured on the leg and the arm: IK Stretch on the owner (0.001 even) lands the tip
        # on every goal the oracle sets, by stretching the one bone (11% of the reach short
        # without it, or with the IK's own Stretch off), given the iterations the solver check
        # asks (57 at 0.1, ``ONE_BONE_STRETCH_PACE``).
        stretching = stretching_bones(rig, chain)
        return (
            Severity.WARNING if stretching else Severity.ERROR,
            "Chain length 1, stretches" if stretching else "Chain length 1",
            f"{where} has chain length 1, so {chain.root}'s parent never bends"
            + (
                f": IK Stretch on {', '.join(stretching)} still lands the tip, by stretching, "
                "given iterations enough (measured)."
                if stretching
                else "."
            ),
            f"Only the owner rotates; with its parent frozen the tip cannot reach most "
            f"targets. The limb is {limb}.",
            natural,
            (),
        )
    return None


def _twin_span(rig: RigView, chain: IKChain) -> int:
    """Bones spanned by the longest live twin of the chain with a set length: another IK on its
    owner aimed at its control. The rigger set that twin's length for this limb, whatever bones
    above carry IKs of their own (seed 118: beside a twin of length 2, the forearm IK of length
    1 stops 39% of the arm's reach short under an upper-arm IK on the hand control, which ends
    the limb as read from the bones alone). Not where a third IK turns a bone the twin adds: that
    bone is the third's limb (the foot IK of length 1 beside one of 2 lands under the leg's IK).
    A twin reaching into the body spans the limb only up to it: the bone other limbs hang from
    is no part of this limb (seed 224: the thigh's IK of length 1 lands beside a twin that turns
    the hips, with or without Use Tail; the twin is ``_reaches_the_body``'s error)."""
    twins = [
        twin
        for twin in rig.chains_on_bone(chain.owner)
        if twin.key != chain.key and twin.live and twin.chain_count and twin.shares_control(chain)
    ]
    if not twins:
        return 0
    chains = [other for other in rig.chains if other.live and other.key != chain.key]
    spans = [
        twin.bones.index(body[0]) if (body := rig.limb_carriers(twin)) else len(twin.bones)
        for twin in twins
        if not any(
            set(twin.bones[len(chain.bones) :]).intersection(third.moving_bones)
            for third in chains
            if third.key != twin.key
        )
    ]
    return max(spans, default=0)


def _reaches_the_body(rig: RigView, chain: IKChain, carrier: str, where: str) -> _Problem:
    """The chain turns ``carrier``, a bone other limbs hang from: stop the chain where the limb
    starts away from its parent's tail (the thigh below the hips, the upper arm below a
    shoulder), at the carrier at the latest."""
    below = 1 + next(i for i, name in enumerate(chain.bones) if not rig.sits_on_parent(name))
    others = [child for child in rig.children(carrier) if child not in chain.bones]
    hanging = " and ".join([", ".join(others[:-1]), others[-1]] if len(others) > 1 else others)
    limb = " → ".join(reversed(chain.bones[:below]))
    return (
        Severity.ERROR,
        "Chain turns the body",
        f"{where} has chain length {chain.chain_count}, which reaches past the limb into "
        f"{carrier}, the bone {hanging} hang from too: moving the target turns it.",
        f"The solver turns every bone of the chain to reach the target, {carrier} too, and "
        f"everything hanging from it swings with it (measured: a leg of length 3 turns the "
        f"hips 23° to 28°). The limb is {limb}.",
        below,
        (("carrier", carrier), ("hanging", tuple(others))),
    )


def set_chain_length(obj: bpy.types.Object, finding: Finding) -> str:
    length = int(finding.args["length"])
    constraint = constraint_on(obj, finding.bone, finding.constraint, bpy.types.KinematicConstraint)
    before = constraint.chain_count
    constraint.chain_count = length
    return (
        f"Set the chain length of IK '{constraint.name}' on {finding.bone} from {before} "
        f"to {length}."
    )


CHECK = Check(
    id="chain_length",
    title="Chain length",
    doc=__doc__ or "",
    find=find_chain_length_problems,
    fixes={"set_length": set_chain_length},
    order=30,
)
