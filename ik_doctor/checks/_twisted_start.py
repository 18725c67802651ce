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

Only as measured: the other bones of the chain at rest, no other constraint on them, the
pole angle turning the chain at most 20° from rest, the twisted bone's free axes less stiff
than 0.7 (``STIFF_SWING``) or, a root, as stiff as the bone below up to 0.9 (``EVEN_SWING``),
and the bone below a twisted root less stiff than 0.9 (``STIFF_BELOW``). Otherwise the twisted
fold was seen to fail (the forearm or shin posed 70° about X: 14% to 18% short; the pole angle
turned 60°: the joint ends 111° to 130° from the pole; the shin copying the hips' rotation: 33%
to 50% short).

A chain built bending away from its pole (``pole_behind_bend``: the pole placed behind the
limb, or the shoulder and upper arm under an arm IK without Use Tail) passes bending toward the
pole or as built, so the pole's turn does not bound it: with the pole angle raised 0°, 60° and
150°, the root locked on X lands twisted 0.025 to 3.0 rad (untwisted, 6.4% and 5.1% short), the
forearm or shin 0.1 to 3.0 (the shin at 0.05: 3.4% short), and the upper arm as the inner joint
of the shoulder's chain 0.2 to 3.0 (0.15 and less: 3.5% short), so such a joint takes 0.2.

