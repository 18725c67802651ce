"""A chain straight at rest, for the rest_pose check: which way it is built to bend, whether
the solver starts it bent, and the pre-bend that gives it a side."""

from __future__ import annotations

import math
from typing import Any

import bpy
from mathutils import Matrix, Vector

from ..core.editing import edit_bones
from ..core.finding import Finding, Severity, chain_finding
from ..core.geometry import offset_from_line
from ..core.limb import (
    STRAIGHT_RATIO,
    bend_offset,
    built_bend,
    chain_joints,
    hangs_down,
    keep_pole_at_rest,
    limits_fold,
    root_folds_against,
    straight_joint_lean,
)
from ..core.names import readable
from ..core.reach import solved_by_itasc, stretching_bones
from ..core.rig import IKChain, RigView
from ..core.start import (
    overridden_constraints,
    start_set_by,
    start_turned_back,
    target_tracking_joint,
)
from ._limits_start import limits_decide
from ._no_pole_stiffness import short_once_bent_without_pole
from ._opposed_swing import swung_out_of_its_fold, swung_words
from ._shared_control import line_aimer, rival_on_the_control
from ._shear import inherited_shear, shear_that_stops, uneven_body
from ._straight_start import (
    StartBend,
    flat_start_by_rounding,
    root_past_its_limit,
    start_bend,
    turned_off_rest,
)

PRE_BEND = 0.01
"""The pre-bend moves each inner joint by this share of the length of the bone above it (or of
the chain's average bone, if that is longer, so a short bone still gives a clear bend)."""


def straight_finding(rig: RigView, chain: IKChain) -> Finding:
    where = f"IK '{chain.constraint}' on {chain.owner}"
    joint = chain_joints(rig, chain)[0]
    direction, side = _bend_direction(rig, chain)
    folded = limits_fold(rig, chain) is not None
    stretching = stretching_bones(rig, chain)
    start = start_bend(rig, chain) if chain.pole is not None else None
    opposite = limits_decide(rig, chain, start) if start is not None else None
    held_by = ""  # why the pre-bend is not offered, where the limits' fold decides
    # Started within its limits, which take the start as their fold, it shears as unaimed.
    as_built = opposite is not None and opposite[0] == Severity.WARNING
    toward = bool(start and start.toward) and not as_built
    stretch, sheared = inherited_shear(rig, chain, direction, started=toward, as_built=as_built)
    # Posed toward its pole, not stretching, its root limited to turn the other way from the fold.
    root_held = bool(
        start and not stretching and start.toward and start.posed and root_folds_against(rig, chain)
    )
    if chain.pole is not None and stretching and not _bent_away(start, opposite, rig, chain):
        severity, title = Severity.WARNING, "Straight, lands by stretch"
        effect = (
            "with its pole it does not bend at all, and reaches only by IK Stretch on "
            f"{', '.join(stretching)} (measured: it lands, stretched straight)."
        )
    elif start is not None and root_held:
        severity, title = Severity.ERROR, "Bent at start, root held"
        effect = (
            f"{start.shown} starts it bent toward its pole, but the IK limit of {chain.root} lets "
            "it turn only the other way from the fold its limits give, and the solver leaves it "
            "short (measured: the leg and the arm posed 20° to 160° toward the pole, with "
            "their upper bone limited the other way, stop short; with that bone free they land)."
        )
    elif opposite is not None:
        severity, title, effect, held_by = opposite
        if stretch and as_built:
            severity, title = Severity.ERROR, "Straight, shears as it folds"
    elif start is not None:
        severity, title, effect = _started(start)
        if stretch:
            severity, title = Severity.ERROR, "Straight, shears as it folds"
    elif chain.pole is not None and (past := root_past_its_limit(rig, chain)) is not None:
        severity, title = Severity.WARNING, "Straight, root past its limit"
        effect = (
            f"{chain.root} is posed {math.degrees(past):.2g}° past the closed end of its "
            "one-sided IK limit, and the solver's turn back into it starts the fold: it lands "
            "while that pose stays (measured on the leg and the arm: 0.1° to 7.4° past they "
            "land, 0.06° or 8° past they stop short)."
        )
    elif chain.pole is not None:
        severity, title, effect = _unbent_with_pole(rig, chain, side if folded else None)
    elif not stretch and (swung := swung_out_of_its_fold(rig, chain)) is not None:
        severity, title, effect, held_by = swung_words(*swung)
    else:
        severity, title, effect = _without_pole(rig, chain, bool(stretch), side if folded else None)
    bent_by = start.by if start else ()
    fix = _pre_bend_fix(rig, chain, (joint, side), direction, bent_by, severity.name == "WARNING")
    if stretch:
        effect += sheared
    root_freed = f"clear the posed rotation of {', '.join(bent_by) or joint} and pre-bend it, or "
    waits = (
        "clear the scale it inherits first"
        if stretch
        else held_by
        or (root_freed + f"free the IK limit of {chain.root}" if root_held else "")
        or ("fix_id" in fix and _pre_bend_breaks(rig, chain, start, joint, direction, side))
    )
    if waits:
        fix = dict(facts=fix["facts"], no_fix_reason=waits)
    return chain_finding(
        "rest_pose",
        rig,
        chain,
        severity=severity,
        title=title,
        message=f"{where} is perfectly straight in the rest pose: {effect}",
        why=(
            "The solver bends a chain the way its rest pose is already bent; a straight chain "
            f"gives it no direction. A slight pre-bend of {joint} tells it which way to go."
        ),
        **fix,
    )


