"""Locks findings weighed against where the solver starts: a bone IK-locked on the axis its limb
bends on, posed twisted about its own Y, still folds the limb.

Blender's Standard solver builds a bone locked on X alone (Y and Z free) as an elbow segment:
its start pose is split into a turn about Z and a twist about Y, the twist kept, the rest
dropped, and the solver then turns Z in the untwisted frame while the bones below hang from the
twisted one. Twisted by t, that Z swing turns the limb in its bend plane by sin t of its reach:
the limb folds. The rest pose's Jacobian (``_tip_motion``) cannot see it, nor can the start's,
whose every axis turns with the twist. Measured on the reference arm and leg with a pole, the
pose keyed on the locked bone:

- the root (upper arm, thigh) locked on X lands twisted 0.02 to 3.14 rad either way, alone or
  with a turn about X (0.8 with 0.4 of twist); 0.005 rad fails (6.4% and 5.1% short), 0.01
  lands the arm but not the leg; turned about X or Z alone (no twist) it fails;
- the inner joint (forearm, shin) locked on X lands twisted 0.1 to 1.0 rad either way; 0.05
  fails the leg, 0.025 both (3.3% short); from 2.0 the twisted fold bends the joint away from
  its pole (it fails), at 3.14 it stops 87% short.

Only as measured: the other bones of the chain at rest, no other constraint on them, and the
pole angle turning the chain at most 20° from rest. Otherwise the twisted fold was seen to fail
(the forearm or shin posed 70° about X: 14% to 18% short; the pole angle turned 60°: the joint
ends 111° to 130° from the pole; the shin copying the hips' rotation: 33% to 50% short).
"""

from __future__ import annotations

import math

from ..core.finding import Finding, Severity, lowered
from ..core.limb import pole_turn
from ..core.rig import IKChain, RigView
from ..core.start import overridden_constraints

TWIST_THAT_FOLDS = {"root": (0.025, math.pi), "joint": (0.1, 1.0)}
"""Radians (least, most) of start twist about its own Y with which a bone locked on its bend
axis alone was measured to fold the limb and land, as the chain's root or an inner joint."""
POLE_TURN_MEASURED = 20.0
"""Degrees the pole angle may turn the chain from rest (``pole_turn``) for the twisted fold to
land: measured at 0° and 20° (lands), 60° (bends away from the pole)."""


def weighed_against_twist(rig: RigView, chain: IKChain, findings: list[Finding]) -> list[Finding]:
    """Bend-axis lock errors made warnings where every bone they name starts twisted within
    ``TWIST_THAT_FOLDS`` (``twist_that_folds``): the chain folds and lands."""
    bent = [f for f in findings if f.severity == Severity.ERROR]
    if not bent or not _as_measured(rig, chain):
        return findings
    twists = {f.bone: twist_that_folds(rig, chain, f) for f in bent}
    posed = [name for name in chain.moving_bones if _posed(rig, name) and name not in twists]
    if posed or any(twist is None for twist in twists.values()):
        return findings  # another bone posed was not measured: it fails posed 70° about X
    said = ", ".join(f"{bone} by {twist:.2g} rad" for bone, twist in twists.items())
    reason = (
        f" The pose starts it twisted about its own Y ({said}): the solver keeps that twist and "
        "swings Z in the untwisted frame, which folds the limb in its plane; it lands "
        "(measured)."
    )
    return lowered(findings, reason, ("twisted_start", tuple(twists)), lambda f: True)


def _as_measured(rig: RigView, chain: IKChain) -> bool:
    """Whether the chain is as the twisted fold was measured to land: a pole turning it at most
    ``POLE_TURN_MEASURED`` from rest, and no constraint but the IK on its bones."""
    turn = pole_turn(rig, chain)
    if turn is None or abs(math.degrees(turn)) > POLE_TURN_MEASURED + 1e-6:
        return False
    return next(overridden_constraints(rig, chain.moving_bones), None) is None


def twist_that_folds(rig: RigView, chain: IKChain, finding: Finding) -> float | None:
    """The start twist (radians about its own Y) of the bone a bend-axis lock finding names,
    where it lets the limb fold: an IK lock on X or Z alone, Y and the other swing axis free,
    twisted within ``TWIST_THAT_FOLDS``; else None."""
    name = finding.bone or ""
    axes = str(finding.args.get("axes", ""))
    if finding.fix_id != "free_axes" or axes not in ("x", "z") or name not in chain.moving_bones:
        return None
    pose_bone = rig.pose_bone(name)
    other = "z" if axes == "x" else "x"
    locks = {axis: getattr(pose_bone, f"lock_ik_{axis}") for axis in "xyz"}
    if not locks[axes] or locks["y"] or locks[other]:
        return None  # a zero-width limit, or no twist or swing left: not measured to fold
    twist = abs(pose_bone.matrix_basis.to_quaternion().to_swing_twist("Y")[1])
    least, most = TWIST_THAT_FOLDS["root" if name == chain.root else "joint"]
    return twist if least - 1e-6 <= twist <= most + 1e-6 else None


def _posed(rig: RigView, name: str) -> bool:
    """Whether the bone's pose turns it from rest."""
    return rig.pose_bone(name).matrix_basis.to_quaternion().angle > 1e-4
