"""What a pair of mirror twins differs in, for the symmetry check: each setting as shown on both
sides and what copying it onto the twin writes, mirrored where the solver needs it mirrored
(pole angles, IK limit ranges), and the rest-pose shape and rolls the copy leaves alone."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

import bpy
from mathutils import Vector

from ..core.armature import armature_data
from ..core.limb import pole_turn
from ..core.names import find, readable
from ..core.rig import AXES, IKChain, RigView
from ._mirror_twins import Twins, control_of, controls_across, sits_across

MAX_REST_DIFFERENCE = 0.01
"""Twins whose bones differ in length by more than this share, or whose joints lie further than
this share of the reach from their twin's mirror image, are built differently at rest."""


SAME_VALUE = 1e-4
"""Floats (weight, stiffness, IK stretch, limit ranges in radians) closer than this are equal."""


IK_SETTINGS = (
    ("chain_count", "chain length"),
    ("use_tail", "Use Tail"),
    ("use_stretch", "Stretch"),
    ("iterations", "iterations"),
    ("weight", "weight"),
)
"""The IK constraint's own settings, copied unchanged to the twin."""


BONE_SETTINGS = (
    *((f"lock_ik_{axis}", f"IK lock {axis.upper()}") for axis in AXES),
    *((f"use_ik_limit_{axis}", f"IK limit {axis.upper()}") for axis in AXES),
    *((f"ik_stiffness_{axis}", f"IK stiffness {axis.upper()}") for axis in AXES),
    ("ik_stretch", "IK stretch"),
)
"""The pose bone's IK settings that mirror unchanged (the limit ranges are compared apart)."""
HOLDING_SETTINGS = ("lock_ik_", "use_ik_limit_", "ik_min_", "ik_max_")
"""The pose bone's settings (by their start) that hold an axis: its IK lock and IK limit."""


@dataclass(frozen=True)
class Difference:
    """One thing a pair differs in, as shown on each side, and what copying it would write."""

    what: str
    source: str
    dest: str
    kind: Literal["setting", "shape", "roll"] = "setting"
    """"setting" (the fix copies it), "shape" (lengths, joints: built differently at rest) or
    "roll" (a rest-pose edit the fix leaves alone)."""
    copy: str | None = None
    """The value the twin gets from the fix, as shown; None when it cannot be copied."""
    writes: tuple[tuple[str, str, Any], ...] = ()
    """(bone, or "" for the IK constraint; setting; value) the copy writes on the twin; the
    pole angle is written apart, last (``copy_from_twin``)."""
    matters_to_ik: bool = True
    """False for the roll of bones that rotate freely: only FK and the mirror tools see it."""
    values: tuple[Any, ...] = ()
    """The values ``source`` and ``dest`` show, in their order, as data for the reports (angles
    in degrees): the finding's ``differences`` fact holds them after ``what``."""

    def held_axes(self, settings: tuple[str, ...] = HOLDING_SETTINGS) -> set[str]:
        """The axes ("x", "y", "z") whose IK lock or limit (``settings``: which of them) the copy
        writes on the twin."""
        return {
            setting[-1] for _bone, setting, _value in self.writes if setting.startswith(settings)
        }

    def text(self) -> str:
        return f"{self.what} {self.source} / {self.dest}"


def twin_differences(
    rig: RigView, twins: Twins, source: IKChain, options: Mapping[str, Any]
) -> list[Difference]:
    """What differs between ``source`` and its twin, with what copying it onto the twin writes.

    The pole angle comes after the chain length and the pole: it is set from the twin's rest
    angle as they leave it."""
    dest = twins.twin(source)
    ik_source, ik_dest = rig.ik_constraint(source), rig.ik_constraint(dest)
    found = [
        _setting(label, None, setting, getattr(ik_source, setting), getattr(ik_dest, setting))
        for setting, label in IK_SETTINGS
    ]
    found += _control_differences(rig, twins, source, dest)
    found.append(_pole_angle_difference(rig, source, dest, options))
    for a, b in twins.paired(source):
        found += _bone_differences(rig, twins, a, b, options)
    found += _shape_differences(rig, twins, source)
    return [difference for difference in found if difference is not None]


def _setting(
    label: str, bones: tuple[str, str] | None, setting: str, value: Any, other: Any
) -> Difference | None:
    """A setting copied unchanged, if the two sides differ in it: the IK constraint's, or that
    of the pose bones ``bones`` (source, twin)."""
    if (isinstance(value, float) and abs(value - other) <= SAME_VALUE) or value == other:
        return None
    if bones is None:
        return Difference(
            label,
            _shown(value),
            _shown(other),
            copy=f"{label} {_shown(value)}",
            writes=(("", setting, value),),
            values=(value, other),
        )
    a, b = bones
    return Difference(
        f"{label} of {a} / {b}",
        _shown(value),
        _shown(other),
        copy=f"{label} of {b} {_shown(value)}",
        writes=((b, setting, value),),
        values=(value, other),
    )


