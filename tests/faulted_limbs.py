"""The reference rig broken in random combinations and magnitudes of the faults the checks know.

A ``Fault`` is plain data (what, on which limb, how much), so Hypothesis shrinks a failing
combination and ``benchmarks/agreement.py`` prints one. ``faulted_rig`` builds the reference rig
in an empty file and applies the faults in order; ``judge`` lets the oracle solve every chain
and compares it with the findings by the rules of issue 13:

- a chain the oracle fails has an error or warning finding on it or on a chain upstream
  (no silent failure);
- an error finding's chain fails the oracle (no false alarm); on a Spline IK, the spline oracle
  fails it and no IK chain holding its bone passes (the bone has no working chain);
- applying any offered fix leaves no error that was not there before (no fix trades one fault
  for another), and Fix All leaves none of the errors its fixes claimed to remove.
"""

from __future__ import annotations

import math
import random
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import bpy
from hypothesis import strategies as st
from mathutils import Vector
from off_grid import OFF_GRID
from rig_generation import UNREADABLE, save_with_unreadable_names

from ik_doctor import Finding, FixError, Severity, apply_all_fixes, apply_fix, diagnose
from ik_doctor.core.editing import edit_bones
from ik_doctor.core.fix_policy import FixPermission
from ik_doctor.core.geometry import rest_pole_angle
from ik_doctor.core.names import has_unreadable, readable
from ik_doctor.core.rig import RigView
from ik_doctor.sample_rig import build_character_rig
from ik_doctor.verify.oracle import ChainVerdict, Disagreement, disagreements, judge_chains
from ik_doctor.verify.spline_oracle import judge_spline_chains


@dataclass(frozen=True)
class Limb:
    owner: str
    parent: str
    control: str
    pole: str
    below: str
    """The bone below the owner (foot, hand)."""
    body: str
    """The bone the limb hangs from."""
    elsewhere: str
    """Another limb's control."""


LIMBS = {
    "leg": Limb("shin.L", "thigh.L", "foot_ik.L", "knee_pole.L", "foot.L", "hips", "hand_ik.L"),
    "arm": Limb(
        "forearm.L", "upper_arm.L", "hand_ik.L", "elbow_pole.L", "hand.L", "shoulder.L", "foot_ik.L"
    ),
}


@dataclass(frozen=True)
class Fault:
    kind: str
    limb: str
    amount: float
    """How much, in the kind's own terms (degrees, a stiffness, a chain length, a choice)."""


Breaker = Callable[[bpy.types.Object, Limb, float], None]
KINDS: dict[str, tuple[tuple[float, ...], Breaker]] = {}
"""Every fault kind: the amounts it is drawn with, and what it does to the rig."""


def kind(*amounts: float) -> Callable[[Breaker], Breaker]:
    def register(breaker: Breaker) -> Breaker:
        KINDS[breaker.__name__] = (amounts, breaker)
        return breaker

    return register


def _ik(rig: bpy.types.Object, limb: Limb) -> bpy.types.KinematicConstraint:
    return rig.pose.bones[limb.owner].constraints["IK"]


def _pair(rig: bpy.types.Object, limb: Limb, amount: float) -> list[bpy.types.PoseBone]:
    """The owner (0), its parent (1) or both (2)."""
    names = [[limb.owner], [limb.parent], [limb.owner, limb.parent]][int(amount) % 3]
    return [rig.pose.bones[name] for name in names]


def _new_ik(rig, owner: str, target: str, count: int, use_tail: bool = True) -> None:
    ik = rig.pose.bones[owner].constraints.new("IK")
    ik.target, ik.subtarget, ik.chain_count, ik.use_tail = rig, target, count, use_tail


@kind(0, 1, 3, 9)
def chain_length(rig, limb, amount):
    _ik(rig, limb).chain_count = int(amount)


