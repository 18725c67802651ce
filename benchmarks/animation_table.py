"""The animated frames of the real rigs: does ``scan_animation`` report every chain that misses?

For every .blend in ``../shared/rigs/`` and every action its armatures play (the active one and
those in NLA tracks), each IK chain is measured on every frame here, by code of its own (not the
scan's): a chain-action *misses* when, on some frame, its tip lands further than 1% of its reach
from a target that lies within reach (between the nearest point the chain folds to and 97% of
its reach), a one-bone aim turns more than 0.01 rad off its target, or the target is keyed more
than 1% beyond the reach of a chain that cannot stretch. Then the scan runs, and each of its
fixes is applied and the chain-action measured again::

    .venv/latest/bin/python benchmarks/animation_table.py

``tests/test_real_rigs_animation.py`` imports this module and holds the table: no chain-action
misses without a finding, none that lands on every frame has an error or a warning, and every
fix the scan offers makes its chain-action land.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT, ROOT / "tests"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import blender_session  # noqa: E402  (before bpy: Blender's user folder apart from the person's)
import bpy  # noqa: E402
from measured import write_table  # noqa: E402

from ik_doctor import Finding, FixError, apply_fix  # noqa: E402
from ik_doctor.verify.animation import scan_animation  # noqa: E402

RIGS = (ROOT.parent / "shared" / "rigs").resolve()
LIMIT = 0.01
ChainAction = tuple[str, str, str]
"""(chain owner, IK constraint, action)."""
Worst = tuple[float, float]
"""The worst miss with the target within reach, and the worst keyed beyond it."""


@dataclass
class AnimatedRig:
    file: str
    armature: str
    measured: dict[ChainAction, Worst] = field(default_factory=dict)
    """Every chain-action measured (shares of the reach, or radians for an aim)."""
    findings: list[Finding] = field(default_factory=list)
    fixed: dict[ChainAction, float] = field(default_factory=dict)
    """Chain-actions whose finding offered a fix, with the worst miss within reach after it."""

    def missing(self) -> set[ChainAction]:
        return {key for key, worst in self.measured.items() if max(worst) > LIMIT}

    def reported(self) -> set[ChainAction]:
        return {
            (f.chain[0], f.chain[1], shown.action)
            for f in self.findings
            if f.chain and f.severity in ("error", "warning")
            for shown in f.occurrences
        }

    def caused(self) -> set[ChainAction]:
        return {
            (f.chain[0], f.chain[1], shown.action)
            for f in self.findings
            if f.chain and f.args.get("cause") not in (None, "unknown")
            for shown in f.occurrences
        }


def blend_files() -> list[Path]:
    return sorted(RIGS.glob("*.blend"))


def survey(path: Path, fix: bool = True) -> Iterator[AnimatedRig]:
    """Open one file; measure, scan and (with ``fix``) fix every animated armature in it."""
    bpy.ops.wm.open_mainfile(filepath=str(path), load_ui=False)
    for obj in sorted(bpy.data.objects, key=lambda o: o.name):
        if obj.type != "ARMATURE" or obj.library is not None or obj.animation_data is None:
            continue
        rig = AnimatedRig(path.name, obj.name, measure(obj))
        if not rig.measured:
            continue
        rig.findings = scan_animation(obj, solve_untested=False)
        if fix:
            for finding in rig.findings:
                if finding.fix_id is None or finding.needs_confirmation:
                    continue
                try:
                    apply_fix(finding)
                except FixError:
                    continue
                for shown in finding.occurrences:  # one finding per cause, over its actions
                    key = (finding.chain[0], finding.chain[1], shown.action)
                    rig.fixed[key] = measure(obj, [shown.action]).get(key, (0.0, 0.0))[0]
        yield rig


def measure(obj: bpy.types.Object, only: list[str] | None = None) -> dict[ChainAction, Worst]:
    """The worst misses of every chain in every action, measured frame by frame."""
    animation = obj.animation_data
    scene = bpy.context.scene
    saved = (animation.action, animation.use_nla, scene.frame_current)
    actions = [animation.action] if animation.action else []
    actions += [s.action for t in animation.nla_tracks for s in t.strips if s.action]
    worst: dict[ChainAction, Worst] = {}
    animation.use_nla = False
    pose = {bone.name: bone.matrix_basis.copy() for bone in obj.pose.bones}
    try:
        for action in dict.fromkeys(actions):
            if only is not None and action.name not in only:
                continue
            for bone in obj.pose.bones:  # each action from the same pose: its own keys only
                bone.matrix_basis = pose[bone.name]
            animation.action = action
            slots = getattr(animation, "action_suitable_slots", None)
            if slots is not None and animation.action_slot is None and len(slots):
                animation.action_slot = slots[0]
            first, last = (round(value) for value in action.frame_range)
            for frame in range(first, last + 1):
                scene.frame_set(frame)
                for owner, name, miss, beyond in _misses(obj):
                    key = (owner, name, action.name)
                    was = worst.get(key, (0.0, 0.0))
                    worst[key] = (max(was[0], miss), max(was[1], beyond))
    finally:
        animation.action, animation.use_nla = saved[0], saved[1]
        scene.frame_set(saved[2])
        for bone in obj.pose.bones:
            bone.matrix_basis = pose[bone.name]
    return worst


def _misses(obj: bpy.types.Object) -> Iterator[tuple[str, str, float, float]]:
    world = obj.matrix_world
    scale = sum(abs(v) for v in world.to_scale()) / 3.0
    for pose_bone in obj.pose.bones:
        for constraint in pose_bone.constraints:
            if constraint.type != "IK" or constraint.mute or constraint.influence <= 0.0:
                continue
            if constraint.target is None:
                continue
            bones = [pose_bone]
            while len(bones) != constraint.chain_count and bones[-1].parent is not None:
                bones.append(bones[-1].parent)
            moving = bones if constraint.use_tail else bones[1:]
            if not moving:
                continue
            lengths = [b.bone.length * scale for b in moving]
            reach = sum(lengths)
            target = constraint.target
            if target.type == "ARMATURE" and constraint.subtarget:
                bone = target.pose.bones.get(constraint.subtarget)
                if bone is None:
                    continue
                goal = target.matrix_world @ bone.head
            else:
                goal = target.matrix_world.translation
            root = world @ bones[-1].head
            tip = world @ (pose_bone.tail if constraint.use_tail else pose_bone.head)
            if len(moving) == 1:
                if (tip - root).length and (goal - root).length:
                    yield pose_bone.name, constraint.name, (tip - root).angle(goal - root), 0.0
                continue
            distance = (goal - root).length
            stretches = constraint.use_stretch and any(b.ik_stretch > 0.0 for b in moving)
            if distance > reach:
                beyond = 0.0 if stretches else (distance - reach) / reach
                yield pose_bone.name, constraint.name, 0.0, beyond
                continue
            if distance < 2.0 * max(lengths) - reach or distance > 0.97 * reach:
                continue
            yield pose_bone.name, constraint.name, (tip - goal).length / reach, 0.0


def main() -> int:
    print(
        "file                                      armature       chain-actions  missing  "
        "reported  cause  fixed"
    )
    totals = [0, 0, 0, 0, 0]
    for path in blend_files():
        try:
            rigs = list(survey(path))
        except RuntimeError as error:
            print(f"skipped {path.name}: {error}", file=sys.stderr)
            continue
        for rig in rigs:
            missing = rig.missing()
            row = [
                len(rig.measured),
                len(missing),
                len(missing & rig.reported()),
                len(missing & rig.caused()),
                sum(1 for worst in rig.fixed.values() if worst <= LIMIT),
            ]
            totals = [a + b for a, b in zip(totals, row, strict=True)]
            print(
                f"{rig.file[:40]:<42}{rig.armature[:14]:<15}"
                + "".join(
                    f"{value:<{width}}" for value, width in zip(row, (15, 9, 10, 7, 5), strict=True)
                )
            )
    print(
        "total".ljust(57)
        + "".join(
            f"{value:<{width}}" for value, width in zip(totals, (15, 9, 10, 7, 5), strict=True)
        )
    )
    write_table(
        "animation",
        ["chain-actions", "missing > 1%", "reported", "cause named", "fixed (rescan lands)"],
        [totals],
        per_line=True,
    )
    blender_session.leave(0)


if __name__ == "__main__":
    main()
