"""Agreement by construction: the reference rig broken in random combinations of known faults.

Hypothesis draws one to three faults (``faulted_limbs``: lengths, targets, poles and angles,
locks, limits, stiffness, stretch, roll, rest pose, scales and inheritance, overriding
constraints, duplicate and nested IKs, solver settings, Use Tail...) on the leg or the arm, in
random magnitudes; the oracle judges every chain, and the rules of issue 13 must hold: no
silent failure, no false alarm, no fix that trades one error for another. CI runs a fixed,
derandomised sample (the "ci" profile); ``benchmarks/agreement.py`` runs thousands and prints
the figures, with the smallest rig for each miss.
"""

from __future__ import annotations

import math
from dataclasses import replace

import bpy
import faulted_limbs
import hypothesis_profiles  # noqa: F401  (registers and loads the profiles)
import pytest
from faulted_limbs import LIMBS, Fault, fault_lists, judge
from hypothesis import given, settings

from ik_doctor import Severity, apply_fix, diagnose, judge_chains
from ik_doctor.core.editing import edit_bones
from ik_doctor.core.limb import pole_turn
from ik_doctor.core.reach import REACH_TOLERANCE
from ik_doctor.core.rig import RigView
from ik_doctor.verify import oracle

pytestmark = pytest.mark.slow

KNOWN_MISSES = (
    {
        frozenset({("itasc", limb, precision), ("object_transform", other, 0)}): "scaled 2.5, "
        "the rig reaches every goal under iTaSC at precision 0.006 and below, which the solver "
        "check calls an error: no setting decides it (measured at precision 0.001 and 0.005: "
        "the legs stop 0.2% to 17% short or flip with the object scaled 0.5 to 2 or 3 to 4, "
        "41% with the bones 2.5 times as long, and reach only at object scales 2.25 to 2.75)"
        for limb in ("arm", "leg")
        for other in ("arm", "leg")
        for precision in (0.001, 0.006)
    }
    | {
        frozenset({("ik_above", "leg", 1), ("straight_one_sided", "leg", hinges)}): "a thigh IK "
        "of length 1 along the straight leg without a pole, its hinges limited against each "
        "other: duplicates' error is right by the animator's frames (the thigh's IK misses at 6 "
        "to 8 of 160 turns of the hips, 1° to 40° either way about X and Z) and a false alarm "
        "at the oracle's five, where it lands"
        for hinges in (6, 7)
    }
    | {
        frozenset(
            {
                ("overriding_constraint", "leg", 0),
                ("straight_one_sided", "leg", way),
                ("roll", "leg", roll),
            }
        ): "the straight leg whose shin copies the hips' rotation starts folded flat, which gives "
        "it no side: with a one-sided hinge it lands by chance at 17 of 48 rolls (rest_pose's "
        "error, 'Straight, started flat'), and muting the copy first leaves it straight until "
        "it is pre-bent: a trade at those rolls (fresh seed 323)"
        for way in (0, 1)
        for roll in (-40, 20, 90)
    }
    | {
        frozenset({("pose_scale", limb, 2.0), ("stretch", limb, 0.5)}): "the upper bone scaled "
        "(1, 2, 1) above a lower bone with IK Stretch 0.5 (0.05 on the upper): inherit calls the "
        "shear an error, and the arm lands while the leg with the same settings flips 180° from "
        "its pole; no setting on the rig tells them apart (measured over 74 pairings: only this "
        "one lands), and calling it a warning loses the error on three that fail"
        for limb in ("arm", "leg")
    }
)
"""Combinations of faults on which the findings break a rule (a false alarm, a silent failure, a
fix that trades), with why: rigs with all of one are left out of the sample until closed, and
listed in docs/tested.md (with the failures only a warning names, which the rules allow)."""


def _states_after_fix(faults: tuple[Fault, ...], check_id: str, fix_id: str, owner: str):
    """The oracle's verdicts on ``owner``'s chains once that finding's fix is applied to the
    rig freshly broken by ``faults``."""
    rig = faulted_limbs.faulted_rig(faults)
    apply_fix(next(f for f in diagnose(rig) if (f.check_id, f.fix_id) == (check_id, fix_id)))
    return [v.state for v in judge_chains(rig) if v.owner == owner]


def _known_miss(faults: list[Fault]) -> bool:
    drawn = {(f.kind, f.limb, f.amount) for f in faults}
    return any(pair <= drawn for pair in KNOWN_MISSES)


known_faults = fault_lists.filter(lambda faults: not _known_miss(faults))


@settings(max_examples=max(1, int(settings.default.max_examples * 0.6)))
@given(faults=known_faults)
def test_faulted_limbs_agree_with_the_oracle_and_their_fixes(faults: list[Fault]) -> None:
    judged = judge(tuple(faults))
    assert judged.holds, "\n".join(judged.problems())


def test_track_at_the_hand_beside_a_leg_ik_turning_the_hips_agrees() -> None:
    """Once a known miss: the leg's IK without Use Tail turns the hips, and the forearm's
    Damped Track at the hand control, out of the arm's reach, was read as a flipped start."""
    faults = (Fault("overriding_constraint", "arm", 1), Fault("tail_off", "leg", 0))
    judged = judge(faults)
    assert judged.holds, "\n".join(judged.problems())


@pytest.mark.parametrize("limb", ["arm", "leg"])
@pytest.mark.parametrize("pose", [-20, -70])
@pytest.mark.parametrize("other", ["straight_one_sided", "tail_off"])
def test_limb_posed_the_other_way_agrees_after_its_fixes(limb, pose, other) -> None:
    """Once a known miss: a joint posed the other way, on a straight limb folding only toward
    its pole (its limit holds the pose back: pre-bent, it lands) or without Use Tail (the twin's
    Use Tail would make the pose flip it: the copy is refused)."""
    faults = (Fault("pose_rotation", limb, pose), Fault(other, limb, 0))
    judged = judge(faults)
    assert judged.holds, "\n".join(judged.problems())
    if other == "tail_off":
        mirror = next(f for f in judged.findings if f.check_id == "symmetry")
        assert (mirror.fix_id, mirror.stated["blocked_by"]) == (None, "posed")


@pytest.mark.parametrize("limb", ["arm", "leg"])
@pytest.mark.parametrize("pose", [-20, -70])
def test_limb_posed_the_other_way_gets_no_pole_that_it_would_bend_away_from(limb, pose) -> None:
    """Once a known miss: without a pole the limb lands; with a new pole, or its twin's, the
    pose would bend it 180° away (rest_pose's error), so both wait for the pose to be cleared."""
    faults = (Fault("no_pole", limb, 0), Fault("pose_rotation", limb, pose))
    judged = judge(faults)
    assert judged.holds, "\n".join(judged.problems())
    refused = {
        f.check_id: (f.fix_id, f.stated["blocked_by"])
        for f in judged.findings
        if f.check_id in ("pole", "symmetry")
    }
    assert refused == {"pole": (None, "posed"), "symmetry": (None, "posed")}


def test_limb_posed_the_right_way_still_gets_its_pole() -> None:
    judged = judge((Fault("no_pole", "arm", 0), Fault("pose_rotation", "arm", 20)))
    assert judged.holds, "\n".join(judged.problems())
    pole = next(f for f in judged.findings if f.check_id == "pole")
    assert (pole.fix_id, pole.stated["blocked_by"]) == ("create_pole", None)


@pytest.mark.parametrize("limb", ["arm", "leg"])
@pytest.mark.parametrize(("one_sided", "lands"), [(4, True), (7, True), (0, False)])
def test_straight_limb_under_an_uneven_scale_is_pre_bent_only_where_it_fails(
    limb, one_sided, lands
) -> None:
    """A straight limb folding by its limits, its upper bone scaled (1, 2, 1): without a pole it
    lands, and pre-bent it would shear (3.0% short), so no pre-bend is offered; with a pole it
    fails straight, and the pre-bend stays (the shear it shows is inherit's, with its fix)."""
    faults = (Fault("straight_one_sided", limb, one_sided), Fault("pose_scale", limb, 2.0))
    judged = judge(faults)
    assert judged.holds, "\n".join(judged.problems())
    straight = next(f for f in judged.findings if f.check_id == "rest_pose")
    sheared = (LIMBS[limb].owner, LIMBS[limb].parent)
    expected = (None, sheared) if lands else ("pre_bend", None)
    assert (straight.fix_id, straight.stated["shear"]) == expected


@pytest.mark.parametrize("limb", ["arm", "leg"])
@pytest.mark.parametrize("one_sided", [4, 7])
def test_straight_limb_with_a_shortened_bone_has_its_error(limb, one_sided) -> None:
    """Once a failure with only a warning: straight, folding by its limits without a pole, the
    upper bone scaled (1, 0.5, 1), the limb stops 49% short; the straight finding hid the
    leftover scale's error."""
    faults = (Fault("straight_one_sided", limb, one_sided), Fault("pose_scale", limb, 0.5))
    judged = judge(faults)
    assert judged.holds and not judged.unexplained, "\n".join(judged.problems())
    rest_pose = {(f.severity, f.fix_id) for f in judged.findings if f.check_id == "rest_pose"}
    assert rest_pose == {(Severity.WARNING, None), (Severity.ERROR, "clear_pose")}


@pytest.mark.parametrize("limb", ["arm", "leg"])
@pytest.mark.parametrize(
    ("one_sided", "pose", "lands"), [(2, 20, False), (2, 160, False), (0, 70, True)]
)
def test_straight_limb_posed_toward_its_pole_fails_where_its_root_is_limited_the_other_way(
    limb, one_sided, pose, lands
) -> None:
    """Once a failure with only a warning ("Straight, bent at start"): straight, its lower bone
    posed toward the pole, its upper bone limited to turn the other way from the fold, the limb
    stops short (the leg 53% at 160°); with the upper bone free it lands. The pre-bend alone
    leaves the pose that fails, so no fix is offered."""
    faults = (Fault("straight_one_sided", limb, one_sided), Fault("pose_rotation", limb, pose))
    judged = judge(faults, fixes=False)
    assert judged.holds and not judged.unexplained, "\n".join(judged.problems())
    (straight,) = [f for f in judged.findings if f.check_id == "rest_pose"]
    expected = (Severity.WARNING, "pre_bend") if lands else (Severity.ERROR, None)
    assert (straight.severity, straight.fix_id) == expected
    assert lands or LIMBS[limb].parent in (straight.no_fix_reason or "")


@pytest.mark.parametrize("limb", ["arm", "leg"])
@pytest.mark.parametrize(
    ("limit", "scale", "fails"), [(20, 1.5, True), (20, 1.1, True), (90, 1.5, False)]
)
def test_a_limb_posed_longer_than_its_limits_fold_has_its_error(limb, limit, scale, fails) -> None:
    """Once a failure with only a warning ("the limb still reaches"): the upper bone scaled up,
    the lower not inheriting it, the lower joint limited ±20° (which lands unscaled): the arm
    stopped 28.9% short. Cleared of its scale it lands."""
    faults = (Fault("ik_limit", limb, limit), Fault("inherit_scale_none", limb, scale))
    judged = judge(faults)
    assert judged.holds and not judged.unexplained, "\n".join(judged.problems())
    titles = {f.title for f in judged.findings if f.check_id == "rest_pose"}
    assert ("Pose outgrows IK limits" in titles) == fails
    if fails:  # its fix, clearing the scale, lands it
        assert _states_after_fix(faults, "rest_pose", "clear_pose", LIMBS[limb].owner) == ["pass"]
    (inherit,) = [f for f in judged.findings if f.check_id == "inherit"]
    # Inheriting, the ±20° limb would outgrow them; at ±90° the judge's trade rule holds it.
    assert limit == 90 or (inherit.fix_id is None and inherit.no_fix_reason)


@pytest.mark.parametrize("limb", ["arm", "leg"])
@pytest.mark.parametrize(("limit", "scale", "fails"), [(28, 1.3, False), (20, 2.0, True)])
def test_a_free_joint_below_a_limited_one_folds_the_longer_limb_nearer(
    limb, limit, scale, fails
) -> None:
    """Fresh seed 437, a false alarm: the chain of 3 to the foot (the hand), its shin limited
    ±28° under a thigh at 1.3, read 0.995 from the hip folded 179° at the foot, where the goal
    is 0.857 away; the foot turned 90° up lands it. At 2.0 under ±20° it stops 25% short (9%
    the arm). Measured on 4.2: limits ±10° to ±90° and scales 1.1 to 2, 14 disagreements to 2
    (0.3% and 4% either side of the nearest goal, where the solver turns a free axis too)."""
    below = {"arm": "hand.L", "leg": "foot.L"}[limb]
    faults = (
        Fault("ik_below", limb, 3),
        Fault("ik_limit", limb, limit),
        Fault("inherit_scale_none", limb, scale),
    )
    judged = judge(faults, fixes=False)
    assert not judged.false_alarms and not judged.silent, "\n".join(judged.problems())
    titles = {f.title for f in judged.findings if f.check_id == "rest_pose" and f.bone == below}
    assert ("Pose outgrows IK limits" in titles) == fails


