"""Mirror: an IK chain whose settings differ from its mirror twin's, a mistake made on one side.

Rigs are built on one side and mirrored; a setting changed afterwards on one side only makes the
two limbs answer the same controls differently. Twins are named as Blender's *Flip Names* pairs
them (``bpy.utils.flip_name``; measured in 4.2 and 5.3: ``.L``/``.R``, ``_L``, ``-L``, ``L_``,
``l_``, ``Left``/``Right``, ``left``, ``LEFT``, with or without ``.001``), and judged only when
their limbs pair bone by bone under flipped names too: a bone without a twin, or a limb built
differently, is not a twin. The mirror plane lies midway between the two limbs, across the
armature axis on which they lie closest to mirror images (X for most rigs; Y on a Quaternius
cowboy built facing X).

Compared: chain length, Use Tail, Stretch, iterations, weight, a pole on one side only, the
target's and pole's side of the mirror plane, and on every bone IK locks, IK limits and their
ranges, stiffness and IK stretch; and at rest the bones' lengths (1%), the limbs' shape, and
their rolls. A missing target is the target check's error, not a difference. Mirrored, as
measured in 4.2 and 5.3:

- Pole angle: Symmetrize sets the twin's roll to -roll and its pole angle to 180° minus the
  angle (37° gives 143°), which turns the twin by the opposite amount from its own rest-keeping
  angle (-161.5° and +161.5°). So each side's pole angle is compared against the angle that
  keeps its own rest pose: on the reference rig, both legs turned +25° from rest end up to 0.84
  (rotation matrix entries) from mirror images of each other, +25° and -25° exactly mirrored.
- IK limits, solved with the ranges binding: X ranges equal and Y and Z ranges mirrored
  (``[a, b]`` becomes ``[-b, -a]``) pose the twins as mirror images (0.0000), Y or Z ranges
  copied unchanged do not (up to 0.17 and 0.37). For a twin whose X axis is reversed instead
  (a roll 180° off), X and Y flip and Z stays. Symmetrize itself copies every range unchanged in
  4.2, and mirrors Z but not Y in 5.3.
- Roll: the solver ignores it while bones rotate freely, but IK locks, limits and stiffness act
  on the bone's axes, and Blender's mirror tools assume -roll: on the Quaternius T-rex (hip
  rolls -90° on both sides) *Paste Pose Flipped* leaves the leg's bones 0.9 to 3.1 from the
  mirror pose, 0.0 once the right side's rolls are mirrored. A reversed X axis is the same
  line, though: IK locks act alike on it (the T-rex's locked legs solve as mirror images).

Each pair gets one finding naming every difference with both values: a warning; information
when the twins differ at rest (lengths or shape beyond 1%: built asymmetric, maybe on purpose)
or only in the roll of bones that rotate freely. The fix copies the settings of the side that
is right onto the other, mirrored. Which side is right is read, not solved (checks do not
evaluate): the side on which the other checks (run once per pass, with their default
thresholds, and only when a pair differs in a setting) find no warning or error, nor a target
or pole across the mirror plane, while its twin has one. When the twin's is an error the pair is
an error: one side is broken and its twin is not. When neither or both sides have faults, no
fix: the finding says what differs. Rolls and lengths are rest-pose edits the fix leaves alone.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

import bpy
from mathutils import Vector

from ..core.armature import armature_data, pose_of
from ..core.editing import FixError, constraint_on
from ..core.finding import Finding, Severity, chain_finding
from ..core.limb import pole_rest_angle, pole_turn
from ..core.names import find, readable
from ..core.reach import stretching_bones
from ..core.registry import Check, all_checks
from ..core.rig import AXES, IKChain, RigView
from ..core.start import pole_turns_the_flip_back, start_that_flips_a_pole
from .inherit import shear_that_stops

CHECK_ID = "symmetry"
MAX_REST_DIFFERENCE = 0.01
"""Twins whose bones differ in length by more than this share, or whose joints lie further than
this share of the reach from their twin's mirror image, are built differently at rest."""
CROSSED = 0.01
"""A target or pole further than this share of the reach past the mirror plane, on the twin's
side, is across the body."""
MAX_ANGLE = 5.0
"""Pole angles and rolls may differ from the mirror of their twin's by this many degrees."""
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


