"""A straight limb without a pole on opposed one-sided hinges, both bones stiff unevenly, stops
further short than either bone alone (fresh seed 448's miss)."""

from __future__ import annotations

import pytest
from faulted_limbs import LIMBS, Fault, judge

from ik_doctor import Severity
from ik_doctor.checks._opposed_both_stiff import BOTH_STIFF_LEVELS, both_stiff_shortfall


@pytest.mark.parametrize("limb", ["arm", "leg"])
@pytest.mark.parametrize(
    ("upper", "lower", "fails"),
    [(0.7, 0.8, True), (0.9, 0.5, True), (0.5, 0.7, True), (0.5, 0.5, False), (0.7, 0.5, False)],
)
def test_two_unevenly_stiff_bones_stop_further_short_than_either(limb, upper, lower, fails) -> None:
    """Seed 448: the arm on opposed hinges (`straight_one_sided` 7), its upper arm at 0.7 and
    forearm at 0.8, stopped 0.15% short where the worse of the two alone read 0.07%, a warning.
    Measured on 4.2, the leg and the arm alike: 0.9 over 0.5 stops 0.215% short (alone 0.099%
    and 0.068%); 0.7 over 0.5 lands (0.093%)."""
    faults = (
        Fault("straight_one_sided", limb, 7),
        Fault("stiff_parent", limb, upper),
        Fault("stiff_owner", limb, lower),
    )
    judged = judge(faults, fixes=False)
    owner = LIMBS[limb].owner
    assert [v.state for v in judged.verdicts if v.owner == owner] == ["fail" if fails else "pass"]
    assert list(judged.problems()) == [] and judged.unexplained == []
    stiff = [f for f in judged.findings if f.title == "Stiff, no pole"]
    if fails:
        assert [f.severity for f in stiff] == [Severity.ERROR]
    else:
        assert all(f.severity == Severity.WARNING for f in stiff)


def test_the_grid_is_read_between_its_cells_and_not_below_it() -> None:
    """Cells read back as measured; between two, between their values; below 0.3 on either
    bone the bone alone is read."""
    assert both_stiff_shortfall(0.7, 0.8) == pytest.approx(0.0015)
    assert 0.0015 < both_stiff_shortfall(0.7, 0.825) < 0.00174
    assert both_stiff_shortfall(BOTH_STIFF_LEVELS[-1], 1.0) == pytest.approx(0.011)
    assert both_stiff_shortfall(0.2, 0.9) is None
