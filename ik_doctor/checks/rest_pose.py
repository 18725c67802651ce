"""Rest pose: the state the solver starts from must leave it a pose to solve and a side to bend.

An armature in Rest Position shows the rest pose and evaluates no pose at all: IK is dead. A
chain modelled perfectly straight gives the solver no bend direction (measured: with a pole it
does not bend at all, tip error 0.22 on a 0.9 leg; without one it cannot fold when the target
comes straight toward the root, and bends to whatever side the target leans), unless the
solver starts it bent: posed 20° toward the pole, or turned by a Damped Track at its own
target, the straight leg and arm land (a warning); posed away, they bend away from the pole.
Blender's solver starts from the chain's posed rotations: a leftover rotation on a chain bone
steers the bend of a chain without a pole, and one that bends a joint the other way makes a
chain with a pole bend away from it (toward it, and the leg lands, under a pole behind the
bend, or with a pole angle that turns the chain more than 89° round, back toward the pole: a
warning; a Copy Rotation or Damped Track that sets the bone's start rotation replaces its pose,
and the constraint order check judges that start); a leftover scale below 1 along a bone
shortens it, so the tip falls short (measured: a thigh scaled 0.8 along its length leaves the
foot 0.022 from the target), while a scale across the bone or a scale-up keeps the reach but no
longer matches the model. IK Stretch on a chain bone makes up both shortfalls (measured on the
leg and the arm: straight, or the upper bone scaled 0.5, they land with stretch 0.001 on one
bone): warnings then.
Bones whose transforms an action or NLA strip animates are left alone: that pose is animation.

What it reports:

- The armature in Rest Position: an error, IK does nothing.
- A chain straight in the rest pose: an error with a pole, it does not bend at all (or, where a
  copy the IK overrides starts it folded flat, a half turn gives it no side and rounding decides
  which way it bends: "Straight, started flat", measured on the leg copying the hips; a warning
  under iTaSC beside a second IK on the owner aimed at the same control moving these bones or
  more, whose two tasks fold it: the leg and the arm land, alone 6.9% short). A warning
  without one: it cannot fold when the target comes straight toward the root, and bends only the way
  its one-sided IK limits fold it, where they choose, as a robot arm's hinges do (the finding names
  them); an error where its root inherits a pose scale 1.09 times larger across that fold than along
  it, or 1.32 times larger along it, or, its two hinges limited one-sided opposite ways, any uneven
  scale (the leg and the arm under hips or a shoulder scaled 0.95 to 1.6 either way stop 0.4% to 11%
  short): pre-bent, it lands no better. An error too where those opposed hinges' chain is posed with
  a bone turned 7° or more out of the plane they fold it in (``_opposed_swing``: 0.1% to 0.15%
  short, pre-bent or not). A warning too where the solver starts it bent toward its pole, by a posed
  rotation or by a Damped Track at its own target on the lower bone, and the leg and the arm land,
  or bent by another constraint the IK overrides whose bend the pole angle turns to face the pole
  (``core.start.straight_start``: a Damped Track at the pole with the angle turned 150° or 180°); an
  error where a posed rotation or such a constraint bends it away (a pole angle that turns the chain
  more than 90° from its rest pose turns a posed bend round with it: the leg and the arm posed ±20°
  or ±70°, the angle turned 100° to 180°, land posed away), and where a posed rotation bends it
  toward the pole but the root's one-sided IK limit turns it only the other way from the fold
  (measured: the leg and the arm posed 20° to 160° toward the pole stop short, the leg 53% at 160°;
  with the root free they land), with no fix: pre-bent, the pose still fails, so the message says
  what to clear or free. Posed away from the pole, the way such limits fold it (built so, the
  pole behind that bend), it lands bent as built: with the root free, or turned, or posed 15° or
  less at the joint alone (``_straight_start.POSED_AGAINST_THE_ROOT``: from 16°, 0.1% short).
- Where one-sided IK limits fold such a chain, they judge a constraint's start, not the pole
  alone: bent against them (180° off their fold) they hold it straight, an error ("Start held
  straight": the leg and the arm stop 3.4% short); within them (90° to 115° off) they take
  it as their fold, a warning without the pre-bend, when the fold is opposite the pole (it
  bends as built or toward the pole, so it never flips) or along it with the pole angle that
  keeps the rest pose; and a root limited the other way holds it back (0.2% to 35% short)
  unless the start is a Damped Track at the target. Taken as their fold, it shears under an
  uneven scale its root inherits as a straight chain without a pole does, an error past the same
  bands (the leg under hips at 1.1 0.19% short, the arm under a shoulder at 0.9 0.31%).
- A straight chain without a pole, at rest, whose line another IK on its control aims at it:
  that IK turns one bone the chain hangs from, and that bone's head and the IK's tip lie on the
  chain's line, so the control always comes straight along it (an upper-arm IK without Use
  Tail turning a shoulder in line with the arm: 4.3% of the reach short; the shoulder's head
  0.4% of the reach off the line, it lands). An error, unless a constraint starts it bent, IK
  Stretch shortens it or a bone of it is turned (posed about Z it lands, about X or Y it does
  not: not modelled), under the standard solver (``_shared_control.line_aimer``).
- A leftover rotation under IK that bends a joint away from the pole, within its IK limits: an
  error (a pose beyond a one-sided limit is held back by it: the leg and the arm folding only
  toward their pole, posed -20° or -70° at the joint, land once pre-bent). A warning under
  a pole behind the bend, where that is toward the pole and the leg lands, unless the joint's IK
  limit stops that fold short of the goals (the arm limited ±55°, the leg ±40°: an error, 0.75%
  and 1.4% of the reach short; ±60° and ±45° land); a warning where the
  pole angle turns the chain more than 89° round, back toward the pole (the leg posed -20° with
  the angle turned 150° lands 30° from it), with no fix, since cleared alone the angle bends it
  away; a warning too where a Copy Rotation or Damped Track sets the bone's start rotation,
  replacing the pose until it is muted.
- A leftover rotation that steers a chain without a pole: a warning.
- A leftover scale that shortens or shears a bone: an error, on a straight chain too (beside
  its straight finding: folding by its limits, the upper bone at (1, 0.5, 1), the leg and the
  arm stop 49% of the reach short); one that lengthens it: a warning, but an error where the
  IK limits stop the longer limb folding as near its root as the goals it was built for
  (``core.reach.held_off_when_posed``: the leg and the arm folding ±20° land, and with the
  upper bone scaled 1.1 or 1.5, the lower one not inheriting it, stop short, the arm 28.9%; a
  joint rolled off its bend axis folds past its X limit and lands: rolled 1.5° or more with
  its Z free, limited up to 30° its bend's way, posed up to 1.5 times longer,
  ``_narrow_limits.rolled_onto_a_free_axis``), or where, free, one bone
  now outreaches the rest by more than the nearest goal lies from the root (the arm without Use
  Tail, its upper arm at 2.5 over the shoulder, 14.9% short).
- A straight chain, or an evenly shortened bone, is a warning when IK Stretch on a chain bone
  makes up the reach; so is a shortened bone under iTaSC (measured: they land), and bones scaled
  evenly that still span the oracle's farthest goal (``spans_the_goals``: a shin at 0.97 lands).
  Not a straight chain that a pose or a constraint starts bent away from its pole: it folds that
  way and stretches the rest, an error as without stretch (the leg and the arm posed -20° or -70°
  under IK Stretch 0.1 or 0.5 end 106° to 180° from the pole).
- Not a pose about the axis an IK limit clamps where the joint, rolled off its bend axis, folds
  about its other axis instead (locks' "Limit folds off plane"): the arm rolled 30° and limited
  ±8° to ±16°, posed -20° or -50°, lands, and so does the leg rolled 60° at ±20°.
- Animated channels are left alone, but a scale left on a bone keyed only in rotation is a
  leftover: an upper arm at 0.5 under a forearm that does not inherit scale stops 21.9% short.
- A chain of one bone posed scaled along its length: an error. It turns but cannot fold, so its
  tip sweeps a sphere other than the one it was built to reach (a thigh or upper arm IK of chain
  length 1 at 0.5 or 1.5 stops 50% of its reach short); not under IK Stretch or iTaSC.

What its fixes do:

- Switch to Pose Position.
- Clear the scale of a one-bone chain's bone (its rotation stays).
- Pre-bend the joints by 1% of the bone length: the way a straight chain's one-sided IK limits fold
  it (measured: the leg and the arm then land with the pole on either side; pre-bent toward a pole
  against their limits they stop 3.7% short), else toward the pole, else knees to the front (-Y)
  and other limbs to the back (+Y). This changes the rest pose. Not offered while another live IK
  on the same control lies along the straight chain, which would then miss, or shares bones with it
  while the upper of the two lands straight, with no pole (pre-bent, the lower folds, takes the
  shared bones, and the upper misses), nor on a straight chain that lands (a warning) whose
  pre-bend would turn a bone against an uneven scale it inherits in full (measured: the leg and the
  arm folding by their limits, the upper bone scaled (1, 2, 1), land straight and stop 3.0% of the
  reach short pre-bent), nor where the pole angle turns an overridden constraint's start round to
  the pole (measured: then pre-bent, its angle set to keep the rest pose, the arm and the leg bend
  180° from the pole).
- Clear the chain bones' rotation and scale, keeping a keyed channel (asks first). Not where
  the pose turns the start a constraint the IK overrides gives a joint the rest way, and
  cleared it would start bent the other way (``core.start.start_held_by``), nor where the pose
  keeps a joint that does not inherit rotation on its side (the inherit check's warning):
  cleared, it flips once the bones above turn; nor where the pose moves the joint's start and,
  cleared, the chain would start at its rest bend with fewer iterations than the solver check's
  table needs there (seed 185: the leg at 9, which lands posed, stops 2.3% short at rest).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import bpy
from mathutils import Matrix

from ..core.armature import armature_data, pose_of
from ..core.finding import Finding, Severity, chain_finding
from ..core.limb import (
    STRAIGHT_RATIO,
    animated_channels,
    bend_offset,
    has_degenerate_bone,
    pole_behind_bend,
)
from ..core.names import readable
from ..core.posed_bend import joint_bends, pose_flips_bend
from ..core.reach import (
    evenly_scaled,
    held_off_when_posed,
    mirrored_fold_held_by,
    solved_by_itasc,
    spans_the_goals,
    stretching_bones,
)
from ..core.registry import Check
from ..core.rig import IKChain, RigView
from ..core.start import (
    pole_turns_round,
    pose_flips_the_start,
    start_held_by,
)
from ..core.switches import switched_off
from ._iteration_needs import iterations_needed
from ._narrow_limits import folds_off_plane, rolled_onto_a_free_axis, starts_the_limits_way
from ._one_bone_length import changed_length, clear_scale
from ._straight_chain import pre_bend, straight_finding
from ._unturned_joint import rotation_effect


def find_rest_pose_problems(rig: RigView, options: Mapping[str, Any]) -> Iterator[Finding]:
    live = [chain for chain in rig.chains if chain.live]
    if live and armature_data(rig.object).pose_position == "REST":
        yield _rest_position_finding(rig)
    animated = animated_channels(rig)
    seen: set[tuple[str, ...]] = set()
    # The live IK of a switch pair first: a twin switched off is judged through it.
    for chain in sorted(rig.chains, key=lambda chain: switched_off(rig, chain)):
        bones = chain.moving_bones
        if bones in seen or has_degenerate_bone(rig, chain):
            continue  # Rigify pairs a pole and a no-pole IK on the same bones
        seen.add(bones)
        if len(bones) < 2:
            shorter = None if switched_off(rig, chain) else changed_length(rig, chain, animated)
            yield from [shorter] if shorter else []
            continue
        straight = bend_offset(rig, chain) < STRAIGHT_RATIO
        if straight:
            yield straight_finding(rig, chain)
        if rig.turned_or_scaled.isdisjoint(bones) and options["pose_angle"] >= 0.0:
            continue  # the chain's rotation and scale are at rest: no pose left over
        leftover = _leftover_pose(rig, chain, animated, options["pose_angle"], straight)
        # Straight, the chain has no bend for a pose to steer or flip, but a bone scaled down
        # along its length still falls short (measured: the leg and the arm folding by their
        # limits, the upper bone at (1, 0.5, 1), stop 49% of the reach short).
        if leftover is not None and (not straight or leftover.severity == Severity.ERROR):
            yield leftover


def _rest_position_finding(rig: RigView) -> Finding:
    return Finding(
        check_id="rest_pose",
        severity=Severity.ERROR,
        armature=rig.name,
        title="Rig in Rest Position",
        message=f"'{rig.name}' is set to Rest Position: no pose is evaluated, so IK does nothing.",
        why=(
            "In Rest Position (Armature properties > Pose Position) Blender shows every bone at "
            "its rest pose and skips constraints: moving an IK target moves nothing."
        ),
        fix_id="pose_position",
        fix_label="Switch the armature to Pose Position",
    )


def _leftover_pose(
    rig: RigView,
    chain: IKChain,
    animated: set[tuple[str, str]],
    max_angle: float,
    straight: bool = False,
) -> Finding | None:
    bones = chain.moving_bones
    rotated, scaled, shrunk = _posed(rig, bones, animated, max_angle)
    if not rotated and not scaled:
        return None
    where = f"IK '{chain.constraint}' on {chain.owner}"
    flips = (
        chain.pole is not None and pose_flips_bend(rig, chain) and not folds_off_plane(rig, chain)
    )
    flipped = flips and pose_flips_the_start(rig, chain)
    # A constraint that sets where the solver starts the turned bones replaces their pose: the
    # flip shows only once it is muted (the constraint order check then keeps its mute back).
    replaced = flips and not flipped
    if rotated and chain.pole is not None and not flips and not scaled:
        return None  # measured: the pole sets the plane and the solve is the same
    stretching = _stretch_that_makes_up(rig, chain, shrunk, straight)
    # Under a pole behind the bend, bending the other way is bending toward the pole: the leg
    # posed -70° at the knee still lands, facing the pole (measured).
    behind = flipped and pole_behind_bend(rig, chain)
    # ... unless an IK limit keeps the joint from folding that way as far (fresh seed 196).
    held_by = mirrored_fold_held_by(rig, chain) if behind else None
    turned_back = flipped and not behind and pole_turns_round(rig, chain)
    bend_kind, bend_effect = _bend_effect(
        chain, rotated, flipped, replaced, (behind, held_by), turned_back
    )
    # Posed longer, a limb may no longer fold its tip as near its root as it was built to.
    held_off = _held_off(rig, chain) if scaled and not stretching_bones(rig, chain) else None
    scale_effect = _scale_effect(shrunk, scaled, stretching, held_off)
    effects = [effect for effect in (scale_effect, bend_effect) if effect]
    facts = (
        ("scaled", tuple(scaled)),
        ("shrunk", tuple(shrunk)),
        ("stretching", tuple(stretching)),
        ("bend", bend_kind),
    )
    falls_short = shrunk and not (stretching or solved_by_itasc(rig) or spans_the_goals(rig, chain))
    wrong_way = flipped and not ((behind and not held_by) or turned_back)
    severity = Severity.ERROR if wrong_way or falls_short or held_off else Severity.WARNING
    posed = sorted(set(rotated) | set(scaled), key=bones.index)
    keyed = tuple((n, c) for n in posed for c in ("rotation", "scale") if (n, c) in animated)
    # Cleared alone, the pose would leave the pole angle turning the chain away from its pole
    # (the pole check's error): the two undo each other, so both change by hand.
    no_fix = (
        "cleared alone, the pose would leave the pole angle turning the joint away from the "
        "pole: clear the pose and set the pole angle that keeps the rest pose together"
        if turned_back
        else start_held_by(rig, chain, "the pose", [n for n in posed if not _keyed(n, keyed)])
        or _side_kept_by_the_pose(rig, chain, [n for n in rotated if not _keyed(n, keyed)])
        or _limit_fold_started_by_the_pose(rig, chain, [n for n in rotated if not _keyed(n, keyed)])
        or (_too_few_iterations_once_cleared(rig, chain) if rotated else None)
    )
    return chain_finding(
        "rest_pose",
        rig,
        chain,
        severity=severity,
        title=_leftover_title(wrong_way, bool(falls_short), held_off),
        message=f"Chain bones of {where} keep a leftover pose: {'; '.join(effects)}.",
        why=(
            "Blender's solver starts from the chain's posed rotations and keeps its scale: a "
            "pose left on the bones under IK changes the solution."
        ),
        fix_id=None if no_fix else "clear_pose",
        fix_label=None if no_fix else f"Clear the {_cleared(posed, keyed)} (loses that pose)",
        fix_args=() if no_fix else (("bones", tuple(posed)), ("keyed", keyed)),
        facts=(*facts, ("blocked_by", "pole_angle" if turned_back else no_fix and "start")),
        no_fix_reason=no_fix,
        needs_confirmation=not no_fix,
    )


def _stretch_that_makes_up(
    rig: RigView, chain: IKChain, shrunk: list[str], straight: bool
) -> tuple[str, ...]:
    """The bones whose IK Stretch makes up the ``shrunk`` ones' length, if it can. It makes up a
    bone scaled down evenly; one scaled down along its length alone shears the bones below,
    which no stretching undoes (measured: a thigh at (1, 0.5, 1) still fails), unless they lie
    along it: on a ``straight`` chain that scale shears nothing, and the leg and the arm at
    (1, 0.5, 1) land with IK Stretch 0.01 to 0.5 on the upper bone."""
    even = straight or all(
        evenly_scaled(rig, name) or not _shears_below(rig, chain, name) for name in shrunk
    )
    return stretching_bones(rig, chain) if shrunk and even else ()


def _shears_below(rig: RigView, chain: IKChain, name: str) -> bool:
    """Whether a chain bone's scale shears the chain bone below it: one is below and inherits
    scale in full. Measured on the leg and the arm, the upper bone at (1, 0.5, 1) or (1, 0.8, 1)
    with the bone below inheriting scale any other way, or the lowest bone turned scaled so: IK
    Stretch 0.01 to 0.5 lands them all, as it does a bone scaled evenly (fresh seed 214)."""
    bones = chain.moving_bones
    below = bones.index(name) - 1
    return below >= 0 and rig.raw_bone(bones[below]).inherit_scale == "FULL"


def _side_kept_by_the_pose(rig: RigView, chain: IKChain, rotated: list[str]) -> str | None:
    """Why clearing the pose would flip a joint that does not inherit rotation and keeps its
    side by its pose (the inherit check's warning, effect ``pre_bent``). Seed 163: the forearm
    posed 70° under an upper arm scaled 1.5; clearing the scale cleared the rotation too, and
    the arm flipped once the shoulder turned (the leg alike)."""
    for name in rotated:
        if (
            name in chain.moving_bones[:-1]
            and not rig.raw_bone(name).use_inherit_rotation
            and ("effect", "pre_bent") in rotation_effect(rig, chain, name)[2]
        ):
            return (
                f"cleared, {name}, which does not inherit rotation and keeps its side by its "
                "pose, would bend away from its pole once the bones above turn: turn its "
                "Inherit Rotation on first (the inherit check's fix)"
            )
    return None


def _limit_fold_started_by_the_pose(rig: RigView, chain: IKChain, rotated: list[str]) -> str | None:
    """Why clearing the pose would leave a chain without a pole short: it starts the joint bent
    the way its one-sided IK limit lets it fold, against its rest bend (the locks check's
    ``folds_the_limits_way``). Measured: the arm limited -150° to 0°, posed -30° to -160°, lands;
    cleared, it stops 6.5% short."""
    if not rotated or not starts_the_limits_way(rig, chain):
        return None
    if starts_the_limits_way(rig, chain, rested=tuple(rotated)):
        return None
    return (
        "cleared, the joint would start bent as it rests, the way its one-sided IK limit does "
        "not let it fold, and the limb would stop short (the locks check's error): clear the "
        "pose and turn that limit off together"
    )


def _too_few_iterations_once_cleared(rig: RigView, chain: IKChain) -> str | None:
    """Why clearing a pose that changes where the joint starts would leave the chain short: from
    its rest bend it needs more iterations than it has (the solver check's tables). Seed 185:
    the leg at 9 iterations, its shin posed folded further and its thigh scaled, lands; cleared,
    it starts at its 7.6° rest bend, where it needs 12, and stops 2.3% of its reach short."""
    bends = joint_bends(rig, chain)
    if bends is None or not (bends[1] or bends[2] is not None):
        return None  # the pose leaves the joint's start as bent as at rest
    iterations = rig.ik_constraint(chain).iterations
    need = iterations_needed(rig, chain, at_rest=True)
    if need is None or iterations >= need.count:
        return None
    return (
        f"cleared, the joint would start at its {bends[0]:.1f}° rest bend, where its "
        f"{iterations} iterations are too few ({need.measured}): set more iterations first "
        "(the solver check's fix)"
    )


def _held_off(rig: RigView, chain: IKChain) -> str | None:
    """What keeps a limb posed longer from folding its tip as near its root as it was built to
    (``held_off_when_posed``). A joint rolled off its bend axis folds in its plane past the limit
    that holds its X (fresh seed 448, a false alarm: the leg's shin rolled 20°, limited -150° to
    0°, under a thigh at 1.5, lands; measured on 4.2, the leg and the arm rolled 10° to 90°, 48
    rigs with problems to 24), or about its Z, rolled a little (``rolled_onto_a_free_axis``)."""
    free = folds_off_plane(rig, chain) or rolled_onto_a_free_axis(rig, chain)
    return held_off_when_posed(rig, chain, limited=not free)


def _leftover_title(wrong_way: bool, falls_short: bool, held_off: str | None) -> str:
    if wrong_way:
        return "Pose flips the joint"
    if falls_short:
        return "Pose shortens the limb"
    if held_off:
        return "Pose outgrows IK limits" if held_off == "limits" else "Pose lengthens the limb"
    return "Leftover pose on chain"


def _keyed(name: str, keyed: tuple[tuple[str, str], ...]) -> bool:
    """Whether a channel of this bone is keyed: clearing the pose keeps it (not modelled)."""
    return any(bone == name for bone, _channel in keyed)


def _posed(
    rig: RigView, bones: Sequence[str], animated: set[tuple[str, str]], max_angle: float
) -> tuple[list[str], list[str], list[str]]:
    """The chain bones left rotated, scaled, and scaled down along their length (not keyed)."""
    rotated: list[str] = []
    scaled: list[str] = []
    shrunk: list[str] = []
    for name in bones:
        basis = rig.pose_bone(name).matrix_basis
        _location, rotation, scale = basis.decompose()
        # A keyed channel is animation; another channel of the same bone is still left over
        # (measured: an upper arm keyed in rotation and scaled 0.5 leaves the arm 21.9% short).
        if math.degrees(rotation.angle) > max_angle and (name, "rotation") not in animated:
            rotated.append(name)
        if (name, "scale") in animated:
            continue
        if any(abs(s - 1.0) > 1e-3 for s in scale.to_tuple()):
            scaled.append(name)
            if scale.y < 1.0 - 1e-3:  # Y runs along the bone: only this shortens the reach
                shrunk.append(name)
    return rotated, scaled, shrunk


def _scale_effect(
    shrunk: list[str], scaled: list[str], stretching: Sequence[str], held_off: str | None
) -> str | None:
    """What the leftover scale does to the limb; None when no bone is scaled."""
    if shrunk and stretching:
        return (
            f"{', '.join(shrunk)} {'is' if len(shrunk) == 1 else 'are'} scaled down along "
            f"{'its' if len(shrunk) == 1 else 'their'} length: the limb reaches targets it was "
            f"built to reach only by IK Stretch on {', '.join(stretching)}"
        )
    if shrunk:
        return (
            f"{', '.join(shrunk)} {'is' if len(shrunk) == 1 else 'are'} scaled down along "
            f"{'its' if len(shrunk) == 1 else 'their'} length, so the tip falls short of targets "
            "the limb was built to reach"
        )
    if held_off:
        how_far = "as far as its IK limits let it" if held_off == "limits" else "all the way"
        return (
            f"{', '.join(scaled)} {'is' if len(scaled) == 1 else 'are'} scaled up: folded "
            f"{how_far}, the longer limb keeps its tip further from its root than targets it "
            "was built to reach (measured: the leg and the arm folding ±20° land, and with the "
            "upper bone scaled 1.1 or 1.5 stop short; the arm without Use Tail, its upper arm "
            "at 2.5, 14.9% short)"
        )
    if scaled:
        return (
            f"{', '.join(scaled)} {'is' if len(scaled) == 1 else 'are'} scaled up or across "
            f"{'its' if len(scaled) == 1 else 'their'} length: the limb still reaches but no "
            "longer matches its model"
        )
    return None


def _bend_effect(
    chain: IKChain,
    rotated: list[str],
    flipped: bool,
    replaced: bool,
    behind: tuple[bool, str | None],
    turned_back: bool,
) -> tuple[str | None, str | None]:
    """Which of the cases below the leftover rotation is, as the finding's ``bend`` fact names it,
    and what it does to the bend; (None, None) when it changes nothing said here. ``behind``:
    whether the pole sits behind the bend, and the joint whose IK limit holds that fold."""
    toward_behind, held_by = behind
    if held_by:
        return "held_behind", (
            "the posed rotation bends the joint the other way, toward its pole, which sits "
            f"behind the bend, but the IK limit of {held_by} stops that fold short of the "
            "targets the limb was built to reach (measured: the arm limited ±55° and the leg "
            "±40° stop 0.75% and 1.4% of the reach short)"
        )
    if toward_behind:
        return "behind", (
            "the posed rotation bends the joint the other way, toward its pole, which sits "
            "behind the bend (measured: the leg still lands, bent toward the pole)"
        )
    if turned_back:
        return "turned_back", (
            "the posed rotation bends the joint the other way, and the pole angle turns the "
            "chain round toward its pole again (measured: the leg posed -20° at the knee with "
            "the pole angle turned 150° lands 30° from its pole)"
        )
    if flipped:
        return "flipped", (
            "the posed rotation bends the joint the other way, so the chain bends away from "
            "its pole"
        )
    if replaced:
        return "replaced", (
            "the posed rotation would bend the joint the other way, but a constraint sets the "
            "rotation the solver starts it from instead (measured: the arm and the leg land); "
            "once that constraint is muted, the chain bends away from its pole"
        )
    if rotated and chain.pole is None:
        return "steers", (
            f"the rotation of {', '.join(rotated)} steers which way the chain bends: the same "
            "target gives a different pose"
        )
    return None, None


def set_pose_position(obj: bpy.types.Object, finding: Finding) -> str:
    armature = armature_data(obj)
    armature.pose_position = "POSE"
    return f"Switched '{readable(armature)}' to Pose Position: poses and IK are evaluated again."


def _cleared(names: list[str], keyed: tuple[tuple[str, str], ...]) -> str:
    """What clearing the pose of ``names`` clears, keeping the channels an action keys: "rotation
    and scale of shin.L, thigh.L", "scale of upper_arm.L (its rotation is keyed)"."""
    kept = dict(keyed)
    plain = [name for name in reversed(names) if name not in kept]
    parts = [f"rotation and scale of {', '.join(plain)}"] if plain else []
    for name, channel in reversed(keyed):
        other = "scale" if channel == "rotation" else "rotation"
        parts.append(f"{other} of {name} (its {channel} is keyed)")
    return "; the ".join(parts)


def clear_pose(obj: bpy.types.Object, finding: Finding) -> str:
    names = list(finding.args["bones"])
    keyed = tuple(finding.args.get("keyed", ()))
    kept = dict(keyed)
    for name in names:
        pose_bone = pose_of(obj).bones[name]
        if kept.get(name) == "rotation":
            pose_bone.scale = (1.0, 1.0, 1.0)
            continue
        scale = pose_bone.scale.copy()
        pose_bone.matrix_basis = Matrix.Translation(pose_bone.matrix_basis.translation)
        if kept.get(name) == "scale":
            pose_bone.scale = scale
    return f"Cleared the pose {_cleared(names, keyed)}."


CHECK = Check(
    id="rest_pose",
    title="Rest pose",
    doc=__doc__ or "",
    find=find_rest_pose_problems,
    fixes={
        "pose_position": set_pose_position,
        "pre_bend": pre_bend,
        "clear_pose": clear_pose,
        "clear_scale": clear_scale,
    },
    options={"pose_angle": 1.0},
    order=45,
)
