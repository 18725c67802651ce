"""Random rigs for the property tests: Hypothesis strategies for a rig spec, and its builder.

A ``RigSpec`` is plain data (so Hypothesis can shrink it and print it); ``build_rig`` turns it
into Blender objects with the data API and ``edit_bones``. The specs cover what real files
contain and what the checks must survive: broken hierarchies, gaps, zero-length bones (Blender
deletes them on leaving Edit Mode and re-parents their children), negative and zero object
scales, IK constraints aimed at anything (with or without the tail, chains of no length), and
constraints of every type this Blender makes mixed in, with the leftovers of old files it cannot
name (``UnknownType``, made by editing a saved file) and names Python cannot read (a bone and
its constraints saved with a byte that is not UTF-8, as Blender 2.4x saved them, made the same
way). ``rig_state`` is a snapshot of everything
a fix might touch, for "changed nothing" and "lost nothing" checks.
"""

from __future__ import annotations

import math
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import bpy
from hypothesis import strategies as st
from mathutils import Euler

from ik_doctor.core.editing import edit_bones
from ik_doctor.core.names import named, readable

# What an IK target or pole can point at.
REFERENCE_KINDS = (
    "none",
    "bone",  # another bone of the rig
    "owner",  # the constraint's own bone
    "chain",  # a parent of the owner (inside its chain, for short chains)
    "missing",  # a bone name that does not exist
    "armature",  # the rig object itself, no bone
    "empty",
    "mesh",
    "other_armature",  # a bone of a second armature
)
OTHER_CONSTRAINTS = (
    "COPY_ROTATION",
    "COPY_LOCATION",
    "DAMPED_TRACK",
    "LIMIT_ROTATION",
    "STRETCH_TO",
    "CHILD_OF",
)
"""The constraints the checks read most: drawn as often as all the others together."""
UNKNOWN = "UNKNOWN"
"""A constraint of a type this Blender cannot name, as files from Blender 2.4x hold (a Null
constraint): Blender loads it as ``UnknownType``, with no name, type or mute to read."""
EVERY_CONSTRAINT = (
    *(item.identifier for item in bpy.types.Constraint.bl_rna.properties["type"].enum_items),
    UNKNOWN,
)
"""Every constraint type this Blender line can make (4.2 has 28, 5.3 29), and an old leftover."""
NAME_STEMS = ("bone", "thigh", "shin", "forearm", "DEF-arm", "ORG-leg", "MCH-ik", "骨")
NAME_SIDES = ("", ".L", ".R", "_l", ".001", " x")
# Blender deletes edit bones shorter than 1e-6 when leaving Edit Mode; 1e-5 survives.
LENGTHS = (0.0, 1e-7, 1e-5, 1e-3)
SCALES = (
    (1.0, 1.0, 1.0),
    (2.0, 2.0, 2.0),
    (0.01, 0.01, 0.01),
    (-1.0, 1.0, 1.0),
    (1.0, -1.0, -1.0),
    (0.0, 1.0, 1.0),
    (0.0, 0.0, 0.0),
    (1.0, 3.0, 0.5),
)


@dataclass(frozen=True)
class BoneSpec:
    name: str
    parent: int | None
    """Index of an earlier bone, so the hierarchy has no cycles."""
    connected: bool
    offset: tuple[float, float, float]
    """Head relative to the parent's tail (or the origin for roots)."""
    direction: tuple[float, float, float]
    length: float
    roll: float
    deform: bool
    pose: PoseSpec


@dataclass(frozen=True)
class PoseSpec:
    """A bone's pose channel: its transform and the IK settings the solver reads."""

    rotation: tuple[float, float, float]
    scale: tuple[float, float, float]
    ik_stretch: float
    lock_ik: tuple[bool, bool, bool]
    ik_stiffness: float
    ik_limits: tuple[tuple[str, float, float], ...] = ()
    """(axis, min, max) IK limits, radians: one-sided ones choose a straight chain's fold."""


@dataclass(frozen=True)
class Reference:
    kind: str
    pick: int
    """Chooses the bone for kinds "bone" and "chain"."""