@kind(0, 1, 2, 3)
def target(rig, limb, amount):
    """None; a bone that does not exist; the armature itself; a bone of its own chain."""
    ik = _ik(rig, limb)
    if amount == 0:
        ik.target = None
    else:
        ik.subtarget = ("", "no such bone", "", limb.parent)[int(amount)]


@kind(0)
def unparented(rig, limb, amount):
    with edit_bones(rig) as bones:
        bones[limb.owner].use_connect = False
        bones[limb.owner].parent = None


@kind(0.0, 0.5, 0.95)
def influence(rig, limb, amount):
    _ik(rig, limb).influence = amount


@kind(0)
def muted(rig, limb, amount):
    _ik(rig, limb).mute = True


@kind(20, 60, 100, 150, 180)
def pole_angle(rig, limb, amount):
    _ik(rig, limb).pole_angle += math.radians(amount)


@kind(0)
def no_pole(rig, limb, amount):
    _ik(rig, limb).pole_target = None


@kind(0)
def pole_behind(rig, limb, amount):
    with edit_bones(rig) as bones:
        pole = bones[limb.pole]
        pole.head.y, pole.tail.y = -pole.head.y, -pole.tail.y


@kind(0, 1, 2, 3)
def ik_lock(rig, limb, amount):
    """The owner's bend axis; the parent's; every axis of both; a hinge (the owner's Y and Z)."""
    if amount == 3:
        owner = rig.pose.bones[limb.owner]
        owner.lock_ik_y = owner.lock_ik_z = True
        return
    for bone in _pair(rig, limb, amount):
        bone.lock_ik_x = True
        if amount == 2:
            bone.lock_ik_y = bone.lock_ik_z = True


@kind(0, 3, 6, 20, 60)
def ik_limit(rig, limb, amount):
    """The owner folds only ± this many degrees on its bend axis."""
    owner = rig.pose.bones[limb.owner]
    owner.use_ik_limit_x = True
    owner.ik_min_x, owner.ik_max_x = -math.radians(amount), math.radians(amount)


@kind(30, 150, -150)
def one_sided_limit(rig, limb, amount):
    """The owner folds only further than it rests, up to this many degrees, as a machine's
    elbow stops at its rest angle; negative, it only straightens."""
    owner = rig.pose.bones[limb.owner]
    owner.use_ik_limit_x = True
    owner.ik_min_x, owner.ik_max_x = sorted((0.0, math.radians(amount)))


def _stiff(where: int) -> Breaker:
    def stiffness(rig, limb, amount):
        for bone in _pair(rig, limb, where):
            bone.ik_stiffness_x = bone.ik_stiffness_y = bone.ik_stiffness_z = amount

    return stiffness


for _where, _name in enumerate(("stiff_owner", "stiff_parent", "stiff_both")):
    KINDS[_name] = ((0.7, 0.8, 0.9, 0.95, 0.975, 0.99), _stiff(_where))


@kind(0.1, 0.5)
def stretch(rig, limb, amount):
    rig.pose.bones[limb.owner].ik_stretch = amount
    rig.pose.bones[limb.parent].ik_stretch = amount / 10.0


@kind(-40, 20, 90)
def roll(rig, limb, amount):
    with edit_bones(rig) as bones:
        bones[limb.owner].roll += math.radians(amount)


@kind(0)
def straight(rig, limb, amount):
    with edit_bones(rig) as bones:
        upper, lower = bones[limb.parent], bones[limb.owner]
        upper.tail = (upper.head + lower.tail) / 2


@kind(*range(8))
def straight_one_sided(rig, limb, amount):
    """A straight limb whose hinge limits choose the fold, as a robot arm's: the lower bone
    folds only toward the pole's side (even amounts) or only away from it; with bit 1 the upper
    bone's limit is one-sided too (it turns the other way as the limb folds); with bit 2 the
    limb has no pole."""
    straight(rig, limb, 0)
    way = -1.0 if int(amount) & 1 else 1.0
    hinges = [(limb.owner, way)] + ([(limb.parent, -way)] if int(amount) & 2 else [])
    for name, sign in hinges:
        bone = rig.pose.bones[name]
        bone.use_ik_limit_x = True
        bone.ik_min_x, bone.ik_max_x = sorted((0.0, sign * math.radians(150)))
    if int(amount) & 4:
        _ik(rig, limb).pole_target = None


