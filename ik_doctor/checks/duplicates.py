"""Duplicates: two live IK constraints on one bone, or two overlapping chains on one control.

Blender solves every IK that shares bones as one tree with several goals. Measured in 4.2 and
5.3: a second IK on the shin aimed at another control leaves that control 0.24 to 0.64 away
(the first wins); a three-bone IK on the foot aimed at the foot control pulls the foot's tail
onto it and leaves the shin's IK 0.17 short. Two that agree (same control, same tip) solve,
but only until one of them is edited.

A Rigify-style IK/FK switch keeps two IKs on the same bone on purpose, one muted, with the mute
or influence driven: such pairs are not reported. The fix mutes the later IK on a shared bone
(a muted twin is a switch); an overlapping IK on another bone is deleted instead, since a lone
muted IK would itself read as an IK that does nothing.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping
from itertools import combinations
from typing import Any

import bpy

from ..core.armature import pose_of
from ..core.editing import constraint_on
from ..core.finding import Finding, Severity, chain_finding
from ..core.limb import constraint_switches
from ..core.registry import Check, register
from ..core.rig import IKChain, RigView


def find_duplicates(rig: RigView, options: Mapping[str, Any]) -> Iterator[Finding]:
    driven = {(b, c) for (b, c, _), how in constraint_switches(rig).items() if how == "driven"}
    live = [c for c in rig.chains if not c.mute and c.influence > 0.0 and c.key not in driven]
    reported: set[tuple[str, str]] = set()
    for first, later in _candidate_pairs(live):
        finding = _finding(rig, first, later)
        if finding is not None and later.key not in reported:
            reported.add(later.key)
            yield finding


def _candidate_pairs(live: list[IKChain]) -> list[tuple[IKChain, IKChain]]:
    """Pairs of chains on the same owner or aimed at the same control, in rig order."""
    groups: dict[tuple[Any, ...], list[int]] = defaultdict(list)
    for index, chain in enumerate(live):
        groups[("owner", chain.owner)].append(index)
        if chain.target is not None:
            groups[("control", chain.target.name, chain.subtarget)].append(index)
    pairs = {pair for members in groups.values() for pair in combinations(members, 2)}
    return [(live[first], live[later]) for first, later in sorted(pairs)]


def _finding(rig: RigView, first: IKChain, later: IKChain) -> Finding | None:
    same_owner = first.owner == later.owner
    same_control = (first.target, first.subtarget) == (later.target, later.subtarget)
    shared = [bone for bone in later.bones if bone in first.bones]
    if not shared or not (same_owner or (same_control and first.target is not None)):
        return None
    this = f"IK '{later.constraint}' on {later.owner}"
    other = f"IK '{first.constraint}' on {first.owner}"
    message = f"{this} and {other} both move {', '.join(reversed(shared))}" + (
        f", aimed at the same control {_control(first)}" if same_control else ""
    )
    agree = same_control and (rig.chain_tip(first) - rig.chain_tip(later)).length <= 1e-4 * max(
        rig.chain_reach(first), 1e-6
    )
    # Measured: of two IKs on one bone the later misses; of nested chains the inner one does.
    loser = first if not same_owner and first.owner in later.bones[1:] else later
    if agree:
        severity, why = (
            Severity.WARNING,
            (
                "Blender solves both as one tree; they agree now, but any difference in pole, "
                "chain length or influence makes them pull the chain two ways."
            ),
        )
        message += "."
    else:
        severity, why = (
            Severity.ERROR,
            (
                "Blender solves both as one tree with two goals that the chain cannot reach at "
                "once: one of them wins and the other's tip stays short of its target."
            ),
        )
        message += f": IK '{loser.constraint}' on {loser.owner} misses its target."
    # A muted twin on the same bone reads as an IK/FK switch, which is what it becomes; a lone
    # muted IK on another bone would read as an IK that does nothing: that one is removed.
    fix_id, verb = ("mute", "Mute") if same_owner else ("remove", "Delete")
    # The finding stands on the later IK, which the fix changes, in the chain that misses.
    return chain_finding(
        "duplicates",
        rig,
        loser,
        bone=later.owner,
        constraint=later.constraint,
        severity=severity,
        message=message,
        why=why,
        fix_id=fix_id,
        fix_label=f"{verb} {this} (asks first)",
        needs_confirmation=True,
    )


def _control(chain: IKChain) -> str:
    if chain.target is None:
        return "none"
    return chain.subtarget or f"'{chain.target.name}'"


def mute_later_ik(obj: bpy.types.Object, finding: Finding) -> str:
    constraint = constraint_on(obj, finding.bone, finding.constraint, bpy.types.KinematicConstraint)
    constraint.mute = True
    return (
        f"Muted IK '{constraint.name}' on {finding.bone}; unmute it in the Bone Constraints "
        "tab to bring it back."
    )


def remove_later_ik(obj: bpy.types.Object, finding: Finding) -> str:
    ik = constraint_on(obj, finding.bone, finding.constraint, bpy.types.KinematicConstraint)
    aimed = ik.subtarget or (ik.target.name if ik.target else "nothing")
    pose_of(obj).bones[finding.bone or ""].constraints.remove(ik)
    return (
        f"Deleted IK '{finding.constraint}' on {finding.bone} (it aimed at {aimed}); the other "
        "IK alone moves the shared bones now."
    )


register(
    Check(
        id="duplicates",
        title="Duplicate IK",
        doc=__doc__ or "",
        find=find_duplicates,
        fixes={"mute": mute_later_ik, "remove": remove_later_ik},
        order=15,
    )
)
