"""The duplicates check: two IKs on one bone, or two chains of one limb aimed at one control."""

from __future__ import annotations

import math

import bpy
import pytest
from faulted_limbs import LIMBS, Fault, faulted_rig, judge
from solving import assert_ik_works, findings_of, pose_snapshot

from ik_doctor import Severity, apply_fix, diagnose, run_fix, solve_within_reach
from ik_doctor.core.editing import edit_bones
from ik_doctor.verify.oracle import judge_chains


def _add_ik(rig: bpy.types.Object, owner: str, target: str, count: int):
    constraint = rig.pose.bones[owner].constraints.new("IK")
    constraint.target, constraint.subtarget, constraint.chain_count = rig, target, count
    return constraint


def _tip_error(rig: bpy.types.Object, owner: str, constraint: str) -> float:
    return next(
        s.tip_error
        for s in solve_within_reach(rig)
        if (s.owner, s.constraint) == (owner, constraint)
    )


def _fix_and_prove(rig: bpy.types.Object, finding, owners: list[str]) -> None:
    before = pose_snapshot(rig)
    apply_fix(finding)
    constraint = rig.pose.bones[finding.bone].constraints.get(finding.constraint)
    assert pose_snapshot(rig) == before
    if finding.fix_id == "agree":
        assert constraint.use_tail == finding.args["use_tail"]
        assert {v.key: v.state for v in judge_chains(rig)}[finding.chain] == "pass"
        # Two IKs on one goal solve; that they agree is worth a warning, no more.
        assert [f.severity for f in findings_of(rig, "duplicates")] == [Severity.WARNING]
    else:
        assert constraint is None if finding.fix_id == "remove" else constraint.mute
        assert findings_of(rig, "duplicates") == []
    assert [f for f in diagnose(rig) if f.severity == Severity.ERROR] == [], (
        "no other check objects"
    )
    assert_ik_works(rig, owners)
    assert not run_fix(finding).changed


def test_second_ik_on_the_shin_aimed_elsewhere_fights_the_first(rig) -> None:
    second = _add_ik(rig, "shin.L", "hand_ik.L", 2)
    assert _tip_error(rig, "shin.L", second.name) > 0.1
    (finding,) = findings_of(rig, "duplicates")
    assert (finding.bone, finding.constraint, finding.fix_id) == ("shin.L", second.name, "mute")
    assert finding.severity == Severity.ERROR and finding.needs_confirmation
    apply_fix(finding)
    assert [f for f in diagnose(rig) if f.severity == Severity.ERROR] == [], "a muted twin is fine"
    assert second.mute and not rig.pose.bones["shin.L"].constraints["IK"].mute
    assert findings_of(rig, "duplicates") == []
    assert _tip_error(rig, "shin.L", "IK") < 1e-3
    assert not run_fix(finding).changed


def test_second_ik_on_the_shin_aimed_at_the_same_foot_is_redundant(rig) -> None:
    second = _add_ik(rig, "shin.L", "foot_ik.L", 2)
    (finding,) = findings_of(rig, "duplicates")
    assert (finding.constraint, finding.severity) == (second.name, Severity.WARNING)
    _fix_and_prove(rig, finding, ["shin.L"])


def test_foot_ik_overlapping_the_leg_on_the_same_control_leaves_the_shin_short(rig) -> None:
    _add_ik(rig, "foot.L", "foot_ik.L", 3)
    assert _tip_error(rig, "shin.L", "IK") > 0.1
    (finding,) = findings_of(rig, "duplicates")
    assert (finding.bone, finding.severity, finding.fix_id) == ("foot.L", Severity.ERROR, "agree")
    assert finding.chain == ("shin.L", "IK"), "the shin's IK is the one that misses"
    assert finding.stated["control"] == (rig.name, "foot_ik.L")
    assert dict(finding.fix_args) == {"use_tail": False, "chain_count": 2}, "shin and thigh"
    _fix_and_prove(rig, finding, ["shin.L", "foot.L"])


def test_switch_pair_with_a_muted_or_driven_ik_is_not_reported(rig) -> None:
    second = _add_ik(rig, "shin.L", "foot_ik.L", 2)
    second.mute = True
    assert findings_of(rig, "duplicates") == []
    second.mute = False
    driver = rig.driver_add(f'pose.bones["shin.L"].constraints["{second.name}"].influence')
    driver.driver.expression = "0"
    assert findings_of(rig, "duplicates") == []