@pytest.mark.parametrize("limb", ["arm", "leg"])
@pytest.mark.parametrize(("roll", "outgrows"), [(20, False), (-20, False), (0, True)])
def test_a_joint_rolled_off_its_limit_folds_the_longer_limb_past_it(limb, roll, outgrows) -> None:
    """Fresh seed 448, a false alarm: the leg's shin rolled 20°, limited -150° to 0° (folding only
    away from its bend), under a thigh at 1.5 not inherited: rolled, it folds in its plane about
    its free Z, and lands; unrolled the limit holds it, 30% short."""
    faults = [Fault("inherit_scale_none", limb, 1.5), Fault("one_sided_limit", limb, -150)]
    if roll:
        faults.append(Fault("roll", limb, roll))
    judged = judge(tuple(faults), fixes=False)
    owner = LIMBS[limb].owner
    assert [v.state for v in judged.verdicts if v.owner == owner] == [
        "fail" if outgrows else "pass"
    ]
    assert not judged.false_alarms and not judged.silent, "\n".join(judged.problems())
    titles = {f.title for f in judged.findings if f.check_id == "rest_pose" and f.bone == owner}
    assert ("Pose outgrows IK limits" in titles) == outgrows


@pytest.mark.parametrize(("scale", "fails"), [(2.5, True), (1.5, False)])
def test_an_arm_without_use_tail_posed_longer_than_it_folds_has_its_error(scale, fails) -> None:
    """Once a failure with no error: the shoulder and the upper arm (Use Tail off), the upper
    arm scaled 2.5, outreach the nearest goal folded all the way (14.9% of the reach short)."""
    faults = (Fault("tail_off", "arm", 0), Fault("inherit_scale_none", "arm", scale))
    judged = judge(faults)
    assert judged.holds and not judged.unexplained, "\n".join(judged.problems())
    titles = {f.title for f in judged.findings if f.check_id == "rest_pose"}
    assert ("Pose lengthens the limb" in titles) == fails
    if fails:  # its fix, clearing the scale, lands it
        assert _states_after_fix(faults, "rest_pose", "clear_pose", "forearm.L") == ["pass"]


def test_a_bone_posed_longer_is_not_connected_into_a_limb_that_outgrows_its_fold() -> None:
    """Once a fix that traded: the arm without Use Tail, its upper arm at (1, 2, 1), lands 0.03
    from the shoulder; connected, the upper arm grows twice the gap and the arm falls short."""
    judged = judge((Fault("tail_off", "arm", 0), Fault("pose_scale", "arm", 2.0)))
    assert judged.holds, "\n".join(judged.problems())
    (joint,) = [f for f in judged.findings if f.check_id == "parenting"]
    assert joint.fix_id is None and "clear that scale first" in (joint.no_fix_reason or "")


@pytest.mark.parametrize(("keyed", "pose", "lands"), [(0.95, 130, True), (0.95, 170, False)])
def test_a_joint_folded_under_a_keyed_turn_of_its_root_is_read_in_the_roots_frame(
    keyed, pose, lands
) -> None:
    """Once a false alarm: the upper arm keyed 54° round, the elbow posed 130° further lands,
    as it does unturned; fk_ik_mix and rest_pose read the fold against the unturned rest."""
    faults = (Fault("fk_keys", "arm", keyed), Fault("pose_rotation", "arm", pose))
    judged = judge(faults, fixes=False)
    assert judged.holds and not judged.unexplained, "\n".join(judged.problems())
    flips = {f.check_id for f in judged.findings if "flip" in f.title}
    assert (flips == set()) == lands


@pytest.mark.parametrize("limb", ["arm", "leg"])
@pytest.mark.parametrize("pose", [-70, 20])
@pytest.mark.parametrize("angle", [60, 180])
def test_a_straight_limb_posed_bent_is_read_as_its_pole_angle_turns_it(limb, pose, angle) -> None:
    """Once read the wrong way round: straight, its lower bone posed bent, its pole angle turned
    more than a quarter turn from the rest pose, the limb posed toward the pole bent away from it
    with only a warning, and the one posed away landed under an error. The solver turns the
    started bend round with the angle."""
    faults = (
        Fault("straight", limb, 0),
        Fault("pose_rotation", limb, pose),
        Fault("pole_angle", limb, angle),
    )
    judged = judge(faults, fixes=False)
    assert judged.holds and not judged.unexplained, "\n".join(judged.problems())
    errors = {f.title for f in judged.findings if f.severity == Severity.ERROR}
    lands = (pose < 0) == (angle > 90)
    assert ("Start bent from the pole" not in errors) == lands
    if angle > 90 and not lands:  # the error turned round: its pre-bend lands it
        assert _states_after_fix(faults, "rest_pose", "pre_bend", LIMBS[limb].owner) == ["pass"]


def test_straight_leg_under_squashed_hips_is_not_pre_bent_into_a_shear() -> None:
    """Drawn at seed 71: the leg straight without a pole under hips scaled (0.8, 1, 1.25)
    lands; pre-bent, its bones would turn against that scale (inherit's error)."""
    faults = (Fault("body_squashed", "leg", 0.8), Fault("straight_one_sided", "leg", 4))
    judged = judge(faults)
    assert judged.holds, "\n".join(judged.problems())
    straight = next(f for f in judged.findings if f.check_id == "rest_pose")
    assert (straight.fix_id, straight.stated["shear"]) == (None, ("shin.L", "hips"))


@pytest.mark.parametrize("limb", ["leg", "arm"])
@pytest.mark.parametrize("spline", [0, 1])
@pytest.mark.parametrize("other", ["muted", "tail_off"])
def test_dead_spline_ik_on_a_bone_whose_ik_fails_is_a_true_error(limb, spline, other) -> None:
    """Once a known miss: the Spline IK does nothing and the bone's IK fails by the oracle, so
    spline_target's error is true, though the oracle solves IK chains only."""
    faults = (Fault("dead_spline_ik", limb, spline), Fault(other, limb, 0))
    judged = judge(faults)
    spline_target = [f.severity for f in judged.findings if f.check_id == "spline_target"]
    assert spline_target == [Severity.ERROR]
    assert [v.state for v in judged.verdicts if v.owner == LIMBS[limb].owner] == ["fail"]
    assert judged.holds, "\n".join(judged.problems())


def test_a_dead_spline_ik_error_beside_a_landing_ik_is_still_a_false_alarm(monkeypatch) -> None:
    """The judgement stays strict: where the bone's IK lands, spline_target warns; were it an
    error, it would be a false alarm."""

    def as_errors(rig):
        return [
            replace(f, severity=Severity.ERROR) if f.check_id == "spline_target" else f
            for f in diagnose(rig)
        ]

    monkeypatch.setattr(faulted_limbs, "diagnose", as_errors)
    judged = judge((Fault("dead_spline_ik", "leg", 0),), fixes=False)
    assert [v.state for v in judged.verdicts if v.owner == "shin.L"] == ["pass"]
    assert [d.check_id for d in judged.false_alarms] == ["spline_target"]


@pytest.mark.parametrize("limb", ["arm", "leg"])
@pytest.mark.parametrize("angle", [100, 110, 150, 180])
def test_track_at_the_pole_with_the_pole_angle_turned_agrees(limb, angle) -> None:
    """Once a false alarm on three checks: a Damped Track at the pole on the lower bone starts
    the joint bent the other way, and the pole angle turned 150° or 180° turns it back, so the
    limb lands; turned 100° or 110° it fails and the errors stand."""
    faults = (Fault("overriding_constraint", limb, 3), Fault("pole_angle", limb, angle))
    judged = judge(faults)
    assert judged.holds, "\n".join(judged.problems())
    owner = LIMBS[limb].owner
    lands = next(v.state for v in judged.verdicts if v.owner == owner) == "pass"
    assert lands == (angle >= 150)
    on_chain = [f for f in judged.findings if f.chain == (owner, "IK")]
    order = next(f for f in on_chain if f.check_id == "constraint_order")
    assert order.severity == (Severity.WARNING if lands else Severity.ERROR)
    assert (order.fix_id is None) == lands


def test_track_at_the_pole_turned_back_offers_no_fix_alone() -> None:
    """The issue 25 rig: each of the three findings on the arm would flip it alone, so none
    offers its fix, and each says what holds it back."""
    faults = (
        Fault("pole_angle", "arm", 180),
        Fault("overriding_constraint", "arm", 3),
        Fault("stiff_both", "leg", 0.95),
    )
    judged = judge(faults)
    assert judged.holds, "\n".join(judged.problems())
    blocked = {
        f.check_id: (f.severity, f.fix_id, f.stated.get("blocked_by"))
        for f in judged.findings
        if f.bone == "forearm.L"
    }
    assert blocked == {
        "constraint_order": (Severity.WARNING, None, "pole_angle"),
        "pole": (Severity.WARNING, None, "overridden_start"),
        "symmetry": (Severity.WARNING, None, "overridden_start"),
    }


@pytest.mark.parametrize("limb", ["arm", "leg"])
@pytest.mark.parametrize(
    ("other", "fix", "mirrored"),
    [
        (Fault("roll", "", 90), ("roll", "align_rolls"), False),
        (Fault("object_transform", "", 1), ("transforms", "apply_armature"), True),
    ],
    ids=["roll", "mirror"],
)
def test_a_fix_of_the_rest_keeps_the_turn_of_a_track_at_the_pole(limb, other, fix, mirrored):
    """Once fixes that traded (issue 25): a Damped Track at the pole turned back by the pole
    angle turned 180° lands; the roll fix set the angle to rest, and applying a mirroring
    scale kept its number while the mirror flipped what it means, and the limb then bent 180°
    from its pole. Both now keep the chain's turn from rest (mirrored with the rig), and the
    limb lands after the fix alone as before."""
    faults = (
        Fault("overriding_constraint", limb, 3),
        Fault("pole_angle", limb, 180),
        replace(other, limb=limb),
    )
    judged = judge(faults)
    assert judged.holds, "\n".join(judged.problems())
    owner = LIMBS[limb].owner
    assert [v.state for v in judged.verdicts if v.owner == owner] == ["pass"]
    finding = next(f for f in judged.findings if (f.check_id, f.fix_id) == fix)
    rig = faulted_limbs.faulted_rig(faults)
    chain = RigView(rig).chain(owner, "IK")
    turn = pole_turn(RigView(rig), chain)
    apply_fix(finding)
    assert [v.state for v in judge_chains(rig) if v.owner == owner] == ["pass"]
    after = pole_turn(RigView(rig), RigView(rig).chain(owner, "IK"))
    assert math.cos(after - (-turn if mirrored else turn)) == pytest.approx(1.0)


@pytest.mark.parametrize("amount", [0.3, 0.8])
@pytest.mark.parametrize(
    ("others", "lands"),
    [
        ((), True),
        ((Fault("insect_leg", "arm", 8),), True),
        ((Fault("pole_behind", "arm", 0),), False),
    ],
)
def test_fk_keys_on_an_arm_without_use_tail_agree(amount, others, lands) -> None:
    """Once a false alarm: without Use Tail the arm's chain is the shoulder and the upper arm,
    built bending away from the elbow's pole; the upper arm's keys bend it the other way, toward
    that pole, and it lands (a warning). With the pole moved to the bend's side the same keys
    bend it away, and it fails: the error stands."""
    faults = (Fault("fk_keys", "arm", amount), Fault("tail_off", "arm", 0), *others)
    judged = judge(faults)
    assert judged.holds, "\n".join(judged.problems())
    assert not judged.unexplained, "\n".join(d.problem for d in judged.unexplained)
    state = next(v.state for v in judged.verdicts if v.owner == "forearm.L")
    assert state == ("pass" if lands else "fail")
    keys = next(f for f in judged.findings if f.check_id == "fk_ik_mix")
    assert keys.severity == (Severity.WARNING if lands else Severity.ERROR)