@dataclass(frozen=True)
class ConstraintSpec:
    bone: int
    type: str
    chain_count: int
    use_tail: bool
    target: Reference
    pole: Reference
    pole_angle: float
    mute: bool
    influence: float


@dataclass(frozen=True)
class RigSpec:
    bones: tuple[BoneSpec, ...]
    constraints: tuple[ConstraintSpec, ...]
    scale: tuple[float, float, float]
    rotation: tuple[float, float, float]
    helper_scale: tuple[float, float, float]
    """Scale of the empty, mesh and second armature used as targets."""
    with_mesh: bool
    with_keys: bool
    """Rotation and location keys on two bones, and the first IK's influence keyed."""
    driven_influence: bool
    """A driver on the last constraint's influence."""
    rest_position: bool
    """The armature shows its rest pose (no pose, no IK)."""
    itasc: bool
    unreadable: bool = False
    """The first bone's name, and its constraints', saved with a byte that is not UTF-8."""


IK_LIMITS = ((), (("z", -2.2, 0.0),), (("x", 0.0, 2.6), ("z", -1.0, 0.0)), (("x", -1.0, 1.0),))
"""None; one-sided on one hinge axis or two, as a robot arm's joints; even both ways."""
coordinates = st.floats(-2.0, 2.0, allow_nan=False, allow_infinity=False, width=32)
small_offsets = st.one_of(
    st.just((0.0, 0.0, 0.0)),
    st.tuples(coordinates, coordinates, coordinates),
    st.sampled_from(((1e-6, 0.0, 0.0), (0.0, 0.0, 1e-3))),
)
directions = st.one_of(
    st.sampled_from(((0.0, 0.0, 1.0), (0.0, 0.0, -1.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0))),
    st.tuples(coordinates, coordinates, coordinates),
)
lengths = st.one_of(st.sampled_from(LENGTHS), st.floats(0.01, 3.0))
influences = st.one_of(st.sampled_from((0.0, 1.0)), st.floats(0.0, 1.0))
pose_specs = st.one_of(
    st.just(PoseSpec((0.0, 0.0, 0.0), (1.0, 1.0, 1.0), 0.0, (False, False, False), 0.0)),
    st.builds(
        PoseSpec,
        st.tuples(coordinates, coordinates, coordinates),
        st.sampled_from(SCALES),
        st.sampled_from((0.0, 0.1, 1.0)),
        st.tuples(st.booleans(), st.booleans(), st.booleans()),
        st.sampled_from((0.0, 0.5, 0.99)),
        st.sampled_from(IK_LIMITS),
    ),
)
references = st.builds(Reference, st.sampled_from(REFERENCE_KINDS), st.integers(0, 50))


@st.composite
def bone_specs(draw: st.DrawFn, count: int) -> tuple[BoneSpec, ...]:
    bones = []
    for index in range(count):
        parent = draw(st.one_of(st.none(), st.integers(0, index - 1))) if index else None
        name = f"{draw(st.sampled_from(NAME_STEMS))}{index}{draw(st.sampled_from(NAME_SIDES))}"
        bones.append(
            BoneSpec(
                name=name,
                parent=parent,
                connected=parent is not None and draw(st.booleans()),
                offset=draw(small_offsets),
                direction=draw(directions),
                length=draw(lengths),
                roll=draw(st.floats(-math.pi, math.pi)),
                deform=draw(st.booleans()),
                pose=draw(pose_specs),
            )
        )
    return tuple(bones)


@st.composite
def constraint_specs(draw: st.DrawFn, bone_count: int) -> ConstraintSpec:
    return ConstraintSpec(
        bone=draw(st.integers(0, bone_count - 1)),
        type=draw(
            st.one_of(
                st.just("IK"),
                st.just("IK"),
                st.sampled_from(OTHER_CONSTRAINTS),
                st.sampled_from(EVERY_CONSTRAINT),
            )
        ),
        chain_count=draw(st.one_of(st.integers(0, 3), st.integers(0, 255))),
        use_tail=draw(st.booleans()),
        target=draw(references),
        pole=draw(st.one_of(st.just(Reference("none", 0)), references)),
        pole_angle=draw(st.floats(-math.pi, math.pi)),
        mute=draw(st.booleans()),
        influence=draw(influences),
    )


