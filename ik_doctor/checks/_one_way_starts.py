"""A pose that starts a joint folded past the far edge of an IK limit that lets it fold only
further than it rests (``core.limb.one_way_joint``): the solver clamps that start to the edge on
its first step, and the limb needs a little more than one started at the edge (for the solver
check's count, ``_iteration_needs``)."""

from __future__ import annotations

from ..core.limb import one_way_span
from ..core.rig import IKChain, RigView
from ..core.started import start_set_by

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
