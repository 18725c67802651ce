"""Every finding names a registered check and, when it offers a fix, one of that check's own.

``apply_fix`` looks a finding's fix up by id in its check: an id the check does not own fails
only when somebody clicks Fix. The reference rig broken in every way the solver tests know (and
a few more, so that every fix a check owns is offered at least once) makes each check speak.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace

import bpy
import pytest
from test_generated_broken_rigs import (
    FAULTS,
    SPLINE_FAULTS,
    _edit,
    _ik,
    dead_spline_ik_on_the_shin,
    dead_spline_ik_over_an_arm_without_use_tail,
    empty_as_target,
)

from ik_doctor import Finding, all_checks, diagnose
from ik_doctor.sample_rig import build_character_rig


def rolled_shin(rig):
    _edit(rig, lambda bones: setattr(bones["shin.L"], "roll", bones["shin.L"].roll + 0.6))


def shin_keeps_its_scale(rig):
    rig.data.bones["shin.L"].inherit_scale = "NONE"


def leg_without_pole(rig):
    _ik(rig).pole_target = None


def foot_ik_overlaps_the_leg(rig):
    foot = rig.pose.bones["foot.L"].constraints.new("IK")
    foot.target, foot.subtarget, foot.chain_count = rig, "foot_ik.L", 3


def thigh_ik_on_the_foot_control(rig):
    thigh = rig.pose.bones["thigh.L"].constraints.new("IK")
    thigh.target, thigh.subtarget, thigh.chain_count = rig, "foot_ik.L", 1


def one_bone_ik_posed_longer(rig):
    thigh_ik_on_the_foot_control(rig)
    rig.pose.bones["thigh.L"].scale = (1.0, 1.5, 1.0)


def rotated_target_empty(rig):
    empty_as_target(rig).rotation_euler = (0.3, 0.0, 0.0)


def rotated_pole_empty(rig):
    empty = bpy.data.objects.new("KneeControl", None)
    bpy.context.scene.collection.objects.link(empty)
    empty.location = rig.matrix_world @ rig.data.bones["knee_pole.L"].head_local
    empty.rotation_euler = (0.0, 0.4, 0.0)
    _ik(rig).pole_target, _ik(rig).pole_subtarget = empty, ""


def pole_tied_to_the_thigh(rig):
    child_of = rig.pose.bones["knee_pole.L"].constraints.new("CHILD_OF")
    child_of.target, child_of.subtarget = rig, "thigh.L"


def shin_starts_off_the_knee(rig):
    def gap(bones):
        bones["shin.L"].use_connect = False
        bones["shin.L"].head.z += 0.05

    _edit(rig, gap)


def shin_limited_like_a_knee(rig):
    """A Limit Rotation the IK overrides, with a range that lets the knee fold (-10° to 100°):
    converting it to IK limits is offered (a narrower one that would hold the fold is not)."""
    limit = rig.pose.bones["shin.L"].constraints.new("LIMIT_ROTATION")
    limit.owner_space = "LOCAL"
    limit.use_limit_x = True
    limit.min_x, limit.max_x = math.radians(-10), math.radians(100)


MORE_FAULTS = [
    *SPLINE_FAULTS,
    shin_limited_like_a_knee,
    rolled_shin,
    shin_keeps_its_scale,
    leg_without_pole,
    foot_ik_overlaps_the_leg,
    thigh_ik_on_the_foot_control,
    one_bone_ik_posed_longer,
    rotated_target_empty,
    rotated_pole_empty,
    pole_tied_to_the_thigh,
    shin_starts_off_the_knee,
    dead_spline_ik_on_the_shin,
    dead_spline_ik_over_an_arm_without_use_tail,
]


def unowned(findings: Iterable[Finding]) -> list[str]:
    """What is wrong with the ids of each finding: an unknown check, or a fix it does not own."""
    checks = {check.id: check for check in all_checks()}
    problems = []
    for finding in findings:
        check = checks.get(finding.check_id)
        if check is None:
            problems.append(f"no check '{finding.check_id}' ({finding.message})")
        elif finding.fix_id is not None and finding.fix_id not in check.fixes:
            problems.append(
                f"'{check.id}' offers fix '{finding.fix_id}', which it does not own "
                f"(it owns {', '.join(sorted(check.fixes)) or 'none'}): {finding.message}"
            )
    return problems


@dataclass(frozen=True)
class Survey:
    problems: list[str]
    """``unowned`` of every broken rig's findings, named by the fault."""
    offered: set[tuple[str, str]]
    """(check, fix) of every fix some broken rig's findings offer."""


@pytest.fixture(scope="module")
def survey() -> Survey:
    """Every broken rig diagnosed once, in a fresh file each."""
    problems: list[str] = []
    offered: set[tuple[str, str]] = set()
    for break_rig in [*FAULTS, *MORE_FAULTS]:
        bpy.ops.wm.read_homefile(use_empty=True)
        rig = build_character_rig()
        break_rig(rig)
        findings = diagnose(rig)
        problems += [f"{break_rig.__name__}: {problem}" for problem in unowned(findings)]
        offered |= {(f.check_id, f.fix_id) for f in findings if f.fix_id is not None}
    return Survey(problems, offered)


def test_every_finding_names_its_own_check_and_one_of_its_fixes(survey: Survey) -> None:
    assert survey.problems == []


# The checks diagnose runs; a plug-in registered elsewhere (the animation scan) offers its
# fixes from its own findings and is not judged here.
CHECKS = [check for check in all_checks() if check.find.__module__.startswith("ik_doctor.checks.")]


@pytest.mark.parametrize("check", CHECKS, ids=lambda check: check.id)
def test_every_fix_a_check_owns_is_offered_on_a_broken_rig_here(check, survey: Survey) -> None:
    """Else a renamed fix id of that check would go unseen: add a rig that needs it above."""
    assert {fix_id for fix_id in check.fixes if (check.id, fix_id) not in survey.offered} == set()


def test_a_finding_naming_a_fix_its_check_does_not_own_is_caught(rig) -> None:
    _ik(rig).chain_count = 1
    finding = next(f for f in diagnose(rig) if f.check_id == "chain_length")
    assert unowned([finding]) == []
    borrowed = replace(finding, fix_id="create_control")  # the target check's fix
    assert unowned([borrowed]) == [
        "'chain_length' offers fix 'create_control', which it does not own (it owns "
        f"set_length): {finding.message}"
    ]
    assert unowned([replace(finding, check_id="chain_lenght")]) == [
        f"no check 'chain_lenght' ({finding.message})"
    ]
