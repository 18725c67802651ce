"""Random Spline IK tails for the property tests: a Hypothesis strategy and its builder.

A ``TailSpec`` is plain data (Hypothesis shrinks and prints it); ``add_random_tail`` adds a
tail of 1 to 6 bones to a rig with a ``root`` bone and lays a curve for it, broken in any
combination of the ways the spline checks know: no target or one that is no curve, a curve with
no spline or a single point, any chain count, gaps, a curve drawn backwards, far, scaled,
turned, too short or too long, hooks on safe controls, on the chain's own bones or on controls
that hang from it, a curve parented to a bone, the Y and XZ scale modes, Chain Offset, mute,
partial or driven influence and constraints the Spline IK overrides.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import bpy
from hypothesis import strategies as st
from mathutils import Euler, Matrix, Vector
from test_check_spline_ik import new_spline

from ik_doctor.core.editing import edit_bones

BONE = 0.4
TARGETS = ("curve", "curve", "curve", "none", "mesh", "no_spline", "one_point")
LINKS = (
    "none",
    "hooks",
    "hooks",
    "hook_on_chain",  # the last point hooked to a bone of the chain
    "controls_under_root",  # hook controls hanging from the chain's root
    "parent_bone",  # the curve parented to the rig's root bone
    "parent_chain_bone",
    "parent_armature",
)
HELPERS = (None, None, "COPY_LOCATION", "COPY_ROTATION", "DAMPED_TRACK", "LIMIT_ROTATION")
CURVE_SCALES = (
    (1.0, 1.0, 1.0),
    (2.0, 2.0, 2.0),
    (1.0, 2.0, 1.0),
    (-1.0, 1.0, 1.0),
    (0.5, 3.0, 1.0),
)


@dataclass(frozen=True)
class TailSpec:
    bones: int
    gap: int | None
    """A bone lifted off its parent's tail, not connected."""
    target: str
    kind: str
    points: int
    backwards: bool
    length_ratio: float
    """The curve's length over the chain's, before the object's scale."""
    bend: float
    offset: tuple[float, float, float]
    curve_scale: tuple[float, float, float]
    curve_turn: tuple[float, float, float]
    links: str
    count: int | None
    """None: the tail's own length."""
    y_scale_mode: str
    xz_scale_mode: str
    chain_offset: bool
    mute: bool
    influence: float
    driven: bool
    helper: str | None


small = st.floats(-1.0, 1.0, allow_nan=False, allow_infinity=False, width=32)
tail_specs = st.builds(
    TailSpec,
    bones=st.integers(1, 6),
    gap=st.one_of(st.none(), st.integers(1, 5)),
    target=st.sampled_from(TARGETS),
    kind=st.sampled_from(("BEZIER", "BEZIER", "POLY", "NURBS")),
    points=st.integers(2, 6),
    backwards=st.booleans(),
    length_ratio=st.one_of(st.just(1.0), st.floats(0.3, 2.0)),
    bend=st.one_of(st.just(0.0), small),
    offset=st.one_of(st.just((0.0, 0.0, 0.0)), st.tuples(small, small, small)),
    curve_scale=st.sampled_from(CURVE_SCALES),
    curve_turn=st.one_of(st.just((0.0, 0.0, 0.0)), st.tuples(small, small, small)),
    links=st.sampled_from(LINKS),
    count=st.one_of(st.none(), st.none(), st.integers(1, 7), st.integers(1, 255)),
    y_scale_mode=st.sampled_from(("FIT_CURVE", "FIT_CURVE", "NONE", "BONE_ORIGINAL")),
    xz_scale_mode=st.sampled_from(("NONE", "BONE_ORIGINAL", "INVERSE_PRESERVE", "VOLUME_PRESERVE")),
    chain_offset=st.booleans(),
    mute=st.sampled_from((False, False, False, True)),
    influence=st.one_of(st.just(1.0), st.just(1.0), st.floats(0.0, 1.0)),
    driven=st.sampled_from((False, False, False, True)),
    helper=st.sampled_from(HELPERS),
)