@kind(-70, -20, 20, 70)
def pose_rotation(rig, limb, amount):
    owner = rig.pose.bones[limb.owner]
    owner.rotation_mode = "XYZ"
    owner.rotation_euler = (math.radians(amount), 0.0, 0.0)


@kind(0.5, 2.0)
def pose_scale(rig, limb, amount):
    rig.pose.bones[limb.parent].scale = (1.0, amount, 1.0)


@kind(0)
def inherit_rotation_off(rig, limb, amount):
    rig.data.bones[limb.owner].use_inherit_rotation = False


@kind(0.5, 1.5)
def inherit_scale_none(rig, limb, amount):
    rig.data.bones[limb.owner].inherit_scale = "NONE"
    rig.pose.bones[limb.parent].scale = (amount, amount, amount)


@kind(0.8, 1.3)
def body_squashed(rig, limb, amount):
    rig.pose.bones[limb.body].scale = (amount, 1.0, 1.0 / amount)


@kind(5, 12, 20)
def iterations(rig, limb, amount):
    _ik(rig, limb).iterations = int(amount)


@kind(0.001, 0.006, 0.02)
def itasc(rig, limb, amount):
    rig.pose.ik_solver = "ITASC"
    rig.pose.ik_param.precision = amount


OVERRIDES = (
    ("COPY_ROTATION", "body"),
    ("DAMPED_TRACK", "control"),
    ("TRACK_TO", "control"),
    ("DAMPED_TRACK", "pole"),
    ("LIMIT_ROTATION", ""),
    ("COPY_ROTATION", "elsewhere"),
)


@kind(*range(len(OVERRIDES)))
def overriding_constraint(rig, limb, amount):
    kind_name, aimed = OVERRIDES[int(amount)]
    constraint = rig.pose.bones[limb.owner].constraints.new(kind_name)
    if aimed:
        constraint.target, constraint.subtarget = rig, getattr(limb, aimed)
    else:
        constraint.use_limit_x, constraint.max_x, constraint.owner_space = True, 0.1, "LOCAL"


@kind(0, 1)
def twin_ik(rig, limb, amount):
    """A second IK on the owner aimed at another limb's control (0) or its own (1)."""
    _new_ik(rig, limb.owner, (limb.elsewhere, limb.control)[int(amount)], 2)


@kind(1, 2, 3)
def ik_below(rig, limb, amount):
    """An IK on the bone below, aimed at the limb's control, of this chain length."""
    _new_ik(rig, limb.below, limb.control, int(amount))


@kind(0, 1)
def ik_above(rig, limb, amount):
    """An IK on the parent aimed at the limb's control, with or without its tail."""
    _new_ik(rig, limb.parent, limb.control, 1, use_tail=bool(amount))


@kind(0)
def tail_off(rig, limb, amount):
    _ik(rig, limb).use_tail = False


@kind(0, 1)
def control_in_chain(rig, limb, amount):
    """The control parented to the owner (0) or to the parent (1)."""
    with edit_bones(rig) as bones:
        bones[limb.control].parent = bones[(limb.owner, limb.parent)[int(amount)]]


@kind(0)
def rest_position(rig, limb, amount):
    rig.data.pose_position = "REST"


@kind(0, 1, 2)
def object_transform(rig, limb, amount):
    """A uniform scale, a mirroring scale, a rotation."""
    if amount == 0:
        rig.scale = (2.5, 2.5, 2.5)
    elif amount == 1:
        rig.scale = (-1.0, 1.0, 1.0)
    else:
        rig.rotation_euler = (0.3, 0.5, 0.2)


