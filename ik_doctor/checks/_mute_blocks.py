"""Why muting a constraint the IK overrides would break its chain (the constraint order check's
``mute_overridden`` fix refuses then): what the constraint still holds where the solver starts."""

from __future__ import annotations

import bpy

from ..core.names import readable
from ..core.posed_bend import pose_flips_bend
from ..core.rig import IKChain, RigView
from ..core.start import start_left_to
from ..core.started import start_set_by
from ._iteration_needs import iterations_needed
from ._locks_what_if import track_that_holds_locks
from ._narrow_limits import starts_the_limits_way
from ._shear import REBUILDS_ITS_MATRIX, shear_source
from ._straight_chain import folds_along_roots_x
from ._swung_start import swung_past_x_holds


def why_not_muted(
    rig: RigView,
    chain: IKChain,
    bone: str,
    constraint: bpy.types.Constraint,
    moves_head: bool,
    straight_start: bool,
    turned_back: bool,
) -> tuple[str, str] | None:
    """Why muting the constraint would break the chain (None: it may be muted): what it holds
    (uncovers, copies_location, straight_start, pole_angle, locks, iterations,
    inherit_rotation, shear, narrow_limit, limit_fold or posed) and the sentence."""
    uncovered = start_left_to(rig, chain, bone, constraint)
    if uncovered is not None:
        return "uncovers", (
            f"muted, it would leave '{readable(uncovered)}' above it to set where the solver "
            "starts, bent the other way, and the joint would flip away from the pole (this "
            "check's error): mute that one first"
        )
    if moves_head:
        return "copies_location", (
            "muting it would also drop the location it copies, which still moves the chain: "
            "use Copy Location instead if that is what it is for"
        )
    if turned_back:
        return "pole_angle", (
            f"muted, it would leave the pole angle of IK '{chain.constraint}' turning the joint "
            "away from the pole (the pole check's error): mute it and set the pole angle to "
            "the one that keeps the rest pose together"
        )
    if straight_start or folds_along_roots_x(rig, chain, ignoring=constraint):
        return "straight_start", (
            "muted, it would leave the chain straight: pre-bend the chain first (the "
            "rest_pose check's fix)"
        )
    first = chain.moving_bones[:1]
    if (bone,) == first and track_that_holds_locks(rig, chain) == readable(constraint):
        # Measured: the arm and the leg with a bend axis locked land while this aims the lower
        # bone at the target where the solver starts, and stop 6.4% short once it is muted.
        return "locks", (
            "muted, it would leave the IK locks of the chain blocking its bend, and the limb "
            "short of the target (the locks check's error): free those axes first"
        )
    if start_set_by(rig, chain, bone) == constraint:
        return _start_it_holds(rig, chain, bone, constraint)
    return None


def _start_it_holds(
    rig: RigView, chain: IKChain, bone: str, constraint: bpy.types.Constraint
) -> tuple[str, str] | None:
    """``why_not_muted`` for a constraint that sets where the solver starts ``bone``: what else
    in the chain that start makes up for."""
    # Measured: a joint that does not inherit rotation lands while this sets where it starts,
    # and flips away from its pole once the body turns when it is muted.
    if (
        chain.pole is not None
        and not rig.raw_bone(bone).use_inherit_rotation
        and bone in chain.moving_bones[:-1]
    ):
        return "inherit_rotation", (
            f"muted, it would leave {bone}, which does not inherit rotation, to flip away from "
            "the pole once the body turns: turn Inherit Rotation on first (the inherit check's "
            "fix)"
        )
    # Measured: a forearm sheared by its upper arm scaled (1, 2, 1) lands while a world-space
    # Copy Rotation (or Track To) rebuilds its matrix, and stops 34% short once it is muted
    # (the inherit check's error).
    sheared = (
        shear_source(rig, chain, bone) if isinstance(constraint, REBUILDS_ITS_MATRIX) else None
    )
    if sheared is not None:
        return "shear", (
            f"muted, it would leave {bone} sheared by the uneven scale of {sheared}: set its "
            "Inherit Scale to Aligned first (the inherit check's fix)"
        )
    # Measured: the arm with a Damped Track on the forearm at the hand control lands at 5
    # iterations, and stops 4.1% short once it is muted (the solver check's error).
    iterations = rig.ik_constraint(chain).iterations
    need = iterations_needed(rig, chain, without=constraint)
    if need is not None and iterations < need.count:
        return "iterations", (
            f"muted, it would leave IK '{chain.constraint}' starting where its {iterations} "
            f"iterations are too few (it would need {need.count}, the solver check's error): "
            "set more iterations first"
        )
    # Measured: the arm whose forearm, held on X by a narrow IK limit, a Track To at the
    # hand control starts 90° about Z lands, and stops 6.5% short once it is muted (the locks
    # check's error).
    if bone in swung_past_x_holds(rig, chain) and bone not in swung_past_x_holds(
        rig, chain, without=constraint
    ):
        return "narrow_limit", (
            f"muted, it would leave {bone}, held on X by an IK lock or narrow limit, starting "
            "unturned about Z, and the limb short of the target (the locks check's error): "
            "mute it and free that axis together"
        )
    # Measured: the arm and the leg without a pole, limited -150° to 0°, land while a Damped
    # Track at the pole starts them bent the limit's way, and stop 5.1% and 6.5% short once it
    # is muted (the locks check's error).
    if starts_the_limits_way(rig, chain) and not starts_the_limits_way(rig, chain, constraint):
        return "limit_fold", (
            f"muted, it would leave {bone} starting bent as it rests, the way its one-sided IK "
            "limit does not let it fold, and the limb short of the target (the locks check's "
            "error): mute it and turn that limit off together"
        )
    # Measured: the arm and the leg posed -20° or -70° at the joint land while this sets where
    # it starts, and bend away from the pole once it is muted (the rest_pose check's error).
    if chain.pole is not None and pose_flips_bend(rig, chain):
        return "posed", (
            "muted, it would leave the posed rotation of the chain bending the joint the other "
            "way, away from the pole: clear that pose first (the rest_pose check's fix)"
        )
    return None