def _unbent_with_pole(rig: RigView, chain: IKChain, side: str | None) -> tuple[Severity, str, str]:
    """Severity, title and effect of a pole chain straight at rest that nothing starts bent, or
    that a copy starts folded flat, which gives it no side (``flat_start_by_rounding``); ``side``
    is the way its IK limits fold it, where they do."""
    pre_bent = (
        f"pre-bent {side}, it lands whichever side its pole is on (measured on the leg and the "
        "arm; pre-bent toward a pole on the other side, against the limits, they stop 3.7% of "
        "the reach short)."
    )
    flat = flat_start_by_rounding(rig, chain)
    twin = _itasc_twin(rig, chain) if flat is None else None
    if twin is not None:
        return (
            Severity.WARNING,
            "Straight, bent by twin IK",
            f"under iTaSC, IK '{twin.constraint}' on {twin.owner}, aimed at the same control, "
            "moves these bones too, and the two together bend it: it lands (measured under "
            "iTaSC on the leg and the arm, straight, free or on a one-sided hinge: alone they "
            "stop 6.9% of the reach short; beside a second IK on their control, with or without "
            "a pole, they land).",
        )
    if flat is None:
        effect = "with its pole it does not bend at all and the tip stops short of the target"
        return (
            Severity.ERROR,
            "Straight limb won't bend",
            effect + (f"; {pre_bent}" if side else "."),
        )
    effect = (
        f"'{flat[1]}' on {flat[0]}, which the IK overrides, starts it folded flat, a half turn "
        "that gives it no side, so rounding decides which way it bends (measured on the "
        "straight leg whose shin copies the hips' rotation, rolled every 15°: free, it bends "
        "away from its pole at every roll; with a one-sided hinge it lands at 17 of 48). Muted, "
    )
    return (
        Severity.ERROR,
        "Straight, started flat",
        effect + (f"and {pre_bent}" if side else "it does not bend at all: pre-bend it too."),
    )


def _itasc_twin(rig: RigView, chain: IKChain) -> IKChain | None:
    """Under iTaSC, another live IK on the owner aimed at the same control that moves at least
    the chain's bones: the solver's two tasks on one straight chain fold it (fresh seed 454;
    under the standard solver it stays straight, and a twin moving fewer bones lands a free
    chain of 3 but not one on a one-sided hinge)."""
    if not solved_by_itasc(rig):
        return None
    twins = (
        other
        for other in rig.chains_on_bone(chain.owner)
        if other is not chain
        and other.live
        and other.target is not None
        and other.shares_control(chain)
        and set(chain.bones) <= set(other.bones)
    )
    return next(twins, None)


def _bent_away(
    start: StartBend | None,
    limits_decide: tuple[Severity, str, str, str] | None,
    rig: RigView,
    chain: IKChain,
) -> bool:
    """Whether the start bends the chain away from its pole, where its IK limits do not decide
    the fold: it folds that way, and IK Stretch only stretches the rest (measured on the leg
    and the arm posed -20° or -70°, or tracking the control or the pole, under IK Stretch 0.1
    and 0.5: each ends 106° to 180° from its pole, as without stretch; seed 242). So does a
    copy that starts it folded flat (``flat_start_by_rounding``; fresh seed 351: the straight
    leg whose shin copies the hips, stretching 0.01 to 0.9, ends 106° to 180° from its pole at
    all 12 rolls every 30°, measured on 4.2)."""
    if start is None:
        return flat_start_by_rounding(rig, chain) is not None
    return limits_decide is None and not (start.toward or start.as_built)