@st.composite
def rig_specs(draw: st.DrawFn, max_bones: int = 12, max_constraints: int = 6) -> RigSpec:
    """A random rig: hierarchy, geometry, constraints, object scale, mesh and keys."""
    count = draw(st.integers(1, max_bones))
    return RigSpec(
        bones=draw(bone_specs(count)),
        constraints=tuple(
            draw(st.lists(constraint_specs(count), max_size=max_constraints)),
        ),
        scale=draw(st.sampled_from(SCALES)),
        rotation=draw(
            st.one_of(st.just((0.0, 0.0, 0.0)), st.tuples(coordinates, coordinates, coordinates))
        ),
        helper_scale=draw(st.sampled_from(SCALES)),
        with_mesh=draw(st.booleans()),
        with_keys=draw(st.booleans()),
        driven_influence=draw(st.booleans()),
        rest_position=draw(st.booleans()),
        itasc=draw(st.booleans()),
        unreadable=draw(st.integers(0, 7)) == 0,  # a save and a reopen: one rig in eight
    )


# --- building ---------------------------------------------------------------------------------


def build_rig(spec: RigSpec, name: str = "Rig") -> bpy.types.Object:
    """Build the spec in the current scene and return the armature object (in Object Mode)."""
    collection = bpy.context.scene.collection
    obj = bpy.data.objects.new(name, bpy.data.armatures.new(f"{name}Data"))
    collection.objects.link(obj)
    with edit_bones(obj) as bones:
        made = []
        for bone_spec in spec.bones:
            bone = bones.new(bone_spec.name)
            parent = made[bone_spec.parent] if bone_spec.parent is not None else None
            start = parent.tail if parent is not None else (0.0, 0.0, 0.0)
            bone.head = [a + b for a, b in zip(start, bone_spec.offset, strict=True)]
            bone.tail = [
                h + d * bone_spec.length
                for h, d in zip(bone.head, _unit(bone_spec.direction), strict=True)
            ]
            bone.roll = bone_spec.roll
            bone.use_deform = bone_spec.deform
            bone.parent = parent
            bone.use_connect = bone_spec.connected
            made.append(bone)
    # Zero-length bones are gone now; constraints and references skip them.
    for index, bone in enumerate(obj.data.bones):
        bone["ik_doctor_test"] = index
        obj.pose.bones[bone.name]["ik_doctor_pose_prop"] = float(index)
    for bone_spec in spec.bones:
        pose_bone = obj.pose.bones.get(bone_spec.name)
        if pose_bone is not None:
            _pose(pose_bone, bone_spec.pose)
    if spec.rest_position:
        obj.data.pose_position = "REST"
    if spec.itasc:
        obj.pose.ik_solver = "ITASC"
    obj["ik_doctor_object_prop"] = "kept"
    helpers = _helpers(spec, collection)
    for constraint_spec in spec.constraints:
        _add_constraint(obj, spec, constraint_spec, helpers)
    obj.scale = spec.scale
    obj.rotation_euler = spec.rotation
    if spec.with_mesh:
        _add_skinned_mesh(obj, collection)
    if spec.with_keys and obj.pose.bones:
        for frame in (1, 10):
            obj.pose.bones[0].keyframe_insert("location", frame=frame)
            obj.pose.bones[-1].keyframe_insert("rotation_quaternion", frame=frame)
            for constraint in obj.pose.bones[-1].constraints[:1]:
                constraint.keyframe_insert("influence", frame=frame)
    constraints = [c for pose_bone in obj.pose.bones for c in pose_bone.constraints]
    if spec.driven_influence and constraints:
        driver = constraints[-1].driver_add("influence").driver
        driver.type, driver.expression = "SCRIPTED", "0.5"
    if spec.unreadable and obj.pose.bones:
        _mark_unreadable(obj.pose.bones[0])
    if any(c.type == UNKNOWN for c in spec.constraints):
        obj = reloaded_with_unknown_types(obj)
    if spec.unreadable:
        obj = reloaded_with_unreadable_names(obj)
    # Evaluate once, as any open Blender session has: driven values are current, as on reload.
    bpy.context.view_layer.update()
    return obj


