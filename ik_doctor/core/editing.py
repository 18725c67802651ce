"""Where fixes change Blender: guards for data that must not be edited, and Edit Mode access.

Fixes change only what they say and leave the user where they were: same mode, same active
object, same visibility. Edit bones exist only in Edit Mode, so bone fixes borrow it briefly.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, TypeVar

import bpy

from .armature import armature_data, pose_bone_of, pose_of
from .names import find, named, readable

if TYPE_CHECKING:
    from bpy.stub_internal.rna_enums import ObjectModeItems

ConstraintType = TypeVar("ConstraintType", bound=bpy.types.Constraint)


class FixError(Exception):
    """A fix that cannot be applied; the message says why, in words a user can act on, and
    ``cause`` names the case for code: linked, override, shared, no_fix, gone, collapsed (None:
    a case no caller tells apart)."""

    def __init__(self, message: str, cause: str | None = None) -> None:
        super().__init__(message)
        self.cause = cause


def require_armature(obj: object) -> bpy.types.Object:
    """Return ``obj`` if it is an armature object, else raise ValueError with what it is."""
    if obj is None:
        raise ValueError("No object given: select an armature (IK Doctor checks armatures).")
    if not isinstance(obj, bpy.types.Object):
        raise ValueError(f"Expected an armature object, got {type(obj).__name__}.")
    if obj.type != "ARMATURE":
        raise ValueError(
            f"'{readable(obj)}' is a {obj.type.lower()} object, not an armature: "
            "IK Doctor checks armatures."
        )
    return obj


def read_only_reason(obj: bpy.types.Object) -> str | None:
    """Why this armature's rig cannot be changed here, or None when it can."""
    found = _read_only(obj)
    return None if found is None else found[1]


def _read_only(obj: bpy.types.Object) -> tuple[str, str] | None:
    """``read_only_reason`` with its case first: linked or override."""
    for block, what in ((obj, "object"), (armature_data(obj), "armature data")):
        if block.library is not None:
            return "linked", (
                f"The {what} of '{readable(obj)}' is linked from "
                f"{readable(block.library, 'filepath')}: fix it in that file."
            )
        if block.override_library is not None:
            return "override", (
                f"The {what} of '{readable(obj)}' is a library override: its bones and "
                "constraints come from the linked file; fix them there."
            )
    return None


def ensure_editable(obj: bpy.types.Object) -> None:
    found = _read_only(obj)
    if found is not None:
        raise FixError(found[1], cause=found[0])


def ensure_own_bones(obj: bpy.types.Object) -> None:
    """Refuse to move bones whose armature data other objects share (Alt+D duplicates, a crowd
    of one character): their rest pose would change with this one's while their constraints,
    which such fixes also set (a pole angle, a kept pose), stay as they were (measured:
    applying one copy's scale of 2 moved the other's hand 1.7)."""
    data = armature_data(obj)
    others = [readable(o) for o in bpy.data.objects if o.data == data and o != obj]
    if others:
        shown = ", ".join(f"'{name}'" for name in others[:3]) + (" and more" * (len(others) > 3))
        raise FixError(
            f"The armature data '{readable(data)}' of '{readable(obj)}' is shared with {shown}: "
            "changing its bones would change theirs too. Give it its own copy first (Object > "
            "Relations > Make Single User > Object & Data).",
            cause="shared",
        )


def constraint_on(
    obj: bpy.types.Object, bone: str | None, name: str | None, kind: type[ConstraintType]
) -> ConstraintType:
    """The constraint ``name`` of pose bone ``bone``, of the kind the caller changes (an IK is a
    ``KinematicConstraint``): fixes find what a finding or chain names through this."""
    constraint = named(pose_bone_of(obj, bone or "").constraints, name or "")
    assert isinstance(constraint, kind), f"'{name}' on {bone} is a {constraint.type} constraint"
    return constraint