def _pre_bend_breaks(
    rig: RigView, chain: IKChain, start: StartBend | None, joint: str, direction: Vector, side: str
) -> str:
    """Why a pre-bend would not help the chain or would break it: a start no model reads
    (``_unread_start``, for a chain nothing starts bent), a pose the pole angle turns round
    toward the pole (pre-bent, the pose starts it away: fresh seed 207), a joint's limit it
    bends against, or, for a chain that lands by IK Stretch, a body scaled unevenly above it
    (straight it only aims and stretches; pre-bent it folds, and the body shears it: seed 203);
    "" where none does."""
    if start is None and (setter := _unread_start(rig, chain, joint)):
        return setter
    if start is not None and start.turned_by_angle:
        return (
            "its pole angle turns the bend its pose starts it with toward the pole: clear the "
            "pose first"
        )
    if against := _against_a_joints_limit(rig, chain, direction, side):
        return against
    if stretching_bones(rig, chain) and (body := uneven_body(rig, chain)):
        return (
            f"pre-bent, it would fold, and {body[0]}, scaled unevenly above it, would shear it: "
            "reset that scale first"
        )
    return ""


def _started(start: StartBend) -> tuple[Severity, str, str]:
    """Severity, title and effect of a start that bends the straight chain: toward its pole, or
    the way its limits fold it (``StartBend.as_built``), it lands; else it bends from the pole."""
    if start.as_built:
        measured = (
            "the leg and the arm posed 20° or 70° that way land"
            if start.posed
            else "the leg whose shin copies the hips' rotation lands at pole angles 0° to 180°"
        )
        effect = (
            f"the solver starts from the bend {start.shown} gives it, away from its pole, the "
            f"way its IK limits fold it, and it bends as built (measured: {measured})."
        )
        return Severity.WARNING, "Straight, bent at start", effect
    if start.toward:
        effect = (
            f"the solver starts from the bend {start.shown} gives it, and folds from there toward "
            "the pole (measured: the leg and the arm land with the lower bone posed 20° toward "
            "the pole, tracking the control, or tracking the pole with the pole angle turned "
            "150° or 180°); without it the limb would not bend."
        )
        return Severity.WARNING, "Straight, bent at start", effect
    effect = (
        f"{start.shown} bends it away from its pole where the solver starts, so the joint bends "
        "away from the pole."
    )
    return Severity.ERROR, "Start bent from the pole", effect


FOLD_ALONG_ROOT_X = 1.5
"""Degrees from its free root's -X axis within which a straight chain without a pole that its IK
limits fold that way stops short (fresh seeds 268 and 243, 253, 262, 270): measured on the leg
and the arm, the lower bone limited one way and rolled 89° to 91° (folding within 1° of it), and
the arm without Use Tail, its upper arm limited one way under a free shoulder, stop 0.9% of the
reach short; rolled 88° or 92°, or folding along +X, they land. Pre-bent that way, they land.
Measured on two turning bones: the arm of three from its shoulder so folded lands."""


def _against_a_joints_limit(rig: RigView, chain: IKChain, direction: Vector, side: str) -> str:
    """Why a pre-bend along ``direction`` is not offered where it would bend an inner joint
    against the one-sided IK limit that folds it (``straight_joint_lean``), as where a longer
    chain's hinges are limited opposite ways and no one side suits them all (seed 94: the
    straight arm with chain length 3 lands; pre-bent to the back, its forearm 0.66° against its
    limit, ``locks`` called the limit too narrow, a trade); "" otherwise."""
    for name in chain_joints(rig, chain):
        lean = straight_joint_lean(rig, name)
        if lean is not None and lean.dot(direction.cross(rig.bone(name).y_axis)) < 0.0:
            return (
                f"pre-bent {side}, {name} would bend against its IK limit, which folds it the "
                "other way: its joints' limits fold them opposite ways, so bend each by hand "
                "the way its limit lets it"
            )
    return ""


def _unread_start(rig: RigView, chain: IKChain, joint: str) -> str:
    """Why a pole chain's pre-bend would not help where a constraint the IK overrides sets the
    joint's start and no model reads it: the solver starts there whatever the rest pose says
    (measured: the straight leg copying the hips' rotation, one-sided toward its pole, pre-bent
    still misses, and constraint_order says it flips); "" for other chains."""
    setter = start_set_by(rig, chain, joint) if chain.pole is not None else None
    if setter is None:
        return ""
    return (
        f"'{readable(setter)}' on {joint} sets where the solver starts it, whatever the rest "
        "pose: mute it, then pre-bend"
    )