@pytest.mark.parametrize(
    ("limb", "pose", "others", "lands"),
    [
        ("leg", 70, (), True),
        ("arm", 70, (), True),
        ("leg", 70, (Fault("stiff_both", "arm", 0.95),), True),
        ("leg", 20, (), False),
        ("arm", 20, (), False),
        ("leg", 70, (Fault("fk_keys", "leg", 0.8),), False),
        ("arm", 70, (Fault("chain_length", "arm", 3),), False),
        ("arm", 70, (Fault("stiff_parent", "arm", 0.7),), False),
        ("leg", 70, (Fault("ik_limit", "leg", 20),), True),
        ("arm", 70, (Fault("ik_limit", "arm", 20),), True),
        ("leg", 20, (Fault("ik_limit", "leg", 20),), False),
        ("leg", 70, (Fault("straight_one_sided", "leg", 0),), True),
        ("arm", 70, (Fault("straight_one_sided", "arm", 0),), True),
        ("arm", 20, (Fault("straight_one_sided", "arm", 0),), False),
        ("leg", 70, (Fault("straight_one_sided", "leg", 2),), False),
    ],
)
def test_joint_posed_bent_that_does_not_inherit_rotation_agrees(limb, pose, others, lands) -> None:
    """Once a false alarm: a lower bone that does not inherit rotation, posed 70° further into
    its bend, starts the joint bent 78° (the leg) or 84° (the arm), more than the body's 40° turn
    can undo, and lands (a warning). The error stands where it fails: posed 20°, with the thigh
    keyed 0.8 rad (which takes the start bend back below 40°), in the arm's chain of 3, or with
    IK stiffness on the upper arm. An IK limit of ±20° does not hold the start back (posed 70°
    the limb lands, 20° it fails), and a straight limb folding only toward its pole keeps the
    side its pose gives it, unless its upper bone is limited the other way (it fails)."""
    faults = (
        Fault("pose_rotation", limb, pose),
        Fault("inherit_rotation_off", limb, 0),
        *others,
    )
    judged = judge(faults)
    assert judged.holds, "\n".join(judged.problems())
    assert not judged.unexplained, "\n".join(d.problem for d in judged.unexplained)
    owner = LIMBS[limb].owner
    assert next(v.state for v in judged.verdicts if v.owner == owner) == (
        "pass" if lands else "fail"
    )
    inherit = next(f for f in judged.findings if f.check_id == "inherit" and f.bone == owner)
    assert inherit.severity == (Severity.WARNING if lands else Severity.ERROR)
    assert (inherit.stated["effect"] == "pre_bent") == lands


@pytest.mark.parametrize(
    ("faults", "check_id"),
    [
        (
            (
                Fault("stiff_both", "arm", 0.9),
                Fault("stiff_owner", "arm", 0.8),
                Fault("pose_rotation", "leg", 70),
            ),
            "locks",
        ),
        ((Fault("stiff_parent", "arm", 0.8), Fault("tail_off", "arm", 0)), "locks"),
        ((Fault("straight_one_sided", "arm", 5), Fault("iterations", "arm", 12)), "solver"),
    ],
    ids=["upper_arm_stiffer_by_half", "stiff_upper_arm_under_a_short_shoulder", "straight_no_pole"],
)
def test_a_tip_that_stops_just_short_has_its_causes_error(faults, check_id) -> None:
    """Once silent or a warning only (issue 25): the forearm's IK stops 0.1% to 0.3% of its reach
    short, measured by solving, because of the upper arm's stiffness (0.9 over a forearm at 0.8;
    0.8 under the shoulder of an arm IK without Use Tail) or of 12 iterations on a straight arm
    without a pole; the check that owns the cause now says so."""
    judged = judge(faults)
    assert judged.holds, "\n".join(judged.problems())
    assert not judged.unexplained, [d.problem for d in judged.unexplained]
    errors = [f.check_id for f in judged.findings if f.severity == Severity.ERROR]
    assert check_id in errors


@pytest.mark.parametrize(
    ("faults", "severity"),
    [
        (
            (
                Fault("pose_rotation", "arm", 20),
                Fault("stiff_both", "arm", 0.975),
                Fault("straight", "arm", 0),
            ),
            Severity.WARNING,
        ),
        (
            (
                Fault("stiff_both", "leg", 0.975),
                Fault("straight", "leg", 0),
                Fault("target", "arm", 0),
            ),
            Severity.WARNING,
        ),
        (
            (Fault("stiff_both", "leg", 0.975), Fault("straight_one_sided", "leg", 3)),
            Severity.WARNING,
        ),
        (
            (
                Fault("pose_rotation", "leg", 20),
                Fault("stiff_both", "leg", 0.99),
                Fault("straight", "leg", 0),
            ),
            Severity.ERROR,
        ),
        ((Fault("stiff_both", "arm", 0.99), Fault("straight_one_sided", "arm", 0)), Severity.ERROR),
    ],
    ids=["arm_posed_0975", "leg_0975", "leg_one_sided_0975", "leg_posed_099", "arm_one_sided_099"],
)
def test_an_evenly_stiff_straight_limb_is_weighed_as_it_bends_once_pre_bent(
    faults, severity
) -> None:
    """Once fixes that traded, and a warning only (issue 25): a straight limb with a pole, both
    bones at 0.975, pre-bent by rest_pose's fix, lands (0.086% to 0.090% of the reach) where the
    table measured on the limbs as built said 0.11%, a new locks error; at 0.99 it fails once
    pre-bent (0.147%), or posed 20° (0.140%), and nothing said so before the pre-bend. Straight
    with its upper bone's swing limited too, it is not weighed (not measured so): a warning
    says so, as the fix's pre-bend leaves it."""
    judged = judge(faults)
    assert judged.holds, "\n".join(judged.problems())
    assert not judged.unexplained, [d.problem for d in judged.unexplained]
    owner = LIMBS[faults[1].limb].owner
    stiff = [f for f in judged.findings if f.check_id == "locks" and f.chain[0] == owner]
    assert [(f.fix_id, f.severity) for f in stiff] == (
        [("clear_stiffness", severity)] if severity else []
    )


@pytest.mark.parametrize(
    ("limb", "kind", "stiffness", "severity"),
    [
        ("arm", "stiff_owner", 0.845, Severity.WARNING),
        ("leg", "stiff_owner", 0.875, Severity.ERROR),
        ("leg", "stiff_parent", 0.7, Severity.WARNING),
        ("arm", "stiff_parent", 0.725, Severity.ERROR),
    ],
)
def test_a_straight_limb_with_one_stiff_bone_is_weighed_as_it_bends_once_pre_bent(
    limb, kind, stiffness, severity
) -> None:
    """A straight limb with a pole and one stiff bone: pre-bent, the forearm at 0.845 lands,
    where the table of the limb bent as built says 0.105% short (a trade: the error appeared
    after the pre-bend); the shin at 0.875 and the upper arm at 0.725 stop short once pre-bent,
    and nothing said so before the pre-bend. Judged straight by the pre-bent tables, the
    stiffness finding stands before the fix, and holds after it."""
    judged = judge((Fault("straight", limb, 0), Fault(kind, limb, stiffness)))
    assert judged.holds, "\n".join(judged.problems())
    assert not judged.unexplained, [d.problem for d in judged.unexplained]
    owner = LIMBS[limb].owner
    stiff = [f for f in judged.findings if f.check_id == "locks" and f.chain[0] == owner]
    assert [(f.title, f.severity) for f in stiff] == [("One bone too stiff", severity)]
    assert "turning at most half as freely as the rest of the chain" in stiff[0].message


@pytest.mark.parametrize(
    ("faults", "severity", "pre_bend"),
    [
        ((Fault("straight_one_sided", "arm", 6), Fault("stiff_parent", "arm", 0.9)), "W", False),
        ((Fault("straight_one_sided", "arm", 7), Fault("stiff_both", "arm", 0.7)), "E", True),
        ((Fault("straight_one_sided", "leg", 6), Fault("stiff_owner", "leg", 0.9)), "E", False),
        ((Fault("straight_one_sided", "leg", 7), Fault("stiff_parent", "leg", 0.95)), "E", False),
    ],
    ids=["upper_arm_09_lands", "arm_both_07", "shin_09", "thigh_095"],
)
def test_a_straight_limb_without_a_pole_its_hinges_opposed_is_weighed_by_its_own_table(
    faults, severity, pre_bend
) -> None:
    """Fresh seeds 89 and 90: a straight limb without a pole, its hinges limited to turn opposite
    ways, stopped short with both bones at 0.7, the lower at 0.9 or the upper at 0.95 under a
    warning only (locks said nothing of a straight limb whose root is limited), and pre-bending
    one that landed with the upper bone at 0.9 left it short (a trade). Its own table now weighs
    it, and the pre-bend is withheld where the stiffness would then stop it short."""
    judged = judge(faults)
    assert judged.holds, "\n".join(judged.problems())
    assert not judged.unexplained, [d.problem for d in judged.unexplained]
    owner = LIMBS[faults[0].limb].owner
    (stiff,) = [f for f in judged.findings if f.check_id == "locks" and f.chain[0] == owner]
    assert stiff.title == "Stiff, no pole"
    assert stiff.severity == {"W": Severity.WARNING, "E": Severity.ERROR}[severity]
    (straight,) = [f for f in judged.findings if f.check_id == "rest_pose" and f.bone == owner]
    assert (straight.fix_id == "pre_bend") == pre_bend


@pytest.mark.parametrize(
    ("limb", "override", "fails"),
    [("arm", 0, True), ("arm", 5, True), ("leg", 0, True), ("leg", 5, False)],
)
def test_rotation_copied_onto_a_hinge_agrees(limb, override, fails) -> None:
    """Once a miss (warning only on the arm, a false alarm on the leg): the lower bone locked on
    Y and Z keeps of a copied start only its X angle. The arm's copies of the shoulder and of the
    foot control turn its Z axis onto that hinge, which leaves the angle to rounding, and the
    elbow bends 180° from its pole; the hips' copy flips the knee; the hand control's starts it
    folded the rest way, and the leg lands."""
    judged = judge((Fault("overriding_constraint", limb, override), Fault("ik_lock", limb, 3)))
    assert judged.holds and not judged.unexplained, "\n".join(judged.problems())
    owner = LIMBS[limb].owner
    assert [v.fails for v in judged.verdicts if v.owner == owner] == [fails]
    (order,) = [f for f in judged.findings if f.check_id == "constraint_order" and f.bone == owner]
    assert order.severity == (Severity.ERROR if fails else Severity.WARNING)


@pytest.mark.parametrize(
    ("limb", "kind", "stiffness"),
    [("leg", "stiff_parent", 0.99), ("leg", "stiff_both", 0.95), ("arm", "stiff_parent", 0.8)],
)
def test_a_stiff_bone_with_an_ik_of_its_own_beside_the_limbs_muted_ik_is_an_error(
    limb, kind, stiffness
) -> None:
    """Once silent: the upper bone's own IK (chain length 1, on the limb's control) beside the
    limb's muted IK stops 1.06%, 0.38% and 0.18% of its reach short; no chain of one bone was
    judged, and the muted chain's finding on the same bone stood for it."""
    parent = LIMBS[limb].parent
    faults = (Fault("muted", limb, 0), Fault(kind, limb, stiffness), Fault("ik_above", limb, 1))
    judged = judge(faults)
    assert [v.state for v in judged.verdicts if v.owner == parent] == ["fail"]
    stiff = [
        (f.chain, f.severity) for f in judged.findings if f.check_id == "locks" and f.bone == parent
    ]
    assert ((parent, "IK"), Severity.ERROR) in stiff
    assert not judged.unexplained and judged.holds, "\n".join(judged.problems())


@pytest.mark.parametrize("limb", ["arm", "leg"])
@pytest.mark.parametrize("spline", [0, 1])
def test_a_dead_spline_ik_over_an_ik_without_use_tail_strands_its_tip_an_error_there(
    limb, spline
) -> None:
    """Once a warning only: a Spline IK with no curve over the owner and its parent leaves the
    owner where the unsolved parent put it; without Use Tail that is the IK's tip, 53% (arm) or
    39% (leg) of the reach short, muted or not. The error stands on the IK's chain, and deleting
    the Spline IK lands it."""
    owner = LIMBS[limb].owner
    faults = (
        Fault("dead_spline_ik", limb, spline),
        Fault("tail_off", limb, 0),
        Fault("stiff_owner", limb, 0.95),
    )
    judged = judge(faults)
    (stranding,) = [f for f in judged.findings if f.check_id == "spline_target"]
    assert (stranding.chain, stranding.constraint, stranding.severity, stranding.fix_id) == (
        (owner, "IK"),
        "Spline IK",
        Severity.ERROR,
        "remove",
    )
    assert not judged.unexplained and judged.holds, "\n".join(judged.problems())
    rig = faulted_limbs.faulted_rig(faults)
    apply_fix(stranding)
    (verdict,) = [v for v in judge_chains(rig) if v.owner == owner]
    assert verdict.tip_error < REACH_TOLERANCE * verdict.reach  # the leg still turns the hips


