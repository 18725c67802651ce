"""Inheritance: chain bones that do not follow their parent's rotation, or shear under its scale.

Measured in 4.2 and 5.3 on the reference leg and arm:

- A chain bone below the chain root with ``use_inherit_rotation`` off keeps its armature-space
  rotation when the bones above it turn: with the root, hips or thigh turned 20 degrees about
  any axis the knee bends away from its pole (the foot still reaches). Only a rig that never
  moves above the limb escapes it, so this is an error even at rest.
  (The chain root itself may drop its parent's rotation; the solve is unaffected.) In a
  chain without a pole there is no side to judge the bend by and the tip still lands (the
  owner, or the shin inside a foot's chain of 3): a warning (and the pole check offers no
  pole until it inherits rotation). So too
  where a constraint sets the joint's start rotation (a Copy Rotation of the shoulder, a Damped
  Track at the control: the bend follows it), or the pole sits behind the bend (the joint
  bends as built or turns to face the pole), or an IK on the chain's own target re-aims the
  bone the chain hangs from (an upper-arm IK without Use Tail on the hand control turns the
  shoulder): the limb still lands with the body turned 40°.
- ``inherit_scale`` Full (Blender's default) passes a parent's non-uniform scale on as shear:
  with the thigh stretched 1.5 along its length, or the hips scaled (1.3, 1, 0.8) above the
  thigh, the foot ends 7 to 70 mm from points the leg reaches by hand (FK). Aligned removes
  it for every pose tried; Fix Shear misses one (18 mm with the thigh swung 20°). A plain
  world-space Copy Rotation, Copy Transforms or Track To on the sheared bone rebuilds its matrix
  from a rotation and drops the shear: a warning (measured on the arm and the leg; in local
  space it stays).
- An unevenly scaled bone further above a chain (the hips above the arms, with the spine,
  chest and shoulder between) breaks it whatever the chain inherits: once a bone in between
  turns the tip misses, by a quarter of the reach for the arms with the shoulder turned 40°.
  Only a uniform scale there fixes it.
- ``inherit_scale`` None keeps the limb at its own size when the rig is scaled: with the root
  scaled 1.5, or the hips 1.2, the targets move out of reach of the unscaled leg (0.06 to 0.31
  of its reach short); scaled down they stay within reach. An error only while a bone above
  the chain is scaled up: the chain's own upper bone scaled 1.2 or 1.5 only makes the limb
  longer, and the leg and the arm still reach every goal where no IK limit stops their fold
  (the rest_pose check names the leftover scale, and where limits stop it, the error). Its
  fix waits where inheriting that scale would grow the limb beyond what its IK limits fold
  (the leg limited ±90° under a thigh at 1.5 lands, and would fall short). IK Stretch on a
  chain bone makes up the shortfall (measured: the leg and the arm land with stretch 0.001 on
  one bone): a warning then. A live Copy Scale at full
  influence that copies, pose space to pose space (or world to world), the scale of a bone
  that scales with the rig gives the scale back (BlenRig's limbs): with it the shin grows to
  1.5 with the root and the leg lands; muted, at influence 0.5 (the shin grows to 1.25, 6.4% of
  the reach short), in local space, or from a bone that does not scale with the rig, the leg
  stops 0.199 (14.7% of the reach) short.

What it reports:

- A chain bone below the chain root with Inherit Rotation off: an error. The knee bends away
  from its pole once anything above it turns, a forearm once the shoulder turns about Z.
    - It is a warning in a chain without a pole, on its owner or further up (a shin inside a
      foot's chain of 3: measured, the foot and the hand land), unless the owner's IK limit
      spans less than 80° (its rest no longer follows the bone above: the arm and the leg
      limited ±10° to ±40° stop 1.4% to 6.2% of the reach short) and leaves it less than 20°
      to fold or more than 10° to straighten (0° to 30° lands); on a joint whose start rotation
      a constraint sets (a Copy Rotation of the shoulder, or a Damped Track at the control); and
      under a pole behind the bend, where the leg and the arm still land with the body turned
      40°.
    - It is a warning below a bone that a live IK at full influence aims at the chain's own
      target on every evaluation, turning no bone another limb hangs from: an upper-arm IK
      without Use Tail on the hand control re-aims the shoulder, and the forearm lands 6.6° from
      its pole with the body turned 40°. On the thigh it turns the hips, and the shin flips
      107°: an error.
    - It is a warning on the joint of a two-bone limb bent at rest whose IK limit on its bend
      axis lets it fold further but never straighter than it rests: it cannot cross to the
      other side (measured: the leg and the arm limited 0° to 30° up to 0° to 179° land with
      the body turned 40°; limited -10° to 150° the leg stops 5.3% short; rolled 30° off the
      bend axis, it bends away). Not where the root's limit turns it the other way, unless the
      chain stretches (the pre-bent straight leg so limited: 2.7% short, with stretch it lands),
      nor under a pole angle turned more than 10° from its rest pose, which adds to the 73° to
      80° that side ends from the pole (the leg fails from 12°, the arm from 20°).
    - It is a warning on the joint of a two-bone limb, unstiff or mildly stiff, that its pose
      starts bent the way it rests by more than the body's 40° turn (and less than 140°): the leg
      and the arm posed 35° and 30° into their bend (43° and 44° bent) land with the body turned
      40° either way about X and Z, posed 30° and 25° (38° and 39°) they flip. So they land with
      IK stiffness up to 0.6 on either bone, or up to 0.9 on both alike; in a chain of 3, or with
      the upper arm alone at 0.7, the arm posed 35° fails: an error there. The
      start is the pose itself, not held within the joint's IK limits (limited ±20° or ±40°, the
      leg and the arm land from the same 35° and 30°). A straight limb whose lower bone folds
      only one way keeps that side from 42° (40° stops it 3.4% short).
- Inherit Scale Full under a non-uniform pose scale of the chain, or of the bone it hangs from,
  that shears the bone: an error (the foot ends 7 to 70 mm from points the leg reaches by hand).
  Scale along the shared bend axis does not shear and is not reported; nor does a straight
  chain's scale along its line at rest, until its pose starts it folding: then an error (the
  straight leg and arm posed 20° to 100° toward the pole under an upper bone scaled (1, 1.7, 1)
  stop 9.2% to 25% short, without a pole 19% to 41% under (1, 2, 1); started by a constraint,
  they land). A warning under iTaSC,
  which still lands, and under a plain world-space Copy Rotation, Copy Transforms or Track To on
  the bone, which rebuilds its matrix from a rotation and drops the shear (the arm lands; without
  it, 34% short; the leg under a Track To at its control, its thigh scaled (1, 1.2, 1), lands
  74° from its pole; a Damped Track keeps the shear).
- A non-uniform pose scale further up, with bones between that turn: an error. The arms miss by
  up to a quarter of their reach once the shoulder turns, whatever they inherit. A warning on a
  chain straight at rest with a pole and IK Stretch, which never folds, only aims and stretches:
  the straight arm with stretch 0.01 to 0.5 lands under hips scaled 0.6 to 2 (and its pre-bend
  waits for that scale to be reset: pre-bent, it folds and misses).
- Inherit Scale None: a warning, the limb keeps its size when the rig is scaled.
    - An error while a bone above the chain is scaled up: 6% to 31% of the reach short, unless
      IK Stretch makes it up. The chain's own upper bone scaled up only lengthens the limb,
      which still lands.
    - An error on a chain of one bone (no IK Stretch) while a bone above it is scaled down:
      the targets shrink with it and one bone only points, reaching no nearer than its length
      (the shin or forearm alone under a thigh or upper arm at 0.95 stops 5% short, at 0.5 all
      of its reach; inheriting the scale, it lands).
    - Nothing is reported when a live Copy Scale at full influence, on every axis, pose to pose
      or world to world space, copies the scale of a bone that scales with the limb (and with
      the bone above, scaled up now), as BlenRig's forearms and shins do: the root scaled 1.5
      scales the shin with it, and the leg lands. Muted, at influence 0.5, in local space, or
      from a bone outside the limb's hierarchy, it stops 6.4% to 14.7% of the reach short.

What its fixes do:

- Inherit Rotation on.
- Inherit Scale Aligned.
- Reset that scale to 1 (asks first; none while it is keyed).
- Inherit Scale Full (Aligned under a bone scaled unevenly, where Full would shear it).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, cast

import bpy
from mathutils import Matrix, Vector

from ..core.armature import armature_data, pose_of
from ..core.editing import edit_bones
from ..core.finding import Finding, Severity, chain_finding
from ..core.limb import FULL_INFLUENCE, STRAIGHT_RATIO, animated_bones, bend_offset
from ..core.names import readable
from ..core.reach import (
    held_off_when_posed,
    posed_longer,
    solved_by_itasc,
    spans_the_goals,
    stretching_bones,
)
from ..core.registry import Check
from ..core.rig import IKChain, RigView
from ._posed_off_axis import held_together
from ._shear import (
    SCALE_TOLERANCE,
    copy_that_drops_the_shear,
    non_uniform_scales,
    shearing_bone,
    uneven_body,
)
from ._straight_chain import started_fold
from ._unturned_joint import posed_ancestor, rotation_effect

NOT_SCALING = ("NONE", "NONE_LEGACY")


def find_inheritance_problems(rig: RigView, options: Mapping[str, Any]) -> Iterator[Finding]:
    reported: set[tuple[str, str]] = set()
    tolerance = options["scale_tolerance"]
    uneven = non_uniform_scales(rig, tolerance)
    for chain in rig.chains:
        if not chain.live:
            continue  # it moves nothing: a live twin on the bone carries the findings
        body = uneven_body(rig, chain, tolerance)
        if body is not None:
            yield _uneven_body(rig, chain, *body)
        # One forward pose per chain, asked only where a shear could wait for the fold.
        fold = functools.cache(functools.partial(started_fold, rig, chain))
        # Without Use Tail the owner only follows: its head is the tip, whatever it inherits.
        for name in chain.moving_bones:
            for finding in _problems(rig, chain, name, uneven, tolerance, fold):
                if (name, finding.fix_id or "") not in reported:
                    reported.add((name, finding.fix_id or ""))
                    yield finding


def _problems(
    rig: RigView,
    chain: IKChain,
    name: str,
    uneven: dict[str, Vector],
    tolerance: float,
    fold: Callable[[], Matrix | None],
) -> Iterator[Finding]:
    """What is wrong with one chain bone; ``fold``: the chain's ``started_fold``."""
    bone = rig.raw_bone(name)
    scale_mode = bone.inherit_scale
    shear_possible = scale_mode == "FULL" and bool(uneven)
    if bone.use_inherit_rotation and scale_mode not in NOT_SCALING and not shear_possible:
        return  # inherits rotation and scale, with no unevenly scaled bone to shear it
    if not bone.use_inherit_rotation and name != chain.root and bone.parent is not None:
        yield _rotation_not_inherited(rig, chain, name)
    scaled = shearing_bone(rig, chain, name, uneven, tolerance)
    folding = scaled is None and shear_possible and (turn := fold()) is not None
    if folding:
        scaled = shearing_bone(rig, chain, name, uneven, tolerance, turn)
    if (
        bone.inherit_scale in NOT_SCALING
        and bone.parent is not None
        and not _scale_given_back(rig, chain, name)
    ):
        yield _scale_not_inherited(rig, chain, name, shears=scaled is not None)
    if bone.inherit_scale == "FULL" and scaled is not None:
        yield _sheared(rig, chain, name, scaled, uneven[scaled], folding)