def _mark_unreadable(pose_bone: bpy.types.PoseBone) -> None:
    """Mark a bone and its constraints for ``reloaded_with_unreadable_names`` (renaming them
    through Blender renames every target and path that names them too)."""
    for constraint in pose_bone.constraints:
        constraint.name = f"{constraint.name}{UNREADABLE}"
    pose_bone.name = f"{pose_bone.name}{UNREADABLE}"


def _pose(pose_bone: bpy.types.PoseBone, spec: PoseSpec) -> None:
    pose_bone.rotation_quaternion = Euler(spec.rotation).to_quaternion()
    pose_bone.scale = spec.scale
    pose_bone.ik_stretch = spec.ik_stretch
    pose_bone.lock_ik_x, pose_bone.lock_ik_y, pose_bone.lock_ik_z = spec.lock_ik
    pose_bone.ik_stiffness_x = pose_bone.ik_stiffness_z = spec.ik_stiffness
    for axis, low, high in spec.ik_limits:
        setattr(pose_bone, f"use_ik_limit_{axis}", True)
        setattr(pose_bone, f"ik_min_{axis}", low)
        setattr(pose_bone, f"ik_max_{axis}", high)


def _unit(direction: tuple[float, float, float]) -> tuple[float, float, float]:
    length = math.sqrt(sum(c * c for c in direction))
    if length < 1e-6:
        return (0.0, 0.0, 1.0)
    return tuple(c / length for c in direction)  # type: ignore[return-value]


def _helpers(spec: RigSpec, collection: bpy.types.Collection) -> dict[str, bpy.types.Object]:
    kinds = {c.target.kind for c in spec.constraints} | {c.pole.kind for c in spec.constraints}
    helpers = {}
    if "empty" in kinds:
        helpers["empty"] = bpy.data.objects.new("TargetEmpty", None)
    if "mesh" in kinds:
        mesh = bpy.data.meshes.new("TargetMesh")
        mesh.from_pydata([(0.0, 0.0, 0.0), (0.1, 0.0, 0.0), (0.0, 0.1, 0.0)], [], [(0, 1, 2)])
        helpers["mesh"] = bpy.data.objects.new("TargetMesh", mesh)
    if "other_armature" in kinds:
        other = bpy.data.objects.new("OtherRig", bpy.data.armatures.new("OtherRigData"))
        collection.objects.link(other)
        with edit_bones(other) as bones:
            control = bones.new("control")
            control.head, control.tail = (1.0, 0.0, 0.0), (1.0, 0.0, 0.5)
        helpers["other_armature"] = other
    for kind, helper in helpers.items():
        if kind != "other_armature":
            collection.objects.link(helper)
        helper.location = (0.5, -0.5, 1.0)
        helper.scale = spec.helper_scale
    return helpers