def _without_pole(
    rig: RigView, chain: IKChain, stretch: bool, side: str | None
) -> tuple[Severity, str, str]:
    """Severity, title and effect for a straight chain without a pole that nothing starts bent:
    it folds the way its limits choose (``side``) or the target leans, unless the control always
    comes along its line, or an inherited scale shears it as it folds (``stretch``)."""
    if not stretch and (aimed := _aimed_along_its_line(rig, chain)) is not None:
        return (
            Severity.ERROR,
            "Straight, aimed along it",
            f"{aimed} the control always comes straight along the chain, which then cannot fold "
            "(measured on the straight arm folding by its one-sided limits, an upper-arm IK "
            "without Use Tail turning the shoulder: 4.3% of the reach short; the shoulder's "
            "head 0.4% of the reach off the line, it lands).",
        )
    if not stretch and side and folds_along_roots_x(rig, chain):
        return (
            Severity.ERROR,
            "Folds along root's X",
            f"it folds {side}, straight along {chain.root}'s -X axis, and the "
            "solver does not swing the root to follow: it stops short when the target comes "
            "toward the root (measured on the leg and the arm folding within "
            f"{FOLD_ALONG_ROOT_X}° of that axis: 0.9% of the reach short; 2° off it, or along "
            "+X, they land).",
        )
    effect = "it cannot fold when the target comes straight toward the root, and bends " + (
        f"{side}." if side else "to whatever side the target leans."
    )
    if stretch:
        return Severity.ERROR, "Straight, shears as it folds", effect
    return Severity.WARNING, "Straight at rest", effect


def folds_along_roots_x(
    rig: RigView, chain: IKChain, ignoring: bpy.types.Constraint | None = None
) -> bool:
    """Whether the IK limits fold a straight chain without a pole along its free root's -X
    axis (``FOLD_ALONG_ROOT_X``), with nothing else to start it: no pose, no constraint the IK
    overrides but ``ignoring`` (measured: keyed 0.3 or 0.8 at the upper bone, or copying the
    hips' rotation, or tracking the control or the pole, it lands), no IK Stretch (at 0.1 and
    0.5 it lands)."""
    if any(turned_off_rest(rig, name) for name in chain.moving_bones):
        return False
    return limits_fold_along_roots_x(rig, chain, ignoring)


def limits_fold_along_roots_x(
    rig: RigView, chain: IKChain, ignoring: bpy.types.Constraint | None = None
) -> bool:
    """``folds_along_roots_x`` whatever the pose: for ``fk_ik_mix``, whether clearing the keys
    would leave it so."""
    if chain.pole is not None or len(chain.moving_bones) != 2:
        return False  # measured on two turning bones: the arm of three from its shoulder lands
    if bend_offset(rig, chain) >= STRAIGHT_RATIO:
        return False
    root = rig.pose_bone(chain.root)
    settings = [f"{held}_{axis}" for held in ("lock_ik", "use_ik_limit") for axis in "xz"]
    if any(getattr(root, setting) for setting in settings) or stretching_bones(rig, chain):
        return False
    if any(c != ignoring for _bone, c in overridden_constraints(rig, chain.moving_bones)):
        return False
    folded = built_bend(rig, chain)
    if folded is None:
        return False
    root_x = rig.raw_bone(chain.root).matrix_local.col[0].xyz
    return math.degrees(folded.angle(-root_x, math.pi)) <= FOLD_ALONG_ROOT_X


def _aimed_along_its_line(rig: RigView, chain: IKChain) -> str | None:
    """``line_aimer``, where nothing else lets the straight chain fold: a start bent by a
    constraint, or IK Stretch shortening it (measured: tracking the control, copying another's
    rotation, stretch 0.1: the arm lands)."""
    inner = chain.moving_bones[:-1]
    starts = [
        c for bone, c in overridden_constraints(rig, inner) if start_set_by(rig, chain, bone) == c
    ]
    if starts or target_tracking_joint(rig, chain) or stretching_bones(rig, chain):
        return None
    # Measured unturned under the standard solver: turned, the arm's root about its X or Y
    # still fails, about Z it lands, and 17° about X and 9° about Y lands; iTaSC lands. A scale
    # keeps the line (the upper arm at (1, 2, 1) stops 104% short, at 0.5 47%).
    turned = [n for n in rig.turned_or_scaled & set(chain.moving_bones) if turned_off_rest(rig, n)]
    if solved_by_itasc(rig) or turned:
        return None
    return line_aimer(rig, chain)


