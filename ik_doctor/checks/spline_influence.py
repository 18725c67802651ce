"""Spline IK influence: a muted or blended Spline IK, and the constraints it overrides.

Measured in 4.2 and 5.3 on a four-bone tail whose curve a control bent: muted or at influence 0
the chain stays in its FK pose (its tip 0.40 off the curve); at 0.5 the tip is 0.21 off, at 0.9
still 0.037. An error, as for IK, unless a driver, keys or another live Spline IK on the bone
switch it off (information); a switch left between 0 and 1 is an error with no fix (the spline
oracle: a driven 0.5 leaves the joints up to 0.095 off a curve a control moved 0.2).

Spline IK sets where each bone of its chain lies, where it points and how long it is after the
chain's other constraints, whatever the stack order (measured with each constraint above and
below it, and on bones above the owner):

- Copy Location, Copy Scale, Limit Rotation, Child Of, Locked Track: no effect at all.
- Copy Rotation, Copy Transforms, Damped Track, Track To, Stretch To, Transform (to rotation):
  their aim is overridden, but the twist they give the bone about the curve stays (up to 0.57
  off in the bones' X axes): muting them changes that twist.

Both are warnings; other kinds were not measured and are not reported.

What it reports:

- A Spline IK muted or at influence 0: an error, the chain stays in its FK pose.
- Below influence 1: an error (at 0.5 the tip is 0.21 off the curve).
- Neither when a driver, keys or another live Spline IK on the bone switch it off: information.
  A switch left between 0 and 1 is an error, with no fix.
- A Copy Location, Copy Scale, Limit Rotation, Child Of or Locked Track on a chain bone, which
  Spline IK overrides whatever the stack order: a warning, it has no effect.
- A Copy Rotation, Copy Transforms, Damped Track, Track To, Stretch To or Transform, whose aim
  Spline IK overrides while the twist it adds about the curve stays: a warning.
- Neither beside a Spline IK with no target or one that is not a curve: Blender skips it, so
  it overrides nothing (``spline_target`` reports it; a curve with no spline still runs).
  Muting a Damped Track there took the bend it gives a straight arm's start, and the arm
  stopped 3.4% of its reach short.

What its fixes do:

- Unmute, and set influence 1.
- Mute the overridden constraint (asks first when that drops a twist).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import bpy

from ..core.editing import constraint_on
from ..core.finding import Finding, Severity, chain_finding
from ..core.names import readable
from ..core.registry import Check
from ..core.rig import RigView
from ..core.spline import SplineChain, spline_chains, spline_switched_by, where
from ..core.switches import off_state, turn_on

NO_EFFECT = {"COPY_LOCATION", "COPY_SCALE", "LIMIT_ROTATION", "CHILD_OF", "LOCKED_TRACK"}
"""Constraints on a Spline IK chain bone that change nothing (measured)."""
TWIST_ONLY = {
    "COPY_ROTATION",
    "COPY_TRANSFORMS",
    "DAMPED_TRACK",
    "TRACK_TO",
    "STRETCH_TO",
    "TRANSFORM",
}
"""Constraints on a Spline IK chain bone of which only the twist about the curve stays."""


def find_spline_influence_problems(rig: RigView, options: Mapping[str, Any]) -> Iterator[Finding]:
    reported: set[tuple[str, str]] = set()
    for chain in spline_chains(rig):
        if chain.mute or chain.influence < 1.0:
            yield _weak(rig, chain)
        if chain.mute or chain.influence < 1.0:
            continue  # off or blended: the chain's other constraints still show
        if chain.curve is None or chain.curve.type != "CURVE":
            continue  # invalid, Blender skips it: it overrides nothing (spline_target says so)
        for bone in chain.bones:
            if bone == chain.root and chain.use_chain_offset:
                continue  # the chain keeps the offset of its root's head, constraints included
            for constraint in rig.constraints(bone):
                if (bone, readable(constraint)) in reported or not _acts(constraint):
                    continue
                if constraint.type in NO_EFFECT | TWIST_ONLY:
                    reported.add((bone, readable(constraint)))
                    yield _overridden(rig, chain, bone, constraint)


def _acts(constraint: bpy.types.Constraint) -> bool:
    return not constraint.mute and constraint.influence > 0.0 and constraint.is_valid


def _weak(rig: RigView, chain: SplineChain) -> Finding:
    state = off_state(chain)
    switch = spline_switched_by(rig, chain)
    if switch is not None and chain.live:
        return chain_finding(
            "spline_influence",
            rig,
            chain,
            severity=Severity.ERROR,
            title="Switch left halfway",
            message=(
                f"{where(chain)} is {state}, and {switch}: the switch is left half way, so the "
                "chain stops between its FK pose and the curve."
            ),
            why=(
                "A constraint's influence blends its result with the pose before it: below 1 "
                "the bones leave the curve."
            ),
            no_fix_reason=(
                "Set the switch to 0 or 1 on this frame: which pose should win is the "
                "animator's choice."
            ),
        )
    if switch is not None:
        return chain_finding(
            "spline_influence",
            rig,
            chain,
            severity=Severity.INFO,
            title="Spline IK off by switch",
            message=f"{where(chain)} is {state} on purpose: {switch}.",
            why="The rig switches this Spline IK itself.",
            no_fix_reason="nothing to fix: the rig switches this Spline IK itself",
        )
    effect = (
        "the chain stays in its FK pose"
        if not chain.live
        else "the chain stops between its FK pose and the curve"
    )
    return chain_finding(
        "spline_influence",
        rig,
        chain,
        severity=Severity.ERROR,
        title="Spline IK switched off" if not chain.live else "Influence below 1",
        message=f"{where(chain)} is {state}: {effect}.",
        why=(
            "A muted Spline IK, or one at influence 0, is skipped; a lower influence blends the "
            "curve's pose with the FK pose, so the bones leave the curve."
        ),
        fix_id="enable_spline_ik",
        fix_label="Unmute the Spline IK and set its influence to 1",
    )


def _overridden(
    rig: RigView, chain: SplineChain, bone: str, constraint: bpy.types.Constraint
) -> Finding:
    kind, name = constraint.type.replace("_", " ").title(), readable(constraint)
    twists = constraint.type in TWIST_ONLY
    effect = (
        "only the twist it gives the bone about the curve stays" if twists else "it changes nothing"
    )
    return chain_finding(
        "spline_influence",
        rig,
        chain,
        bone=bone,
        constraint=name,
        severity=Severity.WARNING,
        title="Constraint overridden",
        message=f"{kind} '{name}' on {bone} is overridden by {where(chain)}: {effect}.",
        why=(
            "Spline IK places, aims and sizes its bones after the chain's other constraints, "
            "whatever the stack order."
        ),
        fix_id="mute_overridden",
        fix_label=f"Mute '{name}'" + (" (drops the twist it adds)" if twists else ""),
        needs_confirmation=twists,
    )


def enable_spline_ik(obj: bpy.types.Object, finding: Finding) -> str:
    was = turn_on(obj, finding, bpy.types.SplineIKConstraint)
    return f"Spline IK '{finding.constraint}' on {finding.bone} was {was}; it is now on at 1."


def mute_overridden(obj: bpy.types.Object, finding: Finding) -> str:
    constraint = constraint_on(obj, finding.bone, finding.constraint, bpy.types.Constraint)
    constraint.mute = True
    owner, spline_ik = finding.chain or ("", "")
    return (
        f"Muted '{constraint.name}' on {finding.bone}, which Spline IK '{spline_ik}' on {owner} "
        "overrode."
    )


CHECK = Check(
    id="spline_influence",
    title="Spline IK influence",
    doc=__doc__ or "",
    find=find_spline_influence_problems,
    fixes={"enable_spline_ik": enable_spline_ik, "mute_overridden": mute_overridden},
    order=40,
)