@contextmanager
def edit_bones(
    obj: bpy.types.Object, same_for_every_user: bool = False
) -> Iterator[bpy.types.ArmatureEditBones]:
    """Yield the armature's edit bones, entering Edit Mode only for as long as the fix needs.

    The user's mode, active object and the object's visibility are restored afterwards, also
    when the fix fails. Bones of armature data other objects share are not edited
    (``ensure_own_bones``), unless the edit is ``same_for_every_user``: a new control, or a
    bone's inheritance, which no constraint of the object's own is set to match.
    """
    if not same_for_every_user:
        ensure_own_bones(obj)
    if obj.mode == "EDIT":
        yield armature_data(obj).edit_bones
        # Constraints naming a new bone are validated against the data bones: sync them now,
        # or an IK aimed at a bone made here stays invalid after the user leaves Edit Mode.
        obj.update_from_editmode()
        return
    view_layer = current_view_layer()
    with _in_view_layer(obj, view_layer), _edit_mode_borrowed(obj, view_layer) as bones:
        yield bones


@contextmanager
def _in_view_layer(obj: bpy.types.Object, view_layer: bpy.types.ViewLayer) -> Iterator[None]:
    """Make sure the object is in the view layer for the duration (Edit Mode needs a base).

    An object in an excluded collection, or in no scene at all, is linked to the scene's own
    collection while its bones are edited, then unlinked: its collections stay as they were.
    """
    if find(view_layer.objects, readable(obj)) != obj:
        view_layer.update()  # objects linked since the last update are listed only after it
    if find(view_layer.objects, readable(obj)) == obj:
        yield
        return
    scene = bpy.context.scene
    assert scene is not None  # Blender always has one; the stubs make it optional
    scene_collection = scene.collection
    scene_collection.objects.link(obj)
    view_layer.update()
    try:
        yield
    finally:
        scene_collection.objects.unlink(obj)
        view_layer.update()


@contextmanager
def _edit_mode_borrowed(
    obj: bpy.types.Object, view_layer: bpy.types.ViewLayer
) -> Iterator[bpy.types.ArmatureEditBones]:
    previous_active = view_layer.objects.active
    previous_mode = obj.mode
    hidden, hidden_viewport = obj.hide_get(), obj.hide_viewport
    other_mode = None
    if previous_active is not None and previous_active != obj and previous_active.mode != "OBJECT":
        other_mode = previous_active.mode
        _set_mode(previous_active, "OBJECT")
    try:
        obj.hide_set(False)
        obj.hide_viewport = False
        view_layer.objects.active = obj
        _set_mode(obj, "EDIT")
        try:
            yield armature_data(obj).edit_bones
        finally:
            _set_mode(obj, previous_mode)
    finally:
        obj.hide_viewport = hidden_viewport
        obj.hide_set(hidden)
        view_layer.objects.active = previous_active
        if other_mode is not None and previous_active is not None:
            _set_mode(previous_active, other_mode)


@contextmanager
def unset_rest_lengths_kept(obj: bpy.types.Object) -> Iterator[None]:
    """Keep a Stretch To's rest length 0 ("measure it on the next evaluation") at 0: an
    evaluation a fix runs would otherwise measure it, a change the fix does not make."""
    unset = [
        constraint
        for pose_bone in pose_of(obj).bones
        for constraint in pose_bone.constraints
        if isinstance(constraint, bpy.types.StretchToConstraint) and constraint.rest_length == 0.0
    ]
    yield
    for constraint in unset:
        constraint.rest_length = 0.0


def current_view_layer() -> bpy.types.ViewLayer:
    """The context's view layer: Blender always has one, headless too, though the stubs make
    it optional."""
    view_layer = bpy.context.view_layer
    assert view_layer is not None
    return view_layer


def _set_mode(obj: bpy.types.Object, mode: ObjectModeItems) -> None:
    if obj.mode == mode:
        return
    with bpy.context.temp_override(active_object=obj, object=obj):
        bpy.ops.object.mode_set(mode=mode)