def _pre_bend_fix(
    rig: RigView,
    chain: IKChain,
    where: tuple[str, str],
    direction: Vector,
    bent_by: Any,
    lands: bool,
) -> dict[str, Any]:
    """The pre-bend of the joint ``where`` names toward its side, unless another live IK aimed
    at the same control would then miss (``rival_on_the_control``), or, where the straight
    chain ``lands`` (a warning), it would shear a bone (``_shear_once_bent``) or its stiffness
    would stop it short (``short_once_bent_without_pole``). The facts: what
    bends the start ('start_bent_by'), that IK ('rival_ik': owner, name), and that shear
    ('shear': the bone, the bone whose scale shears it)."""
    joint, side = where
    sheared = _shear_once_bent(rig, chain, direction) if lands else None
    facts: tuple[tuple[str, Any], ...] = (("start_bent_by", bent_by), ("shear", sheared))
    rival = rival_on_the_control(rig, chain)
    if rival is not None:
        other, reason = rival
        return dict(
            no_fix_reason=f"pre-bent, {reason}: remove one of the two IKs first",
            facts=(*facts, ("rival_ik", (other.owner, other.constraint))),
        )
    withheld = _spoilt_once_bent(rig, chain, sheared) if lands else None
    if withheld is not None:
        return dict(no_fix_reason=withheld, facts=(*facts, ("rival_ik", None)))
    return dict(
        fix_id="pre_bend",
        fix_label=f"Pre-bend {joint} slightly {side} (changes the rest pose)",
        fix_args=(("direction", direction.to_tuple()), ("side", side)),
        changes_rest_pose=True,
        facts=(*facts, ("rival_ik", None)),
    )


def _spoilt_once_bent(rig: RigView, chain: IKChain, sheared: tuple[str, str] | None) -> str | None:
    """Why a straight chain that lands would miss once pre-bent, as the reason the pre-bend is
    not offered: a constraint its pole angle turns round, a shear, or its stiffness."""
    turned_back = start_turned_back(rig, chain)
    if turned_back is not None:
        return (
            "pre-bent, the pole angle would be set to keep the rest pose, and "
            f"'{turned_back[1]}' on {turned_back[0]}, which its turn now brings round to the "
            "pole, would bend the joint away from it: mute that constraint first"
        )
    if sheared is not None:
        return (
            f"pre-bent, {sheared[0]} would turn against the uneven scale of {sheared[1]}, which "
            "it inherits in full, and the shear would leave the limb short: clear that scale or "
            f"set the Inherit Scale of {sheared[0]} to Aligned first"
        )
    stiff = short_once_bent_without_pole(rig, chain)
    if stiff is not None:
        return (
            f"pre-bent, its IK stiffness ({stiff[0]}) would leave it about {stiff[1]:.2%} of the "
            "reach short, where straight it lands: clear the stiffness first"
        )
    return None


def _shear_once_bent(rig: RigView, chain: IKChain, direction: Vector) -> tuple[str, str] | None:
    """(bone, scaled): a chain bone the pre-bend toward ``direction`` would turn against the
    uneven pose scale of a bone above it, inherited in full, which straight it shares an axis
    with (the inherit check's shear error, once bent; any turn about the bend's axis tells).
    Measured on the leg and the arm, straight and folding by their one-sided limits without a
    pole, the thigh or upper arm scaled (1, 2, 1), or the body (0.8, 1, 1.25): they land; pre-
    bent, the first stop 3.0% of the reach short with the body turned 40°."""
    turn = _folding_turn(rig, chain, direction)
    for name in chain.moving_bones:
        scaled = shear_that_stops(rig, chain, name, turn)
        if scaled is not None and shear_that_stops(rig, chain, name) is None:
            return name, scaled
    return None


def started_fold(rig: RigView, chain: IKChain) -> Matrix | None:
    """The turn (armature space) that folds a chain straight at rest the way its pose starts
    it bent (toward its pole, or as its IK limits fold it; without a pole, any joint posed),
    for a shear it meets only once folded (the inherit check); None where it is bent at rest
    or not posed bent. Not a constraint's start: measured under an upper arm or thigh scaled
    (1, 1.7, 1), a Damped Track at the control points the lower bone at it and the limb lands.
    Without a pole (seed 255): the straight leg, free or folding by one-sided limits, under a
    thigh at (1, 2, 1) lands unposed and stops 19% to 41% short posed ±20° or ±70°."""
    if bend_offset(rig, chain) >= STRAIGHT_RATIO:
        return None
    if chain.pole is None:
        if not any(turned_off_rest(rig, name) for name in chain.moving_bones[:-1]):
            return None
    else:
        start = start_bend(rig, chain)
        if start is None or not start.posed or not (start.toward or start.as_built):
            return None
    return _folding_turn(rig, chain, _bend_direction(rig, chain)[0])