@dataclass(frozen=True)
class _Twins:
    """Two chains named as each other's mirror, their limbs paired bone by bone."""

    first: IKChain
    second: IKChain
    bones: tuple[tuple[str, str], ...]
    """(first side, second side) from the owners up, as far as the longer of the two chains."""
    axis: int
    """The armature axis across which the limbs lie mirrored (0 for X)."""
    middle: float
    """Where the mirror plane crosses that axis."""
    reach: float
    rest_gap: float
    """The furthest a joint of the second limb lies from the mirror image of the first's."""

    def reflect(self, vector: Vector) -> Vector:
        """A direction mirrored across the plane."""
        mirrored = vector.copy()
        mirrored[self.axis] = -mirrored[self.axis]
        return mirrored

    def side(self, point: Vector) -> int:
        """+1 or -1 for the two sides of the plane; 0 on it."""
        offset = point[self.axis] - self.middle
        return 0 if abs(offset) <= CROSSED * self.reach else (1 if offset > 0.0 else -1)

    def twin(self, chain: IKChain) -> IKChain:
        return self.second if chain is self.first else self.first

    def paired(self, source: IKChain) -> list[tuple[str, str]]:
        """The bone pairs, ``source``'s bone first."""
        return list(self.bones) if source is self.first else [(b, a) for a, b in self.bones]


@dataclass(frozen=True)
class _Difference:
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

    def text(self) -> str:
        return f"{self.what} {self.source} / {self.dest}"


@dataclass(frozen=True)
class _Fault:
    """Something wrong with one side of a pair: another check's finding, or a control across the
    mirror plane."""

    what: str
    severity: Severity


_Faults = dict[tuple[str, str], list[_Fault]]
"""The faults of each side of a pair, by chain key."""


def find_symmetry_problems(rig: RigView, options: Mapping[str, Any]) -> Iterator[Finding]:
    for chain in rig.chains:
        twin = _named_twin(rig, chain)
        if twin is None or twin.key < chain.key:
            continue  # no twin, or judged from the twin's side
        twins = _paired(rig, chain, twin)
        if twins is not None:
            finding = _judge(rig, twins, options)
            if finding is not None:
                yield finding


def _named_twin(rig: RigView, chain: IKChain) -> IKChain | None:
    """The chain on the bone whose name Flip Names gives, with the same (flipped) IK name."""
    owner = bpy.utils.flip_name(chain.owner)
    if owner == chain.owner:
        return None
    twin = rig.chain(owner, bpy.utils.flip_name(chain.constraint))
    if twin is None or bpy.utils.flip_name(twin.owner) != chain.owner:
        return None
    return twin


def _paired(rig: RigView, first: IKChain, second: IKChain) -> _Twins | None:
    """The twins with their limbs paired, or None when the limbs are not built alike."""
    count = max(len(first.bones), len(second.bones))
    walks = [[chain.owner, *rig.ancestors(chain.owner)][:count] for chain in (first, second)]
    if len(walks[0]) != len(walks[1]):
        return None
    bones = tuple(zip(walks[0], walks[1], strict=True))
    if any(bpy.utils.flip_name(a) != b for a, b in bones):
        return None
    reach = max(sum(rig.bone(name).length for name in walk) for walk in walks)
    if reach <= 0.0:
        return None
    points = [
        pair
        for a, b in bones
        for pair in ((rig.bone(a).head, rig.bone(b).head), (rig.bone(a).tail, rig.bone(b).tail))
    ]

    def mirror_gap(axis: int) -> tuple[float, int, float]:
        middle = sum(a[axis] + b[axis] for a, b in points) / (2 * len(points))
        gap = 0.0
        for a, b in points:
            mirrored = a.copy()
            mirrored[axis] = 2.0 * middle - a[axis]
            gap = max(gap, (mirrored - b).length)
        return gap, axis, middle

    gap, axis, middle = min(mirror_gap(axis) for axis in range(3))
    return _Twins(first, second, bones, axis, middle, reach, gap)