def test_chains_sharing_only_a_pole_are_not_duplicates(rig) -> None:
    ik = rig.pose.bones["forearm.L"].constraints["IK"]
    ik.pole_subtarget = "knee_pole.L"
    assert findings_of(rig, "duplicates") == []


def test_reference_rig_has_one_ik_per_limb(rig) -> None:
    assert findings_of(rig, "duplicates") == []


@pytest.mark.parametrize(
    ("owner", "control", "upper", "short"),
    [("foot.L", "foot_ik.L", "shin.L", 0.05), ("hand.R", "hand_ik.R", "forearm.R", 0.005)],
)
def test_ik_below_the_limbs_ik_reaching_its_control_with_the_tail_misses(
    rig, owner, control, upper, short
) -> None:
    """Issue 13: two IKs on neighbouring bones aimed at one control, one reaching with its tail,
    the other with its head (the shin's tail is the foot's head). The upper chain is solved
    first; the lower one, left at the control, cannot bring its tail there too (measured: the
    foot stays 0.10 short, 58% of its reach, the hand 8.6%)."""
    lower = _add_ik(rig, owner, control, 1)
    verdict = next(v for v in judge_chains(rig) if v.owner == owner)
    assert verdict.state == "fail" and verdict.tip_error > short
    (finding,) = findings_of(rig, "duplicates")
    assert (finding.bone, finding.severity, finding.fix_id) == (owner, Severity.ERROR, "agree")
    assert finding.chain == (owner, lower.name) and not finding.needs_confirmation
    assert finding.stated["shared"] == (), "apart: tips at different points"
    assert upper in [owner for owner, _ik in finding.stated["iks"]]
    before = pose_snapshot(rig)
    apply_fix(finding)
    assert not lower.use_tail, "the lower IK now reaches with the head, where the upper's tip is"
    assert pose_snapshot(rig) == before
    assert {v.owner: v.state for v in judge_chains(rig)}[owner] == "pass"
    assert [f for f in diagnose(rig) if f.severity == Severity.ERROR] == []
    assert [f.severity for f in findings_of(rig, "duplicates")] == [Severity.WARNING]
    assert_ik_works(rig, [owner, upper])
    assert not run_fix(finding).changed


def test_thigh_ik_on_the_foot_control_is_the_one_removed(rig) -> None:
    """Its tail is the knee and the shin's tip is already where the control was placed: no Use
    Tail makes them agree, and deleting the later IK (the shin's) would break the leg."""
    thigh = _add_ik(rig, "thigh.L", "foot_ik.L", 1)
    assert next(v for v in judge_chains(rig) if v.owner == "thigh.L").state == "fail"
    (finding,) = findings_of(rig, "duplicates")
    assert (finding.bone, finding.constraint) == ("thigh.L", thigh.name)
    assert (finding.severity, finding.fix_id) == (Severity.ERROR, "remove")
    _fix_and_prove(rig, finding, ["shin.L"])


def test_ik_on_the_other_leg_aimed_at_the_same_control_is_not_one_limb(rig) -> None:
    _add_ik(rig, "foot.R", "foot_ik.L", 1)
    assert findings_of(rig, "duplicates") == []


@pytest.mark.parametrize("missing", ["none", "no such bone", ""])
def test_ik_without_a_target_beside_a_twin_pulls_nothing_and_is_no_duplicate(rig, missing) -> None:
    second = _add_ik(rig, "shin.L", "hand_ik.L", 2)
    first = rig.pose.bones["shin.L"].constraints["IK"]
    if missing == "none":
        first.target = None
    else:
        first.subtarget = missing
    states = {v.constraint: v.state for v in judge_chains(rig) if v.owner == "shin.L"}
    assert states == {"IK": "fail", second.name: "pass"}
    assert findings_of(rig, "duplicates") == []


