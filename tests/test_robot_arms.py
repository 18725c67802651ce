"""Robot and servo arms (``robot_arms``): no crash, and the locks check agrees with the solver.

The seeds are arms the first draws found wrong: a roll of half a turn put a cosine past -1 (the
roll check raised ``ValueError``), arms held back by one-sided limits that failed with only a
"folds off plane" warning, and arms held back at some joints that fold at two others and land.
Each arm is judged by the oracle and diagnosed; they must agree.
"""

from __future__ import annotations

import pytest
from robot_arms import build_robot_arm

from ik_doctor import diagnose
from ik_doctor.verify.oracle import disagreements, judge_chains

CRASHED = [231, 301, 340]
SILENT = [213, 222, 287, 366]
FOLD_ELSEWHERE = [226, 263, 328, 355]


@pytest.mark.parametrize("seed", CRASHED + SILENT + FOLD_ELSEWHERE)
def test_robot_arm_findings_agree_with_the_solver(scene, seed: int) -> None:
    arm = build_robot_arm(seed)
    verdicts = judge_chains(arm.rig)
    expected = "fail" if seed in SILENT else "pass"
    assert [v.state for v in verdicts] == [expected], (arm.joints, verdicts[0].reason)
    assert disagreements(verdicts, diagnose(arm.rig)) == [], arm.joints
