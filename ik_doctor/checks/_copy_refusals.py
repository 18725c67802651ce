"""Why copying a mirror twin's settings onto a chain would break it, for the symmetry check's
fix: each refusal names, in a word and a sentence, the fault the copy would set off (a flipped
joint, a shear, a cycle, a fighting pair, a dropped stretch) and what to fix first."""

from __future__ import annotations

from dataclasses import replace

from ..core.limb import forward_pose
from ..core.posed_bend import pose_flips_bend
from ..core.reach import stretching_bones
from ..core.rig import IKChain, RigView
from ..core.start import (
    flat_start_side_on,
    flip_lands,
    pole_turns_the_flip_back,
    pose_flips_the_start,
    start_held_by_a_hinge,
    start_kept_out_by_a_limit,
    start_that_flips_a_pole,
    start_turned_back,
)
from ._locks_what_if import start_held_by_a_lock
from ._narrow_limits import posed_flip_held
from ._pole_would_break import pose_that_flips_a_pole
from ._posed_off_axis import held_together, turned_off_its_bend
from ._shear import shear_that_stops
from ._stacked_chains import held_below
from ._swung_start import freeing_breaks, swung_past_x_holds
from ._twin_differences import Difference
from ._unturned_joint import limited_to_its_side
from .duplicates import clash_after

LIMIT_SETTINGS = ("use_ik_limit_", "ik_min_", "ik_max_")
"""The pose bone's IK limit settings, by their start."""


def copy_refused(
    rig: RigView, differences: list[Difference], source: IKChain, dest: IKChain, decided: bool
) -> tuple[str, str] | None:
    """Why copying ``source``'s settings onto ``dest`` would break ``dest`` although the pair's
    differences allow it, in a word and a sentence (None: copy). ``decided``: the other checks
    chose ``source``."""
    # The twin's pole, or its Use Tail (the owner then turns), makes the owner's inheritance
    # matter.
    gains_tail = not dest.use_tail and source.use_tail
    gains_pole = dest.pole is None and any(d.what == "pole" for d in differences)
    inherits = rig.raw_bone(dest.owner).use_inherit_rotation
    loses_side = not inherits and _loses_its_side(rig, dest, differences)
    if (gains_tail or gains_pole or loses_side) and not inherits:
        # Measured: a pole on a joint that does not inherit rotation flips it once the body
        # turns (the inherit check's error); without one the limb still reaches.
        return "inherit_rotation", (
            f"{dest.owner} does not inherit rotation: with its twin's "
            f"{'IK limits' if loses_side else 'pole or Use Tail'} its joint "
            "would flip away from the pole once the body turns; turn Inherit Rotation on first"
        )
    if gains_tail and (sheared := _shear_with_tail(rig, dest)):
        # Measured: the arm under an upper arm posed at scale (1, 2, 1) lands without Use Tail
        # (the forearm only carries the tip) and stops 33.8% of the reach short with it.
        return "shear", (
            f"with its twin's Use Tail {dest.owner} would turn under the uneven scale of "
            f"{sheared}, which shears it, and the limb would stop short: clear that scale or set "
            f"the Inherit Scale of {dest.owner} to Aligned first"
        )
    looped = _target_below_copied_chain(rig, source, dest)
    if looped is not None:
        return "cycle", looped
    unlocks = any(d.held_axes(("lock_ik_",)) for d in differences)
    paired = _pair_set_off(rig, dest, gains_tail, unlocks)
    if paired is not None:
        return "duplicates", paired
    if any(d.what in ("pole", "Use Tail") for d in differences):
        # With the twin's pole or Use Tail (its owner then turns), an overridden rotation the
        # chain now ignores starts the solver bent the other way (measured: a Track To on a
        # forearm without Use Tail, or a Copy Rotation of the hips on a leg without a pole).
        # The twin's free joint too, where the copy drops a one-sided limit that keeps the
        # start out (fresh seed 393, a trade: the leg without a pole, limited 0° to 30°, lands
        # under a Track To at its control; with its twin's pole and free knee it flips).
        tailed = _with_tail(dest) if gains_tail else replace(dest, use_tail=source.use_tail)
        frees = _writes_limits(differences, dest.moving_bones)
        flips = start_that_flips_a_pole(rig, tailed, limited=not frees)
        if flips is not None:
            return "overridden_start", flips
    freeing = _freeing_refused(rig, dest, differences, unlocks)
    if freeing is not None:
        return freeing
    # Measured: the arm posed -20° or -70° at the elbow lands without Use Tail (the forearm
    # only carries the tip) and bends away from its pole with it (rest_pose's error); the leg
    # and the arm so posed land without a pole and bend 180° from the twin's.
    posed = gains_pole and pose_that_flips_a_pole(rig, _with_tail(dest) if gains_tail else dest)
    freed = not posed and _limits_hold_a_flipping_pose(rig, dest, differences, gains_pole)
    if posed or freed or (gains_tail and _pose_flips_with_tail(rig, dest)):
        copied = "IK limits" if freed else "pole" if gains_pole else "Use Tail"
        return "posed", (
            f"with its twin's {copied} the posed rotation of {dest.owner}'s chain would bend "
            "its joint away from the pole: clear that pose first"
        )
    angle = _angle_refused(rig, dest, differences)
    if angle is not None:
        return angle
    stretching = stretching_bones(rig, dest) if decided else ()
    if stretching and not stretching_bones(rig, source):
        # IK Stretch makes up what the side's other faults take from its reach (locks, a
        # shortened bone): copied away, they leave the limb short.
        return "stretch", (
            f"copying would drop the IK Stretch of {', '.join(stretching)}, which lets "
            f"{dest.owner} reach despite its other faults: fix those first"
        )
    return None