@pytest.mark.parametrize(
    ("owner", "upper", "control", "short"),
    [("forearm.L", "upper_arm.L", "hand_ik.L", 0.04), ("shin.L", "thigh.L", "foot_ik.L", 0.03)],
)
def test_ik_of_length_one_under_an_upper_ik_on_its_control_misses(
    rig, owner, upper, control, short
) -> None:
    """Issue 13 (silent before): the upper IK cannot reach the control, so it points its bone
    straight at it, and the one-bone chain below spans exactly the rest: it lands only with the
    limb straight (measured: the arm 4.4% of its reach short, the leg 3.5%)."""
    rig.pose.bones[owner].constraints["IK"].chain_count = 1
    _add_ik(rig, upper, control, 1)
    verdicts = {v.owner: v for v in judge_chains(rig)}
    assert verdicts[owner].fails and verdicts[owner].tip_error > short * verdicts[owner].reach
    assert verdicts[upper].state == "pass"
    (finding,) = findings_of(rig, "duplicates")
    assert (finding.chain, finding.severity) == ((owner, "IK"), Severity.ERROR)
    assert (finding.bone, finding.fix_id) == (upper, "remove")
    apply_fix(finding)
    assert findings_of(rig, "duplicates") == []
    assert [f.severity for f in findings_of(rig, "chain_length")] == [Severity.ERROR], (
        "alone, the chain of length 1 still freezes the upper bone"
    )


@pytest.mark.parametrize("limb", ["leg", "arm"])
def test_ik_of_length_one_under_an_upper_ik_misses_on_a_limb_straight_at_rest(limb) -> None:
    """Fresh seed 287 (silent before): on a limb straight at rest the control sits a bone's
    length beyond the upper tip at rest, so the one-bone chain below seemed to span it; it spans
    only that one distance and misses every nearer goal (measured: 3.0% of the reach)."""
    judged = judge(
        (Fault("chain_length", limb, 1), Fault("ik_above", limb, 1), Fault("straight", limb, 0))
    )
    owner = {"leg": "shin.L", "arm": "forearm.L"}[limb]
    assert [v.state for v in judged.verdicts if v.owner == owner] == ["fail"]
    assert list(judged.problems()) == []
    (finding,) = [f for f in judged.findings if f.check_id == "duplicates"]
    assert (finding.chain, finding.severity) == ((owner, "IK"), Severity.ERROR)


@pytest.mark.parametrize(
    ("owner", "upper", "control"),
    [("shin.L", "thigh.L", "foot_ik.L"), ("forearm.L", "upper_arm.L", "hand_ik.L")],
)
def test_ik_along_a_straight_chain_on_its_control_lands_and_is_a_warning(
    rig, owner, upper, control
) -> None:
    """A straight leg (arm) with a pole never folds: its IK only aims the straight line at the
    control, along which the thigh's (upper arm's) IK on the same control aims too, and that
    one lands (measured). Posed 20° toward the pole the limb folds, wins the thigh and the
    thigh's IK misses its whole reach: an error. Pre-bending would do the same: no pre-bend."""
    with edit_bones(rig) as bones:
        top, lower = bones[upper], bones[owner]
        top.tail = (top.head + lower.tail) / 2
    _add_ik(rig, upper, control, 1)
    states = {v.owner: v.state for v in judge_chains(rig)}
    assert (states[upper], states[owner]) == ("pass", "fail")
    (finding,) = findings_of(rig, "duplicates")
    assert (finding.chain, finding.severity) == ((upper, "IK"), Severity.WARNING)
    assert finding.title == "Two IKs, one straight"
    (straight,) = findings_of(rig, "rest_pose")
    assert straight.fix_id is None and straight.stated["rival_ik"] == (upper, "IK")
    # Seed 161: a Spline IK Blender skips (no target) sets no start: the upper IK lands.
    dead = rig.pose.bones[owner].constraints.new("SPLINE_IK")
    dead.chain_count = 2
    assert next(v.state for v in judge_chains(rig) if v.owner == upper) == "pass"
    (finding,) = findings_of(rig, "duplicates")
    assert (finding.severity, finding.title) == (Severity.WARNING, "Two IKs, one straight")
    # Seed 157: the upper bone turned (keyed, as FK) keeps the limb straight, and both still
    # lay one line: the upper IK lands.
    rig.pose.bones[upper].rotation_mode = "XYZ"
    rig.pose.bones[upper].rotation_euler = (0.8, 0.4, 0.0)
    rig.pose.bones[upper].keyframe_insert("rotation_euler")
    assert next(v.state for v in judge_chains(rig) if v.owner == upper) == "pass"
    (finding,) = findings_of(rig, "duplicates")
    assert (finding.severity, finding.title) == (Severity.WARNING, "Two IKs, one straight")
    rig.pose.bones[owner].rotation_mode = "XYZ"
    rig.pose.bones[owner].rotation_euler = (0.35, 0.0, 0.0)
    assert next(v.state for v in judge_chains(rig) if v.owner == upper) == "fail"
    (finding,) = findings_of(rig, "duplicates")
    assert finding.severity == Severity.ERROR


