"""How far a pole angle turns a limb off its rest pose, for the pole check: the turn about the
root-target line at rest, the further turn the posed rotations give the bend where the solver
starts, and so how far the joint settles from its pole and from the bend it was built with."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from mathutils import Vector

from ..core.limb import MAX_BEND_TURN, STRAIGHT_RATIO, bend_offset
from ..core.posed_bend import flipped_turn, posed_joints
from ..core.rig import IKChain, RigView
from ..core.start import flat_start_side_on, pose_flips_the_start
from ._hinge_turn import hinge_turn
from ._pole_limb import Limb, start_turn
from ._straight_start import start_bend

SIDE_ON_WAITS = (
    "set alone, the rest angle would leave the flat start the other constraint sets bending "
    "the joint away from the pole: mute that constraint and set the angle together"
)
"""Why the rest angle is not set where a flat start ends side-on (measured: the leg copying the
hips' rotation, its angle turned 90°, set to the rest angle, bends 180° from its pole)."""


def angle_waits(rig: RigView, chain: IKChain, turn: PoleTurn) -> str | None:
    """Why the rest angle is not set alone: a flat start side-on (``SIDE_ON_WAITS``), or a chain
    cut off its limb, whose rest angle is read about its top bone's line and changes once it is
    parented (fresh seed 190: Fix All set the cut forearm's angle, then parented it, and the
    arm's angle turned it 120°, the error this check then gave)."""
    if turn.side_on:
        return SIDE_ON_WAITS
    if _angle_turns_a_posed_start_toward(rig, chain):
        return POSED_START_WAITS
    cut_from = rig.detached_parent(chain)
    if cut_from is None:
        return None
    return (
        f"{chain.bones[-1]} is cut off its limb (the parenting check's warning): parented to "
        f"{cut_from}, the angle that keeps the rest pose changes; parent it first"
    )


POSED_START_WAITS = (
    "the chain is straight at rest, and this angle turns the bend its pose starts it with toward "
    "the pole: set alone, the rest angle would start it bent away; clear the pose and set the "
    "angle together"
)


def _angle_turns_a_posed_start_toward(rig: RigView, chain: IKChain) -> bool:
    """Whether a chain straight at rest starts toward its pole only because the pole angle turns
    its posed bend round or side-on (fresh seed 207, a trade: the straight arm posed 70° at the
    elbow, the angle 180° off rest, lands; set to the rest angle alone, it bent 180° from its
    pole; seed 209: the arm of chain length 3, turned 90°, alike)."""
    if bend_offset(rig, chain) >= STRAIGHT_RATIO:
        return False
    start = start_bend(rig, chain)
    return start is not None and start.turned_by_angle


@dataclass(frozen=True)
class PoleTurn:
    """A pole angle's turn of one chain; angles in radians unless named in degrees."""

    rest: float
    """The pole angle that keeps the rest pose."""
    twist: float
    """How far the pole angle turns the chain about the root-target line at rest."""
    start: float
    """How far further the posed rotations turn the bend where the solver starts (0 when the
    pose flips the start, or the limb is straight: ``turned`` then counts the flip)."""
    turned: float
    """Degrees the joint settles from the bend it was built with, the pose counted."""
    away: float | None
    """Degrees the joint settles from its pole; None for a straight limb."""
    flipped: bool
    """A posed rotation bends the joint the other way where the solver starts."""
    side_on: tuple[str, str] | None = None
    """(bone, constraint) of a copied start folded flat that leaves the joint about 90° from its
    pole with this angle (``core.start.flat_start_side_on``)."""
    hinge: float = 0.0
    """How far the lower bone, held by its IK locks or limit to fold about an axis off the plane's
    normal, turns the bend (``_hinge_turn``)."""

    @property
    def fails(self) -> bool:
        """Blender fails a chain whose joint bends away from its pole where it was not built to
        (the oracle's verdict); bending away as modelled, or turning to face the pole, works, and
        so does a flat start left side-on."""
        flipped = self.away is not None and min(self.turned, self.away) > MAX_BEND_TURN
        return flipped and self.side_on is None

    def described(self, rig: RigView, chain: IKChain) -> str:
        """How far the pole angle, and the pose where the solver starts, turn the chain at rest."""
        said = (
            f"the pole angle {math.degrees(chain.pole_angle):.1f}° turns the chain "
            f"{math.degrees(self.twist):+.1f}° about the {chain.root}→target line at rest "
            f"({math.degrees(self.rest):.1f}° keeps the rest pose)"
        )
        if abs(math.degrees(self.start)) >= 1.0:
            said += (
                f", and the posed rotation of {', '.join(posed_joints(rig, chain))} turns its "
                f"bend a further {math.degrees(self.start):+.1f}° where the solver starts"
            )
        if abs(math.degrees(self.hinge)) >= 1.0:
            said += (
                f", and {chain.owner}, held by its IK locks or limit to fold about an axis off "
                f"the bend plane's normal, turns its bend a further "
                f"{math.degrees(self.hinge):+.0f}° (measured)"
            )
        if self.side_on:
            bone, constraint = self.side_on
            said += (
                f", and '{constraint}' on {bone} starts the joint folded flat, so it ends about "
                "90° from the pole, side-on (measured)"
            )
        return said

    def facts(self, rig: RigView, chain: IKChain) -> tuple[tuple[str, Any], ...]:
        """``described`` as a finding's facts: the turn at rest, the rest-keeping angle, and the
        posed joints with their further turn (none under 1°), in degrees."""
        posed = tuple(posed_joints(rig, chain)) if abs(math.degrees(self.start)) >= 1.0 else ()
        return (
            ("turn", math.degrees(self.twist)),
            ("rest_angle", math.degrees(self.rest)),
            ("posed", posed),
            ("start_turn", math.degrees(self.start) if posed else 0.0),
        )


def pole_turn(
    rig: RigView, chain: IKChain, limb: Limb, pole: Vector, rest: float, twist: float
) -> PoleTurn:
    """The turn that the pole angle, ``twist`` radians off the ``rest`` angle, gives the limb."""
    turned = abs(math.degrees(twist))
    bend_at_rest = limb.bend_at_rest(twist)
    # A posed rotation that bends a joint the other way where the solver starts mirrors the
    # bend it settles on, and the pole angle turns that (measured on the leg and the arm posed
    # -20° and -70° at the joint: the angle turned 95° to 180° lands them 86° to 0° from the
    # pole, 60° and 85° leave them 120° and 95° away, the rest_pose check's error; with the
    # lower bone rolled, short of a half turn, ``flipped_turn``).
    flipped = bend_at_rest is not None and pose_flips_the_start(rig, chain)
    start = 0.0 if flipped or bend_at_rest is None else start_turn(rig, chain)
    # A lower bone whose locks leave it one fold axis off the plane's normal turns the bend
    # further (``_hinge_turn``); measured with the start unflipped.
    hinge = 0.0 if flipped or bend_at_rest is None else hinge_turn(rig, chain)
    settled = flipped_turn(rig, chain) if flipped else start + hinge
    if settled:
        bend_at_rest = limb.bend_at_rest(twist + settled)
        turned = abs(math.degrees(math.remainder(twist + settled, math.tau)))
    side = limb.side_of(pole)
    away = None if bend_at_rest is None else math.degrees(bend_at_rest.angle(side, 0.0))
    side_on = flat_start_side_on(rig, chain)
    return PoleTurn(rest, twist, start, turned, away, flipped, side_on, hinge)