def add_random_tail(rig: bpy.types.Object, spec: TailSpec) -> None:
    """Add the tail, its curve and its Spline IK to ``rig`` (which has a ``root`` bone)."""
    names = [f"rtail.{index:03d}" for index in range(spec.bones)]
    world_points = _curve_points(spec)
    hooked = spec.links in ("hooks", "hook_on_chain", "controls_under_root")
    with edit_bones(rig) as bones:
        parent = bones["root"]
        for index, name in enumerate(names):
            bone = bones.new(name)
            lift = 0.1 if index == spec.gap else 0.0
            bone.head = (0.0, -index * BONE, 1.2 + lift)
            bone.tail = (0.0, -(index + 1) * BONE, 1.2)
            bone.parent, bone.use_connect = parent, index > 0 and index != spec.gap
            parent = bone
        if hooked:
            for index, point in enumerate(world_points):
                control = bones.new(f"rctrl.{index}")
                local = rig.matrix_world.inverted() @ point
                control.head, control.tail = local, local + Vector((0.0, 0.0, 0.2))
                under = names[0] if spec.links == "controls_under_root" else "root"
                control.parent, control.use_deform = bones[under], False
    curve = _curve(rig, spec, world_points)
    if hooked and curve is not None and curve.data.splines:
        _hook(rig, curve, spec, names)
    if curve is not None and spec.links.startswith("parent"):
        world = curve.matrix_world.copy()
        curve.parent = rig
        if spec.links == "parent_armature":
            curve.parent_type = "OBJECT"
        else:
            curve.parent_type = "BONE"
            curve.parent_bone = names[min(1, len(names) - 1)] if "chain" in spec.links else "root"
        curve.matrix_world = world
    owner = rig.pose.bones[names[-1]]
    spline_ik = owner.constraints.new("SPLINE_IK")
    spline_ik.target = _target(spec, curve)
    spline_ik.chain_count = spec.bones if spec.count is None else spec.count
    spline_ik.y_scale_mode, spline_ik.xz_scale_mode = spec.y_scale_mode, spec.xz_scale_mode
    spline_ik.use_chain_offset = spec.chain_offset
    spline_ik.mute, spline_ik.influence = spec.mute, spec.influence
    if spec.driven:
        driver = spline_ik.driver_add("influence").driver
        driver.type, driver.expression = "SCRIPTED", f"{spec.influence:.3f}"
    if spec.helper is not None:
        helper = rig.pose.bones[names[0]].constraints.new(spec.helper)
        if isinstance(helper, bpy.types.LimitRotationConstraint):
            helper.use_limit_x, helper.max_x = True, 0.1
        else:
            helper.target, helper.subtarget = rig, "root"
    bpy.context.view_layer.update()


def _curve_points(spec: TailSpec) -> list[Vector]:
    """World points of the curve: along the tail from its root, bent sideways, maybe reversed."""
    length = BONE * spec.bones * spec.length_ratio
    start = Vector((0.0, 0.0, 1.2)) + Vector(spec.offset)
    points = [
        start
        + Vector((spec.bend * math.sin(math.pi * i / (spec.points - 1)), 0.0, 0.0))
        + Vector((0.0, -length * i / (spec.points - 1), 0.0))
        for i in range(spec.points)
    ]
    return list(reversed(points)) if spec.backwards else points


def _curve(rig: bpy.types.Object, spec: TailSpec, points: list[Vector]) -> bpy.types.Object | None:
    if spec.target in ("none", "mesh"):
        return None
    data = bpy.data.curves.new("RandomTail", "CURVE")
    data.dimensions = "3D"
    curve = bpy.data.objects.new("RandomTailCurve", data)
    bpy.context.scene.collection.objects.link(curve)
    curve.matrix_world = Matrix.LocRotScale(Vector(), Euler(spec.curve_turn), spec.curve_scale)
    if spec.target == "no_spline":
        return curve
    local = [curve.matrix_world.inverted_safe() @ point for point in points]
    if spec.target == "one_point":
        local = local[:1]
    new_spline(data, spec.kind, local)
    return curve


def _hook(rig: bpy.types.Object, curve: bpy.types.Object, spec: TailSpec, names: list[str]) -> None:
    spline = curve.data.splines[0]
    count = len(spline.bezier_points) if spline.type == "BEZIER" else len(spline.points)
    for index in range(count):
        bone = f"rctrl.{index}"
        if spec.links == "hook_on_chain" and index == count - 1:
            bone = names[min(1, len(names) - 1)]
        hook = curve.modifiers.new(f"Hook.{index}", "HOOK")
        hook.object, hook.subtarget = rig, bone
        step = 3 if spline.type == "BEZIER" else 1
        hook.vertex_indices_set([step * index + k for k in range(step)])
        bone_world = rig.matrix_world @ rig.data.bones[bone].matrix_local
        hook.matrix_inverse = bone_world.inverted_safe() @ curve.matrix_world


def _target(spec: TailSpec, curve: bpy.types.Object | None) -> bpy.types.Object | None:
    if spec.target == "mesh":
        mesh = bpy.data.objects.new("TailMesh", bpy.data.meshes.new("TailMesh"))
        bpy.context.scene.collection.objects.link(mesh)
        return mesh
    return curve