@pytest.mark.parametrize(("override", "lands"), [(0, True), (1, False), (5, False)])
def test_an_owner_aimed_at_the_chains_root_is_posed_after_the_solve(override, lands) -> None:
    """Fresh seed 477 (a false error): the arm's forearm copies the shoulder's rotation, the root
    of its IK's chain without Use Tail, so Blender poses it again after the solve and the dead
    Spline IK strands nothing: dead beside a working IK, a warning. Aimed elsewhere (the hand
    control, the other arm's control) the tip stays behind."""
    faults = (
        Fault("overriding_constraint", "arm", override),
        Fault("dead_spline_ik", "arm", 0),
        Fault("tail_off", "arm", 0),
    )
    judged = judge(faults, fixes=False)
    assert [v.state for v in judged.verdicts if v.owner == "forearm.L"] == [
        "pass" if lands else "fail"
    ]
    assert judged.holds and not judged.unexplained, "\n".join(judged.problems())
    (spline,) = [f for f in judged.findings if f.check_id == "spline_target"]
    assert spline.severity == (Severity.WARNING if lands else Severity.ERROR)


@pytest.mark.parametrize("limb", ["arm", "leg"])
@pytest.mark.parametrize(("below", "lands"), [(1, False), (2, True)])
def test_a_stranded_tip_beside_an_ik_below_on_its_control_agrees(limb, below, lands) -> None:
    """Fresh seed 158 (a false error and a trade): the dead Spline IK strands the tip of the
    limb's IK without Use Tail, and an IK on the bone below aims at the same control. Of
    length 2 it turns the owner and poses it from its parent again: the limb lands, and the
    Spline IK is only dead beside it (a warning). Of length 1 which of the two lands is the
    order Blender's threads evaluate them in (the lower one misses on an idle machine and
    lands with every core busy): duplicates' pair is a warning without a fix until the Spline
    IK is gone; then the pair fights, and the lower IK misses."""
    owner, lower = LIMBS[limb].owner, LIMBS[limb].below
    faults = (
        Fault("dead_spline_ik", limb, 0),
        Fault("tail_off", limb, 0),
        Fault("ik_below", limb, below),
    )
    judged = judge(faults)
    assert judged.holds and not judged.unexplained, "\n".join(judged.problems())
    (spline,) = [f for f in judged.findings if f.check_id == "spline_target"]
    assert spline.severity == (Severity.WARNING if lands else Severity.ERROR)
    if lands:
        states = {v.owner: v.state for v in judged.verdicts}
        assert states[lower] == "pass"
        if limb == "arm":  # the leg without Use Tail reaches into the hips: chain_length's error
            assert states[owner] == "pass"
        return
    (pair,) = [f for f in judged.findings if f.check_id == "duplicates"]
    assert (pair.severity, pair.fix_id) == (Severity.WARNING, None)
    rig = faulted_limbs.faulted_rig(faults)
    apply_fix(next(f for f in diagnose(rig) if f.check_id == "spline_target"))
    assert {v.owner: v.state for v in judge_chains(rig)}[lower] == "fail"
    (pair,) = [f for f in diagnose(rig) if f.check_id == "duplicates"]
    assert pair.severity == Severity.ERROR


@pytest.mark.parametrize("limb", ["arm", "leg"])
@pytest.mark.parametrize(
    ("lock", "others", "lands"),
    [(0, (), True), (1, (), True), (1, ("chain_length", 9), True), (2, (), False)],
)
def test_bend_axis_locked_under_a_track_at_the_target_agrees(limb, lock, others, lands) -> None:
    """Once a false alarm, and a trade of chain_length's fix (issue 25): a Damped Track on the
    lower bone aimed at the limb's control starts the solver with that bone pointing at the
    target, and with the lower or the upper bone's bend axis locked the limb lands (a warning);
    with every axis of both locked it fails (the error stands). Cut back to 2 from 9 bones by
    chain_length's fix, the limb locked so lands, with no new error."""
    faults = (
        Fault("overriding_constraint", limb, 1),
        *((Fault(others[0], limb, others[1]),) if others else ()),
        Fault("ik_lock", limb, lock),
    )
    judged = judge(faults)
    assert judged.holds and not judged.unexplained, "\n".join(judged.problems())
    if others:
        return  # the chain of 9 fails for its length; the fix left no error: judged above
    owner = LIMBS[limb].owner
    assert [v.state for v in judged.verdicts if v.owner == owner] == ["pass" if lands else "fail"]
    locks = {f.severity for f in judged.findings if f.check_id == "locks" and f.chain[0] == owner}
    assert locks == {Severity.WARNING if lands else Severity.ERROR}


@pytest.mark.parametrize(("limb", "amount"), [("leg", 0.3), ("leg", 0.8), ("arm", 0.3)])
def test_fk_keys_that_start_an_overridden_joint_the_rest_way_are_kept(limb, amount) -> None:
    """Once a fix that traded: the shin copying the hips' rotation starts folded the other way
    and the leg fails (constraint_order's error); the thigh keyed 0.3 or 0.8 rad brings that
    start round the rest way and the leg lands, so clearing the keys is refused. The arm so
    keyed fails all the same, and its keys may go."""
    faults = (Fault("fk_keys", limb, amount), Fault("overriding_constraint", limb, 0))
    judged = judge(faults)
    assert judged.holds, "\n".join(judged.problems())
    owner = LIMBS[limb].owner
    lands = next(v.state for v in judged.verdicts if v.owner == owner) == "pass"
    assert lands == (limb == "leg")
    keys = next(f for f in judged.findings if f.check_id == "fk_ik_mix")
    assert (keys.fix_id, keys.stated["blocked_by"]) == (
        (None, "overridden_start") if lands else ("clear_keys", None)
    )


@pytest.mark.parametrize(
    ("limb", "one_sided", "extra", "lands"),
    [
        ("leg", 6, None, False),
        ("arm", 7, ("pose_rotation", 20), False),
        ("leg", 6, ("pose_rotation", 70), True),
        ("arm", 7, ("pose_rotation", -70), True),
        ("leg", 7, ("inherit_scale_none", 2.2), True),  # seed 262
        ("arm", 6, ("pose_scale", 1.5), True),
    ],
)
def test_straight_limb_with_opposed_hinges_that_does_not_inherit_rotation_agrees(
    limb, one_sided, extra, lands
) -> None:
    """Once a failure with only a warning: straight, without a pole, its hinges limited opposite
    ways, a lower bone that does not inherit rotation stops 0.13% short with the body turned 40°
    about Z (inheriting, it lands); posed 70° the way the hinges fold, it lands, and so it does
    with its upper bone posed longer (seed 262's false error: the thigh at 2.2, its reach to
    spare at full stretch)."""
    faults = (Fault("inherit_rotation_off", limb, 0), Fault("straight_one_sided", limb, one_sided))
    if extra is not None:
        faults = (Fault(extra[0], limb, extra[1]), *faults)
    judged = judge(faults)
    assert judged.holds and not judged.unexplained, "\n".join(judged.problems())
    owner = LIMBS[limb].owner
    assert next(v.state for v in judged.verdicts if v.owner == owner) == (
        "pass" if lands else "fail"
    )
    inherit = next(
        f
        for f in judged.findings
        if f.check_id == "inherit" and f.bone == owner and "effect" in f.stated
    )
    assert (inherit.severity, inherit.stated["effect"]) == (
        (Severity.WARNING, "no_pole") if lands else (Severity.ERROR, "opposed_hinges")
    )


@pytest.mark.parametrize(
    ("limb", "straight", "stretch"),
    [("leg", 5, 0.1), ("leg", 0, 0.5), ("arm", 4, 0.1), ("arm", 3, 0.1)],
)
def test_a_straight_limb_scaled_down_along_its_upper_bone_lands_by_ik_stretch(
    limb, straight, stretch
) -> None:
    """Once a false alarm: straight, the bones below lie along the upper bone scaled (1, 0.5, 1),
    so the scale shears nothing and IK Stretch makes up the length (measured: the leg and the
    arm land, with or without a pole); the leftover scale is no error there."""
    faults = (
        Fault("pose_scale", limb, 0.5),
        Fault("straight_one_sided", limb, straight),
        Fault("stretch", limb, stretch),
    )
    judged = judge(faults)
    assert [v.state for v in judged.verdicts if v.owner == LIMBS[limb].owner] == ["pass"]
    rest_pose = [f.severity for f in judged.findings if f.check_id == "rest_pose"]
    assert Severity.ERROR not in rest_pose
    assert judged.holds and not judged.unexplained, "\n".join(judged.problems())


@pytest.mark.parametrize("limb", ["arm", "leg"])
def test_foot_ik_under_a_limb_locked_on_every_axis_waits_for_the_pair(limb) -> None:
    """Once a false alarm: a foot's (hand's) IK of length 1 on the limb's control lands while
    the limb, locked on every axis, cannot turn; duplicates called it missing. Freed by locks'
    fix or the twin's locks, the limb reaches first and the foot misses: those wait."""
    judged = judge((Fault("ik_below", limb, 1), Fault("ik_lock", limb, 2)))
    assert judged.holds, "\n".join(judged.problems())
    limb_bones = LIMBS[limb]
    pair = next(f for f in judged.findings if f.check_id == "duplicates")
    assert (pair.severity, pair.bone) == (Severity.WARNING, limb_bones.below)
    waiting = {
        (f.check_id, f.bone): (f.severity, f.fix_id, f.stated["blocked_by"])
        for f in judged.findings
        if f.check_id in ("locks", "symmetry")
    }
    held = (Severity.ERROR, None, "duplicates")
    assert waiting == {
        ("locks", limb_bones.owner): held,
        ("locks", limb_bones.parent): held,
        ("symmetry", limb_bones.owner): held,
    }


@pytest.mark.parametrize("stretch", [0.1, 0.5])
@pytest.mark.parametrize("limb", ["arm", "leg"])
def test_an_ik_carried_to_its_point_by_a_longer_one_on_its_control_shares_its_landing(
    limb, stretch
) -> None:
    """Fresh seed 456, a trade: duplicates' fix turns the foot's (hand's) IK of length 1 off
    Use Tail, so the shin (forearm) alone, locked on every axis, takes its tip to the point
    the stretching leg's IK puts on the same control. The leg carries it: both land, and locks
    no longer calls the shorter chain's locks an error."""
    faults = (
        Fault("ik_below", limb, 1),
        Fault("ik_lock", limb, 2),
        Fault("stretch", limb, stretch),
    )
    judged = judge(faults)
    assert judged.holds and not judged.trades, "\n".join(judged.problems())
    rig = faulted_limbs.faulted_rig(faults)
    below = LIMBS[limb].below
    rig.pose.bones[below].constraints["IK"].use_tail = False
    verdicts = {v.key: v.state for v in judge_chains(rig)}
    assert verdicts[(below, "IK")] == verdicts[(LIMBS[limb].owner, "IK")] == "pass"
    errors = [f for f in diagnose(rig) if f.check_id == "locks" and f.severity == Severity.ERROR]
    assert errors == []


@pytest.mark.parametrize("limb", ["arm", "leg"])
def test_twins_use_tail_is_not_copied_onto_an_ik_that_agrees_with_the_one_above(limb) -> None:
    """Once a trade: a forearm's (shin's) IK without Use Tail and an IK of length 1 on the bone
    above, on the same control, reach for one point; the twin's Use Tail would move the
    forearm's tip to the hand and the upper arm's IK would miss (duplicates' error). The two
    chains start at different bones, so they race on Blender's threads: an error that lands or
    misses as the threads fall, so the oracle's verdict is not asserted here."""
    judged = judge((Fault("tail_off", limb, 0), Fault("ik_above", limb, 1)))
    assert not (judged.silent or judged.trades), "\n".join(judged.problems())
    mirror = next(f for f in judged.findings if f.check_id == "symmetry")
    assert (mirror.fix_id, mirror.stated["blocked_by"]) == (None, "duplicates")
    pair = next(f for f in judged.findings if f.check_id == "duplicates")
    assert (pair.severity, pair.title) == (Severity.ERROR, "Two IKs race")


