"""Stretch: IK stretch spread unevenly over a chain, so one bone takes all of it.

With the constraint's Stretch on, each chain bone scales along its length by its own
``ik_stretch``. Measured in 4.2 and 5.3 on the reference leg: with 0.1 on both bones a target
at 1.3 times the reach stretches thigh and shin alike (1.3 each); with 0.1 on the thigh and 0
on the shin the thigh alone grows to 1.6 times its length, and even a target within reach
shrinks it to 0.92 while the shin stays: the knee slides along the leg and the mesh with it.
The tip reaches either way, so this is a warning. Equal values stretch in proportion.

A non-uniformly scaled armature is the ``transforms`` check's finding and a bone sheared by a
parent's non-uniform pose scale the ``inherit`` check's: measured, chains on a (1, 1, 2) armature
reach with stretch on (tip error 0.0002), so stretch is not the fault there.

What it reports:

- IK Stretch spread unevenly over a chain with Stretch on, one bone's value more than 1.5 times
  another's: a warning. The stretchy bone grows 1.6 times while the other stays, and the joint
  slides.

What its fixes do:

- Set the largest value on every bone of the chain.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import bpy

from ..core.armature import pose_of
from ..core.finding import Finding, Severity, chain_finding
from ..core.registry import Check
from ..core.rig import IKChain, RigView


def find_stretch_problems(rig: RigView, options: Mapping[str, Any]) -> Iterator[Finding]:
    fixed: set[str] = set()
    stretchy = rig.pose_bones_where(rig.pose_values("ik_stretch") > 0.0)
    for chain in rig.chains:
        if chain.mute or len(chain.bones) < 2 or fixed.intersection(chain.bones):
            continue
        if stretchy.isdisjoint(chain.bones):
            continue  # no bone of the chain stretches: nothing uneven
        if not rig.ik_constraint(chain).use_stretch:
            continue
        stretch = {name: rig.pose_bone(name).ik_stretch for name in chain.bones}
        most, least = max(stretch.values()), min(stretch.values())
        if most <= 0.0 or least * options["max_ratio"] >= most:
            continue
        fixed.update(chain.bones)
        yield _finding(rig, chain, stretch, most)


def _finding(rig: RigView, chain: IKChain, stretch: dict[str, float], most: float) -> Finding:
    values = ", ".join(f"{name} {value:.3g}" for name, value in reversed(stretch.items()))
    stiff = [name for name, value in stretch.items() if value < most]
    return chain_finding(
        "stretch",
        rig,
        chain,
        severity=Severity.WARNING,
        title="Uneven IK Stretch",
        message=(
            f"IK '{chain.constraint}' on {chain.owner} stretches its bones unevenly "
            f"({values}): {', '.join(reversed(stiff))} barely stretch while the rest does."
        ),
        why=(
            "With Stretch on, each bone scales along its length by its own IK Stretch: the "
            "bones that stretch more grow and shrink alone, so the joints slide along the "
            "limb instead of the limb scaling in proportion."
        ),
        fix_id="even_stretch",
        fix_label=f"Set IK Stretch to {most:.3g} on every bone of the chain",
        fix_args=(("value", most),),
    )


def even_out_stretch(obj: bpy.types.Object, finding: Finding) -> str:
    rig = RigView(obj)
    chain = rig.chain_of(finding)
    value = float(finding.args["value"])
    changed = []
    for name in chain.bones:
        pose_bone = pose_of(obj).bones[name]
        if pose_bone.ik_stretch != value:
            changed.append(f"{name} from {pose_bone.ik_stretch:.3g}")
            pose_bone.ik_stretch = value
    return f"Set IK Stretch to {value:.3g} on {', '.join(changed)}: the limb stretches evenly."


CHECK = Check(
    id="stretch",
    title="IK stretch",
    doc=__doc__ or "",
    find=find_stretch_problems,
    fixes={"even_stretch": even_out_stretch},
    options={"max_ratio": 1.5},
    order=70,
)
