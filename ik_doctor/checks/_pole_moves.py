"""Whether the pole check may move a pole in front of the bend: the pole bone must be one that
nothing else uses, and nothing measured may flip the joint away from a pole moved there (a joint
that does not inherit rotation, a constraint aimed at the pole, tracking the control or
starting the joint bent the other way, a pose that bends the joint toward the pole behind it)."""

from __future__ import annotations

from ..core.names import readable
from ..core.posed_bend import pose_flips_bend
from ..core.rig import IKChain, RigView
from ..core.start import overridden_constraints, start_flips_the_bend


def pole_bone_is_movable(rig: RigView, chain: IKChain) -> bool:
    """A pole bone of this armature that nothing else uses: no other chain, mesh or child."""
    name = chain.pole_subtarget
    if chain.pole != rig.object or not rig.has_bone(name):
        return False
    bone = rig.bone(name)
    if bone.use_deform or bone.use_connect or rig.children(name):
        return False
    users = {id(other): other for other in rig.chains_with_bone(name) + rig.chains_aimed_at(name)}
    # The chain's own target as its pole: moving it would move where the chain reaches.
    return list(users.values()) == [chain] and name not in chain.bones and name != chain.subtarget


def kept_behind_the_bend(rig: RigView, chain: IKChain) -> dict[str, str]:
    """Why moving the pole in front of the bend would flip the joint ({}: it may move)."""
    # Measured: behind the bend, a joint that does not inherit rotation still lands (bent as
    # built or facing the pole); moved in front, it flips away once the body turns.
    loose = [n for n in chain.moving_bones[:-1] if not rig.raw_bone(n).use_inherit_rotation]
    # Measured: a Damped Track at a pole behind the bend starts the shin bent as built; at the
    # pole moved in front, it starts it bent the other way (the constraint_order check's error).
    aiming = [
        f"'{readable(c)}' on {bone}"
        for bone in chain.moving_bones[:-1]
        for c in rig.constraints(bone)
        if c.type != "IK"
        and not c.mute
        and getattr(c, "target", None) == chain.pole
        and readable(c, "subtarget", "") == chain.pole_subtarget
    ]
    # Measured: a Track To at the control, or a start bent the other way (the shin copying the
    # hips' or the hand control's rotation), lands on the leg and the arm under a pole behind
    # the bend; under a pole in front it flips or stalls the joint (constraint_order's error).
    tracking = [
        f"'{readable(c)}' on {bone}"
        for bone, c in overridden_constraints(rig, chain.moving_bones[:-1])
        if c.type == "TRACK_TO" or start_flips_the_bend(rig, chain, bone, c)
    ]
    if loose:
        return dict(
            blocked_by="inherit_rotation",
            no_fix=f"{', '.join(loose)} does not inherit rotation: with the pole moved in front "
            "of the bend its joint would flip away from it once the body turns; turn Inherit "
            "Rotation on first",
        )
    if aiming:
        return dict(
            blocked_by="aimed_at_pole",
            no_fix=f"{', '.join(aiming)} aims at the pole: moved in front of the bend, it would "
            "start the joint bent the other way; mute it first",
        )
    if tracking:
        return dict(
            blocked_by="tracking",
            no_fix=f"{', '.join(tracking)} sets where the solver starts the joint: with the pole "
            "moved in front of the bend that start would bend it the other way; mute it first",
        )
    if pose_flips_bend(rig, chain):
        return dict(
            blocked_by="posed",
            no_fix="the chain's posed rotation bends the joint the other way, toward this pole: "
            "moved in front of the bend, the joint would bend away from it; clear that pose first",
        )
    return {}