A joint held on X by a zero-width IK limit (Y and Z free) is another segment: Blender builds a
limited bone as a free ball joint with X clamped, which folds about its own Z in whatever plane
the twisted root turns it to. Measured on the arm and the leg, the forearm or shin limited 0° to
0° under the upper arm or thigh locked on X: the root twisted 0.1 to 3.0 rad lands (0.015% to
0.025% short), 0.025 and less fails (6.5% and 5.1% short). Both joints locked on X fail twisted
0.1 to 3.0 (0.8% to 3.4% short), so this holds for the limit only.
"""

from __future__ import annotations

import math
from dataclasses import replace

from ..core.finding import Finding, Severity, lowered
from ..core.limb import pole_behind_bend, pole_turn
from ..core.rig import IKChain, RigView
from ..core.start import overridden_constraints
from ..core.started import limited_on_x_alone
from ._narrow_limits import narrow_clamps

TWIST_THAT_FOLDS = {
    "root": (0.025, math.pi),
    "joint": (0.1, 1.0),
    "joint built away": (0.2, 3.0),
    "root over a zero limit": (0.1, 3.0),
}
"""Radians (least, most) of start twist about its own Y with which a bone locked on its bend
axis alone was measured to fold the limb and land, as the chain's root or an inner joint (of a
chain built bending away from its pole: no pole turn bounds it), or as the root locked on X
over an inner joint that a zero-width X limit holds."""
STIFF_SWING = 0.7
"""IK stiffness on the twisted bone's free axes from which its swing folds the limb too little:
measured on the leg, the thigh locked on X and keyed twisted 0.5 or 0.15 rad, stiff on every
axis: 0.3 to 0.65 lands, 0.7 to 0.995 stops 0.1% to 1.1% short (fresh seed 234)."""
EVEN_SWING = 0.9
"""The stiffest twisted root measured to fold the limb when the bone below is as stiff
(``_evenly_stiff``)."""
STIFF_BELOW = 0.9
"""IK stiffness of the bone below a twisted root, less stiff than it, from which the fold stops
short: measured on the arm and the leg, the root locked on X at 0 to 0.5 and keyed twisted 0.15
to 0.5 rad, the bone below at 0.9 to 0.99 stops 0.1% to 0.6% short, at 0.7 to 0.775 lands, at
0.8 and 0.85 lands or not by the keys (fresh seed 285's class)."""
EVEN_TOLERANCE = 0.005
"""How far apart two stiffnesses may be and still count as even."""
POLE_TURN_MEASURED = 20.0
"""Degrees the pole angle may turn the chain from rest (``pole_turn``) for the twisted fold to
land: measured at 0° and 20° (lands), 60° (bends away from the pole)."""


def weighed_against_twist(rig: RigView, chain: IKChain, findings: list[Finding]) -> list[Finding]:
    """Bend-axis lock errors made warnings where every bone they name starts twisted within
    ``TWIST_THAT_FOLDS`` (``twist_that_folds``): the chain folds and lands."""
    bent = [f for f in findings if f.severity == Severity.ERROR]
    if not bent or not _as_measured(rig, chain):
        return findings
    limited = [f.bone or "" for f in bent if _zero_limited_joint(rig, chain, f)]
    locked = [f for f in bent if f.bone not in limited]
    twists = {f.bone: twist_that_folds(rig, chain, f, bool(limited)) for f in locked}
    posed = [name for name in chain.moving_bones if _posed(rig, name) and name not in twists]
    if not twists or posed or any(twist is None for twist in twists.values()):
        return findings  # another bone posed was not measured: it fails posed 70° about X
    said = ", ".join(f"{bone} by {twist:.2g} rad" for bone, twist in twists.items())
    reason = (
        f" But the pose starts it twisted about its own Y ({said}): the solver keeps that twist "
        "and swings Z in the untwisted frame, which folds the limb in its plane"
        + (
            ", and a joint held by a zero-width limit folds about Z in that plane"
            if limited
            else ""
        )
        + "; it lands (measured)."
    )
    weighed = lowered(findings, reason, ("twisted_start", tuple(twists)), lambda f: True)
    narrow = [] if limited else _narrow_below(rig, chain)
    if not limited and not narrow:
        return weighed
    return [_waiting(f, limited, narrow) if f.bone in twists else f for f in weighed]


def _narrow_below(rig: RigView, chain: IKChain) -> list[str]:
    """Joints whose IK limit the chain folds against once its twisted lock is freed (this check's
    "IK limit too narrow", which the lock's error kept from being asked). Fresh seed 438, a
    trade: the arm's upper arm locked on X and keyed 0.8 and 0.4 rad, its forearm limited -150°
    to 0°, lands; freed, it stops 6.5% short."""
    return [clamp.bone for clamp in narrow_clamps(rig, chain)]


def _waiting(finding: Finding, limited: list[str], narrow: list[str]) -> Finding:
    """The twisted root's fix made to wait while a zero-width limit holds a joint below, or a
    limit lets it fold only away from the bend: freed alone, the limit stops the limb short
    (measured: 6.5% for the arm, 5.1% for the leg)."""
    held = (
        f"{', '.join(limited)} is held by a zero-width X limit"
        if limited
        else f"the IK limit of {', '.join(narrow)} lets it fold only away from the chain's bend"
    )
    return replace(
        finding,
        fix_id=None,
        fix_label=None,
        no_fix_reason=(
            f"its twisted lock is what folds the limb while {held}: freed first, the limit "
            "would stop the limb short. Free that limit first"
        ),
    )


def _zero_limited_joint(rig: RigView, chain: IKChain, finding: Finding) -> bool:
    """Whether the finding names an inner joint held on X by a zero-width IK limit alone (no
    IK lock, no other limit): Blender builds it as a free ball joint, X clamped, not as an
    elbow, so it folds about its Z wherever the twisted root turns that axis."""
    name = finding.bone or ""
    if finding.args.get("cause") != "ik_limit" or finding.args.get("axes") != "x":
        return False
    if name == chain.root or name not in chain.moving_bones:
        return False
    return limited_on_x_alone(rig.pose_bone(name))


def _as_measured(rig: RigView, chain: IKChain) -> bool:
    """Whether the chain is as the twisted fold was measured to land: a pole turning it at most
    ``POLE_TURN_MEASURED`` from rest unless the chain is built bending away from it, and no
    constraint but the IK on its bones."""
    turn = pole_turn(rig, chain)
    if turn is None:
        return False
    if abs(math.degrees(turn)) > POLE_TURN_MEASURED + 1e-6 and not pole_behind_bend(rig, chain):
        return False
    return next(overridden_constraints(rig, chain.moving_bones), None) is None


def twist_that_folds(
    rig: RigView, chain: IKChain, finding: Finding, over_zero_limit: bool = False
) -> float | None:
    """The start twist (radians about its own Y) of the bone a bend-axis lock finding names,
    where it lets the limb fold: an IK lock on X or Z alone, Y and the other swing axis free,
    twisted within ``TWIST_THAT_FOLDS`` (the root's over a joint held by a zero-width limit,
    with ``over_zero_limit``); else None."""
    name = finding.bone or ""
    axes = str(finding.args.get("axes", ""))
    if finding.fix_id != "free_axes" or axes not in ("x", "z") or name not in chain.moving_bones:
        return None
    pose_bone = rig.pose_bone(name)
    other = "z" if axes == "x" else "x"
    locks = {axis: getattr(pose_bone, f"lock_ik_{axis}") for axis in "xyz"}
    if not locks[axes] or locks["y"] or locks[other]:
        return None  # a zero-width limit, or no twist or swing left: not measured to fold
    swing = max(getattr(pose_bone, f"ik_stiffness_{axis}") for axis in ("y", other))
    below = _stiffness_below(rig, chain) if name == chain.root else 0.0
    even = _evenly_stiff(chain, name, swing, below)
    if swing >= STIFF_SWING - 1e-6 and not even:
        return None  # it swings too little to fold the limb
    if not even and below >= STIFF_BELOW - 1e-6:
        return None  # the bone below a twisted root bends too little for the fold
    twist = abs(pose_bone.matrix_basis.to_quaternion().to_swing_twist("Y")[1])
    where = "root" if name == chain.root else "joint"
    if over_zero_limit:
        if where != "root" or axes != "x":
            return None
        where = "root over a zero limit"
    elif where == "joint" and pole_behind_bend(rig, chain):
        where = "joint built away"
    least, most = TWIST_THAT_FOLDS[where]
    return twist if least - 1e-6 <= twist <= most + 1e-6 else None


def _evenly_stiff(chain: IKChain, name: str, swing: float, below: float) -> bool:
    """Whether ``name``, the twisted root of a two-bone chain, swings (``swing``) as stiffly as the
    bone below it bends (``below``), up to ``EVEN_SWING``: the two then give alike and the fold
    lands (fresh seed 285's false error). Measured on the arm and the leg, the root locked on X and
    keyed twisted 0.15 to 0.5 rad: both bones at 0.7, 0.8 or 0.9 land; the root alone at 0.7 or 0.9,
    or at 0.9 over 0.7 to 0.85, stops 0.1% to 0.3% short; both at 0.95 land or not by the keys, at
    0.975 and 0.99 they stop 0.1% to 0.2% short."""
    if name != chain.root or len(chain.moving_bones) != 2 or swing > EVEN_SWING + 1e-6:
        return False
    return abs(below - swing) <= EVEN_TOLERANCE


def _stiffness_below(rig: RigView, chain: IKChain) -> float:
    """The greatest IK stiffness of the bone below the root, the one that folds (0 for a chain
    that turns its root alone)."""
    if len(chain.moving_bones) < 2:
        return 0.0
    below = rig.pose_bone(chain.moving_bones[-2])
    return max(getattr(below, f"ik_stiffness_{axis}") for axis in "xyz")


def _posed(rig: RigView, name: str) -> bool:
    """Whether the bone's pose turns it from rest."""
    return rig.pose_bone(name).matrix_basis.to_quaternion().angle > 1e-4
