"""One fault, one finding: the animation scan's proof joins the check's finding of its cause.

Plain values in, plain values out (``core.scan_proofs``): the panel and the command line call
the same function, so what holds here holds for both.
"""

from __future__ import annotations

from dataclasses import replace

from ik_doctor.core.finding import Finding, Occurrence, Severity
from ik_doctor.core.scan_proofs import with_scan_proofs

CHAIN = ("forearm.L", "IK")
SHOWN = (
    Occurrence("Walk", ((1, 9),), 4, 0.4, "22.9° off its aim"),
    Occurrence("Run", ((0, 2), (7, 7)), 7, 1.7, "97.4° off its aim"),
)


def finding(check_id: str, severity: Severity = Severity.ERROR, **fields) -> Finding:
    return Finding(
        check_id=check_id,
        severity=severity,
        armature="Rig",
        message=f"{check_id} says so.",
        why="why",
        title="title",
        bone=CHAIN[0],
        constraint=CHAIN[1],
        chain=CHAIN,
        **fields,
    )


def scanned(cause: str) -> Finding:
    return finding(
        "verify",
        fix_args=(("problem", "miss"), ("cause", cause), ("worst_frame", 7)),
        action="Run",
        frames=SHOWN[1].frames,
        occurrences=SHOWN,
    )


def test_a_proved_cause_a_check_names_joins_that_finding_with_every_action() -> None:
    nesting = finding("constraint_order", Severity.WARNING, fix_args=(("cause", "nested_ik"),))
    (joined,) = with_scan_proofs([nesting], [scanned("nested_ik")])
    assert (joined.check_id, joined.key) == ("constraint_order", nesting.key)
    assert joined.severity == Severity.ERROR  # the worse of the two
    assert joined.occurrences == SHOWN and joined.action is None
    assert joined.message.startswith(nesting.message) and "'Run'" in joined.message


def test_a_cause_no_check_names_stands_alone() -> None:
    nesting = finding("constraint_order", fix_args=(("cause", "nested_ik"),))
    lock = scanned("ik_lock")
    assert set(with_scan_proofs([nesting], [lock])) == {nesting, lock}


def test_a_proof_on_another_chain_or_armature_does_not_join() -> None:
    nesting = finding("constraint_order", fix_args=(("cause", "nested_ik"),))
    elsewhere = replace(scanned("nested_ik"), chain=("shin.L", "IK"))
    other_rig = replace(scanned("nested_ik"), armature="Other")
    found = with_scan_proofs([nesting], [elsewhere, other_rig])
    assert set(found) == {nesting, elsewhere, other_rig}


def proved(cause: str, *args: tuple[str, object]) -> Finding:
    proof = scanned(cause)
    return replace(proof, fix_args=(*proof.fix_args, *args))


def test_a_proved_lock_joins_the_locks_finding_on_the_same_axes_and_bones() -> None:
    lock = finding(
        "locks",
        fix_id="free_axes",
        fix_args=(("axes", "x"), ("cause", "ik_lock"), ("bones", ("forearm.L",))),
    )
    (joined,) = with_scan_proofs(
        [lock], [proved("ik_lock", ("axes", "x"), ("bones", ("forearm.L",)))]
    )
    assert (joined.check_id, joined.fix_id, joined.fix_args) == (
        "locks",
        "free_axes",
        lock.fix_args,
    )
    assert joined.occurrences == SHOWN and joined.action is None


def test_a_lock_on_other_axes_or_bones_is_another_fault() -> None:
    lock = finding(
        "locks", fix_args=(("axes", "x"), ("cause", "ik_lock"), ("bones", ("forearm.L",)))
    )
    on_z = proved("ik_lock", ("axes", "z"), ("bones", ("forearm.L",)))
    on_x_elsewhere = proved("ik_lock", ("axes", "x"), ("bones", ("upper_arm.L", "forearm.L")))
    limit_on_x = proved("ik_limit", ("axes", "x"), ("bones", ("forearm.L",)))
    found = with_scan_proofs([lock], [on_z, on_x_elsewhere, limit_on_x])
    assert set(found) == {lock, on_z, on_x_elsewhere, limit_on_x}


def test_the_same_stiff_bones_in_another_order_and_the_iterations_join() -> None:
    stiff = finding(
        "locks", fix_args=(("cause", "stiffness"), ("bones", ("upper_arm.L", "forearm.L")))
    )
    few = finding("solver", Severity.WARNING, fix_args=(("cause", "iterations"),))
    found = with_scan_proofs(
        [stiff, few],
        [proved("stiffness", ("bones", ("forearm.L", "upper_arm.L"))), proved("iterations")],
    )
    assert {(f.check_id, len(f.occurrences), f.severity) for f in found} == {
        ("locks", 2, Severity.ERROR),
        ("solver", 2, Severity.ERROR),
    }
    assert len(found) == 2