def _finding(rig: RigView, chain: IKChain, name: str, **fields: Any) -> Finding:
    return chain_finding("inherit", rig, chain, bone=name, **fields)


def _rotation_not_inherited(rig: RigView, chain: IKChain, name: str) -> Finding:
    bone = rig.raw_bone(name)
    effect, harmless, facts = rotation_effect(rig, chain, name)
    return _finding(
        rig,
        chain,
        name,
        severity=Severity.WARNING if harmless else Severity.ERROR,
        title="Rotation not inherited",
        message=(
            f"{name} does not inherit the rotation of {readable(bone.parent)}, so it ignores "
            f"the bend above it in the chain of {chain.owner}: {effect}."
        ),
        why=(
            "Without inherited rotation the bone keeps its armature-space orientation "
            "while the bones above it turn: the solver's bend lands on the wrong side and "
            "the joint bends away from its pole."
        ),
        facts=facts,
        **_inherit_rotation_fix(name, dict(facts).get("effect") == "held_and_turned"),
    )


def _inherit_rotation_fix(name: str, held: bool) -> dict[str, Any]:
    """The fix, unless the joint's held bend axis needs the turn it does not inherit."""
    if held:
        return dict(no_fix_reason=held_together(name))
    return dict(fix_id="inherit_rotation", fix_label=f"Turn Inherit Rotation back on for {name}")