@pytest.mark.parametrize("limb", ["arm", "leg"])
@pytest.mark.parametrize("stiffness", [0.975, 0.99])
def test_stiff_limb_pulled_by_two_agreeing_iks_lands_after_they_agree(limb, stiffness) -> None:
    """Once a trade: the agree fix turns a hand's (foot's) IK of length 3 on the limb's control
    onto the forearm's (shin's) tip; the two goals pull the stiff limb twice as hard and it
    lands, where locks called each chain short as if alone."""
    faults = (Fault("ik_below", limb, 3), Fault("stiff_both", limb, stiffness))
    judged = judge(faults)
    assert judged.holds, "\n".join(judged.problems())
    rig = faulted_limbs.faulted_rig(faults)
    apply_fix(next(f for f in diagnose(rig) if f.fix_id == "agree"))
    stiff = [f for f in diagnose(rig) if f.check_id == "locks"]
    assert {(f.severity, f.stated["paired_with"] is not None) for f in stiff} == {
        (Severity.WARNING, True)
    }
    assert {v.state for v in judge_chains(rig) if v.owner.endswith(".L")} == {"pass"}


@pytest.mark.parametrize("limb", ["arm", "leg"])
@pytest.mark.parametrize("stiffness", [0.9, 0.95])
def test_stiffness_cleared_on_a_bone_above_clears_the_limb_it_shares(limb, stiffness) -> None:
    """Once a trade: the stiffness fix of an IK of length 1 on the upper arm (thigh), beside the
    limb's IK on the same control, cleared that bone alone; the evenly stiff limb that reached
    was left with its forearm (shin) barely turning, 0.13% short. It clears both."""
    judged = judge((Fault("ik_above", limb, 1), Fault("stiff_both", limb, stiffness)))
    assert judged.holds, "\n".join(judged.problems())
    bones = LIMBS[limb]
    stiff = next(f for f in judged.findings if f.check_id == "locks" and f.bone == bones.parent)
    assert (stiff.fix_id, stiff.args["bones"]) == ("clear_stiffness", (bones.parent, bones.owner))


@pytest.mark.parametrize("limb", ["arm", "leg"])
@pytest.mark.parametrize(("roll", "stiffness", "lands"), [(90, 0.975, True), (90, 0.99, False)])
def test_evenly_stiff_limb_folding_about_its_z_axis_agrees(limb, roll, stiffness, lands) -> None:
    """Once a false alarm: an arm whose forearm is rolled 90° (it folds about its Z axis) with
    both bones at 0.975 lands (0.093% of the reach short) where the even table said 0.11%; at
    0.99 it fails (0.145% to 0.147%) and keeps its error. Rolling it back would leave it short
    at 0.975 (0.117%): the roll fix waits."""
    faults = (Fault("roll", limb, roll), Fault("stiff_both", limb, stiffness))
    judged = judge(faults)
    assert judged.holds, "\n".join(judged.problems())
    owner = LIMBS[limb].owner
    verdict = next(v for v in judged.verdicts if v.owner == owner)
    assert verdict.fails is not lands
    stiff = next(f for f in judged.findings if f.check_id == "locks" and f.bone == owner)
    assert stiff.severity == (Severity.WARNING if lands else Severity.ERROR)
    rolled = next(f for f in judged.findings if f.check_id == "roll")
    assert rolled.stated["blocked_by"] == ("stiffness" if lands else None)


@pytest.mark.parametrize("limb", ["arm", "leg"])
@pytest.mark.parametrize("amount", [0.3, 0.8])
def test_bend_axis_lock_on_a_bone_keyed_twisted_lands_and_keeps_its_keys(limb, amount) -> None:
    """Once a false alarm: the upper arm (thigh) IK-locked on X, keyed (0.8, 0.4, 0) rad, lands:
    the solver keeps the keyed twist and swings Z in the untwisted frame, which folds the limb.
    Clearing the keys would leave it 6.4% (5.1%) short, so that fix waits; unkeyed, the lock
    stays an error."""
    judged = judge((Fault("fk_keys", limb, amount), Fault("ik_lock", limb, 1)))
    assert judged.holds, "\n".join(judged.problems())
    parent = LIMBS[limb].parent
    lock = next(f for f in judged.findings if f.check_id == "locks" and f.bone == parent)
    assert (lock.severity, lock.stated["twisted_start"]) == (Severity.WARNING, (parent,))
    keys = next(f for f in judged.findings if f.check_id == "fk_ik_mix")
    assert (keys.fix_id, keys.stated["blocked_by"]) == (None, "twisted_lock")
    unkeyed = judge((Fault("ik_lock", limb, 1),), fixes=False)
    assert any(f.severity == Severity.ERROR and f.bone == parent for f in unkeyed.findings)


@pytest.mark.parametrize("limb", ["arm", "leg"])
@pytest.mark.parametrize(("first", "last"), [(5, 1), (1, 5)])
def test_the_last_constraint_of_the_stack_sets_the_start(limb, first, last) -> None:
    """Once a false alarm: the shin copying the hand control's rotation (5) bends 91° from its
    pole; a Damped Track at its own control (1) below the copy sets the start, 38° the rest way,
    and the leg lands. Then muting the track alone would hand the start back to the copy: that
    fix is refused. The other order keeps the copy's start and its error."""
    faults = (
        Fault("overriding_constraint", limb, first),
        Fault("overriding_constraint", limb, last),
    )
    judged = judge(faults)
    assert judged.holds, "\n".join(judged.problems())
    owner = LIMBS[limb].owner
    state = next(v.state for v in judged.verdicts if v.owner == owner)
    order = {f.constraint: f for f in judged.findings if f.check_id == "constraint_order"}
    errors = {name for name, f in order.items() if f.severity == Severity.ERROR}
    assert errors == (set() if state == "pass" else {"Copy Rotation"})
    if (limb, first) == ("leg", 5):
        assert state == "pass"
        track = order["Damped Track"]
        assert (track.fix_id, track.stated["blocked_by"]) == (None, "uncovers")


@pytest.mark.parametrize("limb", ["arm", "leg"])
@pytest.mark.parametrize("amount", [0.3, 0.8])
def test_a_track_at_the_control_is_read_where_the_limb_folds(limb, amount) -> None:
    """Once a false alarm: the thigh keyed 0.3 rad with a Damped Track on the shin at the foot
    control: aimed at the rest tip the shin starts 26° the other way, but at the goals, where
    the leg folds, 3° the rest way, and the leg lands; keyed 0.8 it starts 54° the other way
    there and bends 163° from its pole (the error stands)."""
    judged = judge((Fault("fk_keys", limb, amount), Fault("overriding_constraint", limb, 1)))
    assert judged.holds, "\n".join(judged.problems())
    owner = LIMBS[limb].owner
    lands = next(v.state for v in judged.verdicts if v.owner == owner) == "pass"
    track = next(f for f in judged.findings if f.check_id == "constraint_order")
    assert track.severity == (Severity.WARNING if lands else Severity.ERROR)
    if limb == "leg":
        assert lands == (amount == 0.3)


@pytest.mark.parametrize(
    ("faults", "lands"),
    [
        ((Fault("inherit_scale_none", "leg", 1.5), Fault("overriding_constraint", "leg", 2)), True),
        (
            (Fault("inherit_scale_none", "leg", 0.5), Fault("overriding_constraint", "leg", 2)),
            False,
        ),
        (
            (Fault("inherit_scale_none", "arm", 1.5), Fault("overriding_constraint", "arm", 2)),
            False,
        ),
        ((Fault("overriding_constraint", "leg", 2),), False),
    ],
)
def test_a_track_to_is_read_under_every_body_turn(faults, lands) -> None:
    """Once a false alarm: a Track To on the shin at the foot control starts it 128° the rest
    way, but its up axis is the world's, and with the hips turned -40° about X it starts 52°
    the other way and the knee bends 180° from its pole; the thigh scaled 1.5 over a shin that
    inherits no scale starts it 154° the rest way under every turn, and the leg lands. Then
    clearing that scale would flip it: the rest_pose fix is refused."""
    judged = judge(faults)
    assert judged.holds, "\n".join(judged.problems())
    owner = LIMBS[faults[-1].limb].owner
    assert next(v.state for v in judged.verdicts if v.owner == owner) == (
        "pass" if lands else "fail"
    )
    track = next(f for f in judged.findings if f.check_id == "constraint_order")
    assert track.severity == (Severity.WARNING if lands else Severity.ERROR)
    if lands:
        pose = next(f for f in judged.findings if f.check_id == "rest_pose")
        assert (pose.fix_id, pose.stated["blocked_by"]) == (None, "start")


@pytest.mark.parametrize("limb", ["arm", "leg"])
@pytest.mark.parametrize(
    ("straight", "severity"),
    [
        ((("straight_one_sided", 4),), Severity.ERROR),
        ((("straight_one_sided", 5),), Severity.ERROR),
        ((("straight", 0), ("no_pole", 0)), Severity.ERROR),
        ((("straight_one_sided", 0),), Severity.WARNING),
    ],
    ids=["hinge", "hinge-away", "free", "with-pole"],
)
def test_straight_limb_without_a_pole_under_an_ik_on_its_upper_bone_misses(
    limb, straight, severity
) -> None:
    """Once a failure with only a warning: an upper-arm (thigh) IK of length 1 on the limb's
    control beside the limb straight at rest was read as aiming the one line. Without a pole the
    solver folds the limb, the upper IK holds its top bone on the line, and the limb stops 3.4%
    short: duplicates' error on the limb's chain. With its pole the limb never folds (rest_pose's
    error) and the pair stays a warning on the upper IK."""
    faults = (Fault("ik_above", limb, 1), *(Fault(kind, limb, amount) for kind, amount in straight))
    judged = judge(faults)
    assert judged.holds and not judged.unexplained, "\n".join(judged.problems())
    bones = LIMBS[limb]
    missing = bones.owner if severity == Severity.ERROR else bones.parent
    pair = next(f for f in judged.findings if f.check_id == "duplicates")
    assert (pair.severity, pair.chain, pair.bone) == (severity, (missing, "IK"), bones.parent)


@pytest.mark.parametrize(
    "faults",
    [
        (Fault("tail_off", "leg", 0), Fault("ik_above", "leg", 0), Fault("pole_angle", "leg", 180)),
        (Fault("tail_off", "leg", 0), Fault("pole_angle", "leg", 180)),
        (Fault("chain_length", "leg", 3), Fault("pole_angle", "leg", 150)),
    ],
    ids=["beside-a-thigh-ik", "alone", "length-3"],
)
def test_pole_of_a_leg_chain_rooted_in_the_hips_is_judged_as_blender_turns_it(faults) -> None:
    """Once a trade: a leg's IK reaching into the hips, whose Y axis points away from the foot,
    turns the other way about the hips→target line as its pole angle rises (Blender turns the
    root about its own Y). Read the usual way, the angle that keeps the rest pose was 180° off,
    and once parenting connected the thigh the pole check called a landing leg flipped."""
    judged = judge(faults)
    assert judged.holds, "\n".join(judged.problems())
    rig = faulted_limbs.faulted_rig(faults)
    _connect_thigh_to_the_hips(rig)
    (verdict,) = [v for v in judge_chains(rig) if v.owner == "shin.L"]
    poles = {f.severity for f in diagnose(rig) if f.check_id == "pole"}
    assert (verdict.state == "fail") == (Severity.ERROR in poles)


@pytest.mark.parametrize(
    ("limb", "override", "one_sided", "title", "lands"),
    [
        ("arm", 1, 1, "Straight, bent at start", True),  # seed 86: "Start bent from the pole"
        ("leg", 3, 1, "Straight, bent at start", True),
        ("leg", 1, 3, "Straight, bent at start", True),
        ("arm", 2, 0, "Straight, bent at start", True),
        ("arm", 5, 1, "Start held straight", False),
        ("leg", 3, 0, "Start held straight", False),
        ("arm", 3, 3, "Bent at start, root held", False),
        ("leg", 5, 2, "Straight, bent at start", True),  # seed 284's class: 90° off the fold
        ("leg", 5, 3, "Straight, bent at start", True),
    ],
)
def test_a_straight_limb_started_within_its_one_sided_limits_is_judged_by_them(
    limb, override, one_sided, title, lands
) -> None:
    """Once 20 of the 48 pairs of an overriding constraint and a straight limb whose lower hinge
    folds one way, with a pole, broke a rule (seed 86's was a Damped Track at the control on an
    arm folding away from its pole, called bent from the pole). The limits decide the start:
    bent against them they hold it straight (3.4% short); within them they take it as their
    fold, which, opposite the pole, cannot flip; a root limited the other way holds it back."""
    faults = (
        Fault("overriding_constraint", limb, override),
        Fault("straight_one_sided", limb, one_sided),
    )
    judged = judge(faults)
    assert judged.holds and not judged.unexplained, "\n".join(judged.problems())
    owner = LIMBS[limb].owner
    assert [v.state for v in judged.verdicts if v.owner == owner] == ["pass" if lands else "fail"]
    (straight,) = [f for f in judged.findings if f.check_id == "rest_pose"]
    assert (straight.title, straight.fix_id) == (title, None)