def _judge(rig: RigView, twins: _Twins, options: Mapping[str, Any]) -> Finding | None:
    differences = _differences(rig, twins, twins.first, options)
    if not differences:
        return None
    kinds = {d.kind for d in differences}
    faults: _Faults = {}
    source = None
    if "setting" in kinds and "shape" not in kinds:
        faults = {c.key: _faults(rig, twins, c) for c in (twins.first, twins.second)}
        source = _faultless_side(twins, faults)
        if source is twins.second:
            differences = _differences(rig, twins, source, options)
    shown_first = source or twins.first
    dest = twins.twin(shown_first)
    message = (
        f"The mirror twins {_where(shown_first)} and on {dest.owner} differ "
        f"({shown_first.owner} / {dest.owner}): {'; '.join(d.text() for d in differences)}."
    )
    severity, no_fix = _verdict(twins, differences, faults, source)
    # The twin's pole, or its Use Tail (the owner then turns), makes the owner's inheritance
    # matter.
    gains_tail = not dest.use_tail and shown_first.use_tail
    gains_joint = gains_tail or (dest.pole is None and any(d.what == "pole" for d in differences))
    loose = gains_joint and not rig.raw_bone(dest.owner).use_inherit_rotation
    stretching = stretching_bones(rig, dest) if source is not None else ()
    if no_fix is None and loose:
        # Measured: a pole on a joint that does not inherit rotation flips it once the body
        # turns (the inherit check's error); without one the limb still reaches.
        no_fix = (
            f"{dest.owner} does not inherit rotation: with its twin's pole or Use Tail its joint "
            "would flip away from the pole once the body turns; turn Inherit Rotation on first"
        )
    elif no_fix is None and gains_tail and (sheared := _shear_with_tail(rig, dest)):
        # Measured: the arm under an upper arm posed at scale (1, 2, 1) lands without Use Tail
        # (the forearm only carries the tip) and stops 33.8% of the reach short with it.
        no_fix = (
            f"with its twin's Use Tail {dest.owner} would turn under the uneven scale of "
            f"{sheared}, which shears it, and the limb would stop short: clear that scale or set "
            f"the Inherit Scale of {dest.owner} to Aligned first"
        )
    elif no_fix is None and any(d.what in ("pole", "Use Tail") for d in differences):
        # With the twin's pole or Use Tail (its owner then turns), an overridden rotation the
        # chain now ignores starts the solver bent the other way (measured: a Track To on a
        # forearm without Use Tail, or a Copy Rotation of the hips on a leg without a pole).
        no_fix = start_that_flips_a_pole(rig, replace(dest, use_tail=shown_first.use_tail))
    if (
        no_fix is None
        and any(d.what == "pole angle" for d in differences)
        and pole_turns_the_flip_back(rig, dest)
    ):
        # Measured: the leg posed -20° at the knee lands with its pole angle turned 150°, and
        # bends 180° away from the pole with the twin's angle (the rest_pose check's error).
        no_fix = (
            f"the posed rotation of {dest.owner}'s chain bends its joint the other way and its "
            "pole angle turns it back: with the twin's angle it would bend away from the pole; "
            "clear the pose and copy the angle together"
        )
    if no_fix is None and stretching and not stretching_bones(rig, shown_first):
        # IK Stretch makes up what the side's other faults take from its reach (locks, a
        # shortened bone): copied away, they leave the limb short.
        no_fix = (
            f"copying would drop the IK Stretch of {', '.join(stretching)}, which lets "
            f"{dest.owner} reach despite its other faults: fix those first"
        )
    if source is not None:
        message += f" {dest.owner} has faults its twin has not ({_listed(faults[dest.key])})."
    copies = [d.copy for d in differences if d.copy is not None]
    rolls = " (rolls stay: they are rest-pose edits)" if "roll" in kinds else ""
    return chain_finding(
        CHECK_ID,
        rig,
        dest,
        severity=severity,
        title="Twins built differently"
        if "shape" in kinds
        else "Twin settings differ"
        if "setting" in kinds
        else "Twin rolls differ",
        message=message,
        why=(
            "Rigs are built on one side and mirrored; a setting changed on one side afterwards "
            "makes the two limbs answer the same controls differently. Pole angles, IK limits "
            "and rolls are compared mirrored, as the solver needs them for mirror poses."
        ),
        fix_id=None if no_fix else "copy_from_twin",
        fix_label=None
        if no_fix
        else f"Copy from {shown_first.owner} onto {dest.owner}, mirrored: {'; '.join(copies)}"
        + rolls,
        fix_args=()
        if no_fix
        else (("source", shown_first.owner), ("source_ik", shown_first.constraint)),
        no_fix_reason=no_fix,
    )


