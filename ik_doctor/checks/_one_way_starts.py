"""What an IK limit that lets a joint fold only further than it rests (``core.limb.one_way_joint``)
adds to the solver check's count (``_iteration_needs``): a pose that starts the joint past the
limit's far edge, or straighter than the limit lets it, is clamped on the solver's first step;
a joint that does not inherit rotation is held on its side by the limit alone."""

from __future__ import annotations

from ..core.limb import one_way_fold, one_way_span
from ..core.rig import IKChain, RigView
from ..core.started import start_set_by
from ._need_tables import Need

CLAMPED_STRAIGHTER = 1
"""Iterations more than its rest row a limb with a pole needs where a start straighter than at
rest meets an IK limit that lets the joint fold only further (``one_way_fold``): measured on 4.2
on the leg and the arm limited 0° to 30° or 0° to 150°, posed 3° to 10° straighter or started
so by a copy of the hips' rotation, the leg needs 13 and the arm 10 however far straighter (one
fewer stops 0.20% and 0.27% short), where the straighter rows said up to 19 and 20 (a false
alarm the benchmark's arm with its limit, the copy and 12 iterations would draw)."""

KEPT_SIDE_UNINHERITED = 2
"""Iterations more than its rest row a limb with a pole needs where its joint, limited so, does not
inherit rotation: the limit alone keeps its side while the bones above turn. Fresh seed 369, a miss:
the leg limited 0° to 150°, not inheriting, at 12 iterations 1.6% of its reach short under warnings.
Measured on 4.2 and 5.3, limited to 30° or 150°: the leg needs 14 (13 stop 0.31% short) where its
row says 12, the arm 11 (10 stop 0.20% short) where its row says 9."""


def one_way_needs(
    rig: RigView, chain: IKChain, measured: tuple[float, int], limb: str, clamped: bool
) -> list[Need]:
    """What the joint's one-way IK limit adds to the bend table's ``measured`` row, for a limb
    with a pole: one more where a start straighter than the limit lets it is ``clamped``
    (``CLAMPED_STRAIGHTER``), two more where the joint inherits no rotation
    (``KEPT_SIDE_UNINHERITED``)."""
    needs = []
    if clamped:
        needs.append(
            Need(
                measured[1] + CLAMPED_STRAIGHTER,
                "its joint is posed straighter than its IK limit lets it, which the solver "
                f"undoes on its first step; {limb} bent up to {measured[0]:g}° need "
                f"{measured[1]} at rest and, measured, one more so posed",
                "clamped_straighter",
            )
        )
    uninherited = not rig.raw_bone(chain.owner).use_inherit_rotation
    if uninherited and one_way_fold(rig, chain, chain.owner) is not None:
        needs.append(
            Need(
                measured[1] + KEPT_SIDE_UNINHERITED,
                f"{chain.owner} does not inherit rotation and only its IK limit keeps it on "
                f"its side; {limb} bent up to {measured[0]:g}° need {measured[1]} at rest "
                "and, measured, two more so held",
                "kept_side",
            )
        )
    return needs


ONE_MORE_WITHIN = 40.0
"""Degrees past its limit's far edge within which a limb so posed needs one iteration more than
one posed folded as far as that edge, and past which it needs two more. Measured on 4.2 on the
leg and the arm limited 0° to 30°, 60° and 90°, posed 20° to 100° past: 20° to 40° past need
one more (the arm limited to 30° and posed 70° lands from 5, where its 70° row said 7), 70° and
100° past two more (the arm 70° past needs only one)."""


def past_one_way_limit(rig: RigView, chain: IKChain, further: float) -> tuple[float, int] | None:
    """(the limit's far edge, iterations more) where the chain's lower bone is posed ``further``
    degrees past its rest bend, beyond the far edge of its one-way IK limit; None where it is
    not, or a constraint sets its start (measured: the leg copying the hand control's rotation
    82° further, limited to 30°, needs 12, more than the clamped pose would)."""
    if start_set_by(rig, chain, chain.owner) is not None:
        return None
    span = one_way_span(rig, chain, chain.owner)
    if span is None or further <= span + 1.0:
        return None
    return round(span, 1), 1 if further - span <= ONE_MORE_WITHIN else 2