def _scale_not_inherited(rig: RigView, chain: IKChain, name: str, shears: bool) -> Finding:
    bone = rig.raw_bone(name)
    # Full would shear it under an unevenly scaled bone (an error then): Aligned does not.
    mode = "ALIGNED" if shears else "FULL"
    grown = posed_ancestor(rig, name, _is_grown, skipped=chain.bones)
    stretches = stretching_bones(rig, chain)
    stretching = stretches if grown else ()
    # One bone only points: the targets, shrunk with a bone above, lie nearer than it reaches.
    shrunk = (
        posed_ancestor(rig, name, _is_shrunk, skipped=chain.bones)
        if len(chain.moving_bones) == 1 and not stretches
        else None
    )
    if shrunk:
        effect = (
            f"{shrunk} is scaled down, so the targets lie nearer than {name}, one bone that "
            "keeps its length, reaches (measured: the shin or forearm alone under a thigh or "
            "upper arm at 0.95 stops 5% of its reach short, at 0.5 all of it)"
        )
    elif grown and stretching:
        effect = (
            f"{grown} is scaled up, so the targets are reached only by IK Stretch on "
            f"{', '.join(stretching)}"
        )
    elif grown:
        effect = f"{grown} is scaled up, so the targets are out of its reach now"
    else:
        effect = "scaling the rig up leaves this part of the limb at its old size"
    # Inheriting a leftover scale-up, a limb whose IK limits stop its fold would fall short.
    inherited = posed_longer(rig, chain).get(readable(bone.parent), 1.0) if mode == "FULL" else 1.0
    outgrows = inherited > 1.0 and held_off_when_posed(rig, chain, {name: inherited}) is not None
    # Inheriting a leftover scale-down, a limb that spans its goals may no longer (seed 202: the
    # arm with its upper arm at 0.95 lands; inherited, the forearm shrank too, 1.9% short).
    shrinks_with = readable(bone.parent)
    scale = rig.pose_bone(shrinks_with).matrix.col[1].xyz.length
    shrinks = scale < 0.999 and _stops_spanning(rig, chain, {name: scale})
    waits = (
        f"inheriting it, {name} would grow past what the limb can fold to"
        if outgrows
        else f"inheriting it, {name} would shrink with {shrinks_with} and the limb fall short"
        if shrinks
        else None
    )
    return _finding(
        rig,
        chain,
        name,
        severity=Severity.ERROR if (grown and not stretching) or shrunk else Severity.WARNING,
        title="Scale not inherited",
        message=f"{name} does not inherit scale from {readable(bone.parent)}: {effect}.",
        why=(
            f"With Inherit Scale '{bone.inherit_scale.title()}' the limb keeps its length "
            "while the controls move with the scaled rig, so targets drift out of reach."
        ),
        fix_id=None if waits else "inherit_scale",
        fix_label=None if waits else f"Set Inherit Scale of {name} to {mode.title()}",
        fix_args=() if waits else (("mode", mode),),
        no_fix_reason=f"{waits}: clear the scale of {readable(bone.parent)} first"
        if waits
        else None,
        facts=(("grown", grown), ("stretching", stretching), ("shrunk", shrunk)),
    )