@kind(0.3, 0.8)
def fk_keys(rig, limb, amount):
    parent = rig.pose.bones[limb.parent]
    parent.rotation_mode = "XYZ"
    parent.rotation_euler = (amount, amount / 2, 0.0)
    parent.keyframe_insert("rotation_euler")


INSECT_LEG = (
    ("coxa", (0.15, 0.0, 0.9), (0.25, 0.0, 0.95)),
    ("femur", (0.25, 0.0, 0.95), (0.55, 0.0, 1.2)),
    ("tibia", (0.55, 0.0, 1.2), (0.75, 0.0, 0.75)),
)
"""An insect's leg off the hips, as issue 25's spider and ant: a short coxa under a femur and a
tibia, bent 27° and 107° at rest (head, tail; y is the limb's own)."""


def add_insect_leg(
    rig: bpy.types.Object, name: str, iterations: int, y: float = -0.1, layout=INSECT_LEG
) -> str:
    """Add a three-bone leg (``layout``) hanging from the hips, with an IK of ``iterations`` on
    its last bone: a foot control under the root and a pole above the knee, Use Tail, IK
    Stretch on with stretch 0 on every bone, ±90° X IK limits, the bend plane on each bone's X.
    Returns the IK's owner."""
    names = [f"{part}_{name}" for part, _head, _tail in layout]
    with edit_bones(rig) as bones:
        parent = bones["hips"]
        for bone_name, (_part, head, tail) in zip(names, layout, strict=True):
            bone = bones.new(bone_name)
            bone.head, bone.tail = (head[0], y, head[2]), (tail[0], y, tail[2])
            bone.parent, bone.use_connect = parent, parent.name != "hips"
            parent = bone
        tip = bones[names[-1]].tail
        for control, head in ((f"foot_{name}", tip), (f"pole_{name}", (0.5, y, 1.7))):
            bone = bones.new(control)
            bone.head, bone.tail, bone.parent = head, (head[0], y - 0.1, head[2]), bones["root"]
        for bone_name in names:  # X along the bend plane's normal (+Y): each bends about X
            bone = bones[bone_name]
            bone.align_roll(Vector((0.0, 1.0, 0.0)).cross(bone.vector.normalized()))
    owner = names[-1]
    ik = rig.pose.bones[owner].constraints.new("IK")
    ik.target, ik.subtarget, ik.chain_count = rig, f"foot_{name}", len(names)
    ik.pole_target, ik.pole_subtarget = rig, f"pole_{name}"
    ik.iterations, ik.use_tail, ik.use_stretch = iterations, True, True
    root = rig.data.bones[names[0]]
    ik.pole_angle = rest_pole_angle(
        root.head_local,
        root.matrix_local.col[0].xyz,
        root.matrix_local.col[1].xyz,
        rig.data.bones[owner].tail_local,
        rig.data.bones[f"pole_{name}"].head_local,
    )
    for bone_name in names:
        pose_bone = rig.pose.bones[bone_name]
        pose_bone.ik_stretch, pose_bone.use_ik_limit_x = 0.0, True
        pose_bone.ik_min_x, pose_bone.ik_max_x = -math.pi / 2, math.pi / 2
    return owner


@kind(8, 10, 12, 16)
def insect_leg(rig, limb, amount):
    """A three-bone insect leg beside the limb, at this many iterations (issue 25: they land)."""
    name = limb.owner.replace(".", "_")
    owner = rig.pose.bones.get(f"tibia_{name}")
    if owner is None:
        add_insect_leg(rig, name, int(amount), y=-0.1 if limb.owner.startswith("shin") else 0.1)
    else:
        owner.constraints[0].iterations = int(amount)