def _verdict(
    twins: _Twins,
    differences: list[_Difference],
    faults: _Faults,
    source: IKChain | None,
) -> tuple[Severity, str | None]:
    """How bad the pair's differences are, and why no fix applies (None: the copy does)."""
    kinds = {d.kind for d in differences}
    if "shape" in kinds:
        return Severity.INFO, (
            "the twins are built differently at rest, so they may differ on purpose: copy "
            "settings between them by hand if not"
        )
    if "setting" not in kinds:
        severity = Severity.WARNING if any(d.matters_to_ik for d in differences) else Severity.INFO
        return severity, (
            "rolls are rest-pose edits: roll the bones in Edit Mode to mirror their twins' (the "
            "negative of the twin's roll on an X mirror; Armature > Symmetrize rebuilds a whole "
            "side that way)"
        )
    if source is None:
        return Severity.WARNING, _undecided(twins, faults)
    dest = twins.twin(source)
    blocked = [d.what for d in differences if d.kind == "setting" and d.copy is None]
    errors = [fault for fault in faults[dest.key] if fault.severity == Severity.ERROR]
    severity = Severity.ERROR if errors else Severity.WARNING
    if blocked:
        return severity, (
            f"the {', '.join(blocked)} of {source.owner} cannot be copied: it has none, or no "
            f"control of the flipped name exists for {dest.owner}"
        )
    return severity, None


def _with_tail(chain: IKChain) -> IKChain:
    """The chain as it would be with Use Tail on: its count then starts at the owner."""
    bones = chain.bones[: chain.chain_count] if chain.chain_count else chain.bones
    return replace(chain, use_tail=True, bones=bones)


def _shear_with_tail(rig: RigView, chain: IKChain) -> str | None:
    """The bone whose uneven scale would shear the owner once Use Tail makes it turn."""
    return shear_that_stops(rig, _with_tail(chain), chain.owner)


def _where(chain: IKChain) -> str:
    return f"IK '{chain.constraint}' on {chain.owner}"


def _faultless_side(twins: _Twins, faults: _Faults) -> IKChain | None:
    """The side with no fault whose twin has one: the side to copy from; None if not one."""
    clean = [chain for chain in (twins.first, twins.second) if not faults[chain.key]]
    return clean[0] if len(clean) == 1 else None


def _undecided(twins: _Twins, faults: _Faults) -> str:
    sides = (twins.first, twins.second)
    if not any(faults[chain.key] for chain in sides):
        return (
            "neither side has a fault the other checks find, so IK Doctor cannot tell which is "
            "meant: set the side you did not mean to match its twin"
        )
    listed = "; ".join(f"{chain.owner}: {_listed(faults[chain.key])}" for chain in sides)
    return f"both sides have faults of their own ({listed}): fix those first"


def _listed(faults: list[_Fault]) -> str:
    return ", ".join(fault.what for fault in faults)


