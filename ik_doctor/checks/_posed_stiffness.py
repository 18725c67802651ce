"""A stiff upper bone under a joint posed folded further than at rest, for the locks check.

The stiffness tables were measured from the rest pose. Where a leftover pose (or a constraint the
IK overrides) starts the joint folded further, the chain has further to unfold, and a stiff upper
bone lags more: measured on the reference leg and arm (4.2, 4.5 and 5.3), the thigh or upper arm at
0.7 stops 0.04% to 0.08% of the reach short from rest and 0.08% to 0.12% posed 70° to 170°
further. How much more is not smooth in the pose or the stiffness (it climbs and drops, as
without a pole), so only what every measured pose shares is an error.
"""

from __future__ import annotations

import math

import bpy
from mathutils import Vector

from ..core.finding import STIFFNESS, Finding, Severity, chain_finding
from ..core.geometry import twist_about
from ..core.names import readable
from ..core.posed_bend import joint_bends
from ..core.rig import IKChain, RigView
from ._stiffness_findings import severity_of_shortfall, swing_stiffness

POSED_FOLDED = 70.0
POSED_FAILS = 0.735
"""From this stiffness on the upper bone, with the joint posed at least ``POSED_FOLDED`` degrees
further folded than at rest, every limb measured fails: the leg and the arm at 0.735 to 0.8 posed
70°, 80°, 90°, 100°, 120°, 135°, 150° and 170° stop 0.100% to 0.161% of the reach short. At 0.72
and 0.73 some poses land (the arm posed 70°, 0.080% and 0.093%)."""
POSED_MAY_FOLD = 45.0
POSED_MAY_FAIL = 0.66
"""From this stiffness, with the joint posed at least ``POSED_MAY_FOLD`` degrees further, some
limbs fail and some land by the pose (the leg at 0.66 posed 120° stops 0.108% short, posed 150°
lands, 0.098%; posed 55° to 65° the arm at 0.73 fails and at 0.745 lands): a warning. Below it
every pose measured lands (0.64: at most 0.097%)."""
POSED_SHORTFALL = (0.001, 0.0016)
"""The least and the most share of the reach measured short from ``POSED_FAILS`` to 0.8."""


def posed_stiff_finding(
    rig: RigView,
    chain: IKChain,
    pose_bone: bpy.types.PoseBone,
    stiffness: float,
    rest_share: float,
) -> Finding | None:
    """The upper bone of a two-bone limb stiff enough to fall short once its joint starts posed
    folded further (``POSED_MAY_FAIL``); None where the rest table already fails the chain
    (``rest_share``), or the pose or the stiffness is less than measured to matter."""
    name = readable(pose_bone)
    if name != chain.root or stiffness < POSED_MAY_FAIL - 1e-6:
        return None
    if severity_of_shortfall(rig, rest_share) is Severity.ERROR:
        return None  # the rest table's finding says it
    bends = joint_bends(rig, chain)
    if bends is None or bends[1] < POSED_MAY_FOLD:
        return None
    further = bends[1]
    fails = further >= POSED_FOLDED and stiffness >= POSED_FAILS - 1e-6
    least, most = POSED_SHORTFALL
    outcome = (
        f"so stiff and so posed, the leg and the arm stop {least:.2%} to {most:.2%} of the reach "
        "short (measured)."
        if fails
        else "so stiff and so posed, the leg and the arm land or stop up to 0.12% of the reach "
        "short by the pose (measured): near the tolerance, a warning."
    )
    return chain_finding(
        "locks",
        rig,
        chain,
        bone=name,
        severity=severity_of_shortfall(rig, least) if fails else Severity.WARNING,
        title="Stiff, posed folded",
        message=(
            f"{name} has IK stiffness {stiffness:.3g}, and the joint of IK '{chain.constraint}' "
            f"on {chain.owner} starts posed {further:.0f}° further folded than at rest: " + outcome
        ),
        why=(
            "Stiffness weighs the solver against turning the upper bone; started folded further "
            "than at rest, the chain has further to unfold, and the upper bone lags more than "
            "from the rest pose (measured on the leg and the arm at 0.7: 0.04% to 0.08% of the "
            "reach short from rest, 0.08% to 0.12% posed 70° to 170°)."
        ),
        fix_id="clear_stiffness",
        fix_label=f"Set the IK stiffness of {name} to 0",
        fix_args=(("cause", STIFFNESS), ("bones", (name,))),
        facts=(("stiffness", stiffness), ("posed_further", further)),
    )


PAST_LIMIT = 5.0
PAST_LIMIT_STIFF = 0.7
"""Degrees a two-bone limb's lower bone may be posed past its X IK limit, and the IK stiffness
(both bones, or the upper alone) from which that start is a warning: measured on the leg and
the arm limited 0° to 30° and ±20°, posed 5° to 90° past it, both bones at 0.75 to 0.9 stop
0.10% to 0.26% of the reach short from 5° to 50° past, the upper arm or thigh alone from 0.7;
at the limit itself they land (0.03% at 0.8), and limited 0° to 60° most land posed past it
(fresh seed 319, silent: the arm at 0.875 on both bones, limited 0° to 30° and posed 80°, 0.2%
short with no finding). Which fail depends on the limit's width, so it is a warning."""


def posed_past_limit_finding(rig: RigView, chain: IKChain) -> Finding | None:
    """The warning for a stiff two-bone limb whose lower bone is posed past its X IK limit
    (``PAST_LIMIT``); None otherwise."""
    if len(chain.moving_bones) != 2:
        return None
    joint, root = (rig.pose_bone(name) for name in chain.moving_bones)
    joint_stiff, root_stiff = swing_stiffness(joint), swing_stiffness(root)
    stiffness = min(joint_stiff, root_stiff) if joint_stiff else root_stiff
    if not joint.use_ik_limit_x or stiffness < PAST_LIMIT_STIFF - 1e-6:
        return None
    about_x = twist_about(joint.matrix_basis.to_quaternion(), Vector((1.0, 0.0, 0.0)))
    low, high = math.degrees(joint.ik_min_x), math.degrees(joint.ik_max_x)
    past = max(low - about_x, about_x - high)
    if past < PAST_LIMIT:
        return None
    stiff = tuple(readable(b) for b in (root, joint) if swing_stiffness(b))
    return chain_finding(
        "locks",
        rig,
        chain,
        bone=chain.owner,
        severity=Severity.WARNING,
        title="Stiff, posed past limit",
        message=(
            f"{chain.owner} is posed {past:.0f}° past its X IK limit ({low:.3g}° to "
            f"{high:.3g}°) and {' and '.join(stiff)} {'are' if len(stiff) > 1 else 'is'} "
            f"IK-stiff ({stiffness:.3g}): so started, the leg and the arm stop up to 0.28% of "
            "the reach short or land, by the limit and the pose (measured)."
        ),
        why=(
            "The solver starts from the pose, outside the limit, and stiffness slows each step "
            "back in: limited 0° to 30° and posed 30° past, both bones at 0.8 stop 0.16% of the "
            "reach short where, posed at the limit, they land."
        ),
        fix_id="clear_stiffness",
        fix_label=f"Set the IK stiffness of {', '.join(stiff)} to 0",
        fix_args=(("cause", STIFFNESS), ("bones", stiff)),
        facts=(("stiffness", stiffness), ("posed_past_limit", round(past, 1))),
    )
