"""IK goal: what the solver asks of the chain's tip, its target's position, rotation, or both.

An IK constraint's *Position* (``use_location``) makes the tip reach for where the target is;
its *Rotation* (``use_rotation``) makes the tip also turn to the target's rotation, weighed
against the position by *Weight Rotation* (``orient_weight``). A limb has too few joints to
meet both wherever the target goes: the solver settles between them, so the tip stops short of
a target in reach. Measured in 4.2 and 5.3 on the reference rig, the target moved but not
turned, as an animator moves a foot control: with Rotation on at a weight of 0.01, 0.1, 0.5 and
1, the leg stops 3.3%, 18%, 86% and 88% of its reach short, the arm 1.4%, 8.2%, 18% and 21%;
the arm's IK reaching into the shoulder (three and four bones) 1.4% to 12%. With Position off
the tip only turns: the arm stops 79% of its reach away, the leg 125%. Riggers turn a hand or a
foot with its control by a Copy Rotation on the bone below the chain, which leaves the reach
alone.

What it reports:

- An IK with Rotation on, or Position off: an error, the tip stops short of targets in reach. A
  warning on an IK switched off beside a live twin, judged through the twin: it fails once
  switched on.

What its fixes do:

- Position on and Rotation off: the IK reaches for the target's position only (the leg and the
  arm then land on every goal).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import bpy

from ..core.editing import constraint_on
from ..core.finding import Finding, Severity, chain_finding
from ..core.registry import Check
from ..core.rig import RigView
from ..core.switches import switched_off

WHY_ROTATION = (
    "A limb has too few joints to meet both the target's position and its rotation wherever it "
    "goes: the solver settles between them and the tip stops short (measured on the reference "
    "leg at a rotation weight of 0.01: 3.3% of its reach short; at 0.5, 86%). Turn the hand or "
    "foot with a Copy Rotation of the control on the bone below the chain instead."
)
WHY_POSITION = (
    "With Position off the solver only turns the tip to the target's rotation and never "
    "reaches for where the target is (measured: the reference arm stops 79% of its reach away "
    "from a target in reach)."
)


def find_goal_problems(rig: RigView, options: Mapping[str, Any]) -> Iterator[Finding]:
    for chain in rig.chains:
        ik = rig.ik_constraint(chain)
        position_off = not ik.use_location
        if not (position_off or (ik.use_rotation and ik.orient_weight > 0.0)):
            continue
        if not chain.live and not switched_off(rig, chain):
            continue  # muted by hand: it acts on nothing until the animator switches it on
        where = f"IK '{chain.constraint}' on {chain.owner}"
        if position_off:
            title, why = "Position off", WHY_POSITION
            message = f"{where} has Position off: it turns its tip but never reaches the target."
        else:
            title, why = "Rotation pulls tip off", WHY_ROTATION
            message = (
                f"{where} has Rotation on (weight {ik.orient_weight:.2f}): it trades reaching "
                "the target for turning the tip to the target's rotation."
            )
        yield chain_finding(
            "goal",
            rig,
            chain,
            severity=Severity.ERROR,
            title=title,
            message=message,
            why=why,
            fix_id="position_only",
            fix_label="Reach for the target's position only (Position on, Rotation off)",
            facts=(
                ("use_location", ik.use_location),
                ("use_rotation", ik.use_rotation),
                ("orient_weight", round(ik.orient_weight, 4)),
            ),
        )


def reach_for_position_only(obj: bpy.types.Object, finding: Finding) -> str:
    constraint = constraint_on(obj, finding.bone, finding.constraint, bpy.types.KinematicConstraint)
    changed = []
    if not constraint.use_location:
        constraint.use_location = True
        changed.append("turned Position on")
    if constraint.use_rotation:
        constraint.use_rotation = False
        changed.append("turned Rotation off")
    done = " and ".join(changed) or "left Position on and Rotation off, as they were"
    return f"On IK '{constraint.name}' of {finding.bone}: {done}."


CHECK = Check(
    id="goal",
    title="IK goal: position and rotation",
    doc=__doc__ or "",
    find=find_goal_problems,
    fixes={"position_only": reach_for_position_only},
    order=22,
)
