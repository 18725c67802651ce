"""A straight chain without a pole whose hinges are limited opposite ways (a robot arm's), posed
turned out of the plane those limits fold it in, for the rest_pose check.

Such a chain, its start in that plane, lands about 0.045% of its reach short: within the oracle's
0.1%. Measured on 4.2, the arm and the leg, either way they fold: with a bone posed turned about
its own Z (out of the plane) the solver stops further short, 0.078% at 6°, 0.10% at 7°, 0.12% to
0.15% from 8° to 90°, root or lower bone alike, however many iterations and pre-bent or not; the
limb keyed 0.8 or 1.0 rad about X and half that about Y swings its direction 16° out and stops
0.13% short. Turned about X (in the plane) or rolled about its own Y, it lands; with only the
lower hinge limited, it lands from any of these starts."""

from __future__ import annotations

import math

from ..core.finding import Severity
from ..core.limb import forward_pose, limits_fold, root_folds_against
from ..core.rig import IKChain, RigView

OUT_OF_THE_FOLD = 7.0
"""Degrees a chain bone may be posed turned out of the plane its opposed hinges fold it in
before the solver stops more than 0.1% of the reach short (6°: 0.078%, 7°: 0.10%)."""


def swung_out_of_its_fold(rig: RigView, chain: IKChain) -> tuple[str, float] | None:
    """(bone, degrees): the chain bone nearest the root that its pose turns ``OUT_OF_THE_FOLD``
    or more out of the plane the opposed hinges fold the straight chain in; else None."""
    fold = limits_fold(rig, chain)
    if chain.pole is not None or fold is None or not root_folds_against(rig, chain):
        return None
    posed = forward_pose(rig, chain)  # the start, not held by the IK limits: its swing shows
    axis = fold.normalized()
    for name in reversed(chain.moving_bones):  # root first: a turned root swings the rest
        direction = posed[name].to_3x3().normalized().col[1]
        degrees = math.degrees(math.asin(min(1.0, abs(direction.dot(axis)))))
        if degrees >= OUT_OF_THE_FOLD:
            return name, degrees
    return None


def swung_words(bone: str, degrees: float) -> tuple[Severity, str, str, str]:
    """Severity, title, effect and why no pre-bend is offered (pre-bent, it stops as short)."""
    effect = (
        f"its hinges are limited opposite ways, and its pose turns {bone} {degrees:.0f}° out of "
        "the plane they fold it in: the solver stops 0.1% to 0.15% of the reach short "
        "(measured on the arm and the leg from 7°, pre-bent or not; posed in that plane, or "
        "rolled, they land)."
    )
    held = f"clear the pose or keys that turn {bone} out of the plane its limits fold it in"
    return Severity.ERROR, "Straight, posed out of its fold", effect, held
