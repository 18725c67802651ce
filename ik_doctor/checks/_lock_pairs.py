"""Locks findings weighed against another IK on the same control: one that pulls the same bones
to the same point (two goals pull a stiff chain harder), one that moves more bones to that
point (it carries this chain's tip), or one below that lands only while a chain locked on every
axis cannot turn (freeing it would make that one miss)."""

from __future__ import annotations

from dataclasses import replace

from ..core.finding import Finding, lowered
from ..core.rig import IKChain, RigView
from ._stacked_chains import agreeing_twin, held_below, same_point, solving_chains


def weighed_against_other_iks(
    rig: RigView, chain: IKChain, findings: list[Finding]
) -> list[Finding]:
    """The chain's locks findings, weighed against the other IKs on its control."""
    findings = _held_for_the_chain_below(rig, chain, findings)
    findings = _carried_by_a_longer_chain(rig, chain, findings)
    return _weighed_against_a_paired_goal(rig, chain, findings)


PAIRED_GOAL_LANDS = 0.0046
"""Share of the reach below which a chain stiff enough to stop that far short alone lands when
a second IK pulls the same bones to the same point (``agreeing_twin``). Measured on 5.3 with the
reference arm and leg, a hand's or foot's IK turned to agree with the limb's: the pair lands
where the limb alone stops up to 0.45% short (the thigh at 0.95: 0.041% with the pair), and
stops short where alone it stops 0.56% or more (the forearm at 0.99: 0.20%)."""
PAIRED_ROOT_LANDS = 0.0058
"""``PAIRED_GOAL_LANDS`` where the stiff bone is the chain's root, which the pair's two goals
turn the harder. Measured on 4.2 with the hand's IK turned to agree (fresh seed 249, a trade:
the upper arm at 0.965, read 0.49% short alone, landed with the pair): the upper arm lands to
0.97 (read 0.57%) and fails from 0.975 (0.64%), the thigh lands to 0.965 (0.52%) and fails
from 0.975 (0.59%); the lower bone lands to 0.98 (0.38%) and fails from 0.985 (0.47%)."""


def _weighed_against_a_paired_goal(
    rig: RigView, chain: IKChain, findings: list[Finding]
) -> list[Finding]:
    """Stiffness errors made warnings on a chain that another IK pulls the same way, where the
    shortfall alone is below ``PAIRED_GOAL_LANDS``: the two goals pull the tree harder
    against its stiffness (measured: arm and leg, every bone or one at 0.7 to 0.99, the pair
    stops at most 0.37 times as far short as the chain alone)."""
    twin = agreeing_twin(rig, chain)
    if twin is None:
        return findings
    paired = (
        f" But IK '{twin.constraint}' on {twin.owner} pulls the same bones to the same point: the "
        "two goals pull it harder, and it lands (measured)."
    )
    return lowered(
        findings,
        paired,
        ("paired_with", twin.key),
        lambda f: (
            f.fix_id == "clear_stiffness"
            and f.stated["shortfall"]
            < (PAIRED_ROOT_LANDS if f.bone == chain.root else PAIRED_GOAL_LANDS)
        ),
    )


def _held_for_the_chain_below(
    rig: RigView, chain: IKChain, findings: list[Finding]
) -> list[Finding]:
    """Findings whose fix would free a chain locked on every axis, left without it while an IK
    below on the same control lands only because this chain cannot turn (``held_below``):
    freed, this chain reaches and that one misses (measured on the leg and the arm under a
    foot's or hand's IK of length 1: a fix that trades)."""
    below = held_below(rig, chain)
    if below is None:
        return findings
    waits = (
        f" Freed, it would leave IK '{below.constraint}' on {below.owner}, aimed at the same "
        "control, short (the duplicates check): fix that pair first."
    )
    return [
        replace(
            f,
            message=f.message + waits,
            fix_id=None,
            fix_label=None,
            fix_args=(),
            facts=(*f.facts, ("blocked_by", "duplicates")),
        )
        if f.fix_id == "free_axes"
        else f
        for f in findings
    ]


def _carried_by_a_longer_chain(
    rig: RigView, chain: IKChain, findings: list[Finding]
) -> list[Finding]:
    """Errors made warnings on a chain whose tip another live IK puts on the same control,
    moving these bones and more: Blender solves the two as one tree, so this chain lands
    wherever that one does, and where that one fails, its own findings say why. Fresh seed
    456, a trade: the foot's IK without Use Tail, of length 1, beside the leg's on the foot
    control, the shin locked on every axis and the leg stretching 0.5: both land."""
    for other in solving_chains(rig):
        if (
            other.key != chain.key
            and other.shares_control(chain)
            and set(chain.moving_bones) < set(other.moving_bones)
            and same_point(rig, chain, other)
        ):
            carried = (
                f" But IK '{other.constraint}' on {other.owner}, aimed at the same control, moves "
                "these bones and more to the same point: this chain lands wherever that one does."
            )
            return lowered(findings, carried, ("carried_by", other.key), lambda f: True)
    return findings
