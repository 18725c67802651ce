"""Spline IK chains: the bones a Spline IK constraint lays along a curve, and that curve at rest.

Read-only, like ``RigView`` (and read through it, once per pass): no mode switch, no depsgraph
evaluation. The curve is read as its data draws it at rest (points, handles, the object's
world matrix), not as modifiers deform it.

What Blender does with a Spline IK, measured in 4.2 and 5.3 on a four-bone tail (bones 0.5
long), and what every Spline IK check builds on:

- The chain's root head goes on the first point of the curve's first spline, and the bones
  follow end to end along it up to the owner's tail; other splines are ignored. Gaps between
  bones are closed.
- The curve's shape is read in world space, but its length is measured in the curve object's
  own space relative to the rig's: the curve object's location and rotation change nothing, its
  scale does (see ``curve_scale``).
- Y Scale Mode *Fit Curve* scales every bone by the curve's length over the chain's (measured
  0.5, 0.8, 1.25 and 2.0 for those ratios); without it the bones keep their length, and past the
  curve's end they leave it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import pairwise

import bpy
from mathutils import Matrix, Vector
from mathutils.geometry import interpolate_bezier

from .finding import Finding
from .names import readable
from .rig import BoneChain, IKChain, RigView, known_constraints
from .switches import animated_switch

START_WITHIN = 0.5
"""The curve starts at a bone when its first point lies within this fraction of the bone's
length from the bone's head (half a bone: the nearest joint, without doubt)."""

MAX_SLIDE = 0.01
"""Joints may land this fraction of the chain's length along the curve from where its shape puts
them before an uneven curve scale is reported (measured: 0.25 of a 2.0 chain at 1, 2, 1)."""
SCALE_TOLERANCE = 1e-3
"""A curve scale this close to 1 (relative to the rig) leaves the bones' length alone."""


@dataclass(frozen=True)
class SplineChain(BoneChain):
    """One Spline IK constraint and the bones it lays along its curve (``bones`` runs up to
    ``chain_count`` bones or the top of the hierarchy)."""

    curve: bpy.types.Object | None
    """The constraint's target, whatever kind of object it is."""
    fits_curve: bool
    """Y Scale Mode is *Fit Curve*: the bones stretch to the curve's length."""
    use_chain_offset: bool


@dataclass(frozen=True)
class CurvePath:
    """The first spline of a Spline IK curve at rest, as points in the armature's space."""

    points: tuple[Vector, ...]
    """The line Blender lays the chain on: bezier segments sampled at the spline's
    resolution, poly points as they are, NURBS control points (only close to the curve)."""
    exact: bool
    """False for NURBS, whose curve this does not evaluate: lengths are only estimates."""
    own_lengths: tuple[float, ...]
    """The length of each step between ``points`` in the curve object's own space, where
    Blender measures how far along the curve each joint goes."""

    @property
    def start(self) -> Vector:
        return self.points[0]

    @property
    def end(self) -> Vector:
        return self.points[-1]

    @property
    def length(self) -> float:
        return sum((b - a).length for a, b in pairwise(self.points))

    @property
    def slide(self) -> float:
        """How far a joint can land along the curve from where the curve's shape in the rig
        puts it: the curve's own space measures its steps at other proportions when the curve
        is scaled unevenly (0 for a straight curve, or an even scale)."""
        steps = [(b - a).length for a, b in pairwise(self.points)]
        total, own_total = sum(steps), sum(self.own_lengths)
        if total <= 0.0 or own_total <= 0.0:
            return 0.0
        worst = done = own_done = 0.0
        for step, own in zip(steps, self.own_lengths, strict=True):
            done, own_done = done + step, own_done + own
            worst = max(worst, abs(done / total - own_done / own_total))
        return worst * total


@dataclass(frozen=True)
class CurveLink:
    """Something of this rig that moves a Spline IK curve (or an object it hangs from)."""

    bone: str | None
    """The bone that moves it, or None for the armature object as a whole."""
    kind: str
    """"hook", "armature" (modifier or parenting), "constraint" or "parent"."""
    holder: str
    """The object that holds the link: the curve, or one of its parents."""
    name: str = ""
    """The hook modifier or constraint, by name."""

    @property
    def moves_with_bones(self) -> bool:
        """Posing the rig's bones moves the curve through this link."""
        return self.bone is not None or self.kind == "armature"

    @property
    def how(self) -> str:
        """In words, for messages: "hook 'Hook'", "parent of 'Empty'"."""
        what = f"{self.kind} '{self.name}'" if self.name else self.kind
        return what if self.kind == "hook" else f"{what} of '{self.holder}'"