def _control_differences(
    rig: RigView, twins: Twins, source: IKChain, dest: IKChain
) -> list[Difference]:
    """A pole on one side only, and a target or pole across the mirror plane. A missing target
    is the target check's error, not a difference: the chain does nothing at all."""
    found = []
    crossed = {chain.key: controls_across(rig, twins, chain) for chain in (source, dest)}
    for label in ("target", "pole"):
        obj, bone = control_of(source, label)
        other, other_bone = control_of(dest, label)
        across = [chain for chain in (source, dest) if label in crossed[chain.key]]
        one_sided = label == "pole" and (obj is None) != (other is None)
        if not (one_sided or across):
            continue
        wanted = None if obj is None else _mirrored_control(obj, bone)
        if wanted is not None and sits_across(rig, twins, dest, *wanted):
            wanted = None  # the flipped name is no mirror: copying it would cross over

        found.append(
            Difference(
                label,
                _shown_control(obj, bone, source in across),
                _shown_control(other, other_bone, dest in across),
                copy=None if wanted is None else f"{label} {_control_name(*wanted)}",
                writes=() if wanted is None else (("", label, wanted),),
                values=(
                    _control_name(obj, bone) or None,
                    source in across,
                    _control_name(other, other_bone) or None,
                    dest in across,
                ),
            )
        )
    return found


def _pole_angle_difference(
    rig: RigView, source: IKChain, dest: IKChain, options: Mapping[str, Any]
) -> Difference | None:
    """Pole angles that turn the twins by other than opposite amounts from their rest poses."""
    turn, other = pole_turn(rig, source), pole_turn(rig, dest)
    if turn is None or other is None:
        return None
    if abs(math.degrees(math.remainder(turn + other, math.tau))) <= options["max_angle"]:
        return None
    return Difference(
        "pole angle",
        _pole_angle(source, turn),
        _pole_angle(dest, other),
        copy=f"pole angle turning it {_signed(-turn)} from its rest pose",
        values=tuple(
            math.degrees(angle) for angle in (source.pole_angle, turn, dest.pole_angle, other)
        ),
    )


def _pole_angle(chain: IKChain, turn: float) -> str:
    return (
        f"{math.degrees(chain.pole_angle):.1f}° (turns the chain {_signed(turn)} from its rest "
        "pose)"
    )


def _shown_control(obj: bpy.types.Object | None, bone: str, across: bool) -> str:
    name = _control_name(obj, bone) or "none"
    return f"{name} (across the mirror plane)" if across else name


def _signed(angle: float) -> str:
    """Radians as signed degrees, without a "-0.0°"."""
    return f"{round(math.degrees(angle), 1) or 0.0:+.1f}°"


def _control_name(obj: bpy.types.Object | None, bone: str) -> str:
    if obj is None:
        return ""
    return bone if obj.type == "ARMATURE" and bone else readable(obj)


def _mirrored_control(obj: bpy.types.Object, bone: str) -> tuple[bpy.types.Object, str] | None:
    """The twin of a target or pole by flipped name: a bone of the same armature, or the object
    of the flipped name; None when it does not exist."""
    if obj.type == "ARMATURE" and bone:
        twin_bone = bpy.utils.flip_name(bone)
        exists = find(armature_data(obj).bones, twin_bone) is not None
        return (obj, twin_bone) if exists else None
    twin = find(bpy.data.objects, bpy.utils.flip_name(readable(obj)))
    return (twin, "") if twin is not None else None


def _bone_differences(
    rig: RigView, twins: Twins, a: str, b: str, options: Mapping[str, Any]
) -> list[Difference | None]:
    pose_a, pose_b = rig.pose_bone(a), rig.pose_bone(b)
    found = [
        _setting(label, (a, b), setting, getattr(pose_a, setting), getattr(pose_b, setting))
        for setting, label in BONE_SETTINGS
    ]
    found += [_limit_difference(rig, twins, a, b, axis) for axis in AXES]
    found.append(_roll_difference(rig, twins, a, b, options))
    return found


