"""Muted IK above a live one: a switched-off IK that Blender still builds into the solve.

Two IK constraints on one bone, one live and one muted (or at influence 0), are how many rigs
switch a limb between two targets. Blender still builds a switched-off IK with a target into
the bone's solve where it stands above the live one in the stack and has *Use Tail* off: the
live IK then misses. Measured in 4.2 and 5.3 on the reference arm and leg, both IKs on the
limb's control or the second on another limb's, with or without poles, chain lengths 1 to 3,
the live IK with and without Use Tail: every such live IK that lands alone stops 31% to 189% of
its reach short, in runs alone and beside other work. Below the live IK, or with Use Tail on,
the switched-off IK changes nothing (every one of those limbs lands as if it were deleted), nor
does one without a target or on another bone of the chain.

What it reports:

- A live IK below a switched-off IK with a target and Use Tail off on the same bone: an error on
  the live IK, naming the switched-off one.

What its fixes do:

- Moves the switched-off IK to just below the live one in the bone's stack: neither IK's
  settings change, and the live IK then lands (measured).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import bpy

from ..core.armature import pose_bone_of
from ..core.editing import constraint_on
from ..core.finding import Finding, Severity, chain_finding
from ..core.registry import Check
from ..core.rig import IKChain, RigView
from ..core.switches import built_in_while_off

WHY = (
    "Blender builds every IK with a target on a bone into that bone's solve, switched off or "
    "not; one above the live IK with Use Tail off is solved first over its own chain, and the "
    "live IK misses (measured on the reference arm and leg: 31% to 189% of the reach short). "
    "Below the live IK, or with Use Tail on, it changes nothing."
)


def find_muted_iks(rig: RigView, options: Mapping[str, Any]) -> Iterator[Finding]:
    for live in rig.chains:
        built_in = built_in_while_off(rig, live)
        if built_in:
            yield _finding(rig, live, built_in[0])


def _finding(rig: RigView, live: IKChain, off: IKChain) -> Finding:
    how = "muted" if off.mute else "at influence 0"
    beyond = [name for name in off.moving_bones if name not in live.moving_bones]
    hanging = "all that hangs from " + ("it" if len(beyond) == 1 else "them")
    also = f" It turns {', '.join(beyond)} too, and {hanging}." if beyond else ""
    return chain_finding(
        "muted_ik",
        rig,
        live,
        severity=Severity.ERROR,
        title="Muted IK still counts",
        message=(
            f"IK '{off.constraint}' on {live.owner} is {how}, but it stands above IK "
            f"'{live.constraint}' with Use Tail off, and Blender still builds it into the "
            f"bone's solve: IK '{live.constraint}' misses its target.{also}"
        ),
        why=WHY,
        fix_id="move_below",
        fix_label=f"Move IK '{off.constraint}' below IK '{live.constraint}' in the stack",
        fix_args=(("switched_off", off.constraint),),
        facts=(("switched_off", off.constraint),),
    )


def move_below(obj: bpy.types.Object, finding: Finding) -> str:
    name = str(finding.args["switched_off"])
    off = constraint_on(obj, finding.bone, name, bpy.types.KinematicConstraint)
    live = constraint_on(obj, finding.bone, finding.constraint, bpy.types.KinematicConstraint)
    stack = pose_bone_of(obj, finding.bone or "").constraints
    order = list(stack)
    stack.move(order.index(off), order.index(live))
    return f"Moved IK '{off.name}' of {finding.bone} below IK '{live.name}'."


CHECK = Check(
    id="muted_ik",
    title="Muted IK above a live one",
    doc=__doc__ or "",
    find=find_muted_iks,
    fixes={"move_below": move_below},
    order=16,
)