@kind(0, 1)
def dead_spline_ik(rig, limb, amount):
    """A Spline IK on the limb's owner beside its IK with no target (0) or a mesh (1): Blender
    skips it, and the IK poses the limb (issue 25's rock snake)."""
    spline_ik = rig.pose.bones[limb.owner].constraints.new("SPLINE_IK")
    spline_ik.chain_count = 2
    if amount:
        mesh = bpy.data.objects.new("not a curve", bpy.data.meshes.new("not a curve"))
        bpy.context.scene.collection.objects.link(mesh)
        spline_ik.target = mesh


@kind(0, 1)
def unreadable_names(rig, limb, amount):
    """Names Python cannot read (issue 25), as Blender 2.4x saved them: the limb's two bones
    (0), and its IK and control too (1), written with the byte 0xdf once ``faulted_rig`` saves
    and reopens the rig. Applied after the other faults, which find bones by these names."""
    owner = rig.pose.bones.get(limb.owner)  # None: renamed by the same fault drawn before
    ik = owner.constraints.get("IK") if owner is not None else None
    if amount and ik is not None:
        ik.name = f"IK{UNREADABLE}"
    for name in [limb.owner, limb.parent] + ([limb.control] if amount else []):
        bone = rig.data.bones.get(name)
        if bone is not None:
            bone.name = name.replace(".", f"{UNREADABLE}.", 1)


LAST = {"unreadable_names"}
"""Kinds applied after the others, whatever order they were drawn in."""


faults = st.builds(
    lambda name, limb, pick: Fault(name, limb, KINDS[name][0][pick % len(KINDS[name][0])]),
    st.sampled_from(sorted(KINDS)),
    st.sampled_from(sorted(LIMBS)),
    st.integers(0, 5),
)
fault_lists = st.lists(faults, min_size=1, max_size=3)


def random_faults(rng: random.Random, most: int = 3, off_grid: bool = False) -> tuple[Fault, ...]:
    """The same distribution as ``fault_lists``, for the benchmark's thousands of rigs; with
    ``off_grid``, the amounts of ``OFF_GRID`` where a kind has them."""
    picked = []
    for _ in range(rng.randint(1, most)):
        name = rng.choice(sorted(KINDS))
        amounts = OFF_GRID.get(name, KINDS[name][0]) if off_grid else KINDS[name][0]
        picked.append(Fault(name, rng.choice(sorted(LIMBS)), rng.choice(amounts)))
    return tuple(picked)


def faulted_rig(faults_to_apply: tuple[Fault, ...] | list[Fault]) -> bpy.types.Object:
    """The reference rig in an empty file, with the faults applied in order (``LAST`` last),
    evaluated; with names Python cannot read, saved so and opened again, from one saved file
    kept for the rebuilds of the same faults (each fix is tried on a fresh copy)."""
    drawn = tuple(faults_to_apply)
    if drawn in _SAVED_UNREADABLE:
        path, name = _SAVED_UNREADABLE[drawn]
        bpy.ops.wm.open_mainfile(filepath=str(path), load_ui=False)
        return bpy.data.objects[name]
    bpy.ops.wm.read_homefile(use_empty=True)
    rig = build_character_rig()
    for fault in sorted(drawn, key=lambda fault: fault.kind in LAST):
        KINDS[fault.kind][1](rig, LIMBS[fault.limb], fault.amount)
    bpy.context.view_layer.update()
    if not any(fault.kind in LAST for fault in drawn):
        return rig
    _SAVED_UNREADABLE.clear()
    _SAVED_UNREADABLE[drawn] = (_UNREADABLE_FILE, rig.name)
    save_with_unreadable_names(_UNREADABLE_FILE)
    return faulted_rig(drawn)


SCRATCH_FOLDER = tempfile.TemporaryDirectory(prefix="ik_doctor_faulted_")
"""Holds the file saved with unreadable names; removed when the run ends."""
_UNREADABLE_FILE = Path(SCRATCH_FOLDER.name) / "unreadable.blend"
_SAVED_UNREADABLE: dict[tuple[Fault, ...], tuple[Path, str]] = {}
"""The faults of the rig last saved with names Python cannot read: the file, the rig's name."""


