"""Parenting: an IK chain is a parent-child line of bones with no breaks and no gaps.

The solver walks up the parents of the owner. A limb bone with no parent cuts the chain short:
the bones above never move. A bone that is not connected and starts away from its parent's
tail pivots on empty space, so the joint the animator sees is not the joint that bends. With
IK Stretch on the bones left, the cut chain still lands its tip by stretching (measured on the
leg and the arm, stretch 0.001 on the owner): a warning then.

What it reports:

- A chain bone with no parent that cuts the chain short: an error, on every live IK of the bone;
  a warning when IK Stretch on the bones left lands the tip anyway, unless, without a pole, an
  IK limit holds the cut bone's swing (stretching does not make that up).
- A joint that is not connected and starts away from its parent's tail: a warning.

What its fixes do:

- Parent and connect. Not offered where another live IK aimed at the same control turns the bone
  the chain would take in: a thigh IK on the foot control lands while the shin hangs free, and
  then misses by its whole reach. Nor on a chain that lands by stretching while the limb,
  parented back, would fail by a fault the cut chain does not feel: a constraint the IK
  overrides setting the cut bone's start, the cut bone not inheriting rotation or inheriting an
  uneven scale, a pose that would start the joint bent the other way, a pole angle turned past
  the bend (fix that first).
- Connecting says how far the bone moves. It waits while a pose scales the bone up: connected,
  it would grow by that much more than the gap, and the limb may no longer fold as near its
  root (the arm without Use Tail, its upper arm at (1, 2, 1), lands 0.03 from the shoulder and
  falls short connected): clear that scale first.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import bpy
from mathutils import Vector

from ..core.editing import edit_bones
from ..core.finding import Finding, Severity, chain_finding
from ..core.geometry import signed_angle
from ..core.limb import MAX_BEND_TURN
from ..core.names import readable
from ..core.reach import limb_bones, posed_longer, stretching_bones
from ..core.registry import Check, get_check
from ..core.rig import GAP_RATIO, IKChain, RigView
from ..core.started import start_felt_once_joined
from ..core.switches import switched_off
from ._shear import SCALE_TOLERANCE, non_uniform_scales


def find_parenting_problems(rig: RigView, options: Mapping[str, Any]) -> Iterator[Finding]:
    reported: set[str] = set()
    cut: set[tuple[str, str]] = set()
    # Live IKs first: of two named alike whose chains the same bone cuts, the one that solves
    # gets the finding (seed 159: a muted forearm IK took it, and a hand IK of length 3 missed
    # 72% of its reach with no error).
    for chain in sorted(rig.chains, key=lambda chain: not chain.live):
        parent = rig.detached_parent(chain)
        top = chain.bones[-1]
        # Every IK the cut chain solves for fails (a twin IK on the bone too); one switched off
        # beside an active twin is judged through that twin. One finding per bone and IK name.
        if (
            parent is not None
            and not switched_off(rig, chain)
            and (top, chain.constraint) not in cut
        ):
            cut.add((top, chain.constraint))
            reported.add(top)
            stretching = stretching_bones(rig, chain)
            held = _swing_held(rig, chain) if stretching else None
            lands = bool(stretching) and held is None
            fix = _parent_fix(rig, chain, top, parent, lands)
            yield chain_finding(
                "parenting",
                rig,
                chain,
                bone=top,
                severity=Severity.WARNING if lands else Severity.ERROR,
                title="Chain cut: no parent",
                message=(
                    f"{top} has no parent, so IK '{chain.constraint}' on {chain.owner} stops "
                    f"after {len(chain.moving_bones)} of its {chain.chain_count} bones; "
                    f"{parent} ends where {top} starts."
                    + (
                        f" IK Stretch on {', '.join(stretching)} still lands the tip, by "
                        "stretching (measured)."
                        if lands
                        else f" IK Stretch on {', '.join(stretching)} does not make up for "
                        f"it: without a pole, the IK limit of {held} holds the swing to the "
                        "target (measured: 89% to 202% of the reach short)."
                        if held
                        else ""
                    )
                ),
                why=(
                    "The solver only rotates the owner and its parents: with the link missing, "
                    f"{parent} and the bones above it never bend."
                ),
                facts=(
                    ("stretching", tuple(stretching)),
                    ("swing_held_by", held),
                    *fix.pop("facts", ()),
                ),
                **fix,
            )
        # Chain length 0 climbs into the body; the chain_length check reports that instead.
        span = len(chain.bones) if chain.chain_count else rig.limb_length(chain.owner)
        for name in chain.bones[: span - 1]:
            gap = rig.gap_to_parent(name, options["gap_ratio"])
            if gap is None or name in reported:
                continue
            reported.add(name)
            parent_name = rig.bone(name).parent
            yield chain_finding(
                "parenting",
                rig,
                chain,
                bone=name,
                severity=Severity.WARNING,
                title="Joint off its parent",
                message=(
                    f"{name} starts {gap:.3g} away from the tail of its parent {parent_name}: "
                    "the joint pivots on empty space."
                ),
                why=(
                    f"{name} is not connected, so when {parent_name} rotates it swings {name} "
                    "on a lever: the bend happens away from the visible joint."
                ),
                **_connect_fix(rig, chain, name, parent_name, gap),
            )


def _connect_fix(
    rig: RigView, chain: IKChain, name: str, parent: str | None, gap: float
) -> dict[str, Any]:
    """The connect fix, unless ``parent`` carries other limbs (the hips, for a leg whose chain
    reaches them): connected, the limb would take the hips in and no longer count them as the
    body, which the chain still turns (seed 141: a leg without Use Tail, connected, is no
    longer called turning the body, and the pole check then finds its hip joint flipped);
    unless a live IK on ``name`` turns that bone alone: connected, the bone joins its parent's
    limb and that IK stops short of it (the chain_length check's error); or unless a pose
    scales the bone up, which would lengthen it by that much more than the gap and change what
    the limb can fold to (measured: the arm without Use Tail, its upper arm at (1, 2, 1), or
    straight at 1.9 with one-sided limits, lands 0.03 from the shoulder and connected falls
    short; cleared of the scale it lands)."""
    if parent in rig.limb_carriers(chain):
        return dict(
            no_fix_reason=f"{parent} carries other limbs, and IK '{chain.constraint}' on "
            f"{chain.owner} reaching into it is the fault (the chain_length check's error): "
            f"set the chain length first; connected, {name} would join {parent} to the limb "
            "and the chain would still turn the body",
            facts=(("carrier", parent),),
        )
    scaled = _scaled_up_by_pose(rig, chain, name)
    if scaled is not None:
        return dict(
            no_fix_reason=f"a pose scales {name} up {scaled:.3g} times: connected, it would grow "
            "by that much more than the gap, and the limb may no longer fold as near its root: "
            "clear that scale first (the rest_pose check's fix)",
            facts=(("scaled_up", scaled),),
        )
    one_bone = _one_bone_chain_on(rig, name)
    if one_bone is not None:
        return dict(
            no_fix_reason=f"connected, {name} would join {parent}'s limb, and IK "
            f"'{one_bone.constraint}' on {name}, of chain length 1, would then stop short of it "
            "(the chain_length check's error): set that IK's chain length first",
            facts=(("one_bone_ik", (name, one_bone.constraint)),),
        )
    return dict(
        fix_id="connect",
        fix_label=f"Connect {name} to {parent} (moves {name}'s head by {gap:.3g}; changes the "
        "rest pose)",
        changes_rest_pose=True,
    )


def _scaled_up_by_pose(rig: RigView, chain: IKChain, name: str) -> float | None:
    """How many times its rest length a leftover pose scale, on the bone or one above it in the
    limb, makes ``name``; None without one, or on a chain that reaches by IK Stretch (whose
    evaluated lengths are the solver's, as a constraint's are its own)."""
    limb = limb_bones(rig, chain)
    if name not in limb or stretching_bones(rig, chain):
        return None
    above = limb[limb.index(name) :]
    if not any(rig.pose_bone(bone).matrix_basis.to_scale().y > 1.001 for bone in above):
        return None
    return posed_longer(rig, chain).get(name)


def _one_bone_chain_on(rig: RigView, name: str) -> IKChain | None:
    """A live IK on ``name`` that turns that bone alone. Measured: an upper-arm IK of chain
    length 1 on the hand control lands while the upper arm sits apart from the shoulder, and
    stops 9.9% of its reach short once the two are connected (one limb then)."""
    for chain in rig.chains:
        if chain.owner == name and chain.live and chain.moving_bones == (name,):
            return chain
    return None


def _swing_held(rig: RigView, chain: IKChain) -> str | None:
    """The bone of a cut chain without a pole whose IK limit on a swing axis (X or Z) holds it
    from turning to the target: stretching does not make that up (measured on the arm, its
    forearm cut off with stretch 0.5: limited ±60° it stops 89% of the reach short, one-sided
    0° to 150° 125% to 202%; unlimited, or with a pole, it lands). None where none does."""
    if chain.pole is not None and not chain.pole_bone_missing:
        return None
    for name in chain.moving_bones:
        pose_bone = rig.pose_bone(name)
        if any(getattr(pose_bone, f"use_ik_limit_{axis}") for axis in "xz"):
            return readable(pose_bone)
    return None


def _parent_fix(
    rig: RigView, chain: IKChain, top: str, parent: str, stretching: bool
) -> dict[str, Any]:
    """The parent fix, unless another live IK aimed at the same control turns a bone the chain
    would then take in: Blender solves the two as one tree and that IK misses its target
    (measured: a thigh IK aimed at the foot control, which lands while the shin hangs free,
    stops its whole reach short once the shin is parented back; the duplicates check's error),
    or a live IK on a bone the chain would take in, whatever it aims at (measured on 4.5: an
    upper-arm IK of length 1 on the hand control lands while a forearm IK aimed at the other
    hand's control is cut off; parented back, the upper arm's IK stops its whole reach short,
    constraint_order's nested IK), or a chain that lands by stretching would fail once parented
    (``_fault_felt_once_parented``)."""
    span = [parent, *rig.ancestors(parent)]
    taken_in = span[: chain.chain_count - len(chain.bones)] if chain.chain_count else span
    waiting = _fault_felt_once_parented(rig, chain, top, taken_in) if stretching else None
    if waiting is not None:
        blocked_by, fault = waiting
        return dict(
            no_fix_reason=f"{chain.owner}'s chain lands by stretching; parented back, {fault}, "
            "and the limb would miss: fix that first",
            facts=(("blocked_by", blocked_by),),
        )
    taken = set(taken_in)
    for other in rig.chains:
        aimed = other.shares_control(chain)
        live = other.live and other.target is not None
        if other is chain or not live:
            continue
        if aimed and taken.intersection(other.moving_bones):
            why = (
                f"{top} would bring {parent} into the chain of IK '{chain.constraint}' on "
                f"{chain.owner}, and IK '{other.constraint}' on {other.owner}, aimed at the same "
                "control, would then miss it: remove that IK first"
            )
        elif other.owner in taken:
            why = (
                f"{top} would bring {other.owner} into the chain of IK '{chain.constraint}' on "
                f"{chain.owner}, and IK '{other.constraint}' on {other.owner}, nested inside it, "
                "would then miss its target (the constraint_order check's error): remove or "
                "mute that IK first"
            )
        elif aimed and _hangs_past_the_head(rig, chain, other):
            why = (
                f"IK '{chain.constraint}' on {chain.owner}, without Use Tail, would put "
                f"{chain.owner}'s head on the control, and IK '{other.constraint}' on "
                f"{other.owner}, which {chain.owner} carries, would then miss it: remove one of "
                "the two IKs first"
            )
        else:
            continue
        return dict(
            no_fix_reason=f"parented back, {why}",
            facts=(("rival_ik", (other.owner, other.constraint)),),
        )
    return dict(
        fix_id="parent",
        fix_label=f"Parent {top} to {parent} and connect it",
        fix_args=(("parent", parent),),
    )


def _hangs_past_the_head(rig: RigView, chain: IKChain, other: IKChain) -> bool:
    """Whether ``other``, aimed at the same control, hangs from ``chain``'s owner without turning
    it, while ``chain`` reaches with the owner's head (no Use Tail). Measured on 5.3: the cut
    forearm's IK without Use Tail does nothing and the hand's IK of length 1 lands; parented
    back, the forearm's chain puts the elbow on the control and the hand misses by 138%."""
    return (
        not chain.use_tail
        and chain.owner in rig.ancestors(other.owner)
        and chain.owner not in other.moving_bones
    )


def _fault_felt_once_parented(
    rig: RigView, chain: IKChain, top: str, taken_in: list[str]
) -> tuple[str, str] | None:
    """What the cut chain, landing by stretching, does not feel and would fail by once its top
    bone is parented back, in a word (the finding's 'blocked_by') and in a phrase. Measured on
    5.3, unparented + IK Stretch 0.1/0.5 on the arm and leg, landing cut and missing parented:
    a pole angle the pole check finds turned past the bend (100° to 180°), the cut bone not
    inheriting rotation, the cut bone inheriting the uneven scale of its parent or the body
    (pose scale 1.5/2, a squashed body: inherit's shear), a start an overridden constraint sets
    (``start_felt_once_joined``), a chain length that would reach into the hips (the leg at 3 or
    9: chain_length's error), a control that is, or hangs from, a bone the chain would take in
    (target's or cycle's error). Cut limbs that fail cut keep the fix: they fail after it too."""
    parent = taken_in[0]
    carriers = rig.carriers_along(taken_in)
    if carriers:
        return "chain_length", f"IK '{chain.constraint}' would turn {carriers[0]} as well"
    control = chain.subtarget if chain.target == rig.object else ""
    if rig.has_bone(control) and {control, *rig.ancestors(control)}.intersection(taken_in):
        return "target", f"IK '{chain.constraint}' would turn its own control {control}"
    setting = start_felt_once_joined(rig, chain, top)
    if setting is not None:
        return "overridden_start", f"{top} would bend from where '{setting}' starts it"
    if _posed_across(rig, top, parent):
        return "rest_pose", f"{top}'s pose would start the joint bent the other way"
    bone = rig.raw_bone(top)
    if not bone.use_inherit_rotation:
        return "inherit", f"{top} would not turn with {parent} (Inherit Rotation is off)"
    uneven = non_uniform_scales(rig, SCALE_TOLERANCE)
    scaled = next((n for n in (parent, *rig.ancestors(parent)) if n in uneven), None)
    if scaled is not None and bone.inherit_scale == "FULL":
        return "inherit", f"{top} would be sheared by the uneven scale of {scaled}"
    pole = get_check("pole")
    found = pole.findings_on(rig, pole.options_with(None))
    if any(f.chain == chain.key and _turned_past_the_bend(f) for f in found):
        return "pole", f"the pole angle would bend {chain.owner}'s joint away from its pole"
    return None


def _posed_across(rig: RigView, top: str, parent: str) -> bool:
    """Whether the cut bone's posed rotation, carried by ``parent`` once parented back, starts the
    joint on the far side of ``parent``'s line from the side it bends to at rest (rest_pose's "Pose
    flips the joint"; cut, the pose turns the bone alone). Fresh seed 365, a trade: the cut forearm
    posed 170° further, landing by IK Stretch 0.705, failed 180° from its pole once parented.
    Measured on 4.2 and 5.3, the arm and the leg stretching 0.1 and 0.5, posed about X: -20° to
    -170° and 170° to 180° fail parented, 20° to 160° land."""
    parent_y = rig.raw_bone(parent).matrix_local.to_3x3().col[1]
    rest = rig.raw_bone(top).matrix_local.to_3x3()
    fold = parent_y.cross(rest.col[1])
    if fold.length < 1e-6:
        return False  # straight at rest: no side to cross to (the rest_pose check's)
    posed = rest @ (rig.pose_bone(top).matrix_basis.to_3x3() @ Vector((0.0, 1.0, 0.0)))
    return signed_angle(parent_y, posed, fold) < 0.0


def _turned_past_the_bend(pole_finding: Finding) -> bool:
    """Whether the pole check finds the chain turned further than a joint bends from its pole
    (``MAX_BEND_TURN``). Measured cut + IK Stretch 0.1, parented back: a pole angle 100° to
    180° off fails the arm and the leg, 20° and 60° off or a 90° roll land."""
    stated = pole_finding.stated
    turn = float(stated.get("turn") or 0.0) + float(stated.get("start_turn") or 0.0)
    return abs((turn + 180.0) % 360.0 - 180.0) > MAX_BEND_TURN


def parent_bone(obj: bpy.types.Object, finding: Finding) -> str:
    child, parent = finding.bone or "", str(finding.args["parent"])
    with edit_bones(obj) as bones:
        bones[child].parent = bones[parent]
        bones[child].use_connect = True
    return f"Parented {child} to {parent} and connected it (it already started on {parent}'s tail)."


def connect_bone(obj: bpy.types.Object, finding: Finding) -> str:
    name = finding.bone or ""
    with edit_bones(obj) as bones:
        bone, parent_bone = bones[name], bones[name].parent
        assert parent_bone is not None  # the finding stands on a bone with a parent
        moved = (bone.head - parent_bone.tail).length
        bone.use_connect = True
        parent = readable(parent_bone)
    return (
        f"Connected {name} to {parent}: its head moved {moved:.3g} onto {parent}'s tail "
        "(rest pose changed; meshes bound to this rig keep their rest shape)."
    )


CHECK = Check(
    id="parenting",
    title="Parenting",
    doc=__doc__ or "",
    find=find_parenting_problems,
    fixes={"parent": parent_bone, "connect": connect_bone},
    options={"gap_ratio": GAP_RATIO},
    order=10,
)