@pytest.mark.parametrize(
    ("limb", "limit", "fails"),
    [
        (("forearm.L", "upper_arm.L", "hand_ik.L"), 20, True),
        (("forearm.L", "upper_arm.L", "hand_ik.L"), 32, True),
        (("forearm.L", "upper_arm.L", "hand_ik.L"), None, False),
        (("shin.L", "thigh.L", "foot_ik.L"), 24, True),
        (("shin.L", "thigh.L", "foot_ik.L"), 60, False),
    ],
)
def test_an_upper_ik_without_tail_pulls_the_limb_nearer_than_its_limits_fold(
    rig, limb, limit, fails
) -> None:
    """Agreement seed 80 (silent before): an upper-arm or thigh IK of chain length 1 without
    Use Tail on the limb's control turns the shoulder or hips to point its head at the control,
    so the limb's root comes nearer each goal than at rest. Free, the lower joint folds as far
    as it must; limited about X it may not (the arm at ±20° to ±32° stops 0.2% to 0.7% of its
    reach short, the leg at ±24° 0.7%), but pulled much nearer the joint folds about its free Z
    axis and lands: a warning, whose fix (deleting the upper IK) lands the limb. An error on the
    arm (fresh seeds 225 and 232, a miss): its root lies on the line of the shoulder the solver
    aims, where the model holds, and comes only 0.2% to 0.5% of the reach nearer than the
    forearm folds; the leg's thigh sits beside the hips, where the model says 11% nearer."""
    owner, upper, control = limb
    joint = rig.pose.bones[owner]
    if limit is not None:
        joint.use_ik_limit_x = True
        joint.ik_min_x, joint.ik_max_x = -math.radians(limit), math.radians(limit)
    _add_ik(rig, upper, control, 1).use_tail = False
    states = {v.owner: v.state for v in judge_chains(rig)}
    assert states[owner] == ("fail" if fails else "pass")
    pair = [f for f in findings_of(rig, "duplicates") if f.chain == (owner, "IK")]
    assert [(f.severity, f.bone, f.fix_id) for f in pair] == (
        [(Severity.ERROR if upper == "upper_arm.L" else Severity.WARNING, upper, "remove")]
        if limit and fails
        else []
    )
    if pair:
        apply_fix(pair[0])
        assert {v.owner: v.state for v in judge_chains(rig)}[owner] == "pass"


@pytest.mark.parametrize(
    ("owner", "control", "tails"),
    [
        ("upper_arm.L", "hand_ik.L", (True, False)),
        ("upper_arm.L", "hand_ik.L", (False, True)),
        ("thigh.L", "foot_ik.L", (True, False)),
    ],
)
def test_two_iks_on_one_bone_one_at_its_head_one_at_its_tail_the_later_misses(
    rig, owner, control, tails
) -> None:
    """Issue 25 (fresh seed 119, warnings only): on one bone, an IK with Use Tail and one
    without, both of length 1 on the limb's control, put its tail and its head on one point.
    The later one misses (the upper arm's head 42% of its reach, its tail 12%, the thigh's head
    23%); the first lands. The limb's own IK is muted so that only the pair acts."""
    limb_owner = "forearm.L" if owner == "upper_arm.L" else "shin.L"
    rig.pose.bones[limb_owner].constraints["IK"].mute = True
    for use_tail in tails:
        ik = rig.pose.bones[owner].constraints.new("IK")
        ik.target, ik.subtarget, ik.chain_count, ik.use_tail = rig, control, 1, use_tail
    bpy.context.view_layer.update()
    states = {v.constraint: v.state for v in judge_chains(rig) if v.owner == owner}
    assert states == {"IK": "pass", "IK.001": "fail"}
    errors = [f for f in findings_of(rig, "duplicates") if f.severity == Severity.ERROR]
    (finding,) = [f for f in errors if f.chain == (owner, "IK.001")]
    assert finding.message.endswith(f"IK 'IK.001' on {owner} misses its target.")