def _add_constraint(
    obj: bpy.types.Object,
    spec: RigSpec,
    constraint_spec: ConstraintSpec,
    helpers: dict[str, bpy.types.Object],
) -> None:
    owner_name = spec.bones[constraint_spec.bone].name
    pose_bone = obj.pose.bones.get(owner_name)
    if pose_bone is None:  # a zero-length bone Blender deleted
        return
    unknown = constraint_spec.type == UNKNOWN
    constraint = pose_bone.constraints.new("COPY_LOCATION" if unknown else constraint_spec.type)
    if unknown:
        constraint.name = f"{LEFTOVER}{len(leftovers())}"
    constraint.mute = constraint_spec.mute
    constraint.influence = constraint_spec.influence
    target, subtarget = _resolve(obj, pose_bone, constraint_spec.target, helpers)
    if isinstance(constraint, bpy.types.ArmatureConstraint):  # a list of targets, not one
        entry = constraint.targets.new()
        entry.target = target
        if subtarget is not None:
            entry.subtarget = subtarget
    elif hasattr(constraint, "target"):
        constraint.target = target
        if subtarget is not None and hasattr(constraint, "subtarget"):
            constraint.subtarget = subtarget
    if constraint_spec.type != "IK":
        return
    constraint.chain_count = constraint_spec.chain_count
    constraint.use_tail = constraint_spec.use_tail
    pole, pole_subtarget = _resolve(obj, pose_bone, constraint_spec.pole, helpers)
    constraint.pole_target = pole
    if pole_subtarget is not None:
        constraint.pole_subtarget = pole_subtarget
    constraint.pole_angle = constraint_spec.pole_angle


LEFTOVER = "IKDoctorOldLeftover"
"""Name stem of the constraints ``reloaded_with_unknown_types`` turns into old leftovers."""
_DNA_COPY_LOCATION, _DNA_NULL = 9, 0
"""``bConstraint.type`` of a Copy Location and of 2.4x's Null constraint (DNA headers)."""
_TYPE_BEFORE_NAME = 80
"""Bytes from ``bConstraint.type`` to ``bConstraint.name`` in a saved file (4.2 and 5.3)."""


def leftovers() -> list[str]:
    """Names of the constraints marked to become old leftovers, on any object or pose bone."""
    stacks = [ob.constraints for ob in bpy.data.objects]
    stacks += [pb.constraints for ob in bpy.data.objects if ob.pose for pb in ob.pose.bones]
    return [
        c.name
        for stack in stacks
        for c in stack
        if isinstance(c, bpy.types.Constraint) and c.name.startswith(LEFTOVER)
    ]


def reloaded_with_unknown_types(obj: bpy.types.Object) -> bpy.types.Object:
    """Save the file, turn every Copy Location named ``LEFTOVER…`` into a Null constraint in the
    saved bytes, as a 2.4x file holds them, and open it again: the one way to meet
    ``UnknownType`` from Python. Returns ``obj`` as reopened."""
    name, marked = obj.name, leftovers()
    path = Path(tempfile.mkdtemp(prefix="ik_doctor_old_")) / "old.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(path), compress=False, check_existing=False)
    data = bytearray(path.read_bytes())
    for leftover in set(marked):
        found = data.find(leftover.encode() + b"\0")
        while found >= 0:
            at = found - _TYPE_BEFORE_NAME
            assert int.from_bytes(data[at : at + 2], "little") == _DNA_COPY_LOCATION, "moved"
            data[at : at + 2] = _DNA_NULL.to_bytes(2, "little")
            found = data.find(leftover.encode() + b"\0", found + 1)
    path.write_bytes(bytes(data))
    bpy.ops.wm.open_mainfile(filepath=str(path), load_ui=False)
    path.unlink()
    path.parent.rmdir()
    return bpy.data.objects[name]


UNREADABLE = "?"
"""Stands in a name for a byte that is not UTF-8: ``reloaded_with_unreadable_names`` saves it as
0xdf, a Latin-1 'ß', as Blender 2.4x saved names in the user's code page."""


def reloaded_with_unreadable_names(obj: bpy.types.Object) -> bpy.types.Object:
    """Save the file with its names Python cannot read (``save_with_unreadable_names``) and open
    it again. Returns ``obj`` as reopened."""
    name = obj.name
    path = Path(tempfile.mkdtemp(prefix="ik_doctor_old_")) / "old.blend"
    save_with_unreadable_names(path)
    bpy.ops.wm.open_mainfile(filepath=str(path), load_ui=False)
    path.unlink()
    path.parent.rmdir()
    return named(bpy.data.objects, unreadable_spelling(name))