def _faults(rig: RigView, twins: _Twins, chain: IKChain) -> list[_Fault]:
    """What is wrong with one side: the other checks' warnings and errors on the chain, and a
    target or pole across the mirror plane (a warning of this check's own)."""
    found = [
        _Fault(f"{finding.check_id} {finding.severity}", finding.severity)
        for finding in _other_checks_faults(rig).get(chain.key, ())
    ]
    found += [
        _Fault(f"its {label} across the mirror plane", Severity.WARNING)
        for label in _crossed(rig, twins, chain)
    ]
    return found


def _other_checks_faults(rig: RigView) -> dict[tuple[str, str], list[Finding]]:
    """Every other check's warnings and errors, by chain, with their default options: they say
    which side of a pair is right (one decision, one place). ``diagnose`` reuses these runs."""

    def collect() -> dict[tuple[str, str], list[Finding]]:
        found: dict[tuple[str, str], list[Finding]] = {}
        for check in all_checks():
            if check.id == CHECK_ID:
                continue
            for finding in check.findings_on(rig, check.options_with(None)):
                if finding.chain is not None and finding.severity != Severity.INFO:
                    found.setdefault(finding.chain, []).append(finding)
        return found

    return rig.remember((CHECK_ID, "faults of the other checks"), collect)


def _crossed(rig: RigView, twins: _Twins, chain: IKChain) -> list[str]:
    """The controls ("target", "pole") that sit on the twin's side of the mirror plane."""
    return [
        label for label in ("target", "pole") if _across(rig, twins, chain, *_control(chain, label))
    ]


def _across(
    rig: RigView, twins: _Twins, chain: IKChain, obj: bpy.types.Object | None, bone: str
) -> bool:
    """Whether a control of ``chain`` would sit on the other side of the plane from it."""
    own = twins.side(rig.bone(chain.owner).head)
    point = rig.joint_point(obj, bone)
    return bool(own) and point is not None and twins.side(point) == -own


# --- what differs ----------------------------------------------------------------------------


def _differences(
    rig: RigView, twins: _Twins, source: IKChain, options: Mapping[str, Any]
) -> list[_Difference]:
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
) -> _Difference | None:
    """A setting copied unchanged, if the two sides differ in it: the IK constraint's, or that
    of the pose bones ``bones`` (source, twin)."""
    if (isinstance(value, float) and abs(value - other) <= SAME_VALUE) or value == other:
        return None
    if bones is None:
        return _Difference(
            label,
            _shown(value),
            _shown(other),
            copy=f"{label} {_shown(value)}",
            writes=(("", setting, value),),
        )
    a, b = bones
    return _Difference(
        f"{label} of {a} / {b}",
        _shown(value),
        _shown(other),
        copy=f"{label} of {b} {_shown(value)}",
        writes=((b, setting, value),),
    )


def _control_differences(
    rig: RigView, twins: _Twins, source: IKChain, dest: IKChain
) -> list[_Difference]:
    """A pole on one side only, and a target or pole across the mirror plane. A missing target
    is the target check's error, not a difference: the chain does nothing at all."""
    found = []
    crossed = {chain.key: _crossed(rig, twins, chain) for chain in (source, dest)}
    for label in ("target", "pole"):
        obj, bone = _control(source, label)
        other, other_bone = _control(dest, label)
        across = [chain for chain in (source, dest) if label in crossed[chain.key]]
        one_sided = label == "pole" and (obj is None) != (other is None)
        if not (one_sided or across):
            continue
        wanted = None if obj is None else _mirrored_control(obj, bone)
        if wanted is not None and _across(rig, twins, dest, *wanted):
            wanted = None  # the flipped name is no mirror: copying it would cross over

        found.append(
            _Difference(
                label,
                _shown_control(obj, bone, source in across),
                _shown_control(other, other_bone, dest in across),
                copy=None if wanted is None else f"{label} {_control_name(*wanted)}",
                writes=() if wanted is None else (("", label, wanted),),
            )
        )
    return found