@pytest.mark.parametrize(
    ("limb", "pose", "one_sided", "title", "lands"),
    [
        ("arm", -20, 1, "Straight, bent at start", True),  # was "Start bent from the pole"
        ("leg", -70, 1, "Straight, bent at start", True),
        ("arm", -70, 3, "Start bent from the pole", False),
        ("leg", 20, 1, "Straight limb won't bend", False),
    ],
)
def test_a_straight_limb_posed_the_way_its_limits_fold_it_bends_as_built(
    limb, pose, one_sided, title, lands
) -> None:
    """Once a false alarm on the leg and the arm folding only away from their poles: posed 20°
    or 70° that way, the start was "bent from the pole", yet the limb bends as built and lands.
    With its root limited the other way it stops short; posed against the limits, they hold it
    straight."""
    faults = (Fault("straight_one_sided", limb, one_sided), Fault("pose_rotation", limb, pose))
    judged = judge(faults)
    assert judged.holds and not judged.unexplained, "\n".join(judged.problems())
    owner = LIMBS[limb].owner
    assert [v.state for v in judged.verdicts if v.owner == owner] == ["pass" if lands else "fail"]
    (straight,) = [f for f in judged.findings if f.check_id == "rest_pose"]
    assert straight.title == title
    assert straight.severity == (Severity.WARNING if lands else Severity.ERROR)


@pytest.mark.parametrize("limb", ["arm", "leg"])
@pytest.mark.parametrize("hinges", [6, 7])
def test_a_straight_limb_folded_by_chance_leaves_the_ik_along_it_short(
    limb, hinges, monkeypatch
) -> None:
    """Once seed 13's last failure with only a warning: a straight limb without a pole, its
    hinges limited against each other, beside an upper-arm (thigh) IK of length 1 on its
    control. Rounding decides whether the solver folds the limb, and where it folds the upper
    IK misses: at the oracle's five turns the arm misses and the leg lands, turned 20° to 27°
    either way about X and Z both miss somewhere. duplicates' error stands on the upper IK,
    and deleting it (its fix) leaves every chain landing there."""
    upper = LIMBS[limb].parent
    faults = (Fault("ik_above", limb, 1), Fault("straight_one_sided", limb, hinges))
    rig = faulted_limbs.faulted_rig(faults)
    (pair,) = [f for f in diagnose(rig) if f.check_id == "duplicates"]
    assert (pair.severity, pair.chain, pair.fix_id) == (Severity.ERROR, (upper, "IK"), "remove")
    turns = [(s * d, axis) for axis in "XZ" for s in (1.0, -1.0) for d in range(20, 28)]

    def misses() -> list[tuple[str, float, str]]:
        found = []
        for turn in turns:
            monkeypatch.setattr(oracle, "BODY_TURNS", ((0.0, "X"), turn))
            found += [(v.owner, *turn) for v in judge_chains(rig) if v.state != "pass"]
        return found

    assert upper in {owner for owner, *_turn in misses()}
    apply_fix(pair)
    assert misses() == []


@pytest.mark.parametrize("limb", ["arm", "leg"])
@pytest.mark.parametrize("override", [0, 2, 3, 5])
def test_a_straight_limb_started_bent_by_a_constraint_leaves_the_ik_above_short(
    limb, override
) -> None:
    """Once a failure with only a warning: a straight limb whose lower bone copies the hips' or
    another limb's rotation, or tracks its control or pole, starts bent from that constraint,
    folds, and the upper arm's (thigh's) IK of length 1 on its control misses (the thigh 0.45
    short): duplicates' error on that IK, no longer the straight pair's warning."""
    faults = (
        Fault("ik_above", limb, 1),
        Fault("straight_one_sided", limb, 7),
        Fault("overriding_constraint", limb, override),
    )
    judged = judge(faults)
    assert judged.holds and not judged.unexplained, "\n".join(judged.problems())
    upper = LIMBS[limb].parent
    assert [v.state for v in judged.verdicts if v.owner == upper] == ["fail"]
    pair = next(f for f in judged.findings if f.check_id == "duplicates")
    assert (pair.severity, pair.chain) == (Severity.ERROR, (upper, "IK"))


@pytest.mark.parametrize("limb", ["arm", "leg"])
@pytest.mark.parametrize("amount", [0.3, 0.8])
def test_zero_width_limit_below_a_twisted_x_locked_root_lands(limb, amount) -> None:
    """Once a false alarm: the forearm (shin) held by a 0° to 0° X limit under the upper arm
    (thigh) IK-locked on X and keyed twisted lands: Blender builds the limited joint as a ball
    joint with X clamped, which folds about Z in the plane the twisted root turns it to. Freeing
    the root alone would leave the limit to stop it 6.5% (5.1%) short, so that fix waits, and so
    does clearing the keys; unkeyed, both stay errors."""
    faults = (Fault("ik_lock", limb, 1), Fault("ik_limit", limb, 0))
    judged = judge((Fault("fk_keys", limb, amount), *faults))
    assert judged.holds, "\n".join(judged.problems())
    parent, owner = LIMBS[limb].parent, LIMBS[limb].owner
    locks = {f.bone: f for f in judged.findings if f.check_id == "locks"}
    assert {locks[parent].severity, locks[owner].severity} == {Severity.WARNING}
    assert (locks[parent].fix_id, locks[owner].fix_id) == (None, "free_axes")
    assert locks[parent].stated["twisted_start"] == (parent,)
    keys = next(f for f in judged.findings if f.check_id == "fk_ik_mix")
    assert (keys.fix_id, keys.stated["blocked_by"]) == (None, "twisted_lock")
    unkeyed = judge(faults, fixes=False)
    errors = {f.bone for f in unkeyed.findings if f.severity == Severity.ERROR}
    assert {parent, owner} <= errors


@pytest.mark.parametrize("angle", [0, 60, 150])
def test_twisted_lock_on_a_chain_built_bending_away_from_its_pole_lands(angle) -> None:
    """Once a false alarm and a trade: without Use Tail the arm's IK turns the shoulder and the
    upper arm, a chain built bending away from its pole, so the pole's turn does not bound the
    twisted fold: the upper arm IK-locked on X and keyed (0.8, 0.4, 0) rad lands at every pole
    angle, and clearing the keys waits; unkeyed it stops 3.5% short, an error."""
    faults = (Fault("tail_off", "arm", 0), Fault("ik_lock", "arm", 1))
    turned = (Fault("pole_angle", "arm", angle),) if angle else ()
    judged = judge((*faults, Fault("fk_keys", "arm", 0.8), *turned))
    assert judged.holds, "\n".join(judged.problems())
    lock = next(f for f in judged.findings if f.check_id == "locks" and f.bone == "upper_arm.L")
    assert (lock.severity, lock.stated["twisted_start"]) == (Severity.WARNING, ("upper_arm.L",))
    keys = next(f for f in judged.findings if f.check_id == "fk_ik_mix")
    assert (keys.fix_id, keys.stated["blocked_by"]) == (None, "twisted_lock")
    unkeyed = judge((*faults, *turned), fixes=False)
    assert any(f.severity == Severity.ERROR and f.bone == "upper_arm.L" for f in unkeyed.findings)


@pytest.mark.parametrize("limb", ["arm", "leg"])
@pytest.mark.parametrize(("angle", "lands"), [(0, False), (100, False), (150, True), (180, True)])
def test_a_straight_limb_bent_at_start_by_a_track_at_the_pole_agrees(limb, angle, lands) -> None:
    """Once a false alarm and a fix that traded: a straight limb whose lower bone tracks the
    pole starts bent 90° from the root's X axis the wrong way round and ends 180° from the pole
    at the rest angle; turned 150° or 180° the angle brings it round and it lands (rest_pose's
    straight finding a warning). Pre-bent, the angle is set to keep the rest pose and it flips:
    that fix is refused, and so is muting the track, which the angle now needs."""
    faults = (Fault("straight", limb, 0), Fault("overriding_constraint", limb, 3))
    judged = judge(faults + ((Fault("pole_angle", limb, angle),) if angle else ()))
    assert judged.holds, "\n".join(judged.problems())
    owner = LIMBS[limb].owner
    assert next(v.state for v in judged.verdicts if v.owner == owner) == (
        "pass" if lands else "fail"
    )
    straight = next(f for f in judged.findings if f.check_id == "rest_pose")
    assert straight.severity == (Severity.WARNING if lands else Severity.ERROR)
    assert straight.stated["start_bent_by"] == (owner, "Damped Track")
    if lands:
        track = next(f for f in judged.findings if f.check_id == "constraint_order")
        assert (straight.fix_id, track.fix_id, track.stated["blocked_by"]) == (
            None,
            None,
            "pole_angle",
        )


@pytest.mark.parametrize("limb", ["arm", "leg"])
@pytest.mark.parametrize(
    "shape", [("straight", 0), ("straight_one_sided", 4), ("straight_one_sided", 6)]
)
def test_a_straight_limb_locked_on_every_axis_is_an_error(limb, shape) -> None:
    """Once warning only (seed 7717 on 5.3): both bones of a limb straight at rest IK-locked on
    every axis stay put, 36.8% of the reach short, with or without a pole; straight, the chain
    has no bend axis to blame, so every lock is named, an error."""
    judged = judge((Fault("ik_lock", limb, 2), Fault(shape[0], limb, shape[1])))
    assert judged.holds and not judged.unexplained, "\n".join(judged.problems())
    owner, parent = LIMBS[limb].owner, LIMBS[limb].parent
    assert [v.state for v in judged.verdicts if v.owner == owner] == ["fail"]
    locks = [f for f in judged.findings if f.check_id == "locks" and f.severity == Severity.ERROR]
    assert {(f.bone, f.args["axes"]) for f in locks} == {(owner, "xyz"), (parent, "xyz")}


@pytest.mark.parametrize(
    "straight",
    [
        (("straight_one_sided", 4),),
        (("straight_one_sided", 6),),
        (("straight", 0), ("no_pole", 0)),
        (("straight", 0),),
    ],
    ids=["hinge", "hinges-apart", "free", "with-pole"],
)
def test_a_hand_ik_over_the_straight_arm_leaves_the_forearm_short(straight) -> None:
    """Once a false alarm (seed 2525 on 5.3) and warning only: a hand IK of length 3 on the hand
    control beside the straight arm's forearm IK was read as 'aiming one line' like an upper-arm
    IK of length 1. Two bones fold to bring their own tip on: the hand lands, the forearm's IK
    misses (20% of its reach), duplicates' error on the forearm's chain."""
    faults = (
        *(Fault(kind, "arm", amount) for kind, amount in straight),
        Fault("ik_below", "arm", 3),
    )
    judged = judge(faults)
    assert judged.holds and not judged.unexplained, "\n".join(judged.problems())
    assert next(v.state for v in judged.verdicts if v.owner == "forearm.L") == "fail"
    pair = next(f for f in judged.findings if f.check_id == "duplicates")
    assert (pair.severity, pair.chain) == (Severity.ERROR, ("forearm.L", "IK"))


@pytest.mark.parametrize(("limit", "lands"), [(3, True), (6, True), (0, False)])
def test_a_forearm_limit_that_starts_the_bend_lands_when_the_shoulder_is_in_the_chain(
    limit, lands
) -> None:
    """Once a false alarm (seed 9191 on 5.3): with chain length 3 the upper arm folds on the
    shoulder the rest of the way once the forearm, limited to ±3° or ±6°, has started the bend:
    the arm lands (0.002% short). Limited to 0° nothing starts it: the arm stays straight from
    the shoulder, 6.2% short, the locks error stands."""
    judged = judge((Fault("ik_limit", "arm", limit), Fault("chain_length", "arm", 3)))
    assert judged.holds and not judged.unexplained, "\n".join(judged.problems())
    owner = LIMBS["arm"].owner
    assert next(v.state for v in judged.verdicts if v.owner == owner) == (
        "pass" if lands else "fail"
    )
    locks = [f for f in judged.findings if f.check_id == "locks" and f.severity == Severity.ERROR]
    assert [f.bone for f in locks] == ([] if lands else [owner])


