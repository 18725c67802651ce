"""The switches that turn an IK off and on: an IK/FK switch pair on one bone, a driven or keyed
mute or influence, and the switched-off IK Blender still builds into a live one's solve.

A fault on an IK off as one half of a switch shows only once it is switched on, so every check
reports it as a warning that names the switch; the oracle judges the switch through its live
partner.
"""

from __future__ import annotations

import bpy

from .editing import constraint_on
from .finding import Finding, Severity, lowered
from .limb import set_elsewhere
from .names import readable
from .rig import BoneChain, IKChain, RigView


def constraint_switches(rig: RigView) -> dict[tuple[str, str, str], str]:
    """(bone, constraint, "mute" or "influence") that a driver or the animation sets, with how
    ("driven" or "keyed"): the rig switches those itself (an IK/FK switch, a pole switch)."""
    return rig.remember(
        "constraint_switches",
        lambda: {
            (bone, constraint, setting): how
            for bone, settings in set_elsewhere(rig).items()
            for constraint, setting, how in settings
            if constraint is not None and setting in ("mute", "influence")
        },
    )


def built_in_while_off(rig: RigView, live: IKChain) -> list[IKChain]:
    """The switched-off IKs on the live IK's bone that Blender still builds into its solve: each
    has a target, Use Tail off, and stands above the live one in the stack (see muted_ik:
    measured, the live IK then misses; below it, or with Use Tail on, one changes nothing)."""
    if not (live.live and _aimed(rig, live)):
        return []
    stack = [readable(c) for c in rig.constraints(live.owner)]
    return [
        off
        for off in rig.chains_on_bone(live.owner)
        if not (off.live or off.use_tail)
        and _aimed(rig, off)
        and stack.index(off.constraint) < stack.index(live.constraint)
    ]


def _aimed(rig: RigView, chain: IKChain) -> bool:
    """Whether the IK has a target Blender can resolve (``RigView.pulls`` without asking the
    constraint's ``is_valid``: read in the middle of a diagnosis, that changed how a chain
    whose Use Tail keys switch it solved afterwards)."""
    if chain.target is None or chain.target_bone_missing:
        return False
    return chain.target != rig.object or bool(chain.subtarget)


def switched_by(rig: RigView, chain: IKChain) -> str | None:
    """Why this IK's mute or influence is the rig's own business (one half of a switch), or
    None when nothing but the animator switches it."""
    for other in rig.chains_on_bone(chain.owner):
        if other is not chain and other.live:
            return f"IK '{other.constraint}' on the same bone is active, its switch partner"
    return animated_switch(rig, chain)


def switched_off_note(rig: RigView, chain: IKChain) -> str | None:
    """For an IK off as one half of a switch (``switched_by``), the words a fault on it ends
    with: the oracle judges it through its twin, and it fails once switched on (a warning, not
    an error); or, where Blender still builds it into the twin's solve, that it acts now
    (``muted_ik``'s error on the twin is the fault to fix). None for a live IK, or one off by
    hand."""
    switch = switched_by(rig, chain) if not chain.live else None
    if switch is None:
        return None
    solved_in = next(
        (
            live
            for live in rig.chains_on_bone(chain.owner)
            if chain in built_in_while_off(rig, live)
        ),
        None,
    )
    if solved_in is not None:
        return (
            f" It is {off_state(chain)}, yet Blender builds it into the solve of IK "
            f"'{solved_in.constraint}' (Muted IK still counts): it acts now."
        )
    return f" It is switched off ({switch}): it fails once switched on."


def lowered_where_switched_off(rig: RigView, finding: Finding) -> Finding:
    """An error on an IK off as one half of a switch, as a warning that names the switch, for
    every check: the oracle judges the switch through its live partner, and the fault shows
    once it is switched on (issue 25: an IK lock on a muted twin), or now through the partner
    it is built into (``switched_off_note``), whose ``muted_ik`` error names it."""
    if finding.severity != Severity.ERROR or finding.chain is None:
        return finding
    chain = rig.chain(*finding.chain)
    note = None if chain is None else switched_off_note(rig, chain)
    if note is None:
        return finding
    return lowered([finding], note, ("switched_off", True), lambda _finding: True)[0]


def switched_off(rig: RigView, chain: IKChain) -> bool:
    """Whether this IK is off on purpose: muted or at influence 0, and one half of a switch
    (``switched_by``). It moves nothing, and the oracle judges it through its partner."""
    return (not chain.live) and switched_by(rig, chain) is not None


def animated_switch(rig: RigView, chain: BoneChain) -> str | None:
    """How keys or drivers switch the chain's constraint ("its influence is driven"), or None
    (``constraint_switches``)."""
    switches = constraint_switches(rig)
    for setting in ("mute", "influence"):
        how = switches.get((*chain.key, setting))
        if how is not None:
            return f"its {setting} is {how}"
    return None


def off_state(switch: BoneChain | bpy.types.Constraint) -> str:
    """How messages say a constraint is off or blended: "muted" or "at influence 0.5"."""
    return "muted" if switch.mute else f"at influence {switch.influence:.3g}"


def turn_on(obj: bpy.types.Object, finding: Finding, kind: type[bpy.types.Constraint]) -> str:
    """Unmute the constraint a finding stands on, at full influence; return what it was
    (``off_state``)."""
    constraint = constraint_on(obj, finding.bone, finding.constraint, kind)
    was = off_state(constraint)
    constraint.mute = False
    constraint.influence = 1.0
    return was