@pytest.mark.parametrize("limb", ["leg", "arm"])
@pytest.mark.parametrize("counts", [(2, 1), (1, 2), (1, 3), (3, 3)])
def test_two_iks_below_the_limbs_on_its_control_name_the_chain_that_misses(limb, counts) -> None:
    """Issue 25 (seeds 117, 122 and 123, false errors): two IKs on the foot (or the hand), of
    lengths 1 and 2, on the leg's control. The one of length 1 lands in either order (its twin
    of length 2 puts its tip there); of the twin and the leg's IK, which share the shin, the leg
    misses when the twin comes first on the foot and the twin when it comes second. Two of
    length 3 both turn the leg's bones: the leg's IK misses, as alone (seed 13)."""
    judged = judge(tuple(Fault("ik_below", limb, count) for count in counts))
    assert judged.holds, "\n".join(judged.problems())


def test_two_foot_iks_turning_the_whole_leg_leave_the_legs_ik_the_one_that_misses() -> None:
    """Seed 13: two foot IKs of length 3 and the shin limited to ±60°; the foot IKs land."""
    faults = (
        Fault("ik_below", "leg", 3),
        Fault("ik_below", "leg", 3),
        Fault("ik_limit", "leg", 60),
    )
    judged = judge(faults)
    assert judged.holds, "\n".join(judged.problems())


@pytest.mark.parametrize(
    ("owner", "target", "count", "use_tail", "title"),
    [
        ("hand.L", "hand_ik.L", 3, False, "Two IKs race"),
        ("upper_arm.L", "hand_ik.L", 1, True, "Two IKs race"),
        ("upper_arm.L", "hand_ik.L", 2, True, "Duplicate IK"),
        ("hand.L", "hand_ik.L", 2, False, "Duplicate IK"),
        ("foot.L", "foot_ik.L", 1, False, "Duplicate IK"),
        ("forearm.L", "hand_ik.L", 3, True, "Duplicate IK"),
    ],
)
def test_agreeing_iks_whose_lower_one_starts_above_the_others_root_race(
    rig, owner, target, count, use_tail, title
) -> None:
    """Seed 228, and seeds 179 to 213 before it (a miss, 'the racy upper-arm pair'): two IKs on
    one control with their tips on one point land or miss from solve to solve. Blender solves
    them as two trees on its threads at once where the IK on the lower bone starts its chain
    above the other's root (the arm's IK without Use Tail, from the shoulder, beside the upper
    arm's of length 1). Measured with other work running: 1 to 6 of 30 solves missed; from one
    root, on one bone, or the lower chain starting below the other's root, none of 60 to 100.
    Whether a given solve misses is the threads', so only the deleted pair's landing is
    asserted."""
    rig.pose.bones["forearm.L"].constraints["IK"].use_tail = owner != "upper_arm.L"
    added = _add_ik(rig, owner, target, count)
    added.use_tail = use_tail
    (finding,) = findings_of(rig, "duplicates")
    assert finding.title == title
    assert finding.severity == (Severity.ERROR if title == "Two IKs race" else Severity.WARNING)
    if finding.severity == Severity.ERROR:
        assert "now and then one of them misses" in finding.message
        apply_fix(finding)
        for _solve in range(10):
            assert not [v.key for v in judge_chains(rig) if v.fails]


def test_an_ik_paired_twice_keeps_the_worse_of_its_findings() -> None:
    """Agreement seed 150 (an error missed): the arm's IK without Use Tail puts the elbow on the
    hand control, so the hand's IK of length 1 on that control misses (138%); the same arm IK
    paired with an upper-arm IK on that control was a warning, which, found first, hid the
    error. That pair races on Blender's threads (its chains start at different bones), an error
    too, and kept beside the hand's whichever is found first."""
    faults = (Fault("ik_above", "arm", 1), Fault("ik_below", "arm", 1), Fault("tail_off", "arm", 0))
    rig = faulted_rig(faults)
    assert {v.owner: v.state for v in judge_chains(rig)}["hand.L"] == "fail"
    found = [f for f in findings_of(rig, "duplicates") if f.bone == "forearm.L"]
    assert {f.severity for f in found} == {Severity.ERROR}
    assert sorted(f.title for f in found) == ["Two IKs race", "Two IKs, one control"]
    assert any("hand.L" in f.message for f in found)


