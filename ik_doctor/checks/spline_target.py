"""Spline IK target: the chain needs a curve with a spline of two points or more to lie on.

Measured in 4.2 and 5.3 on a four-bone tail: with no target, or a target that is a mesh, a text
or a surface, the constraint is invalid; a curve with no spline, or whose first spline (the only
one Spline IK reads) has a single point, is valid but moves nothing. The chain stays in its FK
pose either way: Spline IK does nothing. An invalid one (no target, or not a curve) stacked on a
bone that a live IK with a target moves (a rock snake's head) is skipped, and the rig works: a
warning, and muting it changes nothing the solver does. A valid one with an unusable curve is
not: its solver still runs, and in some evaluations (which, the depsgraph's order decides) it
undoes the IK on those bones, leaving the shin 26% of the leg's reach short. An invalid one whose
chain holds the owner of an IK without Use Tail and that owner's parent, muted or not, strands
the IK's tip: Blender still poses the owner in the Spline IK's step, from where its parent was
before the IK turned it, and the owner's head is that IK's tip (the arm 53%, the leg 39% of the
reach short).

What it reports:

- A Spline IK with no target, or a target that is not a curve object (mesh, text, surface: the
  constraint is invalid): an error, the chain stays in its FK pose.
- A curve with no spline, or whose first spline (the only one read) has a single point: valid,
  but it moves nothing: an error.
- An invalid one (no target, not a curve) on a bone that a live IK with a target turns (or
  carries as its owner without Use Tail) is skipped, and the rig works: a warning. A valid one
  with an unusable curve stays an error: its solver still runs and, in evaluations whose order
  the depsgraph decides, undoes the IK (the shin 26% of the reach short).
- An invalid one (muted or not) whose chain holds an IK's owner without Use Tail and the
  owner's parent: an error on that IK's chain, whose tip stays behind. Not where another live
  IK turns that owner: solved after, it poses the owner from its parent again (a hand or foot
  IK of length 2 on the same control, and the arm lands).

What its fixes do:

- A bezier curve through the chain's joints (at most 9 points), each point hooked to a new non-
  deforming control bone hanging from the rig's top bone above the chain, as target. The old
  target is left as it was.
- Beside a working IK, mute it: a curve would set it against the IK.
- Where it strands an IK's tip, delete it (asks first): muted, it strands it all the same.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import bpy
from mathutils import Vector

from ..core.armature import pose_of
from ..core.curve_editing import hook_to_new_controls
from ..core.editing import constraint_on
from ..core.finding import Finding, Severity, chain_finding
from ..core.names import readable
from ..core.registry import Check
from ..core.rig import IKChain, RigView
from ..core.spline import (
    SplineChain,
    ik_moving_owner,
    skipped,
    spline_chain_of,
    spline_chains,
    stranded_ik,
    unusable_curve,
    where,
)

MAX_CURVE_POINTS = 9
"""A new curve gets a point (and a control) on every joint of the chain, or on this many joints
spread along a longer chain: enough to shape a tail, few enough to animate."""


def find_spline_target_problems(rig: RigView, options: Mapping[str, Any]) -> Iterator[Finding]:
    for chain in spline_chains(rig):
        problem = unusable_curve(chain)
        if problem is None:
            continue
        stranded = stranded_ik(rig, chain)
        if stranded is not None:
            yield _tip_left_behind_finding(rig, chain, problem, stranded)
            continue
        working = ik_moving_owner(rig, chain) if skipped(chain) else None
        if working is not None:
            if chain.live:
                yield _dead_beside(rig, chain, problem, working)
            continue
        yield chain_finding(
            "spline_target",
            rig,
            chain,
            severity=Severity.ERROR,
            title=_title(chain),
            message=f"{where(chain)} {problem}: it does nothing.",
            why=(
                "Spline IK lays the chain along the first spline of a curve object; with no "
                "curve, or one with fewer than two points, Blender skips it and the chain "
                "stays in its FK pose."
            ),
            fix_id="build_curve",
            fix_label=(
                "Create a curve along the chain, hooked to new control bones, as its target"
            ),
        )


def _title(chain: SplineChain) -> str:
    if chain.curve is None:
        return "No curve target"
    return "Target is not a curve" if chain.curve.type != "CURVE" else "Curve has no points"


def _tip_left_behind_finding(
    rig: RigView, chain: SplineChain, problem: str, ik: IKChain
) -> Finding:
    parent = rig.bone(ik.owner).parent
    return chain_finding(
        "spline_target",
        rig,
        ik,
        bone=chain.owner,
        constraint=chain.constraint,
        severity=Severity.ERROR,
        title="IK tip left behind",
        message=(
            f"{where(chain)} {problem}: it lays nothing on a curve, yet Blender still poses its "
            f"bones, {ik.owner} from where {parent} was before IK '{ik.constraint}' on "
            f"{ik.owner} turned it. Without Use Tail that IK's tip is the head of {ik.owner}, "
            "which stays behind: the limb comes apart there and the IK does not reach "
            "(measured: the arm 53% and the leg 39% of the reach short, muted or not)."
        ),
        why=(
            "A Spline IK Blender skips, even muted, still takes its bones into its own step of "
            "the pose evaluation, which runs before the IK above them is solved; a bone the IK "
            "only carries (its owner without Use Tail) is not posed again afterwards."
        ),
        fix_id="remove",
        fix_label=f"Delete {where(chain)} (it does nothing; asks first)",
        needs_confirmation=True,
    )


def _dead_beside(rig: RigView, chain: SplineChain, problem: str, working: IKChain) -> Finding:
    return chain_finding(
        "spline_target",
        rig,
        chain,
        severity=Severity.WARNING,
        title="Spline IK does nothing",
        message=(
            f"{where(chain)} {problem}: it does nothing, and IK '{working.constraint}' on "
            f"{working.owner} moves the bone without it."
        ),
        why=(
            "Blender skips a Spline IK without a curve target, so the bone's IK alone poses it: "
            "the rig works. Given a curve, the Spline IK would lay the bone along it and "
            "fight that IK; muted, it stays out of the way and keeps its settings."
        ),
        fix_id="mute",
        fix_label=f"Mute {where(chain)} (it does nothing)",
    )


def build_curve(obj: bpy.types.Object, finding: Finding) -> str:
    """A bezier curve through the chain's joints at rest, each point hooked to a new control.

    Auto handles round the corners between bones: measured on the tail bent 10° to 45° at every
    joint, the chain moves 0.01% to 0.23% of its length at rest (none when straight).
    """
    rig = RigView(obj)
    chain = spline_chain_of(rig, finding)
    joints = _joints(rig, chain)
    data = bpy.data.curves.new(f"{chain.owner}-curve", "CURVE")
    data.dimensions = "3D"
    spline = data.splines.new("BEZIER")
    spline.bezier_points.add(len(joints) - 1)
    for point, joint in zip(spline.bezier_points, joints, strict=True):
        point.co = obj.matrix_world @ joint
    for point in spline.bezier_points:  # after every point is placed: auto handles read them
        point.handle_left_type = point.handle_right_type = "AUTO"
    curve = bpy.data.objects.new(data.name, data)
    collections = obj.users_collection
    if collections:
        collections[0].objects.link(curve)
    else:
        scene = bpy.context.scene
        assert scene is not None  # Blender always has one; the stubs make it optional
        scene.collection.objects.link(curve)
    previous = readable(chain.curve) if chain.curve is not None else None
    constraint_on(obj, *chain.key, bpy.types.SplineIKConstraint).target = curve
    controls = hook_to_new_controls(obj, chain, curve, range(len(joints)))
    replaced = f" in place of '{previous}' (left as it was)" if previous else ""
    return (
        f"Created the curve '{curve.name}' through {len(joints)} joints of the chain and made it "
        f"the target of {where(chain)}{replaced}; its points are hooked to the new control "
        f"bones {', '.join(controls)}."
    )


def mute_dead_spline(obj: bpy.types.Object, finding: Finding) -> str:
    constraint = constraint_on(obj, finding.bone, finding.constraint, bpy.types.SplineIKConstraint)
    constraint.mute = True
    return (
        f"Muted Spline IK '{constraint.name}' on {finding.bone}, which had no curve to follow; "
        "the bone's IK poses it as before."
    )


def remove_dead_spline(obj: bpy.types.Object, finding: Finding) -> str:
    constraint = constraint_on(obj, finding.bone, finding.constraint, bpy.types.SplineIKConstraint)
    owner, name = finding.chain or ("", "")
    ik = constraint_on(obj, owner, name, bpy.types.KinematicConstraint)
    pose_of(obj).bones[finding.bone or ""].constraints.remove(constraint)
    # Blender 4.2 keeps the depsgraph's relations after a constraint is removed from Python
    # (measured: the arm stays stranded until the file is opened again; 4.5 rebuilds them);
    # setting a constraint's target rebuilds them.
    ik.target = ik.target
    return (
        f"Deleted Spline IK '{finding.constraint}' on {finding.bone}, which had no curve to "
        f"follow and left {owner} behind IK '{name}'; that IK now carries it."
    )


def _joints(rig: RigView, chain: SplineChain) -> list[Vector]:
    """The chain's joints at rest, root head to owner tail, thinned to ``MAX_CURVE_POINTS``."""
    bones = list(reversed(chain.bones))
    joints = [rig.bone(name).head for name in bones] + [rig.bone(chain.owner).tail]
    if len(joints) <= MAX_CURVE_POINTS:
        return joints
    last = len(joints) - 1
    picked = sorted({round(i * last / (MAX_CURVE_POINTS - 1)) for i in range(MAX_CURVE_POINTS)})
    return [joints[i] for i in picked]


CHECK = Check(
    id="spline_target",
    title="Spline IK target",
    doc=__doc__ or "",
    find=find_spline_target_problems,
    fixes={"build_curve": build_curve, "mute": mute_dead_spline, "remove": remove_dead_spline},
    order=20,
)
