"""The solver check judges the count Blender uses where two IKs turn the same bones (fresh seed
413's trade: the forearm's IK at 5 iterations, its upper arm's turned to agree with it, landed
under the solver's error)."""

from __future__ import annotations

import pytest
from faulted_limbs import LIMBS, Fault, faulted_rig
from solving import findings_of

from ik_doctor import Severity, apply_fix
from ik_doctor.verify.oracle import judge_chains


def _states(rig) -> dict[tuple[str, str], str]:
    return {verdict.key: verdict.state for verdict in judge_chains(rig)}


def _solver_errors(rig) -> set[tuple[str, str]]:
    return {
        (f.bone, f.constraint) for f in findings_of(rig, "solver") if f.severity == Severity.ERROR
    }


@pytest.mark.parametrize("limb", ["leg", "arm"])
def test_only_the_first_ik_on_a_bone_has_its_count_used(limb) -> None:
    """Blender solves a bone's first live IK only: a second at 5 iterations below one at 500
    lands and is not reported; at 500 below one at 5 it misses with it, and the error is the
    first's, whose fix lands both."""
    owner = LIMBS[limb].owner
    rig = faulted_rig((Fault("twin_ik", limb, 1),))
    first, second = (rig.pose.bones[owner].constraints[n] for n in ("IK", "IK.001"))
    second.iterations = 5
    assert _states(rig)[(owner, "IK.001")] == "pass"
    assert _solver_errors(rig) == set()

    first.iterations, second.iterations = 5, 500
    assert _states(rig)[(owner, "IK.001")] == "fail"
    assert _solver_errors(rig) == {(owner, "IK")}
    apply_fix(next(f for f in findings_of(rig, "solver") if f.constraint == "IK"))
    assert _states(rig)[(owner, "IK")] == _states(rig)[(owner, "IK.001")] == "pass"


@pytest.mark.parametrize(("upper_count", "reported"), [(500, False), (None, True)])
def test_an_ik_beside_one_turning_its_bones_to_the_same_point_lands_with_its_count(
    upper_count, reported
) -> None:
    """The forearm's IK without Use Tail at 5 iterations (its tip the elbow) beside an upper
    arm IK of length 2 on the hand control at 500: the two turn the shoulder and upper arm
    toward one point, and whichever Blender solves last starts on the goal: it lands. Alone it
    stops 4.1% of its reach short, an error."""
    arm = LIMBS["arm"]
    rig = faulted_rig((Fault("tail_off", "arm", 0),))
    rig.pose.bones[arm.owner].constraints["IK"].iterations = 5
    if upper_count is not None:
        upper = rig.pose.bones[arm.parent].constraints.new("IK")
        upper.target, upper.subtarget = rig, arm.control
        upper.chain_count, upper.iterations = 2, upper_count
    state = _states(rig)[(arm.owner, "IK")]
    assert state == ("fail" if reported else "pass")
    assert ((arm.owner, "IK") in _solver_errors(rig)) is reported