@pytest.mark.parametrize(
    ("limb", "upper", "lower"), [("arm", "upper_arm.L", "hand.L"), ("leg", "thigh.L", "foot.L")]
)
def test_an_ik_without_use_tail_that_stretches_onto_the_control_leaves_the_ik_below_short(
    limb, upper, lower
) -> None:
    """Seed 222's neighbours: the limb's IK without Use Tail reaches the hand or foot control
    only by stretching its upper bone; stretched, it puts the elbow or knee on the control, and
    the hand's or foot's IK of length 2 below it misses (70% to 120% of its reach, at IK Stretch
    0.01 to 1). Out of reach without stretch it only aims the joint, and the IK below lands."""
    rig = faulted_rig((Fault("ik_below", limb, 2), Fault("tail_off", limb, 0)))
    assert not [f for f in findings_of(rig, "duplicates") if f.severity == Severity.ERROR]
    rig.pose.bones[upper].ik_stretch = 0.1
    assert {v.owner: v.state for v in judge_chains(rig)}[lower] == "fail"
    (finding,) = [f for f in findings_of(rig, "duplicates") if f.severity == Severity.ERROR]
    assert f"IK 'IK' on {lower} misses its target" in finding.message
    apply_fix(finding)
    assert {v.owner: v.state for v in judge_chains(rig)}[lower] == "pass"


@pytest.mark.parametrize("limb", ["leg", "arm"])
def test_an_ik_whose_two_pairs_leave_two_chains_short_names_each(limb) -> None:
    """Fresh seed 206 (a silent failure): the limb's IK at length 1, an IK of length 1 on its
    parent and one of length 3 on the bone below, all on the limb's control. Both pairs the
    parent's IK is in change that IK, and each leaves another chain short: the limb's own (50%
    of its reach) and the parent's, which the IK of length 3 turns (137%). One finding kept per
    IK named only the first."""
    faults = (
        Fault("chain_length", limb, 1),
        Fault("ik_above", limb, 1),
        Fault("ik_below", limb, 3),
    )
    judged = judge(faults)
    assert judged.holds, "\n".join(judged.problems())
    parent = "upper_arm.L" if limb == "arm" else "thigh.L"
    errors = [f for f in judged.findings if f.check_id == "duplicates" and f.bone == parent]
    assert {f.chain[0] for f in errors if f.severity == Severity.ERROR} == {
        parent,
        "forearm.L" if limb == "arm" else "shin.L",
    }


@pytest.mark.parametrize("limb", ["leg", "arm"])
@pytest.mark.parametrize("amounts", [(0, 1), (1, 0)])
def test_a_third_ik_agreeing_with_the_first_lands_beside_it(limb, amounts) -> None:
    """Seeds 168 and 169 (false errors): the limb's IK, a second on its bone aimed at another
    limb's control and a third aimed at its own, in either order. The first wins the tree and
    the one agreeing with it lands too: only the one aimed elsewhere misses, one error."""
    faults = tuple(Fault("twin_ik", limb, amount) for amount in amounts)
    judged = judge(faults)
    assert judged.holds, "\n".join(judged.problems())
    errors = [f for f in judged.findings if f.severity == Severity.ERROR]
    assert [f.check_id for f in errors] == ["duplicates"]


