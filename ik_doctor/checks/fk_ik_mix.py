"""FK/IK mix: rotation keys on bones an IK moves, and an IK/FK switch left half way.

Blender's solver does not replace a chain's rotations, it starts from them. Measured in 4.2 and 5.3
on the reference leg: with a pole, a keyed thigh swing is overridden (the knee lands where it would
unkeyed), but a keyed twist of the shin stays and a key that bends the knee backwards flips it away
from the pole (an error on the frames where it does); without a pole a 0.5 radian key on the thigh
moves the knee by 0.55, so the keys decide which way the limb bends. The animator sees keys that do
not do what they say and an IK that poses differently on every frame. An IK whose influence a switch
property or driver leaves between 0 and 1 blends the FK pose and the IK solution, so the tip stops
between them, short of the target.

What it reports:

- Rotation keys in the active action (4.2 flat, or 4.4+ layered) that turn chain bones from rest
  under a live IK: the solver starts from them.
    - A warning without a pole: they steer the bend, moving the joints 0.11 and 0.64 on two real
      rigs.
    - An error with a pole, on a frame where they bend a joint backwards, which flips it away
      from the pole, as the solver starts: not where a constraint sets that bone's start, or a
      Limit Rotation clamps its turn (``core.start.pose_flips_the_start``).
    - A warning where the pole sits behind the bend the limb was built with: bent the other
      way, the joint bends toward it (measured: the arm without Use Tail, its shoulder and upper
      arm built bending away from the elbow's pole, keyed 0.3 and 0.8 rad at the upper arm,
      lands 66° to 76° from its rest bend; with that pole moved to the bend's side it fails,
      104° and 114° from the pole, an error).
    - A warning where the pole angle turns the chain far enough round that the mirrored bend
      faces the pole (``core.start.pole_turns_the_flip_back``; fresh seed 236: the arm posed
      -70° or -20° at the elbow, keyed 0.3 or 0.8 rad at the upper arm, the angle turned 100°
      to 150°, lands; turned 60° it ends 117° from the pole). The mirrored bend is where the
      keys start it (``core.posed_bend.flipped_turn``): the arm without Use Tail keyed at the
      upper arm starts 14° to 28° short of a half turn, and turned 90° by its rest angle ends
      104° and 114° from the pole (the error); with Use Tail, turned exactly 90°, the leg and
      the arm land (seed 247, a false error).
    - Information otherwise: the swing is overridden, the twist stays.
- An IK whose influence a driver or keys leave between 0 and 1: an error, the tip stops between
  FK and IK.

What its fixes do:

- Delete the chain bones' rotation f-curves from the current action and set them to rest (asks
  first). None where the keys start a joint that an overridden constraint would start bent the
  other way, the way it rests (measured: the leg whose shin copies the hips' rotation, the
  thigh keyed 0.3 or 0.8 rad, lands, and fails once the keys are cleared), nor where they
  twist a bone IK-locked on its bend axis, which folds the limb by that twist (``locks``),
  nor where they turn a straight chain without a pole off the line another IK aims at the
  control, along which it cannot fold at rest (the arm keyed 0.3 rad lands; cleared, it stops
  4.3% of its reach short: ``rest_pose``), nor where they bend the joint above a bone that
  inherits no rotation and is held on X (an IK lock, a limit of 6° or less), which the solver
  cannot fold itself (the leg and the arm keyed 0.3 or 0.8 rad land; cleared, 3.4% to 6.1%
  short), nor where they start such a bone bent its way far enough to keep its side, which its
  own pose alone would start past (the leg posed 150° under a thigh keyed 0.8 rad starts 113°
  bent and lands; cleared, 158°, and it ends 180° from its pole: ``inherit``), nor where they
  turn an overridden constraint's start the other way, which the pole angle turns back to the
  pole (the leg under a Damped Track at its control, keyed 0.8 rad, the angle turned 100°,
  lands 68° from its pole; cleared, 99°: ``pole``).
- None for a half-way switch.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import bpy
from mathutils import Matrix

from ..core.armature import pose_of
from ..core.finding import Finding, Severity, chain_finding
from ..core.limb import (
    STRAIGHT_RATIO,
    bend_offset,
    fcurves,
    pole_behind_bend,
    root_folds_against,
)
from ..core.names import readable
from ..core.registry import Check
from ..core.rig import IKChain, RigView
from ..core.start import (
    overridden_constraints,
    pole_turns_round,
    pose_flips_the_start,
    start_flips_the_bend,
    start_held_by,
    start_turned_back,
)
from ..core.started import held_on_x_by_a_narrow_limit
from ..core.switches import constraint_switches
from ._locks_what_if import twist_that_holds_locks
from ._narrow_limits import starts_the_limits_way
from ._shared_control import line_aimer
from ._straight_chain import limits_fold_along_roots_x
from ._straight_start import StartBend, root_past_its_limit, start_bend
from ._swung_start import root_turn_that_folds, swung_past_x_holds
from ._unturned_joint import joints_below_keys, pre_bent_by_keys

ROTATIONS = ("rotation_quaternion", "rotation_euler", "rotation_axis_angle")


def find_fk_ik_mix(rig: RigView, options: Mapping[str, Any]) -> Iterator[Finding]:
    curves = _rotation_curves(rig.object)
    switches = constraint_switches(rig)
    tolerance = math.radians(options["key_angle"])
    for chain in rig.chains:
        if not chain.live:
            continue
        how = switches.get((*chain.key, "influence"))
        if how is not None and chain.influence < 1.0 - 1e-3:
            yield _half_switch(rig, chain, how)
            continue
        if chain.influence < 1.0 - 1e-3:
            continue  # a partial influence nothing switches is the constraint_order finding
        keyed = [
            name
            for name in chain.moving_bones
            if any(_turns(curve, tolerance) for curve in curves.get(name, ()))
        ]
        if keyed:
            yield _keyed(rig, chain, keyed)


def _keyed(rig: RigView, chain: IKChain, keyed: list[str]) -> Finding:
    where = f"IK '{chain.constraint}' on {chain.owner}"
    bones = ", ".join(reversed(keyed))
    active = _active_action(rig.object)
    assert active is not None  # the keys were found in it
    action = active[0]
    # Where the solver starts: a constraint that sets a bone's start, or a Limit Rotation that
    # clamps its keyed turn, replaces the keys there (seed 164: the shin keyed -30° against its
    # bend, held to 0..0.1 rad about X by a Limit Rotation, starts at rest and the leg lands).
    straight = chain.pole is not None and bend_offset(rig, chain) < STRAIGHT_RATIO
    # Straight at rest there is no rest bend to flip: where the posed start points decides.
    start = start_bend(rig, chain) if straight else None
    flips = chain.pole is not None and (
        _flips_a_straight_start(start) if straight else pose_flips_the_start(rig, chain)
    )
    if chain.pole is None:
        severity, title = Severity.WARNING, "FK keys steer the IK"
        effect = "with no pole, the keys decide which way the limb bends and how it twists"
    elif flips and not straight and pole_behind_bend(rig, chain):
        severity, title = Severity.WARNING, "FK keys turn the bend"
        effect = (
            "on this frame they bend a joint the other way, toward its pole, which sits behind "
            "the bend the limb was built with: it still lands, but not bent as built"
        )
    elif flips and not straight and pole_turns_round(rig, chain):
        severity, title = Severity.WARNING, "FK keys turn the bend"
        effect = (
            "on this frame they bend a joint backwards, and the pole angle turns the chain "
            "round so that mirrored bend faces the pole: it lands, turned off its rest pose"
        )
    elif flips:
        severity, title = Severity.ERROR, "FK keys flip the joint"
        effect = "on this frame they bend a joint backwards, so it flips away from its pole"
    else:
        severity, title = Severity.INFO, "FK keys under the IK"
        effect = (
            "the pole overrides their swing, but keyed twist stays and a key that bends a "
            "joint backwards flips it away from the pole"
        )
    blocked_by, holding = _why_the_keys_stay(rig, chain, keyed, start) or (None, None)
    return chain_finding(
        "fk_ik_mix",
        rig,
        chain,
        severity=severity,
        title=title,
        message=(
            f"{bones} {'is' if len(keyed) == 1 else 'are'} keyed in rotation in action "
            f"'{readable(action)}' while {where} is at full influence: {effect}."
        ),
        why=(
            "Blender's IK starts from the bones' keyed rotations instead of replacing them: FK "
            "keys under a live IK do not pose the limb, they only steer the solve."
        ),
        fix_id=None if holding else "clear_keys",
        fix_label=None
        if holding
        else f"Delete the rotation keys of {bones} in '{readable(action)}' (loses those keys)",
        fix_args=(("bones", tuple(keyed)),),
        facts=(("blocked_by", blocked_by),),
        no_fix_reason=holding,
        needs_confirmation=holding is None,
    )


def _why_the_keys_stay(
    rig: RigView, chain: IKChain, keyed: list[str], start: StartBend | None
) -> tuple[str, str] | None:
    """(what holds, why) where clearing the keys would break the chain; None: they may go.
    ``start``: where the posed rotations start a chain straight at rest (``start_bend``)."""
    reasons: tuple[tuple[str, Callable[[], str | None]], ...] = (
        ("overridden_start", lambda: start_held_by(rig, chain, "the keys", rested=keyed)),
        ("turned_back", lambda: _flip_turned_back_by_keys(rig, chain, keyed)),
        ("twisted_lock", lambda: _twist_held_by_keys(rig, chain, keyed)),
        ("aimed_line", lambda: _turn_off_the_line(rig, chain)),
        ("turned_root", lambda: _turn_that_folds_a_limit(rig, chain, keyed)),
        ("kept_bend", lambda: _bend_kept_below_keys(rig, chain, keyed)),
        ("kept_bend", lambda: _start_kept_by_keys(rig, chain, keyed)),
        ("limit_fold", lambda: _limit_fold_kept_by_keys(rig, chain, keyed)),
        ("swung_hold", lambda: _swing_that_folds_a_hold(rig, chain, keyed)),
        ("straight_start", lambda: _start_of_a_straight(start, keyed)),
        ("straight_start", lambda: _root_turn_of_a_straight(rig, chain, start, keyed)),
        ("straight_start", lambda: _fold_along_roots_x(rig, chain)),
    )
    for blocked_by, why in reasons:
        if holding := why():
            return blocked_by, holding
    return None


def _fold_along_roots_x(rig: RigView, chain: IKChain) -> str | None:
    """Why clearing the keys would leave a straight chain without a pole folding along its
    root's X axis (the rest_pose check's "Folds along root's X")."""
    if not limits_fold_along_roots_x(rig, chain):
        return None
    return (
        "the keys start this chain, straight at rest, bent: cleared, its IK limits would fold "
        f"it along {chain.root}'s X axis, which the solver does not follow (the rest_pose "
        "check's error); pre-bend it first"
    )


def _flips_a_straight_start(start: StartBend | None) -> bool:
    """Whether the keys start a chain straight at rest (``start``, the rest_pose check's
    ``start_bend``) bent away from its pole, as its pole angle turns them: with no rest bend
    there is no side to flip, only where the start points (fresh seed 265, a trade: the
    straight arm without Use Tail, keyed 0.3 rad at the upper arm, lands once the pole fix sets
    its rest angle, where the keys read as flipping a bend of 0.03 off the line)."""
    return start is not None and start.posed and not (start.toward or start.as_built)


def _start_of_a_straight(start: StartBend | None, keyed: list[str]) -> str | None:
    """Why clearing the keys would break a chain straight at rest that they start bent toward
    its pole (``start``; the rest_pose check's "Straight, bent at start"): cleared, it would not
    bend at all (fresh seed 265's class: the straight arm without Use Tail keyed 0.3 rad at the
    upper arm, its pole angle turned 90° the other way, lands; cleared, it stops short)."""
    if start is None or not start.posed or not (start.toward or start.as_built):
        return None
    if not set(keyed).intersection(start.by):
        return None
    return (
        "the keys start this chain, straight at rest, bent toward its pole: cleared, it would "
        "not bend at all (the rest_pose check's error); pre-bend it first"
    )


def _root_turn_of_a_straight(
    rig: RigView, chain: IKChain, start: StartBend | None, keyed: list[str]
) -> str | None:
    """Why clearing the keys would break a chain straight at rest whose pose starts it bent the
    way its IK limits fold it, with its root limited to turn the other way: only the root's own
    keyed turn lets that start land (the rest_pose check's ``_posed_as_built``; fresh seed 386,
    a trade: the straight leg on opposed hinges, its shin posed -20° and its thigh keyed 0.8
    rad, landed; cleared, it stopped 0.7% short under 'Start bent from the pole'). So too where
    no pose starts it bent and the keys turn that root past its one-sided limit's closed end,
    which starts the fold (``root_past_its_limit``; fresh seeds 401 and 403)."""
    if chain.root in keyed and start is None and root_past_its_limit(rig, chain) is not None:
        return (
            f"the keyed turn of {chain.root}, past its one-sided IK limit, starts this chain, "
            "straight at rest, folding: cleared, it would not bend (the rest_pose check's "
            "error); pre-bend it first"
        )
    if start is None or not start.as_built or chain.root not in keyed:
        return None
    if not root_folds_against(rig, chain):
        return None
    return (
        f"the keyed turn of {chain.root} lets the posed start of this chain, straight at rest, "
        "fold it the way its IK limits do: cleared, it would stop short (the rest_pose "
        "check's error); pre-bend it first"
    )


def _turn_off_the_line(rig: RigView, chain: IKChain) -> str | None:
    """Why clearing the keys would break a chain straight at rest without a pole whose line
    another IK aims at the control (``line_aimer``): the keyed turn takes it off that line, and
    at rest it cannot fold (measured: the arm keyed 0.3 and 0.8 rad at the upper arm lands, and
    once cleared stops 4.3% of its reach short)."""
    if chain.pole is not None or bend_offset(rig, chain) >= STRAIGHT_RATIO:
        return None
    aimer = line_aimer(rig, chain)
    if aimer is None:
        return None
    return (
        f"cleared, the chain would rest straight, and {aimer} the control would come straight "
        "along it, and it could not fold: pre-bend it first"
    )


def _twist_held_by_keys(rig: RigView, chain: IKChain, keyed: list[str]) -> str | None:
    """Why clearing the keys would break the chain: they twist a bone locked on the axis the
    limb bends on, and the solver folds the limb by that twist (``locks``, measured: the arm
    and the leg keyed 0.8, 0.4 rad on the X-locked upper arm or thigh land, and stop 6.4% and
    5.1% short once the keys are cleared). Every live chain turning the keyed bones counts: an
    IK of length 1 on the upper arm shares its keys with the arm's."""
    sharing = {other for name in keyed for other in rig.chains_with_bone(name) if other.live}
    held = {twist_that_holds_locks(rig, other) for other in sharing | {chain}}
    bone = next((name for name in keyed if name in held), None)
    if bone is None:
        return None
    return (
        f"the keys twist {bone}, IK-locked on the axis the limb bends on, about its own Y: the "
        "solver folds the limb by that twist, and cleared, the lock would stop it short (the "
        "locks check's error); free that axis first"
    )


def _bend_kept_below_keys(rig: RigView, chain: IKChain, keyed: list[str]) -> str | None:
    """Why clearing the keys would break the chain: a keyed bone's child in the chain inherits
    no rotation, so the keyed turn bends the joint between them, and an IK lock or a narrow X
    limit keeps that bend where the solver cannot fold it itself (fresh seed 258, a trade:
    measured on the leg and the arm, the lower bone limited 0° to ±6° on X or locked on X, the
    upper keyed 0.3 or 0.8 rad: they land, and stop 3.4% to 6.1% short with the keys cleared;
    limited ±20°, they fail either way)."""
    for name in joints_below_keys(rig, chain, keyed):
        pose_bone = rig.pose_bone(name)
        if pose_bone.lock_ik_x or held_on_x_by_a_narrow_limit(rig, name):
            parent = readable(rig.raw_bone(name).parent)
            return (
                f"the keys on {parent} bend the joint at {name}, which inherits no rotation and "
                "is held on X, so the solver cannot fold it: cleared, the limb would stop short; "
                f"free the X IK axis of {name} first (the locks check)"
            )
    return None


def _flip_turned_back_by_keys(rig: RigView, chain: IKChain, keyed: list[str]) -> str | None:
    """Why clearing the keys would leave the pole angle alone to bend the joint away: they turn
    where a constraint the IK overrides starts it, bent the other way, which the pole angle turns
    back to the pole (``start_turned_back``). Fresh seed 442, a trade: the leg whose shin a Damped
    Track aims at the foot control, the thigh keyed 0.8 and 0.4 rad and the pole angle turned
    100°, lands 68° from its pole; cleared, it ends 99° away under the pole check's error."""
    turned_back = start_turned_back(rig, chain)
    if turned_back is None:
        return None
    bone, name = turned_back
    for _, constraint in overridden_constraints(rig, (bone,)):
        if readable(constraint) == name and not start_flips_the_bend(
            rig, chain, bone, constraint, rested=keyed
        ):
            return (
                f"the keys turn where '{name}' on {bone} starts the joint, bent the other way, "
                "and the pole angle turns it back to the pole: cleared, the pole angle alone "
                "would bend it away (the pole check's error); set the pole angle and mute that "
                "constraint first"
            )
    return None


def _start_kept_by_keys(rig: RigView, chain: IKChain, keyed: list[str]) -> str | None:
    """Why clearing the keys would flip a joint that inherits no rotation: they start it bent
    its way far enough to keep its side, which its own pose alone does not (``inherit``)."""
    name = pre_bent_by_keys(rig, chain, keyed)
    if name is None:
        return None
    return (
        f"the keys bend the joint at {name}, which inherits no rotation, far enough its way to "
        "keep it toward its pole as the body turns: cleared, its own pose would start it past "
        "that and it would flip; turn Inherit Rotation back on first (the inherit check)"
    )


def _limit_fold_kept_by_keys(rig: RigView, chain: IKChain, keyed: list[str]) -> str | None:
    """Why clearing the keys would leave a limb without a pole short: they start it where its
    one-sided IK limit lets it fold, against its rest bend, or off its bend plane, from where the
    solver folds it that way (``locks``' ``starts_the_limits_way``; measured: the leg and the arm
    limited -150° or -30° to 0°, the root keyed 0.1 to 0.8 rad, land; cleared, 5.1% and 6.5%
    short)."""
    if not starts_the_limits_way(rig, chain) or starts_the_limits_way(
        rig, chain, rested=tuple(keyed)
    ):
        return None
    return (
        "the keys start the joint where its one-sided IK limit lets it fold, against its rest "
        "bend: cleared, it would start as it rests and the limb would stop short (the locks "
        "check's error); clear them and turn that limit off together"
    )


def _swing_that_folds_a_hold(rig: RigView, chain: IKChain, keyed: list[str]) -> str | None:
    """Why clearing the keys would break the chain: they turn a bone held on X alone about its
    own Z, or the bone above one whose start a constraint sets, and the solver folds it about Z
    from there (``swung_past_x_holds``; fresh seed 263, a trade: the arm without Use Tail, its
    upper arm IK-locked on X and keyed 0.3 rad, lands, and cleared it stops short; fresh seed
    304: the forearm limited ±3° on X, copying the foot control's rotation, lands under the
    upper arm keyed 0.3, and cleared it stops short)."""
    swings = swung_past_x_holds(rig, chain)
    bone = next((name for name in keyed if name in swings), None)
    if bone is None and swings:
        unkeyed = swung_past_x_holds(rig, chain, rested=tuple(keyed))
        bone = next((name for name in swings if name not in unkeyed), None)
    if bone is None:
        return None
    turned = "the keys turn" if bone in keyed else "with the keys, the solver starts"
    return (
        f"{turned} {bone} {abs(swings[bone]):.2g} rad about its own Z: held on X alone, it "
        "folds about Z from there, and cleared, the hold would stop the limb short (the locks "
        f"check's error); free the X IK axis of {bone} first"
    )


def _turn_that_folds_a_limit(rig: RigView, chain: IKChain, keyed: list[str]) -> str | None:
    """Why clearing the keys would break a limb without a pole whose joint a narrow X IK limit
    holds: they turn its root, and the joint folds by that turn (``root_turn_that_folds``,
    measured: the arm keyed 0.8, 0.4 rad on the upper arm lands, and stops 6.5% short cleared)."""
    turn = root_turn_that_folds(rig, chain) if chain.root in keyed else None
    if turn is None:
        return None
    return (
        f"the keys turn {chain.root} {abs(turn[1]):.2g} rad about its own {turn[0].upper()}: "
        "without a pole, the joint held on X by a narrow IK limit folds by that turn, and "
        "cleared, the limit would stop the limb short (the locks check's error); free that "
        "limit first"
    )


def _half_switch(rig: RigView, chain: IKChain, source: str) -> Finding:
    where = f"IK '{chain.constraint}' on {chain.owner}"
    return chain_finding(
        "fk_ik_mix",
        rig,
        chain,
        severity=Severity.ERROR,
        title="IK/FK switch halfway",
        message=(
            f"The influence of {where} is {source} and now {chain.influence:.3g}: FK and IK are "
            "both active, so the limb stops between its FK pose and the target."
        ),
        why=(
            "A constraint's influence blends its result with the pose before it: below 1 the "
            "IK solution is mixed with the FK rotations and the tip falls short."
        ),
        no_fix_reason=(
            "Set the IK/FK switch to 0 or 1 on this frame: which system should win is the "
            "animator's choice."
        ),
    )


def _active_action(obj: bpy.types.Object) -> tuple[bpy.types.Action, Any] | None:
    """The active action and its slot (5.x; None before), or None when the rig has none."""
    animation = obj.animation_data
    if animation is None or animation.action is None:
        return None
    return animation.action, getattr(animation, "action_slot", None)


def _rotation_curves(obj: bpy.types.Object) -> dict[str, list[bpy.types.FCurve]]:
    """Rotation f-curves of the active action, by bone name."""
    active = _active_action(obj)
    if active is None:
        return {}
    curves: dict[str, list[bpy.types.FCurve]] = {}
    for curve in fcurves(*active):
        bone = _bone_of(readable(curve, "data_path"), ROTATIONS)
        if bone is not None:
            curves.setdefault(bone, []).append(curve)
    return curves


def _bone_of(path: str, properties: tuple[str, ...]) -> str | None:
    if not path.startswith('pose.bones["') or path.rsplit(".", 1)[-1] not in properties:
        return None
    return path[len('pose.bones["') : path.index('"]')]


def _turns(curve: bpy.types.FCurve, tolerance: float) -> bool:
    """Whether any key of this rotation channel turns the bone away from rest."""
    prop, index = readable(curve, "data_path").rsplit(".", 1)[-1], curve.array_index
    for key in curve.keyframe_points:
        value = key.co[1]
        if prop == "rotation_quaternion":
            if index == 0 and abs(value) < math.cos(tolerance / 2.0):
                return True
            if index > 0 and abs(value) > math.sin(tolerance / 2.0):
                return True
        elif (prop == "rotation_euler" or index == 0) and abs(value) > tolerance:
            return True
    return False


def clear_rotation_keys(obj: bpy.types.Object, finding: Finding) -> str:
    """Delete the chain's rotation f-curves from the current action and return it to rest."""
    names = set(finding.args["bones"])
    active = _active_action(obj)
    assert active is not None  # the keys the finding names are in it
    action = active[0]
    curves = fcurves(*active)
    doomed = [c for c in curves if _bone_of(readable(c, "data_path"), ROTATIONS) in names]
    for curve in doomed:
        curves.remove(curve)
    for name in names:
        pose_bone = pose_of(obj).bones[name]
        pose_bone.matrix_basis = Matrix.LocRotScale(
            pose_bone.location.copy(), None, pose_bone.scale.copy()
        )
    listed = ", ".join(sorted(names))
    return (
        f"Deleted {len(doomed)} rotation f-curves of {listed} from '{readable(action)}' and set "
        "their rotation back to rest: the IK alone poses them now."
    )


CHECK = Check(
    id="fk_ik_mix",
    title="FK keys under IK",
    doc=__doc__ or "",
    find=find_fk_ik_mix,
    fixes={"clear_keys": clear_rotation_keys},
    options={"key_angle": 1.0},
    order=80,
)
