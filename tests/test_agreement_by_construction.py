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

import hypothesis_profiles  # noqa: F401  (registers and loads the profiles)
import pytest
from faulted_limbs import Fault, fault_lists, judge
from hypothesis import given, settings

pytestmark = pytest.mark.slow

KNOWN_MISSES = {
    frozenset({("itasc", limb, precision), ("object_transform", other, 0)}): "scaled 2.5, "
    "the rig reaches every goal under iTaSC at precision 0.006 and below, which the solver "
    "check calls an error: no setting decides it (measured at precision 0.001 and 0.005: "
    "the legs stop 0.2% to 17% short or flip with the object scaled 0.5 to 2 or 3 to 4, "
    "41% with the bones 2.5 times as long, and reach only at object scales 2.25 to 2.75)"
    for limb in ("arm", "leg")
    for other in ("arm", "leg")
    for precision in (0.001, 0.006)
} | {
    frozenset({("unparented", limb, 0), ("stretch", limb, stretch)}): "a lower bone "
    "without a parent reaches by IK Stretch alone (a warning); parented back by the "
    "parenting fix, the whole limb answers for its other faults (a squashed body, a joint "
    "that does not inherit rotation), which the cut chain did not feel: a fix that trades"
    for limb in ("arm", "leg")
    for stretch in (0.1, 0.5)
}
"""Combinations of faults on which the findings break a rule (a false alarm, a silent failure, a
fix that trades), with why: rigs with all of one are left out of the sample until closed, and
listed in docs/tested.md (with the failures only a warning names, which the rules allow)."""
KNOWN_MISSES[frozenset({("overriding_constraint", "arm", 1), ("tail_off", "leg", 0)})] = (
    "a Damped Track on the forearm at the hand control, beside the leg's IK without Use Tail "
    "(which turns the hips): constraint_order calls the arm's start bent away from its pole, "
    "and the arm lands (found when issue 25's kinds shifted the CI sample; the same at 88c03a5)"
)


def _known_miss(faults: list[Fault]) -> bool:
    drawn = {(f.kind, f.limb, f.amount) for f in faults}
    return any(pair <= drawn for pair in KNOWN_MISSES)


known_faults = fault_lists.filter(lambda faults: not _known_miss(faults))


@settings(max_examples=max(1, int(settings.default.max_examples * 0.6)))
@given(faults=known_faults)
def test_faulted_limbs_agree_with_the_oracle_and_their_fixes(faults: list[Fault]) -> None:
    judged = judge(tuple(faults))
    assert judged.holds, "\n".join(judged.problems())