@dataclass
class Judgement:
    """How the findings of one faulted rig agree with the oracle and with their own fixes."""

    faults: tuple[Fault, ...]
    verdicts: list[ChainVerdict]
    findings: list[Finding]
    silent: list[Disagreement] = field(default_factory=list)
    """Chains the oracle fails with no error or warning on them or upstream."""
    unexplained: list[Disagreement] = field(default_factory=list)
    """Chains the oracle fails with no error on them or upstream (a warning may name it)."""
    false_alarms: list[Disagreement] = field(default_factory=list)
    trades: list[str] = field(default_factory=list)
    """A fix that left an error the rig did not have before, or Fix All leaving an error its
    fixes claimed to remove."""
    unrefused: list[str] = field(default_factory=list)
    """A fix whose finding names a bone or constraint Python cannot read that did not refuse
    with ``FixError``: Blender cannot be asked for it by that name (issue 25)."""

    @property
    def holds(self) -> bool:
        return not (self.silent or self.false_alarms or self.trades or self.unrefused)

    def problems(self) -> Iterator[str]:
        for d in self.silent:
            yield f"silent: {d.owner}/{d.constraint} {d.problem}"
        for d in self.false_alarms:
            yield f"false alarm: {d.problem}"
        yield from (f"trade: {trade}" for trade in self.trades)
        yield from (f"unrefused: {fix}" for fix in self.unrefused)


def judge(faults_to_apply: tuple[Fault, ...], fixes: bool = True) -> Judgement:
    """Build the faulted rig, judge it by the oracle and, with ``fixes``, every fix it offers."""
    rig = faulted_rig(faults_to_apply)
    verdicts = judge_chains(rig)
    findings = diagnose(rig)
    judged = Judgement(faults_to_apply, verdicts, findings)
    alarms = [d for d in disagreements(verdicts, findings) if d.kind == "false alarm"]
    judged.false_alarms = [d for d in alarms if not _dead_spline_alone(rig, d, verdicts)]
    judged.unexplained = [d for d in disagreements(verdicts, findings) if d.kind != "false alarm"]
    explained = (Severity.ERROR, Severity.WARNING)
    judged.silent = [
        d for d in disagreements(verdicts, findings, explained) if d.kind != "false alarm"
    ]
    if fixes:
        judged.trades = list(_trades(faults_to_apply, findings, verdicts))
        judged.unrefused = list(_unrefused(faults_to_apply, findings))
    return judged


def _dead_spline_alone(
    rig: bpy.types.Object, alarm: Disagreement, verdicts: list[ChainVerdict]
) -> bool:
    """Whether ``alarm`` is ``spline_target``'s error on a Spline IK the spline oracle fails (it
    does nothing) on a bone that no IK chain the oracle passes holds: the bone has no working
    chain, so the error is true. The oracle solves IK chains only, and ``disagreements`` calls
    every error on another chain a false alarm; beside a working IK it stays one (issue 25)."""
    if alarm.check_id != "spline_target" or alarm.owner is None:
        return False
    dead = {v.key for v in judge_spline_chains(rig) if v.fails}
    if (alarm.owner, alarm.constraint) not in dead:
        return False
    holding = {chain.key for chain in RigView(rig).chains_with_bone(alarm.owner)}
    return not any(v.state == "pass" for v in verdicts if v.key in holding)


def _unrefused(faults_to_apply: tuple[Fault, ...], findings: list[Finding]) -> Iterator[str]:
    """The fixes that name a bone or constraint Python cannot read and apply all the same."""
    for finding in findings:
        names = (finding.bone, finding.constraint, *(finding.chain or ()))
        if finding.fix_id is None or not any(has_unreadable(name) for name in names):
            continue
        faulted_rig(faults_to_apply)
        try:
            apply_fix(finding)
        except FixError:
            continue
        yield f"{finding.check_id}.{finding.fix_id} on {finding.bone} applied"