def _stops_spanning(rig: RigView, chain: IKChain, times: Mapping[str, float]) -> bool:
    """Whether the chain spans its goals now (``spans_the_goals``) and would not with these bones
    that many times longer."""
    return spans_the_goals(rig, chain) and not spans_the_goals(rig, chain, times)


def _sheared(
    rig: RigView, chain: IKChain, name: str, scaled: str, uneven: Vector, folding: bool
) -> Finding:
    """``name`` inherits in full the uneven scale of ``scaled``, which shears it; ``folding``:
    only once the start folds the chain, straight at rest (``started_fold``; seed 243: the
    straight arm posed 100° at the elbow, its upper arm scaled (1, 1.7, 1), 9.2% short)."""
    scale = _rounded(uneven)
    rebuilt = copy_that_drops_the_shear(rig, chain, name)
    effect = (
        f"{rebuilt.type.replace('_', ' ').title()} '{readable(rebuilt)}' rebuilds its matrix "
        "from a rotation, which drops the shear: the limb still reaches"
        if rebuilt is not None
        else "the limb cannot reach its target"
    )
    return _finding(
        rig,
        chain,
        name,
        severity=Severity.WARNING if solved_by_itasc(rig) or rebuilt else Severity.ERROR,
        title="Uneven scale shears bone",
        message=(
            f"{name} inherits the non-uniform scale {scale} of {scaled} in full, "
            + (
                "which shears it once its start folds the chain, straight at rest: "
                if folding
                else "which shears it: "
            )
            + f"{effect}."
        ),
        why=(
            "Inherit Scale 'Full' applies the parent's scale along the parent's axes; "
            "on a bone turned against its parent, unequal scale becomes shear, and the "
            "solver's rotations no longer move the tip where it expects."
        ),
        fix_id="align_scale",
        fix_label=f"Set Inherit Scale of {name} to Aligned",
        fix_args=(("mode", "ALIGNED"),),
        facts=(
            ("scaled", scaled),
            ("scale", scale),
            ("rebuilt_by", None if rebuilt is None else readable(rebuilt)),
        ),
    )