def spline_chains(rig: RigView) -> list[SplineChain]:
    """Every Spline IK constraint of the rig, in pose order (read once per pass)."""
    return rig.remember("spline_chains", lambda: list(_read_chains(rig)))


def _read_chains(rig: RigView) -> Iterator[SplineChain]:
    for owner in rig.constrained_bones():
        for constraint in rig.constraints(owner):
            if isinstance(constraint, bpy.types.SplineIKConstraint):
                bones = [owner]
                while len(bones) < constraint.chain_count:
                    parent = rig.bone(bones[-1]).parent
                    if parent is None:
                        break
                    bones.append(parent)
                yield SplineChain(
                    owner=owner,
                    constraint=readable(constraint),
                    bones=tuple(bones),
                    chain_count=constraint.chain_count,
                    curve=constraint.target,
                    mute=constraint.mute,
                    influence=constraint.influence,
                    fits_curve=constraint.y_scale_mode == "FIT_CURVE",
                    use_chain_offset=constraint.use_chain_offset,
                )


def spline_switched_by(rig: RigView, chain: SplineChain) -> str | None:
    """Why this Spline IK's mute or influence is the rig's own business (another live Spline IK
    on the bone, keys or a driver), or None when nothing but the animator switches it."""
    for other in spline_chains(rig):
        if other.owner == chain.owner and other is not chain and not other.mute:
            return f"Spline IK '{other.constraint}' on the same bone is active"
    ik = ik_moving_owner(rig, chain)
    if ik is not None:
        return f"IK '{ik.constraint}' on {ik.owner} moves the bone"
    return animated_switch(rig, chain)


def ik_moving_owner(rig: RigView, chain: SplineChain) -> IKChain | None:
    """A live IK with a target Blender resolves whose solver turns the Spline IK's owner, or
    carries it as its own owner without Use Tail: the bone is posed without the Spline IK (a
    rock snake's head under its IK; measured: an arm's IK without Use Tail lands beside a
    Spline IK of chain length 1 with no curve on the forearm)."""
    return next(
        (
            ik
            for ik in rig.chains_with_bone(chain.owner)
            if ik.live and _resolved(ik) and chain.owner in (*ik.moving_bones, ik.owner)
        ),
        None,
    )


def skipped(chain: SplineChain) -> bool:
    """Whether Blender skips the constraint as invalid (no target, or one that is not a curve).
    A curve with no usable spline is valid: its solver still runs on the bones, in an order the
    depsgraph leaves open, and in some evaluations undoes an IK on them (the shin 26% short)."""
    return _not_a_curve(chain.curve)


def skipped_spline_ik(constraint: bpy.types.Constraint) -> bool:
    """Whether ``constraint`` is a Spline IK that Blender skips (``skipped``): it sets no
    rotation where an IK's solver starts (seed 161: a straight leg under a thigh IK on its
    control lands beside one, with no target or a mesh)."""
    return constraint.type == "SPLINE_IK" and _not_a_curve(getattr(constraint, "target", None))


def _not_a_curve(target: bpy.types.Object | None) -> bool:
    return target is None or target.type != "CURVE"


