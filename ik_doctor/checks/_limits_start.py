"""How one-sided IK limits that fold a chain straight at rest take the start a constraint the
IK overrides gives it (for ``rest_pose`` and ``constraint_order``): as their fold, held straight
against them, or held back by a root limited the other way."""

from __future__ import annotations

import math

import bpy

from ..core.finding import Severity
from ..core.limb import pole_turn, root_folds_against
from ..core.names import readable
from ..core.rig import IKChain, RigView
from ..core.start import straight_start_bends, target_tracking_joint
from ._straight_start import StartBend, built_side_from_pole

LIMITS_HOLD = 179.5
"""Degrees a constraint's start may bend a chain straight at rest off the side its IK limits
fold it to and still start it bent: further, the limits hold it straight. Measured on the leg
and the arm folding along or away from their poles, started by a Copy Rotation of a control
turned about the chain's line: 0° to 179° off they land (179° too), 180° off they stop 3.4%
short (seed 284's class; the edge had been 145°, with 116° to 179° not measured)."""
ROOT_HOLD = 72.0
"""Degrees off the limits' fold within which a start leaves a chain whose root's IK limit turns
it the other way short (``root_folds_against``, "root held"). Measured on the leg and the arm
with both hinges one-sided, the start turned about the chain's line: 0° to 69° off they stop
1.1% to 38% of the reach short, 76° to 179° off they land."""
KEPT_POLE_ANGLE = 1.0
"""Degrees a pole angle may be off the one that keeps the rest pose and still keep it."""


def _against_the_limits(built: float, bends: list[float]) -> bool:
    """Whether a start bends a chain straight at rest against the IK limits that fold it to
    ``built`` (``built_side_from_pole``; the bends read from the side facing the pole, with the
    body as modelled or turned either way), further than ``LIMITS_HOLD``."""
    return any(_off_the_fold(built, bend) > LIMITS_HOLD for bend in bends)


def _off_the_fold(built: float, bend: float) -> float:
    """Degrees a start's ``bend`` lies off the side ``built`` the IK limits fold the chain to."""
    return abs(math.degrees(math.remainder(bend - built, math.tau)))


def limits_start(rig: RigView, chain: IKChain) -> str | None:
    """What a constraint the IK overrides does starting a chain straight at rest whose IK limits
    fold it along or opposite its pole (``built_side_from_pole``): "held" when it bends it against
    them (they hold it straight), "root held" when the root's limit turns it against the fold, the
    start lies within ``ROOT_HOLD`` of the fold and is not a Damped Track at the target (measured: a
    Damped Track at the pole or a Track To of the control leaves the leg and the arm 0.2% to 35%
    short; tracking the control they land), "lands" when the limits take the start as their fold:
    opposite the pole at any pole angle (it bends as built or toward the pole), along it at the
    angle that keeps the rest pose (``KEPT_POLE_ANGLE``; measured: the leg started 90° off its fold
    lands there, turned 20° or 60° flips). None where the pole's side decides (the start turned by
    the pole angle, ``core.start``), or no constraint starts it."""
    verdict = _limits_verdict(rig, chain)
    return None if verdict is None else verdict[0]


def _limits_verdict(
    rig: RigView, chain: IKChain
) -> tuple[str, tuple[str, bpy.types.Constraint, list[float]]] | None:
    """``limits_start``'s verdict, with the start it read (``straight_start_bends``)."""
    built = built_side_from_pole(rig, chain)
    started = straight_start_bends(rig, chain)
    if built is None or started is None:
        return None
    if _against_the_limits(built, started[2]):
        return "held", started
    if (
        _off_the_fold(built, started[2][0]) < ROOT_HOLD
        and root_folds_against(rig, chain)
        and target_tracking_joint(rig, chain) is None
    ):
        return "root held", started
    turn = math.degrees(abs(pole_turn(rig, chain) or 0.0))
    return ("lands", started) if built == math.pi or turn < KEPT_POLE_ANGLE else None


def limits_decide(
    rig: RigView, chain: IKChain, start: StartBend
) -> tuple[Severity, str, str, str] | None:
    """Severity, title, effect and why no pre-bend is offered where the IK limits decide what a
    constraint's start does (``limits_start``); None where the pole's side does."""
    found = _limits_verdict(rig, chain)
    if found is None:
        return None
    verdict, started = found
    constraint = f"'{readable(started[1])}' on {started[0]}"
    if verdict == "held":
        effect = (
            f"{start.shown} bends it against its IK limits where the solver starts; they hold "
            "it straight, and with its pole it does not bend (measured: the leg and the arm "
            "stop 3.4% of the reach short)."
        )
        return Severity.ERROR, "Start held straight", effect, f"mute {constraint} and pre-bend it"
    if verdict == "root held":
        effect = (
            f"{start.shown} starts it bent within its IK limits, but the IK limit of "
            f"{chain.root} lets it turn only the other way from the fold, and the solver leaves "
            "it short (measured: the leg and the arm started within 69° of the fold stop 1.1% "
            "to 38% of the reach short; 76° off and further, they land)."
        )
        free = f"free the IK limit of {chain.root}"
        return Severity.ERROR, "Bent at start, root held", effect, free
    effect = (
        f"the solver starts from the bend {start.shown} gives it, within its IK limits, which "
        "take it as their fold: it bends as its limits build it or toward the pole (measured: "
        "the leg and the arm started 90° to 115° off that fold land)."
    )
    keep = (
        f"{constraint} starts it bent within its limits, and pre-bent the other way that start "
        "would flip it"
    )
    return Severity.WARNING, "Straight, bent at start", effect, keep
