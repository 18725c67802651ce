"""What giving a chain a pole would break: the pole check withholds its "No pole" fix where a
limb that lands without a pole would fail with one, and symmetry asks the same of a twin's."""

from __future__ import annotations

from ..core.rig import AXES, IKChain, RigView
from ..core.start import pose_flips_the_start, start_that_flips_a_pole
from ._iteration_needs import iterations_short_with_a_pole
from ._locks_what_if import lock_that_holds_a_pole, stiffness_that_fails_with_a_pole
from ._narrow_limits import starts_the_limits_way
from ._swung_start import turn_that_fails_with_a_pole
from ._tip_motion import blocked


def what_a_pole_would_break(rig: RigView, chain: IKChain) -> tuple[str | None, str | None]:
    """The first reason (kind, words) a limb that lands without a pole would fail with one, in
    the order they are cheap to read; (None, None) when a pole is safe to give."""
    if not rig.raw_bone(chain.owner).use_inherit_rotation:
        # Measured: with a pole, a joint that does not inherit rotation flips away from it once
        # the body turns (the inherit check's error); without one the limb still reaches.
        return "inherit_rotation", (
            f"{chain.owner} does not inherit rotation: with a pole its joint would flip away "
            "from it once the body turns; turn Inherit Rotation on first"
        )
    reasons = (
        ("overridden_start", start_that_flips_a_pole),
        ("posed", pose_that_flips_a_pole),
        ("bend_axis_lock", lock_that_holds_a_pole),
        ("stiffness", stiffness_that_fails_with_a_pole),
        ("iterations", iterations_short_with_a_pole),
        ("turned_root", turn_that_fails_with_a_pole),
        ("limit_fold", limit_fold_that_fails_with_a_pole),
    )
    for kind, reason_of in reasons:
        reason = reason_of(rig, chain)
        if reason is not None:
            return kind, reason
    return None, None


def root_hinged(rig: RigView, chain: IKChain) -> bool:
    """Whether the root's IK locks (or IK limits of no range) leave it at most one axis to turn
    about: the joint at its tail then stays on one plane (or one point) whatever the target
    does, and the hinge, not a pole, aims it. Measured on the leg without a pole, the thigh free
    only about X: the foot moved out, forward, up and back leaves the knee on its plane to 1e-3,
    where the free thigh swings it 0.073 out (Rigify's quadruped rear legs: MCH-foot_ik3)."""
    pose_bone = rig.pose_bone(chain.root)
    return sum(not blocked(pose_bone, axis) for axis in AXES) <= 1


def pose_that_flips_a_pole(rig: RigView, chain: IKChain) -> str | None:
    """Why giving this chain a pole in front of its bend would break it: its posed rotations
    start the solver bent the other way (``pose_flips_the_start``), and with a pole the joint
    then bends away from it (the rest_pose check's error). Measured on the leg and the arm
    without a pole, posed -20° and -70° at the joint: they land, and with a new pole (or the
    twin's) bend 180° from it; with the pose cleared first, 0°. Posed +20° or +70°, 0°."""
    if not pose_flips_the_start(rig, chain):
        return None
    return (
        "the chain's posed rotation bends the joint the other way where the solver starts: with "
        "a pole in front of the bend it would bend away from it; clear that pose first"
    )


def limit_fold_that_fails_with_a_pole(rig: RigView, chain: IKChain) -> str | None:
    """Why giving this chain a pole would stop it short: without one, its start folds the joint
    the way its one-sided IK limit lets it, against its rest bend (``starts_the_limits_way``);
    with one, the solver folds it toward the pole, where the limit holds it (measured: the leg
    limited -150° to 0°, its thigh keyed 0.3 rad, lands, and with a new pole stops 5.1% short)."""
    if not starts_the_limits_way(rig, chain):
        return None
    return (
        "its one-sided IK limit lets the joint fold only against its rest bend, which its start "
        "folds it to without a pole: with one, the limit would hold it short; turn that limit "
        "off first (the locks check)"
    )