def save_with_unreadable_names(path: Path) -> None:
    """Save the file (uncompressed) at ``path``, writing every object, action, bone and
    constraint name that holds ``UNREADABLE`` with the byte 0xdf in its place (each path and
    target naming it holds the same bytes, and changes with it): opened, Python cannot read
    those names."""
    marked = {each for each in _all_names() if UNREADABLE in each}
    bpy.ops.wm.save_as_mainfile(filepath=str(path), compress=False, check_existing=False)
    data = path.read_bytes()
    for saved in sorted(marked, key=len, reverse=True):  # one inside a longer one: same bytes
        assert saved.encode() in data, f"{saved} is not in the saved file"
        data = data.replace(saved.encode(), saved.encode().replace(UNREADABLE.encode(), b"\xdf"))
    path.write_bytes(data)


def unreadable_spelling(name: str) -> str:
    """How IK Doctor spells a name marked with ``UNREADABLE`` once it is saved so
    (``core.names``)."""
    return name.replace(UNREADABLE, "\\xdf")


def _all_names() -> Iterator[str]:
    for obj in bpy.data.objects:
        yield obj.name
        yield from _constraint_names(obj.constraints)
        if obj.type == "ARMATURE":
            yield from (bone.name for bone in obj.data.bones)
            for pose_bone in obj.pose.bones:
                yield from _constraint_names(pose_bone.constraints)
    yield from (action.name for action in bpy.data.actions)


def _constraint_names(stack: Any) -> Iterator[str]:
    """Names of a constraint stack, without the old leftovers, which have none to read."""
    return (c.name for c in stack if isinstance(c, bpy.types.Constraint))


def _resolve(
    obj: bpy.types.Object,
    pose_bone: bpy.types.PoseBone,
    reference: Reference,
    helpers: dict[str, bpy.types.Object],
) -> tuple[bpy.types.Object | None, str | None]:
    names = [bone.name for bone in obj.data.bones]
    kind = reference.kind
    if kind == "none":
        return None, None
    if kind == "bone":
        return obj, names[reference.pick % len(names)]
    if kind == "owner":
        return obj, pose_bone.name
    if kind == "chain":
        parents = [bone.name for bone in pose_bone.bone.parent_recursive] or [pose_bone.name]
        return obj, parents[reference.pick % len(parents)]
    if kind == "missing":
        return obj, "no such bone"
    if kind == "armature":
        return obj, None
    if kind == "other_armature":
        return helpers[kind], "control"
    return helpers[kind], None


def _add_skinned_mesh(obj: bpy.types.Object, collection: bpy.types.Collection) -> None:
    """A mesh parented to the rig with one vertex group per deform bone and keyed weights."""
    mesh = bpy.data.meshes.new("BodyMesh")
    mesh.from_pydata([(0.0, 0.0, 0.0), (0.0, 0.0, 1.0), (0.0, 0.2, 0.5)], [], [(0, 1, 2)])
    body = bpy.data.objects.new("Body", mesh)
    collection.objects.link(body)
    body.parent = obj
    modifier = body.modifiers.new("Armature", "ARMATURE")
    modifier.object = obj
    for bone in obj.data.bones:
        if bone.use_deform:
            body.vertex_groups.new(name=bone.name).add([0, 1, 2], 0.5, "REPLACE")


# --- snapshots --------------------------------------------------------------------------------

SKIPPED_PROPERTIES = {"rna_type", "is_valid", "active", "error_location", "error_rotation"}
EVALUATED_POSE = {"matrix", "matrix_channel", "head", "tail", "length"}
"""Pose-bone values the depsgraph writes: a fix may evaluate the rig and refresh them."""
EVALUATED_BONE: set[str] = set()