def _loses_its_side(rig: RigView, dest: IKChain, differences: list[Difference]) -> bool:
    """Whether the copy writes the IK limits of ``dest``'s owner, whose one-sided limit keeps
    its joint's side (``limited_to_its_side``; fresh seed 302's class: limited 0° to 150° the
    leg lands not inheriting rotation, and with its twin's free joint it flips)."""
    writes = _writes_limits(differences, (dest.owner,))
    return writes and limited_to_its_side(rig, dest, dest.owner)


def _limits_hold_a_flipping_pose(
    rig: RigView, dest: IKChain, differences: list[Difference], gains_pole: bool
) -> bool:
    """Whether the copy writes IK limits of ``dest``'s bones that hold its posed rotations on
    the joint's side, which freed bend it the other way, under its pole or the twin's (fresh
    seed 317, a trade: the forearm limited 0° to 150° and posed -90° lands; with its twin's free
    joint the pose flips it, rest_pose's error; measured without a pole, limited 0° to 30° and
    posed -14° to -160°, the leg and the arm land, and with the twin's pole and free joint bend
    180° from it)."""
    if not _writes_limits(differences, dest.moving_bones):
        return False
    if dest.pole is None and not gains_pole:
        return False
    return not pose_flips_bend(rig, dest) and pose_flips_bend(rig, dest, forward_pose(rig, dest))


def _writes_limits(differences: list[Difference], bones: tuple[str, ...]) -> bool:
    """Whether copying the twin's settings writes an IK limit setting of one of ``bones``."""
    return any(
        bone in bones and setting.startswith(LIMIT_SETTINGS)
        for d in differences
        for bone, setting, _ in d.writes
    )


def _target_below_copied_chain(rig: RigView, source: IKChain, dest: IKChain) -> str | None:
    """Why the twin's chain length and Use Tail would loop ``dest``: its chain would then turn
    a bone its target hangs below (the cycle check's error). Fresh seed 217: the arm of chain
    length 1 whose hand control hangs from the upper arm lands; copied length 2, it cycles."""
    if dest.target != rig.object or not rig.has_bone(dest.subtarget):
        return None
    copied = replace(
        dest,
        use_tail=source.use_tail,
        chain_count=source.chain_count,
        bones=rig.chain_bones(dest.owner, source.chain_count, source.use_tail),
    )
    turned = copied.moving_bones
    held = set(rig.ancestors(dest.subtarget)).difference(dest.moving_bones)
    looped = next((name for name in turned if name in held), None)
    if looped is None:
        return None
    return (
        f"with its twin's chain length {dest.owner}'s chain would turn {looped}, which its "
        f"target {dest.subtarget} hangs below: a dependency cycle; parent the control elsewhere "
        "first"
    )


def _angle_refused(
    rig: RigView, dest: IKChain, differences: list[Difference]
) -> tuple[str, str] | None:
    """Why the twin's pole angle must not be copied alone: ``dest``'s angle makes up for a
    start that bends the joint the other way, or leaves a flat start side-on."""
    if not any(d.what == "pole angle" for d in differences):
        return None
    overridden = start_turned_back(rig, dest)
    if overridden is not None:
        # Measured: a Damped Track at the pole on the forearm lands with the pole angle turned
        # 180°, and bends 180° away from the pole with the twin's angle (constraint_order's error).
        return "overridden_start", (
            f"'{overridden[1]}' on {overridden[0]} starts the solver bent the other way and its "
            "pole angle turns it back: with the twin's angle it would bend away from the pole; "
            "mute it and copy the angle together"
        )
    side_on = flat_start_side_on(rig, dest)
    if side_on is not None:
        # Measured: the leg copying the hips' rotation lands side-on with its angle turned 90°,
        # and bends 180° from its pole with the twin's angle.
        return "overridden_start", (
            f"'{side_on[1]}' on {side_on[0]} starts the joint folded flat and the pole angle "
            "leaves it side-on: with the twin's angle it would bend away from the pole; mute it "
            "and copy the angle together"
        )
    if pole_turns_the_flip_back(rig, dest):
        # Measured: the leg posed -20° at the knee lands with its pole angle turned 150°, and
        # bends 180° away from the pole with the twin's angle (the rest_pose check's error).
        return "posed", (
            f"the posed rotation of {dest.owner}'s chain bends its joint the other way and its "
            "pole angle turns it back: with the twin's angle it would bend away from the pole; "
            "clear the pose and copy the angle together"
        )
    return None