ALL = FixPermission(rebind_meshes=True, discard=True)


def _trades(
    faults_to_apply: tuple[Fault, ...],
    findings: list[Finding],
    verdicts: list[ChainVerdict],
) -> Iterator[str]:
    """Errors a fix leaves that the rig did not have, on a chain that worked before the fix or
    works after it: the fix broke it, or the error is wrong. An error on a chain that failed
    before and still fails is a fault the fixed one hid (a muted IK hides every other fault of
    its chain): not a trade. Nor is one on a chain that fails once the fixed chain, which carried
    its root, is fixed: it worked only as the fault moved it (seed 93: a leg IK without Use Tail
    turns the hips, and the arm, its forearm's Damped Track aimed at the pole, lands turned so;
    with the leg's chain length set, the hips stay and the arm fails as it does alone)."""
    before = {f.key for f in findings if f.severity == Severity.ERROR}
    # A chain the oracle does not judge (a Spline IK) keeps its error if its fix changes with
    # the rig (seed 112: a dead Spline IK's, once the IK beside it is removed).
    places = {(f.check_id, f.bone, f.constraint) for f in findings if f.severity == Severity.ERROR}
    failing = {v.key for v in verdicts if v.state in ("fail", "untested")}
    upstream = {v.key: set(v.upstream) for v in verdicts}
    for finding in findings:
        if finding.fix_id is None:
            continue
        rig = faulted_rig(faults_to_apply)
        below = _hanging_below(RigView(rig), finding.chain)
        try:
            apply_fix(finding)
        except FixError:
            continue
        new = [f for f in diagnose(rig) if f.severity == Severity.ERROR and f.key not in before]
        if not new:
            continue
        failing_now = {v.key for v in judge_chains(rig) if v.state in ("fail", "untested")}
        for after in new:
            if (
                after.chain not in upstream
                and (after.check_id, after.bone, after.constraint) in places
            ):
                continue
            carried = finding.chain in upstream.get(after.chain, ())
            carried = carried or _copies_what_it_carried(RigView(rig), below, after)
            if after.chain in failing_now and (after.chain in failing or carried):
                continue  # revealed, not traded
            yield (
                f"{finding.check_id}.{finding.fix_id} on {finding.bone} left a new error from "
                f"'{after.check_id}': {after.message}"
            )
    rig = faulted_rig(faults_to_apply)
    claimed = {r.finding.key for r in apply_all_fixes(rig, permission=ALL) if r.changed}
    for after in diagnose(rig):
        if after.severity == Severity.ERROR and after.key in claimed:
            yield f"Fix All claimed '{after.check_id}' on {after.bone} fixed: {after.message}"


def _hanging_below(view: RigView, key: tuple[str, str] | None) -> dict[str, set[str]]:
    """The bones that hang below a bone the chain ``key`` turns, each with those bones."""
    chain = view.chain(*key) if key else None
    moved = set(chain.moving_bones) if chain is not None else set()
    hanging = {name: moved.intersection(view.ancestors(name)) for name in view.bone_names()}
    return {name: bones for name, bones in hanging.items() if bones}


def _copies_what_it_carried(fixed: RigView, below: dict[str, set[str]], after: Finding) -> bool:
    """Whether the new error's constraint takes its target from a bone that hung ``below`` the
    fixed chain's bones before the fix and no longer does: the chain worked only as that fault
    moved what it copies (seeds 172 and 175: the shin copying the rotation of a hand control
    parented into the arm's chain lands, turned with the arm; the cycle fixed, it bends 91.35°
    from its pole, as it does alone)."""
    if not after.bone or not fixed.has_bone(after.bone):
        return False
    stack = fixed.constraints(after.bone)
    constraint = next((c for c in stack if readable(c) == after.constraint), None)
    subtarget = readable(constraint, "subtarget", "") if constraint is not None else ""
    return subtarget in below and below[subtarget].isdisjoint(fixed.ancestors(subtarget))