def _folding_turn(rig: RigView, chain: IKChain, direction: Vector) -> Matrix:
    """An eighth of a turn folding the straight chain toward ``direction``: any turn about the
    bend's axis tells whether a bone turns against an uneven scale above it."""
    axis = (rig.chain_tip(chain) - rig.bone(chain.root).head).cross(direction)
    return Matrix.Rotation(math.pi / 4.0, 3, axis)


def stretched_straight(rig: RigView, chain: IKChain) -> bool:
    """Whether a pole chain straight at rest reaches by IK Stretch (the finding "Straight,
    lands by stretch") folded by one-sided IK limits, which keep its side however the bones
    above it turn or it is posed."""
    return (
        chain.pole is not None
        and bool(stretching_bones(rig, chain))
        and bend_offset(rig, chain) < STRAIGHT_RATIO
        and limits_fold(rig, chain) is not None
    )


def _bend_direction(rig: RigView, chain: IKChain) -> tuple[Vector, str]:
    """The way the chain's IK limits fold it (``built_bend``), else toward the pole when there
    is one, else the natural side: knees front, elbows back."""
    root, tip = rig.bone(chain.root).head, rig.chain_tip(chain)
    folded = built_bend(rig, chain)
    if folded is not None:
        return folded, f"toward {_axis_name(folded)}, the way its IK limits fold it"
    pole = rig.joint_point(chain.pole, chain.pole_subtarget)
    if pole is not None and not chain.pole_bone_missing:
        toward = offset_from_line(pole, root, tip)
        if toward.length > STRAIGHT_RATIO * rig.chain_reach(chain):
            return toward.normalized(), "toward its pole"
    choices = [(Vector((0.0, -1.0, 0.0)), "to the front (-Y)")] if hangs_down(rig, chain) else []
    choices += [(Vector((0.0, 1.0, 0.0)), "to the back (+Y)"), (Vector((0, 0, -1.0)), "down")]
    for axis, side in choices:
        toward = offset_from_line(root + axis, root, tip)
        if toward.length > 0.1:
            return toward.normalized(), side
    raise AssertionError("a line is perpendicular to Y or to Z")


def _axis_name(direction: Vector) -> str:
    """The armature axis a direction runs nearest, signed: "-Y"."""
    index = max(range(3), key=lambda i: abs(direction[i]))
    return f"{'-' if direction[index] < 0.0 else '+'}{'XYZ'[index]}"


def pre_bend(obj: bpy.types.Object, finding: Finding) -> str:
    rig = RigView(obj)
    chain = rig.chain_of(finding)
    direction = Vector(finding.args["direction"])
    joints = chain_joints(rig, chain)
    typical = rig.chain_reach(chain) / len(chain.moving_bones)
    # A joint off its parent's tail moves that tail with it: parenting's connect fix would
    # otherwise put the head back on the straight line (seed 106: Fix All left the arm straight).
    gapped = {name: rig.bone(name).parent for name in joints if rig.gap_to_parent(name) is not None}
    moved = []
    with edit_bones(obj) as bones:
        for name in joints:
            bone, parent = bones[name], bones[name].parent
            assert parent is not None  # an inner joint: its bone hangs from the chain
            shift = direction * (PRE_BEND * max(parent.length, typical))
            head = bone.head + shift
            if bone.use_connect or (bone.head - parent.tail).length < 1e-6:
                parent.tail = head
            elif name in gapped:
                parent.tail = parent.tail + shift
            bone.head = head
            moved.append(
                f"{name} by {shift.length:.3g}"
                + (f", and the tail of {gapped[name]} with it" if name in gapped else "")
            )
    if obj.mode == "EDIT":
        obj.update_from_editmode()  # the bones the pole angle is computed from
    pole = keep_pole_at_rest(obj, chain.key)
    return (
        f"Pre-bent IK '{chain.constraint}' on {chain.owner} {finding.args['side']}: moved the "
        f"head of {', '.join(moved)} (rest pose changed; meshes bound to this rig keep their "
        f"rest shape).{pole}"
    )