def _freeing_refused(
    rig: RigView, dest: IKChain, differences: list[Difference], unlocks: bool
) -> tuple[str, str] | None:
    """Why the copy must not free an IK lock or limit of ``dest`` that its start needs."""
    if unlocks and (held := start_held_by_a_hinge(rig, dest) or start_held_by_a_lock(rig, dest)):
        return "overridden_start", held
    held = _frees_a_held_turn(rig, dest, differences)
    if held is not None:
        return "posed_off_axis", held
    frees_limits = any(d.held_axes(LIMIT_SETTINGS) for d in differences)
    if frees_limits and (kept := start_kept_out_by_a_limit(rig, dest)) is not None:
        return "overridden_start", kept
    frees_x = any("x" in d.held_axes() for d in differences)
    if frees_x and (breaks := _freeing_breaks(rig, dest)) is not None:
        return "overridden_start", breaks
    return None


def _frees_a_held_turn(rig: RigView, dest: IKChain, differences: list[Difference]) -> str | None:
    """Why the copy must not free a held bend axis that the pose above turns where the bone
    does not inherit rotation (``_posed_off_axis``): freed alone, the joint flips."""
    freed = set().union(*(d.held_axes() for d in differences))
    for name in dest.moving_bones:
        if any(turned_off_its_bend(rig, dest, name, axis) for axis in freed):
            return held_together(name)
    return None


def _pair_set_off(rig: RigView, dest: IKChain, gains_tail: bool, unlocks: bool) -> str | None:
    """Why the copy would set off a pair of IKs on one control (the duplicates check's error),
    or None. Measured: a forearm IK without Use Tail and an upper arm's IK of length 1 on the
    hand control reach for one point and land, and with the twin's Use Tail the upper arm's
    misses; a limb locked on every axis leaves a foot's or hand's IK on its control where it
    lands, and unlocked it reaches first and that one misses."""
    if gains_tail and (rival := clash_after(rig, _with_tail(dest))) is not None:
        return (
            f"with its twin's Use Tail IK '{dest.constraint}' on {dest.owner} would fight IK "
            f"'{rival.constraint}' on {rival.owner}, aimed at the same control: fix that pair "
            "first (the duplicates check)"
        )
    if unlocks and (below := held_below(rig, dest)) is not None:
        return (
            f"with its twin's IK locks {dest.owner}'s chain would turn and leave IK "
            f"'{below.constraint}' on {below.owner}, aimed at the same control, short: fix "
            "that pair first (the duplicates check)"
        )
    return None


def _freeing_breaks(rig: RigView, chain: IKChain) -> str | None:
    """Why copying the twin's X IK lock or limit (none) onto ``chain`` would break it: a joint
    held on X by a lock or narrow limit that lands by a start turned about Z (``_swung_start``),
    or a limit that folds it off its plane past a pose that flips it (``posed_flip_held``)."""
    for bone, swing in swung_past_x_holds(rig, chain).items():
        breaks = freeing_breaks(rig, chain, bone, swing)
        if breaks is not None:
            return breaks
    return posed_flip_held(rig, chain)


def _with_tail(chain: IKChain) -> IKChain:
    """The chain as it would be with Use Tail on: its count then starts at the owner."""
    bones = chain.bones[: chain.chain_count] if chain.chain_count else chain.bones
    return replace(chain, use_tail=True, bones=bones)


def _shear_with_tail(rig: RigView, chain: IKChain) -> str | None:
    """The bone whose uneven scale would shear the owner once Use Tail makes it turn."""
    return shear_that_stops(rig, _with_tail(chain), chain.owner)


def _pose_flips_with_tail(rig: RigView, chain: IKChain) -> bool:
    """Whether the chain's posed rotations would start it bent away from its pole once Use Tail
    makes the owner turn (rest_pose's error: not toward a pole behind the bend, nor turned back
    by the pole angle)."""
    with_tail = _with_tail(chain)
    if with_tail.pole is None or not pose_flips_the_start(rig, with_tail):
        return False
    return not flip_lands(rig, with_tail)
