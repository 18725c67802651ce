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

NOT_YET_JUDGED = frozenset({"symmetry"})
"""Checks whose findings the sample leaves out: the symmetry check is new, and reports twins
that differ whether or not the solver minds (an arm without a pole whose twin has one passes)."""
KNOWN_MISSES = {
    ("inherit_rotation_off", "arm", 0): "the oracle turns the shoulder about its X axis only; "
    "the forearm flips at -40° about Z, which the inherit check rightly reports",
    ("inherit_scale_none", "arm", 1.5): "the inherit check judges targets placed for the scaled "
    "limb; the oracle's goals come from the rest lengths, which the limb still reaches",
    ("inherit_scale_none", "leg", 1.5): "as for the arm",
    ("iterations", "arm", 12): "the solver check's error starts below 13 iterations; at 12 the "
    "oracle still passes (it fails at 11)",
    ("iterations", "leg", 12): "as for the arm",
    ("overriding_constraint", "arm", 4): "copying a Limit Rotation to the IK limits (the "
    "constraint_order fix) leaves a 5.7° knee limit the locks check rightly calls an error",
    ("overriding_constraint", "leg", 4): "as for the arm",
    ("overriding_constraint", "leg", 5): "a Copy Rotation of the arm's control on the shin: "
    "constraint_order says the solver starts bent backwards, the oracle finds it still bends "
    "toward the pole",
    ("ik_above", "arm", 0): "an IK without its tail on the upper arm turns only the shoulder: "
    "checks judging the shoulder as a limb (inherit, parenting's connect) disagree with the "
    "oracle, which finds it reaching its own goals",
    ("ik_above", "leg", 0): "as for the arm, with the hips",
}
"""Faults the benchmark shows the findings and the oracle disagree on, with why: left out of the
sample until closed, and listed in the README."""
UNSETTLED = {
    "itasc": "iTaSC carries state from one evaluation to the next (see the README's \"Tested "
    'on"): whether a chain reaches depends on what was solved before',
    "stretch": "IK Stretch lets a chain reach what its locked, limited or shortened bones cannot; "
    "the checks that predict a shortfall (locks, rest_pose, inherit) do not weigh it",
}
"""Fault kinds left out of the sample entirely, with why."""

known_faults = fault_lists.filter(
    lambda faults: (
        not any((f.kind, f.limb, f.amount) in KNOWN_MISSES or f.kind in UNSETTLED for f in faults)
    )
)


@settings(max_examples=max(1, int(settings.default.max_examples * 0.6)))
@given(faults=known_faults)
def test_faulted_limbs_agree_with_the_oracle_and_their_fixes(faults: list[Fault]) -> None:
    judged = judge(tuple(faults), ignored=NOT_YET_JUDGED)
    assert judged.holds, "\n".join(judged.problems())