def _pole_angle_difference(
    rig: RigView, source: IKChain, dest: IKChain, options: Mapping[str, Any]
) -> _Difference | None:
    """Pole angles that turn the twins by other than opposite amounts from their rest poses."""
    turn, other = pole_turn(rig, source), pole_turn(rig, dest)
    if turn is None or other is None:
        return None
    if abs(math.degrees(math.remainder(turn + other, math.tau))) <= options["max_angle"]:
        return None
    return _Difference(
        "pole angle",
        _pole_angle(source, turn),
        _pole_angle(dest, other),
        copy=f"pole angle turning it {_signed(-turn)} from its rest pose",
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


def _control(chain: IKChain, label: str) -> tuple[bpy.types.Object | None, str]:
    if label == "target":
        return chain.target, chain.subtarget
    return chain.pole, chain.pole_subtarget


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
    rig: RigView, twins: _Twins, a: str, b: str, options: Mapping[str, Any]
) -> list[_Difference | None]:
    pose_a, pose_b = rig.pose_bone(a), rig.pose_bone(b)
    found = [
        _setting(label, (a, b), setting, getattr(pose_a, setting), getattr(pose_b, setting))
        for setting, label in BONE_SETTINGS
    ]
    found += [_limit_difference(rig, twins, a, b, axis) for axis in AXES]
    found.append(_roll_difference(rig, twins, a, b, options))
    return found


def _limit_difference(rig: RigView, twins: _Twins, a: str, b: str, axis: str) -> _Difference | None:
    """IK limit ranges on ``axis`` that are not each other's mirror (both limits on)."""
    pose_a, pose_b = rig.pose_bone(a), rig.pose_bone(b)
    if not (getattr(pose_a, f"use_ik_limit_{axis}") and getattr(pose_b, f"use_ik_limit_{axis}")):
        return None
    low, high = getattr(pose_a, f"ik_min_{axis}"), getattr(pose_a, f"ik_max_{axis}")
    wanted = (low, high) if _keeps_sign(rig, twins, a, b, axis) else (-high, -low)
    other = (getattr(pose_b, f"ik_min_{axis}"), getattr(pose_b, f"ik_max_{axis}"))
    if all(abs(w - o) <= SAME_VALUE for w, o in zip(wanted, other, strict=True)):
        return None
    return _Difference(
        f"IK limit {axis.upper()} range of {a} / {b}",
        _range(low, high),
        _range(*other),
        copy=f"IK limit {axis.upper()} range of {b} {_range(*wanted)} (mirrored)",
        writes=((b, f"ik_min_{axis}", wanted[0]), (b, f"ik_max_{axis}", wanted[1])),
    )


def _keeps_sign(rig: RigView, twins: _Twins, a: str, b: str, axis: str) -> bool:
    """Whether a turn about ``axis`` of ``a`` is a turn the same way about ``b``'s in the mirror
    pose. Mirroring reverses every rotation, so it is only where ``b``'s axis points opposite to
    the mirror of ``a``'s: X does under -roll (Symmetrize), Y (along the bone) never does, and
    Z does when the X axis is reversed instead."""
    x_reversed = rig.bone(b).x_axis.dot(twins.reflect(rig.bone(a).x_axis)) > 0.0
    return {"x": not x_reversed, "y": False, "z": x_reversed}[axis]


def _shape_differences(rig: RigView, twins: _Twins, source: IKChain) -> list[_Difference]:
    """Bones whose lengths differ by more than 1%, or else joints more than 1% of the reach off
    their twin's mirror image: the twins are built differently at rest."""
    found = []
    for a, b in twins.paired(source):
        length, other = rig.bone(a).length, rig.bone(b).length
        apart = abs(length - other) / max(length, other, 1e-12)
        if apart > MAX_REST_DIFFERENCE:
            found.append(
                _Difference(
                    f"rest length of {a} / {b}",
                    f"{length:.4g}",
                    f"{other:.4g} ({apart:.1%} apart)",
                    kind="shape",
                )
            )
    if not found and twins.rest_gap > MAX_REST_DIFFERENCE * twins.reach:
        found.append(
            _Difference(
                "joints at rest",
                "as modelled",
                f"up to {twins.rest_gap:.3g} off the mirror image "
                f"({twins.rest_gap / twins.reach:.1%} of the reach)",
                kind="shape",
            )
        )
    return found


