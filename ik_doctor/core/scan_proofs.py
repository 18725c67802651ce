"""Where the checks' findings and the animation scan's meet: one fault, one finding.

A check reading the rig can already name a fault (two IKs nested, so the inner one misses) that
the scan then proves by solving, action after action. Shown twice, the person who must act
reads the same cause as two errors, the second worded for the wrong person (the nesting is the
rigger's, not the animator's). So the scan's finding joins the check's as its proof: the check's
message, why and fix stand, followed by where the animation misses, and every action the scan
measured is kept in ``occurrences``. The panel and the command line both call ``with_scan_proofs``:
the rule lives here, not in each presenter.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from .finding import Finding, occurrences_text, sort_findings


def with_scan_proofs(found: Sequence[Finding], scanned: Sequence[Finding]) -> list[Finding]:
    """The checks' findings (``found``) and the scan's (``scanned``) as one sorted list, each
    scan finding whose proved cause a check's finding on the same chain names joined to it: the
    nesting, a lock or limit on the same axes of the same bones, the same bones' stiffness, the
    IK's iterations."""
    joined = list(found)
    alone: list[Finding] = []
    for proof in scanned:
        index = _proved(joined, proof)
        if index is None:
            alone.append(proof)
        else:
            joined[index] = _with_proof(joined[index], proof)
    return sort_findings(joined + alone)


def _proved(found: list[Finding], proof: Finding) -> int | None:
    """The position of the check's finding that names the cause the scan proved, if any: the
    same armature and chain, and the same cause (``_same_cause``)."""
    if proof.args.get("cause") is None or proof.chain is None:
        return None
    for index, finding in enumerate(found):
        if (
            finding.action is None
            and not finding.occurrences
            and finding.armature == proof.armature
            and finding.chain == proof.chain
            and _same_cause(finding.args, proof.args)
        ):
            return index
    return None


def _same_cause(named: dict[str, Any], proved: dict[str, Any]) -> bool:
    """Whether a check's finding names the very setting the scan proved: the same ``cause`` arg
    (a shared id, never message words), and the same value of every other arg both carry (the
    axes, the bones): a lock on X and the scan's proof of a lock on Z are two faults. Bones are
    a set: the order a check lists them in is no part of the fault."""
    if named.get("cause") != proved["cause"]:
        return False
    return all(_as_set(named[key]) == _as_set(proved[key]) for key in named.keys() & proved.keys())


def _as_set(value: Any) -> Any:
    return frozenset(value) if isinstance(value, tuple) else value


def _with_proof(finding: Finding, proof: Finding) -> Finding:
    """The check's finding with the proof's severity and where it misses: the frames of the
    actions played, or for a chain no action tested, the proof's own words (what was solved
    and measured on this chain)."""
    severity = min(finding.severity, proof.severity, key=lambda s: s.rank)
    proved = (
        f"Proved by playing the animation: it misses {occurrences_text(proof.occurrences)}."
        if proof.occurrences
        else f"Proved by solving: {proof.message}"
    )
    return replace(
        finding,
        severity=severity,
        message=f"{finding.message} {proved}",
        occurrences=proof.occurrences,
    )
