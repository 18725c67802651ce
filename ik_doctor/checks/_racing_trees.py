"""Two agreeing IKs on two bones whose chains start at different roots, the lower bone's
above the other's: Blender builds one IK tree per chain root and solves the two on its threads
at once, each writing the bones they share (``duplicates``' "Two IKs race")."""

from __future__ import annotations

from ..core.finding import Severity
from ..core.rig import IKChain, RigView


def racing_trees(rig: RigView, first: IKChain, later: IKChain) -> tuple[IKChain, IKChain] | None:
    """(lower, upper) for two agreeing IKs on two bones where the one on the lower bone starts
    its chain above the other's root: Blender solves them as two trees on its threads at once.
    None otherwise: the lower owner's chain starting at or below the other's root is solved
    after it (measured: a foot IK of length 1 without Use Tail beside the shin's, 0 of 60)."""
    for lower, upper in ((first, later), (later, first)):
        if upper.owner in rig.ancestors(lower.owner):
            return (lower, upper) if lower.root in rig.ancestors(upper.root) else None
    return None


def racing_words(lower: IKChain, upper: IKChain) -> tuple[Severity, str, str, str]:
    """Severity, title, why and the message's end for two agreeing IKs that race
    (``racing_trees``)."""
    why = (
        f"Blender builds one IK tree per chain root: the chain of IK '{lower.constraint}' on "
        f"{lower.owner} starts at {lower.root}, above {upper.root}, where that of IK "
        f"'{upper.constraint}' on {upper.owner} starts, so Blender solves them as two trees on "
        "its threads at once, each writing the bones they share; where the two solves overlap, "
        "one writes over the other and a tip misses. Measured on the arm with other work "
        "running (the forearm's IK without Use Tail beside the upper arm's of length 1; a hand "
        "IK of length 3 without Use Tail beside the forearm's; each pair's tips on one point of "
        "one control): 1 to 6 of 30 solves missed by 33% to all of the reach. Chains from one "
        "root, or the lower one starting at or below the other's root, never missed in 60 to "
        "100."
    )
    outcome = ": now and then one of them misses, whichever of Blender's threads writes last."
    return Severity.ERROR, "Two IKs race", why, outcome