def stranded_ik(rig: RigView, chain: SplineChain) -> IKChain | None:
    """A live IK without Use Tail whose tip this skipped Spline IK leaves behind: its owner is a
    bone of the Spline IK's chain below its root. Blender poses the Spline IK's bones in its own
    step all the same, the owner from its parent before the IK turns that parent, and never
    again. Without Use Tail the IK's tip is the owner's head, so it stays where the unsolved
    parent left it. Measured in 4.2, 4.5 and 5.3 (the reference arm and leg, the IK's chain
    length 2, the Spline IK with no target or a mesh): the owner's head 0.079 off the upper
    arm's tail, the tip 53% (arm) and 39% (leg) of the reach short, the Spline IK muted or at
    influence 0 alike; with its root at the owner (chain length 1 there) or above the IK's
    chain, under an IK with Use Tail, or deleted, the IK lands. So it does where another live
    IK turns the owner, solved after and posing it from its parent again (seed 158: a hand or
    foot IK of length 2 on the same control, and the arm and the leg land), or a constraint on
    the owner aims at its chain's root (``_posed_after_the_solve``)."""
    if not skipped(chain):
        return None
    below_root = chain.bones[:-1]
    return next(
        (
            ik
            for ik in rig.chains
            if ik.live
            and not ik.use_tail
            and _resolved(ik)
            and ik.owner in below_root
            and not any(
                other.live and _resolved(other) and ik.owner in other.moving_bones
                for other in rig.chains_with_bone(ik.owner)
            )
            and not _posed_after_the_solve(rig, ik)
        ),
        None,
    )


def _posed_after_the_solve(rig: RigView, ik: IKChain) -> bool:
    """Whether a constraint on the IK's owner aims at the root of the IK's chain: Blender then
    poses the owner again once it has solved that chain, from its solved parent, and the tip
    follows (fresh seed 477, a false alarm: the arm whose forearm copies the shoulder's rotation
    lands). Measured on 4.2, 4.5 and 5.3, the arm without Use Tail beside a Spline IK with no
    target or a mesh: a Copy Rotation or Copy Location of the shoulder, muted, at influence 0,
    first or last in the stack, lands; aimed at the upper arm (the owner's parent, in the
    chain), at the hand control, the chest or the rig's root, the tip stays behind."""
    return any(
        getattr(constraint, "target", None) == rig.object
        and readable(constraint, "subtarget", "") == ik.root
        for constraint in rig.pose_bone(ik.owner).constraints
    )


def stranding_spline(rig: RigView, ik: IKChain) -> SplineChain | None:
    """The skipped Spline IK that leaves this IK's tip behind (``stranded_ik``), if any."""
    for chain in spline_chains(rig):
        stranded = stranded_ik(rig, chain)
        if stranded is not None and stranded.key == ik.key:
            return chain
    return None


def _resolved(ik: IKChain) -> bool:
    """Whether the IK has a target Blender can resolve (an object, and its bone if it names one)."""
    return ik.target is not None and not ik.target_bone_missing


def where(chain: SplineChain) -> str:
    """How messages name a Spline IK constraint."""
    return f"Spline IK '{chain.constraint}' on {chain.owner}"


def which_curve(chain: SplineChain) -> str:
    """How messages name a Spline IK's curve: "curve 'Tail' of Spline IK 'IK' on tail.004"."""
    return f"curve '{readable(curve_of(chain))}' of {where(chain)}"


# --- the curve -----------------------------------------------------------------------------------


def curve_of(chain: SplineChain) -> bpy.types.Object:
    """The chain's curve object, where it is known to be usable: a path was read from it, or a
    finding was made on it."""
    assert chain.curve is not None, f"{where(chain)} has no curve"
    return chain.curve


def curve_to_rig(obj: bpy.types.Object, curve: bpy.types.Object) -> Matrix:
    """The matrix from the curve object's space to the armature object's."""
    return obj.matrix_world.inverted_safe() @ curve.matrix_world


def curve_data(obj: bpy.types.Object) -> bpy.types.Curve:
    """The curve data of a curve object (the stubs type ``Object.data`` as any kind of data)."""
    data = obj.data
    assert isinstance(data, bpy.types.Curve), f"'{obj.name}' is not a curve"
    return data


def unusable_curve(chain: SplineChain) -> str | None:
    """Why the chain has no curve to follow, in words after "it", or None when it has one.

    Measured: with no target, or one that is not a curve object (a mesh, a text, a surface),
    the constraint is invalid; a curve with no spline, or whose first spline has one point, is
    valid but moves nothing (4.2 prints "No bev list data!"). Either way the chain stays put.
    """
    curve = chain.curve
    if curve is None:
        return "has no target"
    if curve.type != "CURVE":
        return f"targets '{readable(curve)}', a {curve.type.lower()} object, not a curve"
    splines = curve_data(curve).splines
    if not splines:
        return f"targets the curve '{readable(curve)}', which has no spline"
    if _point_count(splines[0]) < 2:
        return f"targets the curve '{readable(curve)}', whose first spline has a single point"
    return None