def rig_state(obj: bpy.types.Object) -> dict[str, Any]:
    """Everything about a rig and its users a fix could change, as plain comparable values.

    Rest bones, pose bones, every constraint property, custom properties, keyframes, the
    vertex groups of meshes it deforms, the object's mode, selection, visibility and the
    view layer's active object.
    """
    view_layer = bpy.context.view_layer
    armature = obj.data
    if obj.mode == "EDIT":
        obj.update_from_editmode()  # the bones as the user edits them
    return {
        "mode": obj.mode,
        "active": readable(view_layer.objects.active) if view_layer.objects.active else None,
        "selected": sorted(readable(o) for o in view_layer.objects if o.select_get()),
        "hidden": (obj.hide_get() if obj.name in view_layer.objects else None, obj.hide_viewport),
        "object": (_plain(obj.matrix_world), _custom(obj)),
        "objects": sorted(readable(o) for o in bpy.data.objects),
        "bones": {readable(bone): _rna_values(bone, EVALUATED_BONE) for bone in armature.bones},
        "pose": {
            readable(pose_bone): {
                **_rna_values(pose_bone, EVALUATED_POSE),
                "constraints": [_rna_values(c) for c in pose_bone.constraints],
            }
            for pose_bone in obj.pose.bones
        },
        "keys": _keyframes(obj),
        "vertex_groups": {
            readable(child): sorted(readable(group) for group in child.vertex_groups)
            for child in bpy.data.objects
            if child.type == "MESH" and child.parent == obj
        },
    }


def _plain(value: Any) -> Any:
    if hasattr(value, "__len__") and not isinstance(value, str):
        return tuple(_plain(item) for item in value)
    return value


def _custom(block: Any) -> dict[str, Any]:
    try:
        keys = block.keys()
    except TypeError:  # structs without custom properties (constraints)
        return {}
    return {key: _plain(block[key]) for key in keys}


def _rna_values(struct: Any, skipped: set[str] = frozenset()) -> dict[str, Any]:
    values: dict[str, Any] = {"custom": _custom(struct)}
    for prop in struct.bl_rna.properties:
        name = prop.identifier
        if name in SKIPPED_PROPERTIES or name in skipped:
            continue
        value = readable(struct, name)
        if prop.type == "POINTER":
            value = readable(value, "name", "") or None if value is not None else None
        elif prop.type == "COLLECTION":
            continue
        values[name] = _plain(value)
    return values


def _keyframes(obj: bpy.types.Object) -> dict[str, tuple]:
    animation = obj.animation_data
    if animation is None or animation.action is None:
        return {}
    return {
        f"{readable(curve, 'data_path')}[{curve.array_index}]": tuple(
            tuple(point.co) for point in curve.keyframe_points
        )
        for curve in action_fcurves(animation.action)
    }


def action_fcurves(action: bpy.types.Action) -> Iterator[bpy.types.FCurve]:
    """F-curves of an action, legacy (4.2) or layered (4.4+, the only kind from 5.0)."""
    layers = getattr(action, "layers", None)
    if layers:
        for layer in layers:
            for strip in layer.strips:
                for bag in strip.channelbags:
                    yield from bag.fcurves
    else:
        yield from action.fcurves


def state_differences(
    before: Any, after: Any, path: str = "", tolerance: float = 1e-5
) -> list[str]:
    """Where two ``rig_state`` snapshots differ (floats within ``tolerance`` count as equal)."""
    if isinstance(before, dict) and isinstance(after, dict):
        diffs = []
        for key in before.keys() | after.keys():
            if key not in after or key not in before:
                diffs.append(f"{path}/{key}: {before.get(key)!r} -> {after.get(key)!r}")
            else:
                diffs.extend(state_differences(before[key], after[key], f"{path}/{key}", tolerance))
        return diffs
    if isinstance(before, (tuple, list)) and isinstance(after, (tuple, list)):
        if len(before) != len(after):
            return [f"{path}: {before!r} -> {after!r}"]
        diffs = []
        for index, (a, b) in enumerate(zip(before, after, strict=True)):
            diffs.extend(state_differences(a, b, f"{path}[{index}]", tolerance))
        return diffs
    if isinstance(before, float) and isinstance(after, float):
        same = math.isclose(before, after, rel_tol=tolerance, abs_tol=tolerance) or (
            math.isnan(before) and math.isnan(after)
        )
        return [] if same else [f"{path}: {before!r} -> {after!r}"]
    return [] if before == after else [f"{path}: {before!r} -> {after!r}"]