def _roll_difference(
    rig: RigView, twins: _Twins, a: str, b: str, options: Mapping[str, Any]
) -> _Difference | None:
    """A roll that is not the negative of the twin's (its X axis off the mirror of the twin's).

    It matters to the solver only when IK locks, limits or stiffness act on X or Z and the X
    axis lies on another line than the mirror of the twin's: reversed, it locks and stiffens
    the same lines, and the limit ranges are compared for it (``_keeps_sign``)."""
    x_axis, mirrored = rig.bone(b).x_axis, -twins.reflect(rig.bone(a).x_axis)
    turn = math.degrees(mirrored.angle(x_axis, 0.0))
    if turn <= options["max_angle"]:
        return None
    other_line = min(turn, 180.0 - turn) > options["max_angle"]
    return _Difference(
        f"roll of {a} / {b}",
        f"{_roll(rig, a):.1f}°",
        f"{_roll(rig, b):.1f}° (X axis {turn:.0f}° off the mirror of {a}'s)",
        kind="roll",
        matters_to_ik=other_line and (_acts_on_axes(rig, a) or _acts_on_axes(rig, b)),
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


# --- the fix ---------------------------------------------------------------------------------


def copy_from_twin(obj: bpy.types.Object, finding: Finding) -> str:
    """Write the source side's settings onto its twin, mirrored; the pole angle last, from the
    twin's rest angle once its chain length and pole are copied, so it turns opposite to the
    source's (also when only those changed, which move the rest angle)."""
    rig = RigView(obj)
    dest = rig.chain_of(finding)
    source = _named_twin(rig, dest)
    twins = None if source is None else _paired(rig, *sorted((source, dest), key=_by_key))
    if (
        source is None
        or twins is None
        or source.key != (finding.args["source"], finding.args["source_ik"])
    ):
        raise FixError(f"{finding.args['source']} is no longer the mirror twin of {dest.owner}.")
    differences = _differences(rig, twins, source, {"max_angle": MAX_ANGLE})
    for difference in differences:
        for bone, setting, value in difference.writes:
            _write(obj, dest, bone, setting, value)
    copied = "; ".join(d.copy for d in differences if d.copy is not None)
    turn = pole_turn(rig, source)
    pole = ""
    if turn is not None:
        fresh = RigView(obj)
        rest = pole_rest_angle(fresh, fresh.chain_of(finding))
        if rest is not None:
            ik = _ik(obj, dest)
            before, ik.pole_angle = ik.pole_angle, math.remainder(rest - turn, math.tau)
            if abs(math.remainder(ik.pole_angle - before, math.tau)) > 1e-6:
                pole = (
                    f" (pole angle {math.degrees(before):.1f}° → "
                    f"{math.degrees(ik.pole_angle):.1f}°)"
                )
    return f"Copied onto {_where(dest)} from its mirror twin on {source.owner}: {copied}{pole}."


def _by_key(chain: IKChain) -> tuple[str, str]:
    return chain.key


def _ik(obj: bpy.types.Object, chain: IKChain) -> bpy.types.KinematicConstraint:
    return constraint_on(obj, *chain.key, bpy.types.KinematicConstraint)


def _write(obj: bpy.types.Object, dest: IKChain, bone: str, setting: str, value: Any) -> None:
    if bone:
        setattr(pose_of(obj).bones[bone], setting, value)
        return
    ik = _ik(obj, dest)
    if setting == "target":
        ik.target, ik.subtarget = value
    elif setting == "pole":
        ik.pole_target, ik.pole_subtarget = value
    else:
        setattr(ik, setting, value)


CHECK = Check(
    id=CHECK_ID,
    title="Mirror twins",
    doc=__doc__ or "",
    find=find_symmetry_problems,
    fixes={"copy_from_twin": copy_from_twin},
    options={"max_angle": MAX_ANGLE},
    order=33,
)