def _limit_difference(rig: RigView, twins: Twins, a: str, b: str, axis: str) -> Difference | None:
    """IK limit ranges on ``axis`` that are not each other's mirror (both limits on)."""
    pose_a, pose_b = rig.pose_bone(a), rig.pose_bone(b)
    if not (getattr(pose_a, f"use_ik_limit_{axis}") and getattr(pose_b, f"use_ik_limit_{axis}")):
        return None
    low, high = getattr(pose_a, f"ik_min_{axis}"), getattr(pose_a, f"ik_max_{axis}")
    wanted = (low, high) if _keeps_sign(rig, twins, a, b, axis) else (-high, -low)
    other = (getattr(pose_b, f"ik_min_{axis}"), getattr(pose_b, f"ik_max_{axis}"))
    if all(abs(w - o) <= SAME_VALUE for w, o in zip(wanted, other, strict=True)):
        return None
    return Difference(
        f"IK limit {axis.upper()} range of {a} / {b}",
        _range(low, high),
        _range(*other),
        copy=f"IK limit {axis.upper()} range of {b} {_range(*wanted)} (mirrored)",
        writes=((b, f"ik_min_{axis}", wanted[0]), (b, f"ik_max_{axis}", wanted[1])),
        values=tuple(math.degrees(angle) for angle in (low, high, *other)),
    )


def _keeps_sign(rig: RigView, twins: Twins, a: str, b: str, axis: str) -> bool:
    """Whether a turn about ``axis`` of ``a`` is a turn the same way about ``b``'s in the mirror
    pose. Mirroring reverses every rotation, so it is only where ``b``'s axis points opposite to
    the mirror of ``a``'s: X does under -roll (Symmetrize), Y (along the bone) never does, and
    Z does when the X axis is reversed instead."""
    x_reversed = rig.bone(b).x_axis.dot(twins.reflect(rig.bone(a).x_axis)) > 0.0
    return {"x": not x_reversed, "y": False, "z": x_reversed}[axis]


def _shape_differences(rig: RigView, twins: Twins, source: IKChain) -> list[Difference]:
    """Bones whose lengths differ by more than 1%, or else joints more than 1% of the reach off
    their twin's mirror image: the twins are built differently at rest."""
    found = []
    for a, b in twins.paired(source):
        length, other = rig.bone(a).length, rig.bone(b).length
        apart = abs(length - other) / max(length, other, 1e-12)
        if apart > MAX_REST_DIFFERENCE:
            found.append(
                Difference(
                    f"rest length of {a} / {b}",
                    f"{length:.4g}",
                    f"{other:.4g} ({apart:.1%} apart)",
                    kind="shape",
                    values=(length, other, apart),
                )
            )
    if not found and twins.rest_gap > MAX_REST_DIFFERENCE * twins.reach:
        found.append(
            Difference(
                "joints at rest",
                "as modelled",
                f"up to {twins.rest_gap:.3g} off the mirror image "
                f"({twins.rest_gap / twins.reach:.1%} of the reach)",
                kind="shape",
                values=(twins.rest_gap, twins.rest_gap / twins.reach),
            )
        )
    return found


def _roll_difference(
    rig: RigView, twins: Twins, a: str, b: str, options: Mapping[str, Any]
) -> Difference | None:
    """A roll that is not the negative of the twin's (its X axis off the mirror of the twin's).

    It matters to the solver only when IK locks, limits or stiffness act on X or Z and the X
    axis lies on another line than the mirror of the twin's: reversed, it locks and stiffens
    the same lines, and the limit ranges are compared for it (``_keeps_sign``)."""
    x_axis, mirrored = rig.bone(b).x_axis, -twins.reflect(rig.bone(a).x_axis)
    turn = math.degrees(mirrored.angle(x_axis, 0.0))
    if turn <= options["max_angle"]:
        return None
    other_line = min(turn, 180.0 - turn) > options["max_angle"]
    return Difference(
        f"roll of {a} / {b}",
        f"{_roll(rig, a):.1f}°",
        f"{_roll(rig, b):.1f}° (X axis {turn:.0f}° off the mirror of {a}'s)",
        kind="roll",
        matters_to_ik=other_line and (_acts_on_axes(rig, a) or _acts_on_axes(rig, b)),
        values=(_roll(rig, a), _roll(rig, b), turn),
    )


def _roll(rig: RigView, name: str) -> float:
    matrix = rig.raw_bone(name).matrix_local.to_3x3()
    # The stubs say it returns None; Blender returns (axis, roll).
    axis_roll: tuple[Vector, float] = bpy.types.Bone.AxisRollFromMatrix(matrix)  # type: ignore[assignment, func-returns-value]
    return math.degrees(axis_roll[1])


def _acts_on_axes(rig: RigView, name: str) -> bool:
    """IK locks, limits or stiffness on X or Z: then the roll decides what the solver allows."""
    pose_bone = rig.pose_bone(name)
    return any(
        getattr(pose_bone, f"lock_ik_{axis}")
        or getattr(pose_bone, f"use_ik_limit_{axis}")
        or getattr(pose_bone, f"ik_stiffness_{axis}") > 0.0
        for axis in "xz"
    )


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float):
        return f"{value:.3g}"
    return str(value)


def _range(low: float, high: float) -> str:
    return f"{math.degrees(low):.1f}°..{math.degrees(high):.1f}°"
