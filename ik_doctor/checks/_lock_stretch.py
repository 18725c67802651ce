"""When IK Stretch makes up for what a chain's locks, limits and stiffness hold back, for the
locks check: the solver stretches where it cannot turn, and the chain lands all the same."""

from __future__ import annotations

from dataclasses import replace

from ..core.finding import Finding, Severity, lowered
from ..core.names import readable
from ..core.reach import stretching_bones
from ..core.rig import IKChain, RigView
from ._stacked_chains import agreeing_twin
from ._tip_motion import blocked_every_way

BEND_LOCKED_TITLE = "Bend axis locked"
"""The title of a bone's blocked-bend-axis error (``locks._bend_finding``)."""


def bend_locked(findings: list[Finding]) -> set[str]:
    """The bones these lock findings call blocked on their own bend axis."""
    return {f.bone for f in findings if f.title == BEND_LOCKED_TITLE and f.bone}


ALONE_FROM = 0.27
ALONE_FAILS = 0.36
"""IK Stretch on one bone alone of a two-bone limb locked on both bend axes: from
``ALONE_FROM`` it stops short on some limbs, from ``ALONE_FAILS`` on every one measured.
Measured in 4.2 and 5.3 on the reference leg and arm, both bones locked on X, either bone
stretching: up to 0.25 they land (0.057% of the reach at most); the leg stops 0.23% short from
0.27, the forearm 0.40% from 0.3, the upper arm from 0.36 (0.1% at 0.3 and 0.33). The solver
stretches the one bone that can instead of folding both; with every bone stretching, from 0.01,
they land."""


def weighed_against_stretch(rig: RigView, chain: IKChain, findings: list[Finding]) -> list[Finding]:
    """Errors made warnings on a chain that reaches by IK Stretch what its locks, limits and
    stiffness keep it from turning to: any stretching bone makes up a blocked bend axis, a
    narrow limit or stiffness, but a chain with every bone locked on every axis needs every bone
    to stretch (measured on the leg and the arm, ``stretching_bones``: one bone so locked, any
    one stretching bone, even itself at 0.001, lands; both so locked, one stretching bone
    leaves the leg 0.34% and the arm 0.77% of the reach short), and a two-bone limb locked on
    both bend axes needs more than one bone stretching far (``ALONE_FAILS``). Nor does it
    where every bone is so locked and no pole turns the chain, its own or an agreeing twin's:
    nothing aims it (``_unaimed``)."""
    stretching = stretching_bones(rig, chain)
    if not stretching or not any(f.severity == Severity.ERROR for f in findings):
        return findings
    frozen = blocked_every_way(rig, chain)
    if frozen and not _turned_by_a_pole(rig, chain):
        return [_unaimed(f) for f in findings]
    if frozen and set(stretching) != set(chain.moving_bones):
        return findings
    alone = _stretching_alone(rig, chain, findings, stretching)
    if alone >= ALONE_FAILS:
        return [_not_made_up(f, stretching[0], alone) for f in findings]
    made_up = (
        f" But IK Stretch on {', '.join(stretching)} makes up for it: the chain reaches by "
        "stretching (measured)."
        if alone < ALONE_FROM
        else f" But IK Stretch on {stretching[0]} alone ({alone:.2g}) makes up for it on some "
        "limbs: measured with both bend axes locked, an arm lands at 0.3 and a leg stops 0.23% "
        "of its reach short from 0.27; with every bone stretching it lands."
    )
    return lowered(findings, made_up, ("stretching", stretching), lambda f: True)


def _turned_by_a_pole(rig: RigView, chain: IKChain) -> bool:
    """Whether a pole turns the chain: its own, or that of an IK pulling the same bones to the
    same point (``agreeing_twin``), which the solver turns them by for both. Fresh seed 351, a
    trade: a hand's IK without a pole beside the forearm's with one, both bones locked on every
    axis and stretching, lands with it (measured on 4.2 and 5.3)."""
    if chain.pole is not None:
        return True
    twin = agreeing_twin(rig, chain)
    return twin is not None and twin.pole is not None


def _stretching_alone(
    rig: RigView, chain: IKChain, findings: list[Finding], stretching: tuple[str, ...]
) -> float:
    """The IK Stretch of the one stretching bone of a two-bone limb whose bones are both
    blocked on their bend axes (``BEND_LOCKED_TITLE`` errors on each); 0 otherwise."""
    if len(chain.moving_bones) != 2 or len(stretching) != 1:
        return 0.0
    locked = {
        f.bone for f in findings if f.severity == Severity.ERROR and f.title == BEND_LOCKED_TITLE
    }
    if not {readable(rig.pose_bone(name)) for name in chain.moving_bones} <= locked:
        return 0.0
    return rig.pose_bone(stretching[0]).ik_stretch


def _not_made_up(finding: Finding, bone: str, stretch: float) -> Finding:
    if finding.severity != Severity.ERROR:
        return finding
    return replace(
        finding,
        message=finding.message
        + f" IK Stretch on {bone} alone ({stretch:.2g}) does not make up for it: the solver "
        "stretches that bone instead of folding (measured with both bend axes locked: the leg "
        "0.23% and the arm 0.40% of the reach short from 0.36; with every bone stretching, "
        "they land).",
        facts=(*finding.facts, ("stretching", (bone,))),
    )


def _unaimed(finding: Finding) -> Finding:
    """Stretch only lengthens a chain locked on every axis; a pole would still turn it toward
    the target, and without one nothing does (fresh seed 129: measured on the leg and the arm,
    IK Stretch 0.1 or 0.5 on the lower bone and a tenth of it on the upper: 33.6% and 32.2% of
    the reach short; with the pole they land)."""
    if finding.severity != Severity.ERROR:
        return finding
    return replace(
        finding,
        message=finding.message
        + " IK Stretch does not make up for it: with every axis locked and no pole, nothing "
        "turns the chain toward the target, and stretching only lengthens it.",
    )
