"""Muted IK on a live IK's bone: a switched-off IK that Blender still builds into the solve.

Two IK constraints on one bone, one live and one muted (or at influence 0), are how many rigs
switch a limb between two targets. Blender leaves a muted IK out of the solve only where its
*Use Tail* and the live one's are both on. Measured in 4.2 and 5.3 on the reference arm and leg,
the second IK aimed at the limb's own control or another limb's, chain lengths 1 to 3, muting
and influence 0 alike, in runs alone and beside other work: with Use Tail off on the muted IK the
live one stops 31% to 189% of its reach short in every run, where it lands alone. With Use Tail
on the muted IK and off on the live one, the arm missed by 54% to 74% in runs alone and landed in
runs beside other work: Blender solves the two in either order. With Use Tail on both, the live
IK lands as if the other were deleted. A muted IK with no target, or on another bone of the
chain, changes nothing.

What it reports:

- A live IK whose bone holds a switched-off IK with a target and Use Tail off: an error on the
  live IK, naming the switched-off one.
- The switched-off IK with Use Tail on beside a live IK with it off: a warning (it misses in some
  runs and not in others).

What its fixes do:

- Where the live IK has Use Tail on: Use Tail on for the switched-off IK too, its chain length
  one longer (unless 0, all the way up) so that, switched on, it still turns the same bones. Its
  tip then is the bone's tail rather than its head: the label says so. Where the live IK has
  Use Tail off, no fix: turning it on changes the chain that works; the rigger chooses.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import bpy

from ..core.editing import constraint_on
from ..core.finding import Finding, Severity, chain_finding
from ..core.registry import Check
from ..core.rig import IKChain, RigView

WHY = (
    "Blender builds every IK with a target on a bone into that bone's solve, muted or not, and "
    "leaves the muted one out only where both IKs use their bone's tail: otherwise the live IK "
    "can be solved over the wrong chain and miss (measured on the reference arm and leg: 31% to "
    "189% of the reach short; with Use Tail on both, it lands)."
)


def find_muted_iks(rig: RigView, options: Mapping[str, Any]) -> Iterator[Finding]:
    for live in rig.chains:
        if not (live.live and _aimed(rig, live)):
            continue
        off = next((o for o in rig.chains_on_bone(live.owner) if _interferes(rig, live, o)), None)
        if off is not None:
            yield _finding(rig, live, off)


def _interferes(rig: RigView, live: IKChain, off: IKChain) -> bool:
    """Whether ``off``, a switched-off IK with a target on the live IK's bone, enters its solve."""
    if off.live or off.key == live.key or not _aimed(rig, off):
        return False
    return not (live.use_tail and off.use_tail)


def _aimed(rig: RigView, chain: IKChain) -> bool:
    """Whether the IK has a target Blender can resolve (``RigView.pulls`` without asking the
    constraint's ``is_valid``: read in the middle of a diagnosis, that changed how a chain
    whose Use Tail keys switch it solved afterwards)."""
    if chain.target is None or chain.target_bone_missing:
        return False
    return chain.target != rig.object or bool(chain.subtarget)


def _finding(rig: RigView, live: IKChain, off: IKChain) -> Finding:
    how = "muted" if off.mute else "at influence 0"
    tails = " and ".join(f"IK '{chain.constraint}'" for chain in (off, live) if not chain.use_tail)
    fixable = live.use_tail
    count = off.chain_count + 1 if off.chain_count else 0
    misses = (
        "misses its target"
        if not off.use_tail
        else "can miss its target (measured on the arm: in some runs it missed by over half its "
        "reach, in others it landed)"
    )
    return chain_finding(
        "muted_ik",
        rig,
        live,
        severity=Severity.ERROR if not off.use_tail else Severity.WARNING,
        title="Muted IK still counts",
        message=(
            f"IK '{off.constraint}' on {live.owner} is {how}, but Blender still builds it into "
            f"the solve of IK '{live.constraint}' on the same bone: with Use Tail off on "
            f"{tails}, IK '{live.constraint}' {misses}."
        ),
        why=WHY,
        fix_id="tail_on_muted" if fixable else None,
        fix_label=(
            f"Use Tail on for IK '{off.constraint}' (chain length {count or 'all the way up'}; "
            "switched on, its tip is the bone's tail)"
            if fixable
            else None
        ),
        fix_args=(("muted", off.constraint), ("chain_count", count)),
        no_fix_reason=None
        if fixable
        else (
            f"IK '{live.constraint}' itself has Use Tail off: turn it on for both, or move IK "
            f"'{off.constraint}' to a bone of its own"
        ),
        needs_confirmation=True,
        facts=(("switched_off", off.constraint),),
    )


def tail_on_muted(obj: bpy.types.Object, finding: Finding) -> str:
    name = str(finding.args["muted"])
    constraint = constraint_on(obj, finding.bone, name, bpy.types.KinematicConstraint)
    constraint.use_tail = True
    constraint.chain_count = int(finding.args["chain_count"])
    return (
        f"Turned Use Tail on for IK '{constraint.name}' of {finding.bone}, chain length "
        f"{constraint.chain_count}."
    )


CHECK = Check(
    id="muted_ik",
    title="Muted IK beside a live one",
    doc=__doc__ or "",
    find=find_muted_iks,
    fixes={"tail_on_muted": tail_on_muted},
    order=16,
)