@pytest.mark.parametrize(
    ("faults", "owner"),
    [
        ((Fault("ik_above", "leg", 0), Fault("chain_length", "leg", 1)), "shin.L"),
        ((Fault("ik_above", "arm", 0), Fault("chain_length", "arm", 1)), "forearm.L"),
        ((Fault("ik_below", "leg", 1),), "foot.L"),
        ((Fault("ik_below", "arm", 1),), "hand.L"),
    ],
)
def test_a_lower_chain_that_lands_only_by_stretching_is_a_warning(faults, owner) -> None:
    """Fresh seed 192 (a false error): two IKs on one control, one above the other. The lower
    chain cannot turn its tip onto the control from where the upper leaves the limb (204%, 39%,
    59% and 8.6% of its reach short), but with IK Stretch on its bone it lands, lengthened or
    shrunk toward its head: a warning that says so, not an error that it misses."""
    rig = faulted_rig(faults)
    (verdict,) = [v for v in judge_chains(rig) if v.owner == owner]
    assert verdict.fails
    (pair,) = [f for f in findings_of(rig, "duplicates")]
    assert pair.severity == Severity.ERROR and pair.message.endswith("misses its target.")
    rig.pose.bones[owner].ik_stretch = 0.1  # the IK's own Stretch is on by default
    assert [v.state for v in judge_chains(rig) if v.owner == owner] == ["pass"]
    (pair,) = [f for f in findings_of(rig, "duplicates")]
    assert pair.severity == Severity.WARNING
    assert pair.message.endswith(f"on {owner} reaches it only by stretching its bones.")


@pytest.mark.parametrize("limb", ["leg", "arm"])
@pytest.mark.parametrize("upper_stretch", [0.0, 0.02, 0.5])
def test_a_lower_chain_hanging_where_the_upper_stretches_its_tip_misses(
    limb, upper_stretch
) -> None:
    """Fresh seed 447, a miss under the warning above: the shin's IK of length 1 under the
    thigh's with Use Tail, both on the foot control. The thigh, stretching, puts its tail, the
    shin's head, on the control, and the shin would have to shrink to nothing: it stops 0.39% of
    its length short whatever its own stretch (the forearm 0.38%). The upper bone not stretching
    points at the control, and the lower one lands stretching along that line: the warning."""
    limb_bones = LIMBS[limb]
    rig = faulted_rig((Fault("ik_above", limb, 1), Fault("chain_length", limb, 1)))
    rig.pose.bones[limb_bones.parent].ik_stretch = upper_stretch
    rig.pose.bones[limb_bones.owner].ik_stretch = 0.3
    lands = upper_stretch == 0.0
    states = [v.state for v in judge_chains(rig) if v.owner == limb_bones.owner]
    assert states == ["pass" if lands else "fail"]
    (pair,) = [f for f in findings_of(rig, "duplicates")]
    assert pair.severity == (Severity.WARNING if lands else Severity.ERROR)


def test_the_agree_fix_is_not_offered_where_the_turned_ik_would_race() -> None:
    """Fresh seed 238 (a trade): turning the hand IK of length 3 to reach with its head, onto
    the tip of the forearm's IK of length 1, would leave a chain from the upper arm beside one
    from the forearm on one point: a race (both miss in 37 and 38 of 40 solves)."""
    judged = judge(
        (Fault("chain_length", "arm", 1), Fault("roll", "arm", 90), Fault("ik_below", "arm", 3))
    )
    assert not judged.trades, "\n".join(judged.trades)
    pair = next(f for f in judged.findings if f.check_id == "duplicates")
    assert pair.fix_id != "agree"


@pytest.mark.parametrize(
    ("limb", "lengths", "longer_lands"),
    [("arm", (2, 3), False), ("arm", (3, 2), True), ("leg", (2, 3), True)],
)
def test_two_iks_on_one_bone_of_different_lengths_warn_that_one_may_miss(
    limb, lengths, longer_lands
) -> None:
    """Fresh seed 316: the hand's IKs of length 2 then 3 on the hand control (the forearm's IK
    muted) leave the longer 4.4% of its reach short under "Duplicate IK", whose words said they
    agree and would fight only if a chain length differed. They differ: the warning says so, and
    that whether both land depends on the rig (in the other order, or on the foot, they do)."""
    faults = [Fault("muted", limb, 0)] + [Fault("ik_below", limb, n) for n in lengths]
    judged = judge(tuple(faults), fixes=False)
    below = LIMBS[limb].below
    name = "IK" if lengths[0] > lengths[1] else "IK.001"
    longer = [v for v in judged.verdicts if v.owner == below and v.constraint == name]
    assert [v.state for v in longer] == ["pass" if longer_lands else "fail"]
    (pair,) = [f for f in judged.findings if f.check_id == "duplicates"]
    assert (pair.severity, pair.title) == (Severity.WARNING, "Duplicate IK")
    assert any(f"chain lengths {a} and {b}" in pair.why for a, b in (lengths, lengths[::-1]))
