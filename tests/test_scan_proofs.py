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