def _point_count(spline: bpy.types.Spline) -> int:
    return len(spline.bezier_points) if spline.type == "BEZIER" else len(spline.points)


def curve_path(rig: RigView, chain: SplineChain) -> CurvePath | None:
    """The curve the chain follows, at rest in the armature's space; None when unusable."""
    if unusable_curve(chain) is not None:
        return None
    curve = curve_of(chain)
    return rig.remember(("spline_path", curve.as_pointer()), lambda: _read_path(rig, curve))


def _read_path(rig: RigView, curve: bpy.types.Object) -> CurvePath:
    spline = curve_data(curve).splines[0]
    to_rig = curve_to_rig(rig.object, curve)
    if spline.type == "BEZIER":
        knots = list(spline.bezier_points)
        if spline.use_cyclic_u:
            knots.append(knots[0])
        steps = max(spline.resolution_u, 1) + 1
        local = [knots[0].co.copy()]
        for a, b in pairwise(knots):
            piece: list[Vector] = interpolate_bezier(  # type: ignore[func-returns-value,assignment]
                a.co, a.handle_right, b.handle_left, b.co, steps
            )  # the stubs say it returns nothing; it returns the points, ends included
            local += piece[1:]
    else:
        local = [point.co.xyz for point in spline.points]
        if spline.use_cyclic_u:
            local.append(local[0])
    own = tuple((b - a).length for a, b in pairwise(local))
    return CurvePath(tuple(to_rig @ point for point in local), spline.type != "NURBS", own)


def curve_scale(rig: RigView, chain: SplineChain) -> tuple[float, float, float]:
    """The scale of the curve object relative to the rig, along the curve's own axes.

    Blender measures the curve's length in the curve's own space and the bones in the rig's.
    Measured with the same curve in the world (a bent four-point curve under a 2.0 tail): a
    uniform scale changes nothing with *Fit Curve*, but without it scales the bones by it
    (2: bones twice as long and 0.96 off the curve; 0.5: half as long); a non-uniform scale
    slides the joints along the curve in every mode (1, 2, 1: 0.25 with Fit Curve, 0.56 to 0.77
    without). Rotation changes nothing.
    """
    to_rig = curve_to_rig(rig.object, curve_of(chain))
    x, y, z = (to_rig.col[axis].xyz.length for axis in range(3))
    return (x, y, z)


def distorting_scale(
    rig: RigView, chain: SplineChain, path: CurvePath
) -> tuple[float, float, float] | None:
    """The curve's scale relative to the rig when it moves the chain (``curve_scale``): when it
    slides joints along the curve by more than ``MAX_SLIDE`` of the chain's length, or, without
    *Fit Curve*, scales the bones; else None."""
    scale = curve_scale(rig, chain)
    slides = path.slide > MAX_SLIDE * chain_length(rig, chain)
    scales = not chain.fits_curve and any(abs(s - 1.0) > SCALE_TOLERANCE for s in scale)
    return scale if slides or scales else None


def chain_length(rig: RigView, chain: SplineChain) -> float:
    """Sum of the chain's bone lengths: what Blender lays along the curve (gaps closed)."""
    return sum(rig.bone(name).length for name in chain.bones)


def runs_backwards(rig: RigView, chain: SplineChain, path: CurvePath) -> bool:
    """The curve starts at the chain's tip and ends at its root: Blender lays the root on the
    first point, so the chain flips end for end (measured: the root's head moved the whole
    chain's length, onto the tip's rest place)."""
    root, tip = rig.bone(chain.root).head, rig.bone(chain.owner).tail
    starts_at_tip = (path.start - tip).length < (path.start - root).length
    ends_at_root = (path.end - root).length < (path.end - tip).length
    return starts_at_tip and ends_at_root


def forward_path(rig: RigView, chain: SplineChain) -> CurvePath | None:
    """The curve the chain follows when it is usable and runs from root to tip; else None (a
    backwards curve flips the chain, which the direction check reports before anything else)."""
    path = curve_path(rig, chain)
    return None if path is None or runs_backwards(rig, chain, path) else path