def _uneven_body(rig: RigView, chain: IKChain, body: str, scale: Vector) -> Finding:
    keyed = body in animated_bones(rig)
    straight = _stretched_straight(rig, chain)
    effect = (
        "but the chain is straight and reaches by IK Stretch without folding, so it still lands "
        "(measured: the straight arm with a pole and stretch 0.01 to 0.5 under hips scaled 0.6 "
        "to 2)"
        if straight
        else "the chain misses its target as soon as a bone between them turns, whatever it "
        "inherits"
    )
    return chain_finding(
        "inherit",
        rig,
        chain,
        severity=Severity.WARNING if straight else Severity.ERROR,
        title="Body scaled unevenly",
        message=(
            f"{body}, above the chain of IK '{chain.constraint}' on {chain.owner}, is scaled "
            f"unevenly {_rounded(scale)}: {effect}."
        ),
        why=(
            "A bone turned inside an unevenly scaled parent is sheared, and the solver, which "
            "moves rigid bones, no longer lands the tip where it aims (measured: the arms 25% "
            "of their reach short with the shoulder turned 40° under hips scaled 1.3, 1, 0.8, "
            "with every Inherit Scale mode). Squash and stretch belong on a bone no chain hangs "
            "from, or in a uniform scale."
        ),
        fix_id=None if keyed else "reset_scale",
        fix_label=None if keyed else f"Reset the scale of {body} to 1 (asks first)",
        fix_args=(("scaled", body),),
        facts=(("keyed", keyed),),
        no_fix_reason=(
            f"the scale of {body} is keyed: the action would put it back on the next frame; "
            "change it in the animation"
            if keyed
            else None
        ),
        needs_confirmation=not keyed,
    )


def _stretched_straight(rig: RigView, chain: IKChain) -> bool:
    """Whether the chain is straight at rest with a pole and IK Stretch (rest_pose's "Straight,
    lands by stretch"): it never folds, only aims and stretches (fresh seed 203: the straight
    arm so, under hips scaled (1.3, 1, 0.77), lands where this check said it missed)."""
    return (
        chain.pole is not None
        and len(chain.moving_bones) >= 2
        and bend_offset(rig, chain) < STRAIGHT_RATIO
        and bool(stretching_bones(rig, chain))
    )


def _scale_given_back(rig: RigView, chain: IKChain, name: str) -> bool:
    """Whether a Copy Scale gives ``name``, which inherits no scale, the scale its parent takes
    from the top of the rig, and that of a bone above the chain scaled up now, if any.

    BlenRig hangs its limbs from parentless bones that copy the scale of a bone below its
    master, and gives the lower bones that same bone's scale back.
    """
    copied = _copied_scale(rig, name)
    parent = rig.bone(name).parent
    if copied is None or parent is None:
        return False
    sources, limb = _scale_sources(rig, readable(copied, "subtarget")), _scale_sources(rig, parent)
    if sources is None or limb is None or sources[-1] != limb[-1]:
        return False
    grown = posed_ancestor(rig, name, _is_grown, skipped=chain.bones)
    return grown is None or grown in sources