@pytest.mark.parametrize("limb", ["arm", "leg"])
@pytest.mark.parametrize("override", [0, 1, 2, 3, 5])
def test_a_cut_limb_landing_by_stretch_keeps_the_start_its_constraint_sets(limb, override) -> None:
    """Once a trade (seed 2532 on 5.3): the cut forearm under a Track To at the hand control
    lands by IK Stretch; parented back, the Track To starts the elbow bent the other way and it
    ends 106° from its pole (constraint_order's error). The parent fix waits while a constraint
    the IK overrides sets the cut bone's start (a Damped Track at the control lands: not it)."""
    faults = (
        Fault("overriding_constraint", limb, override),
        Fault("unparented", limb, 0),
        Fault("stretch", limb, 0.1),
    )
    judged = judge(faults)
    assert judged.holds and not judged.unexplained, "\n".join(judged.problems())
    cut = next(f for f in judged.findings if f.check_id == "parenting")
    assert (cut.severity, cut.fix_id is None) == (Severity.WARNING, override != 1)


@pytest.mark.parametrize(
    ("straight", "forearm_lands"),
    [
        ((("straight_one_sided", 5),), True),
        ((("straight", 0), ("no_pole", 0)), True),
        ((("straight", 0), ("pose_rotation", 20)), True),
        ((("straight", 0), ("pose_rotation", -20)), False),
    ],
    ids=["hinge", "free", "posed-in", "posed-out"],
)
def test_a_hand_ik_in_line_with_the_forearm_misses_beside_the_forearm_ik(
    straight, forearm_lands
) -> None:
    """Once a false alarm: of a hand IK of length 2 beside the forearm's on the hand control,
    the inner (forearm) chain was always the one to miss. With the hand in line with the
    forearm and nothing starting the wrist bent, only the forearm's IK folds, and the hand's tip,
    carried along its line, stops 3.2% to 4.4% short: duplicates' error on the hand's chain."""
    faults = (
        *(Fault(kind, "arm", amount) for kind, amount in straight),
        Fault("ik_below", "arm", 2),
    )
    judged = judge(faults)
    assert judged.holds and not judged.unexplained, "\n".join(judged.problems())
    states = {v.owner: v.state for v in judged.verdicts}
    assert (states["hand.L"], states["forearm.L"]) == ("fail", "pass" if forearm_lands else "fail")
    pair = next(f for f in judged.findings if f.check_id == "duplicates")
    assert (pair.severity, pair.chain) == (Severity.ERROR, ("hand.L", "IK"))


@pytest.mark.parametrize(
    ("limb", "override"), [("arm", 2), ("arm", 3), ("leg", 0), ("leg", 2), ("leg", 3)]
)
def test_a_limit_rotation_below_an_overriding_constraint_reclamps_the_start(limb, override) -> None:
    """Once false alarms (issue 25 on 5.3): a Limit Rotation in local space below a constraint
    the IK overrides clamps the start that constraint sets (X held to 0..0.1 rad), so the joint
    no longer starts bent the other way and the limb lands; constraint_order read the start as
    the constraint above left it and called it flipped. The arm's Track To (seed 169) swings
    the forearm out of the bend plane, 90° at rest and 49° with the body turned, to a side the
    clamp leaves within 91° of the rest side, which the solver keeps."""
    faults = (
        Fault("overriding_constraint", limb, override),
        Fault("overriding_constraint", limb, 4),
    )
    judged = judge(faults)
    assert judged.holds and not judged.unexplained, "\n".join(judged.problems())
    assert next(v.state for v in judged.verdicts if v.owner == LIMBS[limb].owner) == "pass"
    errors = [f for f in judged.findings if f.severity == Severity.ERROR]
    assert [f.check_id for f in errors if f.check_id == "constraint_order"] == []


@pytest.mark.parametrize("limb", ["arm", "leg"])
@pytest.mark.parametrize(
    ("kind", "amount", "blocked_by"),
    [
        ("pole_angle", 180, "pole"),
        ("pose_scale", 2.0, "inherit"),
        ("body_squashed", 0.8, "inherit"),
        ("inherit_rotation_off", 0, "inherit"),
        ("chain_length", 9, "chain_length"),
        ("target", 3, "target"),
        ("control_in_chain", 1, "target"),
        ("roll", 90, None),
        ("pose_rotation", -20, "rest_pose"),
        ("pose_rotation", 70, None),
        ("pose_rotation", 180, "rest_pose"),
    ],
)
def test_a_cut_limb_landing_by_stretch_waits_for_the_faults_it_would_feel(
    limb, kind, amount, blocked_by
) -> None:
    """Once trades (known misses): the cut forearm or shin lands by IK Stretch; parented back,
    it misses by a fault of the limb the cut chain did not feel (a pole angle 180° off, the
    shear of an unevenly scaled upper bone or body, Inherit Rotation off, a chain length that
    would turn the body, a control in the chain or hung from it, a pose that would start the
    joint bent the other way: -20°, or 180° as fresh seed 365's 170° on the arm). The parent
    fix waits and names it; a 90° roll or a pose 70° further, which the parented limb lands
    with, keeps the fix."""
    faults = (Fault("unparented", limb, 0), Fault("stretch", limb, 0.1), Fault(kind, limb, amount))
    judged = judge(faults)
    assert judged.holds, "\n".join(judged.problems())
    cut = next(f for f in judged.findings if f.check_id == "parenting")
    expected = (Severity.WARNING, None if blocked_by else "parent", blocked_by)
    assert (cut.severity, cut.fix_id, cut.stated.get("blocked_by")) == expected


@pytest.mark.parametrize("limb", ["arm", "leg"])
@pytest.mark.parametrize("other", [(), (("no_pole", 0),), (("pole_angle", 180),)])
def test_a_hand_ik_below_a_forearm_ik_reaching_with_its_head_misses(limb, other) -> None:
    """Once warning-only (issue 25, seeds 6262 and 9191 on 5.3): a forearm (shin) IK without
    Use Tail puts its head on the hand (foot) control, the forearm it carries follows no IK,
    and a hand (foot) IK of length 1 on that control cannot span the forearm back: it stops
    138% of its reach short once the forearm turns. duplicates' error on the hand's chain."""
    faults = (
        Fault("tail_off", limb, 0),
        Fault("ik_below", limb, 1),
        *(Fault(kind, limb, amount) for kind, amount in other),
    )
    judged = judge(faults)
    assert judged.holds and not judged.unexplained, "\n".join(judged.problems())
    below = LIMBS[limb].below
    assert next(v.state for v in judged.verdicts if v.owner == below) == "fail"
    pair = next(f for f in judged.findings if f.check_id == "duplicates")
    assert (pair.severity, pair.chain) == (Severity.ERROR, (below, "IK"))


@pytest.mark.parametrize(
    ("faults", "waits"),
    [
        ((Fault("straight_one_sided", "arm", 4), Fault("ik_below", "arm", 2)), True),
        ((Fault("straight_one_sided", "arm", 6), Fault("ik_below", "arm", 2)), True),
        (
            (Fault("straight", "arm", 0), Fault("no_pole", "arm", 0), Fault("ik_below", "arm", 2)),
            True,
        ),
        (
            (
                Fault("straight_one_sided", "arm", 4),
                Fault("ik_below", "arm", 2),
                Fault("body_squashed", "arm", 1.3),
            ),
            True,
        ),
        ((Fault("straight_one_sided", "arm", 0), Fault("ik_below", "arm", 2)), False),
    ],
)
def test_a_straight_arm_landing_beside_a_hand_ik_is_not_pre_bent_into_a_trade(faults, waits):
    """Once trades (issue 25 on 5.3): the straight arm without a pole lands and the hand's IK of
    length 2 on the same control stops 3.2% short; pre-bent, either chain toward any side, the
    hand folds, takes the forearm, and the arm stops 20% short (locks' or inherit's error on
    it). Neither pre-bend is offered. With a pole the straight arm misses either way, and the
    pre-bend, which lands the hand, stays."""
    judged = judge(faults)
    assert judged.holds, "\n".join(judged.problems())
    straight = {f.bone: f for f in judged.findings if f.check_id == "rest_pose"}
    rivals = {"forearm.L": ("hand.L", "IK"), "hand.L": ("forearm.L", "IK")}
    expected = {
        bone: (None, rival) if waits else ("pre_bend", None) for bone, rival in rivals.items()
    }
    assert {b: (f.fix_id, f.stated["rival_ik"]) for b, f in straight.items()} == expected


@pytest.mark.parametrize(
    ("faults", "behind"),
    [
        ((("pole_behind", 0), ("overriding_constraint", 0)), True),
        ((("overriding_constraint", 0), ("pole_behind", 0)), True),
        ((("pole_behind", 0), ("overriding_constraint", 5)), True),
        ((("pole_behind", 0), ("overriding_constraint", 0), ("pole_angle", 60)), True),
        ((("overriding_constraint", 0),), False),
        ((("overriding_constraint", 5),), False),
    ],
)
def test_a_flipped_start_under_a_pole_behind_the_bend_lands(faults, behind) -> None:
    """Once false alarms (issue 25): the shin copying the hips' (or the hand control's)
    rotation starts the knee bent the other way, 180° (91°) from its pole alone, an error; under
    a pole behind the bend the knee ends on its built bend (0.0036% short) or facing the pole,
    and lands: a warning, and the pole stays where it is (moved in front, the knee would flip)."""
    judged = judge(tuple(Fault(kind, "leg", amount) for kind, amount in faults))
    assert judged.holds and not judged.unexplained, "\n".join(judged.problems())
    state = next(v.state for v in judged.verdicts if v.owner == "shin.L")
    assert state == ("pass" if behind else "fail")
    start = next(
        f for f in judged.findings if f.check_id == "constraint_order" and f.bone == "shin.L"
    )
    assert start.severity == (Severity.WARNING if behind else Severity.ERROR)
    if behind:
        pole = next(f for f in judged.findings if f.check_id == "pole" and f.bone == "shin.L")
        assert (pole.fix_id, pole.stated.get("blocked_by")) == (None, "tracking")


@pytest.mark.parametrize("limb", ["arm", "leg"])
def test_a_twin_ik_turning_the_forearm_is_not_muted_while_the_hand_ik_needs_it(limb) -> None:
    """A second IK on the forearm (shin), aimed elsewhere, turns the bones the hand (foot) IK
    hangs from below a forearm IK without Use Tail, and the hand lands; muted, it would leave
    the hand 138% short (a trade): duplicates' error on the twin stands without the fix."""
    faults = (Fault("tail_off", limb, 0), Fault("ik_below", limb, 1), Fault("twin_ik", limb, 0))
    judged = judge(faults)
    assert judged.holds, "\n".join(judged.problems())
    twin = next(f for f in judged.findings if f.check_id == "duplicates")
    assert (twin.severity, twin.constraint, twin.fix_id) == (Severity.ERROR, "IK.001", None)


@pytest.mark.parametrize(
    ("limb", "one_sided", "squash", "fails"),
    [
        ("arm", 4, 0.8, True),
        ("arm", 7, 0.8, True),
        ("leg", 5, 1.3, True),
        ("arm", 4, 1.3, False),
        ("leg", 5, 0.8, False),
        ("arm", 6, 1.5, True),  # hinges limited opposite ways: short either way (seed 80)
        ("arm", 7, 1.05, True),
        ("leg", 6, 0.8, True),
        ("leg", 7, 0.95, True),
        ("arm", 5, 0.95, False),  # 1.05 times wider across the fold: lands (seed 169)
        ("leg", 4, 1.06, False),
        ("arm", 5, 1.45, True),  # 1.45 times longer along the line: 1.6% short (seed 169)
        ("leg", 4, 0.7, True),
    ],
)
def test_a_straight_limb_folding_across_a_stretch_it_inherits_has_its_error(
    limb, one_sided, squash, fails
) -> None:
    """Once warning-only (issue 25 on 5.3): straight without a pole, folding by its limits,
    under a shoulder or hips scaled (0.8, 1, 1.25) or (1.3, 1, 0.77). Where the scale its root
    inherits across the fold exceeds the one along the chain by 1.09 times or more it stops
    short (and pre-bent still misses: no pre-bend), and so it does where the one along the
    chain exceeds the other by 1.32 times or more (seed 169, warning-only at 1.45); between, it
    lands (a warning; seed 169's arm at 1.05 was a false error). With both hinges limited
    one-sided, opposite ways, it stops short either way (0.4% to 11% of the reach, measured
    from 0.6 to 1.6)."""
    faults = (Fault("straight_one_sided", limb, one_sided), Fault("body_squashed", limb, squash))
    judged = judge(faults)
    assert judged.holds and not judged.unexplained, "\n".join(judged.problems())
    straight = next(f for f in judged.findings if f.check_id == "rest_pose")
    lands = next(v.state for v in judged.verdicts if v.owner == LIMBS[limb].owner) == "pass"
    assert (straight.severity, lands) == (
        (Severity.ERROR, False) if fails else (Severity.WARNING, True)
    )
    assert not fails or straight.fix_id is None