def chains_on_curves(
    rig: RigView,
    path_of: Callable[[RigView, SplineChain], CurvePath | None] = curve_path,
) -> Iterator[tuple[SplineChain, CurvePath]]:
    """Each Spline IK chain with the path ``path_of`` reads for it, skipping those it reads none
    for: ``curve_path`` skips unusable curves, ``forward_path`` backwards ones too."""
    for chain in spline_chains(rig):
        path = path_of(rig, chain)
        if path is not None:
            yield chain, path


def fitting_count(rig: RigView, chain: SplineChain, path: CurvePath) -> int | None:
    """The chain count that starts the chain where the curve starts, when it is not the count
    set: the curve's first point lies on the head of another bone of the owner's lineage."""
    lineage = [chain.owner, *rig.ancestors(chain.owner)]
    nearest = min(lineage, key=lambda name: (rig.bone(name).head - path.start).length)
    bone = rig.bone(nearest)
    if nearest == chain.root or (bone.head - path.start).length > START_WITHIN * bone.length:
        return None
    return lineage.index(nearest) + 1


def curve_links(rig: RigView, curve: bpy.types.Object) -> list[CurveLink]:
    """What of this rig moves the curve: its hooks and armature modifiers, its parents (the
    curve's own and theirs) and the constraints on it or its parents that aim at the rig."""
    links = []
    for modifier in curve.modifiers:
        if isinstance(modifier, bpy.types.HookModifier) and modifier.object == rig.object:
            bone = readable(modifier, "subtarget") or None
            links.append(CurveLink(bone, "hook", readable(curve), readable(modifier)))
        elif isinstance(modifier, bpy.types.ArmatureModifier) and modifier.object == rig.object:
            links.append(CurveLink(None, "armature", readable(curve), readable(modifier)))
    obj: bpy.types.Object | None = curve
    while obj is not None:
        for constraint in known_constraints(obj.constraints):
            if not constraint.mute and getattr(constraint, "target", None) == rig.object:
                bone = readable(constraint, "subtarget", "") or None
                links.append(CurveLink(bone, "constraint", readable(obj), readable(constraint)))
        if obj.parent == rig.object:
            bone = (readable(obj, "parent_bone") or None) if obj.parent_type == "BONE" else None
            kind = "armature" if obj.parent_type == "ARMATURE" else "parent"
            links.append(CurveLink(bone, kind, readable(obj)))
        obj = None if obj.parent == rig.object else obj.parent
    return links


def moved_by_chain(rig: RigView, chain: SplineChain, bone: str) -> bool:
    """The chain moves this bone: it is the chain's root or hangs below it (Blender moves the
    root's head onto the curve, and everything below follows)."""
    return rig.has_bone(bone) and (bone == chain.root or rig.is_descendant(bone, chain.root))


def moved_from_outside(rig: RigView, curve: bpy.types.Object) -> bool:
    """Something other than this rig may move the curve: keys or drivers on it or its points,
    a hook or constraint aiming at another object, or a parent that is not this rig."""
    if is_animated(curve) or curve.parent not in (None, rig.object):
        return True
    for modifier in curve.modifiers:
        other = getattr(modifier, "object", None)
        if modifier.type in ("HOOK", "ARMATURE") and other not in (None, rig.object):
            return True
    return any(
        not constraint.mute and getattr(constraint, "target", None) not in (None, rig.object)
        for constraint in known_constraints(curve.constraints)
    )


def is_animated(curve: bpy.types.Object) -> bool:
    """Keys or drivers move the curve object or its points: an animator shapes it directly."""
    for block in (curve, curve_data(curve)):
        animation = block.animation_data
        if animation is not None and (animation.action is not None or bool(animation.drivers)):
            return True
    return False


def spline_chain_of(rig: RigView, finding: Finding) -> SplineChain:
    """The Spline IK chain a finding belongs to. Fixes are handed findings diagnosed just now,
    so it is there."""
    for chain in spline_chains(rig):
        if chain.key == finding.chain:
            return chain
    raise AssertionError(f"'{rig.name}' has no Spline IK {finding.chain}")
