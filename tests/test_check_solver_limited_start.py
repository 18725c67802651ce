"""The solver check reads a start posed past the joint's IK limit where that limit lets it fold
(fresh seed 428's false alarm: the arm copying the foot control's rotation, folded 83° further,
limited ±20°, landed at 5 iterations where the table at 83° said 8)."""

from __future__ import annotations

import pytest
from faulted_limbs import LIMBS, Fault, faulted_rig
from solving import findings_of

from ik_doctor import Severity
from ik_doctor.verify.oracle import judge_chains


@pytest.mark.parametrize(
    ("limb", "start", "iterations", "lands"),
    [
        ("arm", ("overriding_constraint", 5), 5, True),
        ("arm", ("pose_rotation", 70), 4, True),
        ("leg", ("pose_rotation", 150), 6, True),
        ("leg", ("pose_rotation", 70), 2, False),
    ],
)
def test_a_start_folded_past_its_limit_needs_what_the_limits_edge_needs(
    limb, start, iterations, lands
) -> None:
    """Posed (or copied) folded further than its ±20° IK limit, the limb lands within the
    folded-further table's count at 20° (3), not at its posed fold (7 at 70°, 11 and 12 at
    150°): measured, the leg and the arm land from 4 posed 70° and from 6 or 7 posed 150°, so
    3 is a bound, not this limb's count (at 3 the leg posed 70° stops short under a warning)."""
    rig = faulted_rig(
        (
            Fault(start[0], limb, start[1]),
            Fault("ik_limit", limb, 20),
            Fault("iterations", limb, iterations),
        )
    )
    owner = LIMBS[limb].owner
    assert [v.state for v in judge_chains(rig) if v.owner == owner] == ["pass" if lands else "fail"]
    errors = [f for f in findings_of(rig, "solver") if f.severity == Severity.ERROR]
    assert bool(errors) is not lands
    if not lands:
        assert errors[0].stated["needs"] == 3