@pytest.mark.parametrize("limb", ["arm", "leg"])
@pytest.mark.parametrize("other", [(), (("stretch", 0.1),), (("pole_angle", 180),)])
def test_a_cut_forearm_reaching_with_its_head_waits_for_the_hand_ik_it_carries(limb, other) -> None:
    """Once a trade (issue 25): the cut forearm's IK without Use Tail does nothing and the
    hand's IK of length 1 on the same control lands; parented back, the forearm's chain puts
    the elbow on the control and the hand misses by 138%. The parent fix waits, naming the
    hand's IK; a hand IK of length 2, which turns the forearm too, keeps the fix."""
    extra = tuple(Fault(kind, limb, amount) for kind, amount in other)
    for below, waits in ((1, True), (2, False)):
        faults = (
            Fault("unparented", limb, 0),
            Fault("tail_off", limb, 0),
            *extra,
            Fault("ik_below", limb, below),
        )
        judged = judge(faults)
        assert judged.holds, "\n".join(judged.problems())
        cut = next(f for f in judged.findings if f.check_id == "parenting")
        assert (cut.fix_id is None, "rival_ik" in cut.stated) == (waits, waits)


def _connect_thigh_to_the_hips(rig) -> None:
    """By hand: the parenting check no longer offers it where the leg's chain reaches into the
    hips (seed 141), but a rig so connected is still one a rigger can make."""
    with edit_bones(rig) as bones:
        bones["thigh.L"].use_connect = True
    bpy.context.view_layer.update()


def test_the_oracle_reads_a_mirrored_rig_as_the_same_rig() -> None:
    """Once a trade on a mirrored rig: the oracle read the posed bend in world space and the
    rest bend in armature space, so with the object scaled -1 a leg resting 90° from its pole
    (its thigh connected to the hips, the IK without Use Tail reaching into them) bent 180°
    from its rest bend read as bent as built, and passed where unmirrored it failed."""
    rig = faulted_limbs.faulted_rig((Fault("tail_off", "leg", 0),))
    _connect_thigh_to_the_hips(rig)
    plain = {v.key: (v.state, v.bend_turn) for v in judge_chains(rig)}
    rig.scale = (-1.0, 1.0, 1.0)
    mirrored = {v.key: (v.state, v.bend_turn) for v in judge_chains(rig)}
    assert plain[("shin.L", "IK")][0] == "fail"
    assert {k: s for k, (s, _) in mirrored.items()} == {k: s for k, (s, _) in plain.items()}
    for key, (_state, turn) in plain.items():
        assert (mirrored[key][1] is None) == (turn is None)
        assert turn is None or mirrored[key][1] == pytest.approx(turn, abs=1.0)


@pytest.mark.parametrize("one_sided", [1, 3])
@pytest.mark.parametrize("stretch", [0.005, 0.5])
def test_a_straight_arm_bent_as_its_limits_fold_it_bends_as_built(one_sided, stretch) -> None:
    """Once a warning only: a straight arm whose one-sided limits fold it away from its pole,
    stretching, bends that way once the shoulder turns 40° about Z; the oracle read a straight
    chain's rest bend as the pole's side and failed it 180° from its rest bend. Its bend is the
    side its limits fold it to, for the oracle as for the checks: it bends as built."""
    faults = (Fault("straight_one_sided", "arm", one_sided), Fault("stretch", "arm", stretch))
    judged = judge(faults)
    assert judged.holds and not judged.unexplained, "\n".join(judged.problems())
    (verdict,) = [v for v in judged.verdicts if v.owner == "forearm.L"]
    assert verdict.state == "pass", verdict.reason


@pytest.mark.parametrize("spline", [0, 1])
def test_a_dead_spline_ik_overrides_no_track_that_starts_a_straight_arm_bent(spline) -> None:
    """Once a trade (agreement seed 82, off the grid): a Spline IK with no curve beside a Damped
    Track at the hand on a straight arm was said to override the track, and muting it took the
    bend the track gives the solver's start: the arm stopped 3.4% of its reach short. Blender
    skips a Spline IK with no curve, so it overrides nothing."""
    faults = (
        Fault("dead_spline_ik", "arm", spline),
        Fault("straight", "arm", 0),
        Fault("overriding_constraint", "arm", 1),
    )
    judged = judge(faults)
    assert [f for f in judged.findings if f.check_id == "spline_influence"] == []
    assert judged.holds, "\n".join(judged.problems())


@pytest.mark.parametrize("override", [2, 5])
def test_a_start_that_folds_an_arm_aimed_along_its_line_is_not_muted(override) -> None:
    """A straight arm without a pole whose line an upper-arm IK without Use Tail aims at the
    hand control (``rest_pose``'s "Straight, aimed along it") lands when a Track To at the
    control or a Copy Rotation of another control starts it bent; muted, it stopped 4.3% short
    (a trade), so ``constraint_order`` calls it a pre-bend and offers no mute."""
    faults = (
        Fault("ik_above", "arm", 0),
        Fault("straight_one_sided", "arm", 6),
        Fault("overriding_constraint", "arm", override),
    )
    judged = judge(faults)
    assert judged.holds, "\n".join(judged.problems())
    (order,) = [f for f in judged.findings if f.check_id == "constraint_order"]
    assert (order.title.endswith("pre-bends"), order.fix_id) == (True, None)


@pytest.mark.parametrize("one_sided", [2, 3, 6, 7])
def test_a_straight_joint_inside_a_longer_chain_folds_the_way_its_limit_lets_it(one_sided) -> None:
    """Seed 94's false error: the arm straight, its hinges limited one way each, with chain
    length 3 (the shoulder bent at rest). The elbow gives the solver no side, so its limit
    chooses: without a pole (6, 7) the arm lands and ``locks`` says nothing; with one (2, 3) it
    fails, and ``rest_pose``'s error names it. The hinges lean opposite ways, so no pre-bend
    suits both: where it would bend the forearm against its limit it is not offered (pre-bent
    to the back, the arm still landed and ``locks`` called the limit too narrow, a trade)."""
    faults = (Fault("straight_one_sided", "arm", one_sided), Fault("chain_length", "arm", 3))
    judged = judge(faults)
    assert judged.holds and not judged.unexplained, "\n".join(judged.problems())
    errors = {f.check_id for f in judged.findings if f.severity == Severity.ERROR}
    assert "locks" not in errors


def test_an_arm_carried_by_a_leg_ik_turning_the_hips_is_revealed_by_the_legs_fix() -> None:
    """Seed 93: the leg's IK without Use Tail turns the hips, and the arm, its forearm's Damped
    Track aimed at the elbow pole, lands so turned (the Damped Track a warning). Each fix of the
    leg keeps the hips still, and the arm fails as it does alone, with its error: revealed, not
    a trade."""
    faults = (Fault("tail_off", "leg", 0), Fault("overriding_constraint", "arm", 3))
    judged = judge(faults)
    assert judged.holds, "\n".join(judged.problems())
    arm = judge((faults[1],), fixes=False)
    assert [v.state for v in arm.verdicts if v.owner == "forearm.L"] == ["fail"]
    order = [f for f in arm.findings if f.check_id == "constraint_order"]
    assert [f.severity for f in order] == [Severity.ERROR]


@pytest.mark.parametrize("in_chain", [0, 1])
def test_a_shin_copying_a_control_its_arm_carried_is_revealed_by_the_cycle_fix(in_chain) -> None:
    """Seeds 172 and 175: the shin copies the rotation of the hand control, which hangs in the
    arm's chain (the cycle check's error) and turns with the arm, so the leg lands (the copy a
    warning), in most processes: the order Blender breaks that dependency cycle in decides it
    (below, "Known misses"). Reparented, the control no longer turns, and the leg bends 91.35°
    from its pole with the body turned, as it does alone, with its error: revealed, not a
    trade."""
    faults = (Fault("control_in_chain", "arm", in_chain), Fault("overriding_constraint", "leg", 5))
    assert judge(faults).trades == []
    leg = judge((faults[1],), fixes=False)
    assert [v.state for v in leg.verdicts if v.owner == "shin.L"] == ["fail"]
    order = [f for f in leg.findings if f.check_id == "constraint_order"]
    assert [f.severity for f in order] == [Severity.ERROR]


def test_an_ik_inside_a_chain_whose_ik_blender_marks_invalid_is_not_held_by_it() -> None:
    """Seed 93: the leg's IK aimed at the armature itself, without a bone, is invalid in Blender
    and moves nothing; the thigh IK inside its chain lands, and ``constraint_order`` called it
    missing its target. The leg's own error (``target``) stands."""
    faults = (Fault("ik_above", "leg", 1), Fault("target", "leg", 2))
    judged = judge(faults)
    assert judged.holds and not judged.unexplained, "\n".join(judged.problems())
    assert [v.state for v in judged.verdicts if v.owner == "thigh.L"] == ["pass"]
    errors = {(f.check_id, f.bone) for f in judged.findings if f.severity == Severity.ERROR}
    assert ("target", "shin.L") in errors and ("constraint_order", "thigh.L") not in errors


@pytest.mark.parametrize(
    ("limb", "one_sided", "keyed", "fails"),
    [
        ("leg", 6, 0.8, True),  # seed 177
        ("arm", 7, 1.0, True),  # seed 182
        ("leg", 6, 0.3, False),
        ("arm", 5, 1.0, False),  # only the lower hinge limited: lands
    ],
)
def test_a_straight_limb_with_opposed_hinges_keyed_out_of_its_fold_stops_short(
    limb, one_sided, keyed, fails
) -> None:
    """Seeds 177 and 182 (warnings only): straight, no pole, its hinges limited opposite ways,
    the upper bone keyed (a, a/2, 0) rad: at 0.8 and 1.0 its direction swings 16° and 24° out of
    the plane the limits fold it in, and the limb stops 0.13% short; at 0.3 (2.5°) it lands, and
    with only the lower hinge limited it lands keyed either way."""
    faults = (Fault("straight_one_sided", limb, one_sided), Fault("fk_keys", limb, keyed))
    judged = judge(faults)
    assert judged.holds and not judged.unexplained, "\n".join(judged.problems())
    lands = next(v.state for v in judged.verdicts if v.owner == LIMBS[limb].owner) == "pass"
    straight = next(f for f in judged.findings if f.check_id == "rest_pose")
    assert (straight.title == "Straight, posed out of its fold", lands) == (fails, not fails)
    assert not fails or (straight.severity, straight.fix_id) == (Severity.ERROR, None)


@pytest.mark.parametrize("limb", ["arm", "leg"])
@pytest.mark.parametrize(
    ("bone", "degrees", "fails"), [("owner", 10, True), ("parent", 10, True), ("owner", 5, False)]
)
def test_a_bone_of_a_straight_limb_with_opposed_hinges_posed_out_of_its_fold(
    limb, bone, degrees, fails
) -> None:
    """Measured on 4.2: a bone of that limb posed turned about its own Z, out of the plane its
    limits fold it in, stops 0.12% short from 8° (0.10% at 7°, 0.078% at 6°), root or lower
    bone alike; at 5° it lands."""
    rig = faulted_limbs.faulted_rig((Fault("straight_one_sided", limb, 6),))
    owner = LIMBS[limb].owner
    posed = rig.pose.bones[getattr(LIMBS[limb], bone)]
    posed.rotation_mode = "XYZ"
    posed.rotation_euler = (0.0, 0.0, math.radians(degrees))
    bpy.context.view_layer.update()
    (verdict,) = [v for v in judge_chains(rig) if v.owner == owner]
    (finding,) = [f for f in diagnose(rig) if f.check_id == "rest_pose" and f.bone == owner]
    assert (verdict.state == "fail", finding.severity == Severity.ERROR) == (fails, fails)