def _copied_scale(rig: RigView, name: str) -> bpy.types.CopyScaleConstraint | None:
    """A Copy Scale on ``name`` that sets its scale to another bone's of this rig, as the rig
    scales it: live, at full influence, every axis at power 1, pose or world space on both
    sides (local space copies only what the target's own channels add)."""
    for constraint in rig.constraints(name):
        if not isinstance(constraint, bpy.types.CopyScaleConstraint):
            continue
        if (
            not constraint.mute
            and constraint.influence >= FULL_INFLUENCE
            and constraint.is_valid
            and constraint.target == rig.object
            and rig.has_bone(readable(constraint, "subtarget"))
            and constraint.owner_space == constraint.target_space
            and constraint.owner_space in ("POSE", "WORLD")
            and constraint.use_x
            and constraint.use_y
            and constraint.use_z
            and math.isclose(constraint.power, 1.0)
        ):
            return constraint
    return None


def _scale_sources(rig: RigView, name: str) -> list[str] | None:
    """The bones whose pose scale ``name`` follows, itself first, up to one whose own scale is
    the top of it (a bone without a parent that copies none); None when the scale stops on the
    way (a bone that neither inherits scale nor copies it back)."""
    sources: list[str] = []
    while name not in sources:
        sources.append(name)
        bone = rig.raw_bone(name)
        if bone.parent is not None and bone.inherit_scale not in NOT_SCALING:
            name = readable(bone.parent)
            continue
        copied = _copied_scale(rig, name)
        if copied is None:
            return sources if bone.parent is None else None
        name = readable(copied, "subtarget")
    return None  # a loop of copies: nothing above scales it


def _is_grown(basis: Matrix) -> bool:
    return max(basis.to_scale().to_tuple()) > 1.0 + 1e-3


def _is_shrunk(basis: Matrix) -> bool:
    return min(basis.to_scale().to_tuple()) < 1.0 - 1e-3


def _rounded(scale: Vector) -> tuple[float, ...]:
    """A scale as the messages show it."""
    return tuple(round(value, 3) for value in scale.to_tuple())


@contextmanager
def _lasting_bone(
    obj: bpy.types.Object, name: str
) -> Iterator[bpy.types.Bone | bpy.types.EditBone]:
    """The bone whose inheritance settings last: in Edit Mode the edit bone, since Blender
    rewrites the data bones from the edit bones on the next sync; otherwise the data bone."""
    if obj.mode == "EDIT":
        with edit_bones(obj, same_for_every_user=True) as bones:
            yield bones[name]
    else:
        yield armature_data(obj).bones[name]


def reset_scale(obj: bpy.types.Object, finding: Finding) -> str:
    pose_bone = pose_of(obj).bones[str(finding.args["scaled"])]
    before = _rounded(pose_bone.scale)
    pose_bone.scale = (1.0, 1.0, 1.0)
    return f"Reset the scale of {readable(pose_bone)} from {before} to 1."


def restore_rotation_inheritance(obj: bpy.types.Object, finding: Finding) -> str:
    with _lasting_bone(obj, finding.bone or "") as bone:
        bone.use_inherit_rotation = True
        parent = bone.parent
        assert parent is not None  # the finding stands on a bone below the chain root
        return f"Turned Inherit Rotation on for {bone.name}: it now turns with {readable(parent)}."


def set_scale_inheritance(obj: bpy.types.Object, finding: Finding) -> str:
    with _lasting_bone(obj, finding.bone or "") as bone:
        before = bone.inherit_scale
        bone.inherit_scale = cast(Any, finding.args["mode"])  # an inherit_scale enum name
        return (
            f"Set Inherit Scale of {readable(bone)} from '{before.title()}' to "
            f"'{bone.inherit_scale.replace('_', ' ').title()}'."
        )


CHECK = Check(
    id="inherit",
    title="Inherited rotation and scale",
    doc=__doc__ or "",
    find=find_inheritance_problems,
    fixes={
        "inherit_rotation": restore_rotation_inheritance,
        "inherit_scale": set_scale_inheritance,
        "align_scale": set_scale_inheritance,
        "reset_scale": reset_scale,
    },
    options={"scale_tolerance": SCALE_TOLERANCE},
    order=40,
)
