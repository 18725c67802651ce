"""Mirror: an IK chain whose settings differ from its mirror twin's, a mistake made on one side.

Rigs are built on one side and mirrored; a setting changed afterwards on one side only makes the
two limbs answer the same controls differently. Twins are named as Blender's *Flip Names* pairs
them (``bpy.utils.flip_name``; measured in 4.2 and 5.3: ``.L``/``.R``, ``_L``, ``-L``, ``L_``,
``l_``, ``Left``/``Right``, ``left``, ``LEFT``, with or without ``.001``), and judged only when
their limbs pair bone by bone under flipped names too: a bone without a twin, or a limb built
differently, is not a twin. The mirror plane lies midway between the two limbs, across the
armature axis on which they lie closest to mirror images (X for most rigs; Y on a Quaternius
cowboy built facing X).

Compared: chain length, Use Tail, Stretch, iterations, weight, a pole on one side only, the
target's and pole's side of the mirror plane, and on every bone IK locks, IK limits and their
ranges, stiffness and IK stretch; and at rest the bones' lengths (1%), the limbs' shape, and
their rolls. A missing target is the target check's error, not a difference. Mirrored, as
measured in 4.2 and 5.3:

- Pole angle: Symmetrize sets the twin's roll to -roll and its pole angle to 180° minus the
  angle (37° gives 143°), which turns the twin by the opposite amount from its own rest-keeping
  angle (-161.5° and +161.5°). So each side's pole angle is compared against the angle that
  keeps its own rest pose: on the reference rig, both legs turned +25° from rest end up to 0.84
  (rotation matrix entries) from mirror images of each other, +25° and -25° exactly mirrored.
- IK limits, solved with the ranges binding: X ranges equal and Y and Z ranges mirrored
  (``[a, b]`` becomes ``[-b, -a]``) pose the twins as mirror images (0.0000), Y or Z ranges
  copied unchanged do not (up to 0.17 and 0.37). For a twin whose X axis is reversed instead
  (a roll 180° off), X and Y flip and Z stays. Symmetrize itself copies every range unchanged in
  4.2, and mirrors Z but not Y in 5.3.
- Roll: the solver ignores it while bones rotate freely, but IK locks, limits and stiffness act
  on the bone's axes, and Blender's mirror tools assume -roll: on the Quaternius T-rex (hip
  rolls -90° on both sides) *Paste Pose Flipped* leaves the leg's bones 0.9 to 3.1 from the
  mirror pose, 0.0 once the right side's rolls are mirrored. A reversed X axis is the same
  line, though: IK locks act alike on it (the T-rex's locked legs solve as mirror images).

Each pair gets one finding naming every difference with both values: a warning; information
when the twins differ at rest (lengths or shape beyond 1%: built asymmetric, maybe on purpose)
or only in the roll of bones that rotate freely. The fix copies the settings of the side that
is right onto the other, mirrored. Which side is right is read, not solved (checks do not
evaluate): the side on which the other checks (run once per pass, with their default
thresholds, and only when a pair differs in a setting) find no warning or error, nor a target
or pole across the mirror plane, while its twin has one. When the twin's is an error the pair is
an error: one side is broken and its twin is not. When neither or both sides have faults, no
fix: the finding says what differs. Rolls and lengths are rest-pose edits the fix leaves alone.

What it reports:

- An IK chain whose settings differ from its mirror twin's. Twins are named as Blender's Flip
  Names pairs them (``.L``/``.R``, ``_L``, ``-L``, ``L_``, ``l_``, ``Left``/``Right``…), with
  limbs that pair bone by bone, mirrored across the armature axis they lie mirrored on.
    - Compared: chain length, Use Tail, Stretch, iterations, weight, a pole on one side only, a
      target or pole across the mirror plane, IK locks, limits and their ranges, stiffness and
      IK stretch, and pole angles more than 5° (option ``max_angle``) from turning the twins
      opposite ways from their own rest poses. Measured: only equal X ranges with mirrored Y and
      Z ranges, and opposite turns, pose the twins as mirror images.
    - A warning, one finding per pair naming both values; an error when another check finds an
      error on one side and nothing on the other.
- Rolls more than 5° from the negative of the twin's: a warning when IK locks, limits or
  stiffness then act about other lines (a spider's mirrored legs end 1.1% to 2.9% of the reach
  apart from mirror poses); information otherwise (Paste Pose Flipped misses the mirror pose by
  up to 3.4 on the T-rex).
- Bones more than 1% apart in length, or joints more than 1% of the reach off the mirror image:
  information, built asymmetric, maybe on purpose.
- Chains without a twin, or with limbs built differently, are not judged.

What its fixes do:

- Copy the settings of the side on which the other checks find no fault (nor a control across
  the plane) onto its twin, mirrored: flipped target and pole names, limit ranges mirrored, the
  pole angle from the twin's own rest angle.
- None when both sides or neither has faults, nor for rolls and lengths (rest-pose edits).
- None when the copy would give a pole or Use Tail to a joint that does not inherit rotation or
  that an overridden constraint starts bent the other way, would drop the IK Stretch that lets
  the side reach, would give Use Tail or a pole to a chain whose posed rotation would then
  bend its joint away from the pole (the arm posed -20° at the elbow lands without either, and
  bends 180° from its pole with them), or would set the pole angle of a chain whose posed
  rotation flips the start and whose own angle turns it back.
- None when the pole angle turns back the start that an overridden constraint flips: a
  Damped Track at the pole on the forearm lands with the angle turned 180°, and bends away
  from the pole with the twin's angle.
- None when the copy would free the IK locks of a hinge that keeps only its angle of the start
  an overridden constraint gives it, bent the other way: the leg whose shin copies the hand
  control's rotation lands locked on Y and Z, and bends away from its pole with its twin's
  free axes.
- None when the copy would set off a pair of IKs on one control (the duplicates check): Use
  Tail on a forearm IK whose tip an upper arm's IK of length 1 reaches for (the upper arm's
  then misses), or IK locks freed on a limb whose lock leaves a foot's IK below it landing.
- The copy evaluates the rig, so checks run next read the pose it gives, not the one the old
  chain length or Use Tail left: a leg given Use Tail back, whose chain had turned the hips,
  lands.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import bpy

from ..core.armature import pose_of
from ..core.editing import FixError, constraint_on
from ..core.finding import Finding, Severity, chain_finding
from ..core.limb import pole_rest_angle, pole_turn
from ..core.registry import Check, all_checks
from ..core.rig import IKChain, RigView
from ._copy_refusals import copy_refused
from ._mirror_twins import Twins, controls_across, named_twin, paired
from ._twin_differences import Difference, twin_differences

CHECK_ID = "symmetry"
MAX_ANGLE = 5.0
"""Pole angles and rolls may differ from the mirror of their twin's by this many degrees."""


@dataclass(frozen=True)
class _Fault:
    """Something wrong with one side of a pair: another check's finding, or a control across the
    mirror plane."""

    what: str
    severity: Severity
    kind: tuple[str, str]
    """(check id, severity) of another check's finding; ("across", "target" or "pole")."""


_Faults = dict[tuple[str, str], list[_Fault]]
"""The faults of each side of a pair, by chain key."""


def find_symmetry_problems(rig: RigView, options: Mapping[str, Any]) -> Iterator[Finding]:
    for chain in rig.chains:
        twin = named_twin(rig, chain)
        if twin is None or twin.key < chain.key:
            continue  # no twin, or judged from the twin's side
        twins = paired(rig, chain, twin)
        if twins is not None:
            finding = _judge(rig, twins, options)
            if finding is not None:
                yield finding


def _judge(rig: RigView, twins: Twins, options: Mapping[str, Any]) -> Finding | None:
    differences = twin_differences(rig, twins, twins.first, options)
    if not differences:
        return None
    kinds = {d.kind for d in differences}
    faults: _Faults = {}
    source = None
    if "setting" in kinds and "shape" not in kinds:
        faults = {c.key: _faults(rig, twins, c) for c in (twins.first, twins.second)}
        source = _faultless_side(twins, faults)
        if source is twins.second:
            differences = twin_differences(rig, twins, source, options)
    shown_first = source or twins.first
    dest = twins.twin(shown_first)
    message = (
        f"The mirror twins {_where(shown_first)} and on {dest.owner} differ "
        f"({shown_first.owner} / {dest.owner}): {'; '.join(d.text() for d in differences)}."
    )
    severity, refused = _verdict(twins, differences, faults, source)
    if refused is None:
        refused = copy_refused(rig, differences, shown_first, dest, source is not None)
    blocked_by, no_fix = refused or (None, None)
    if source is not None:
        message += f" {dest.owner} has faults its twin has not ({_listed(faults[dest.key])})."
    copies = [d.copy for d in differences if d.copy is not None]
    facts = (
        ("differences", tuple((d.what, *d.values) for d in differences)),
        ("faults", tuple(fault.kind for fault in faults[dest.key]) if source is not None else ()),
        ("side_faults", tuple((c.owner, _kinds(faults, c)) for c in (twins.first, twins.second))),
        ("blocked_by", blocked_by),
    )
    rolls = " (rolls stay: they are rest-pose edits)" if "roll" in kinds else ""
    return chain_finding(
        CHECK_ID,
        rig,
        dest,
        severity=severity,
        title="Twins built differently"
        if "shape" in kinds
        else "Twin settings differ"
        if "setting" in kinds
        else "Twin rolls differ",
        message=message,
        why=(
            "Rigs are built on one side and mirrored; a setting changed on one side afterwards "
            "makes the two limbs answer the same controls differently. Pole angles, IK limits "
            "and rolls are compared mirrored, as the solver needs them for mirror poses."
        ),
        fix_id=None if no_fix else "copy_from_twin",
        fix_label=None
        if no_fix
        else f"Copy from {shown_first.owner} onto {dest.owner}, mirrored: {'; '.join(copies)}"
        + rolls,
        fix_args=()
        if no_fix
        else (("source", shown_first.owner), ("source_ik", shown_first.constraint)),
        facts=facts,
        no_fix_reason=no_fix,
    )


def _verdict(
    twins: Twins,
    differences: list[Difference],
    faults: _Faults,
    source: IKChain | None,
) -> tuple[Severity, tuple[str, str] | None]:
    """How bad the pair's differences are, and why no fix applies, in a word and a sentence
    (None: the copy does)."""
    kinds = {d.kind for d in differences}
    if "shape" in kinds:
        return Severity.INFO, (
            "built_differently",
            "the twins are built differently at rest, so they may differ on purpose: copy "
            "settings between them by hand if not",
        )
    if "setting" not in kinds:
        severity = Severity.WARNING if any(d.matters_to_ik for d in differences) else Severity.INFO
        return severity, (
            "rolls",
            "rolls are rest-pose edits: roll the bones in Edit Mode to mirror their twins' (the "
            "negative of the twin's roll on an X mirror; Armature > Symmetrize rebuilds a whole "
            "side that way)",
        )
    if source is None:
        return Severity.WARNING, _undecided(twins, faults)
    dest = twins.twin(source)
    blocked = [d.what for d in differences if d.kind == "setting" and d.copy is None]
    errors = [fault for fault in faults[dest.key] if fault.severity == Severity.ERROR]
    severity = Severity.ERROR if errors else Severity.WARNING
    if blocked:
        return severity, (
            "cannot_copy",
            f"the {', '.join(blocked)} of {source.owner} cannot be copied: it has none, or no "
            f"control of the flipped name exists for {dest.owner}",
        )
    return severity, None


def _where(chain: IKChain) -> str:
    return f"IK '{chain.constraint}' on {chain.owner}"


def _faultless_side(twins: Twins, faults: _Faults) -> IKChain | None:
    """The side with no fault whose twin has one: the side to copy from; None if not one."""
    clean = [chain for chain in (twins.first, twins.second) if not faults[chain.key]]
    return clean[0] if len(clean) == 1 else None


def _undecided(twins: Twins, faults: _Faults) -> tuple[str, str]:
    sides = (twins.first, twins.second)
    if not any(faults[chain.key] for chain in sides):
        return "undecided", (
            "neither side has a fault the other checks find, so IK Doctor cannot tell which is "
            "meant: set the side you did not mean to match its twin"
        )
    listed = "; ".join(f"{chain.owner}: {_listed(faults[chain.key])}" for chain in sides)
    return "both_faulted", f"both sides have faults of their own ({listed}): fix those first"


def _kinds(faults: _Faults, chain: IKChain) -> tuple[tuple[str, str], ...]:
    """The kinds of one side's faults, as facts: (check id, severity) or ("across", control)."""
    return tuple(fault.kind for fault in faults.get(chain.key, ()))


def _listed(faults: list[_Fault]) -> str:
    return ", ".join(fault.what for fault in faults)


def _faults(rig: RigView, twins: Twins, chain: IKChain) -> list[_Fault]:
    """What is wrong with one side: the other checks' warnings and errors on the chain, and a
    target or pole across the mirror plane (a warning of this check's own)."""
    found = [
        _Fault(
            f"{finding.check_id} {finding.severity}",
            finding.severity,
            (finding.check_id, finding.severity.value),
        )
        for finding in _other_checks_faults(rig).get(chain.key, ())
    ]
    found += [
        _Fault(f"its {label} across the mirror plane", Severity.WARNING, ("across", label))
        for label in controls_across(rig, twins, chain)
    ]
    return found


def _other_checks_faults(rig: RigView) -> dict[tuple[str, str], list[Finding]]:
    """Every other check's warnings and errors, by chain, with their default options: they say
    which side of a pair is right (one decision, one place). ``diagnose`` reuses these runs."""

    def collect() -> dict[tuple[str, str], list[Finding]]:
        found: dict[tuple[str, str], list[Finding]] = {}
        for check in all_checks():
            if check.id == CHECK_ID:
                continue
            for finding in check.findings_on(rig, check.options_with(None)):
                if finding.chain is not None and finding.severity != Severity.INFO:
                    found.setdefault(finding.chain, []).append(finding)
        return found

    return rig.remember((CHECK_ID, "faults of the other checks"), collect)


# --- the fix ---------------------------------------------------------------------------------


def copy_from_twin(obj: bpy.types.Object, finding: Finding) -> str:
    """Write the source side's settings onto its twin, mirrored; the pole angle last, from the
    twin's rest angle once its chain length and pole are copied, so it turns opposite to the
    source's (also when only those changed, which move the rest angle)."""
    rig = RigView(obj)
    dest = rig.chain_of(finding)
    source = named_twin(rig, dest)
    twins = None if source is None else paired(rig, *sorted((source, dest), key=_by_key))
    if (
        source is None
        or twins is None
        or source.key != (finding.args["source"], finding.args["source_ik"])
    ):
        raise FixError(f"{finding.args['source']} is no longer the mirror twin of {dest.owner}.")
    differences = twin_differences(rig, twins, source, {"max_angle": MAX_ANGLE})
    for difference in differences:
        for bone, setting, value in difference.writes:
            _write(obj, dest, bone, setting, value)
    copied = "; ".join(d.copy for d in differences if d.copy is not None)
    turn = pole_turn(rig, source)
    pole = ""
    if turn is not None:
        fresh = RigView(obj)
        rest = pole_rest_angle(fresh, fresh.chain_of(finding))
        if rest is not None:
            ik = _ik(obj, dest)
            before, ik.pole_angle = ik.pole_angle, math.remainder(rest - turn, math.tau)
            if abs(math.remainder(ik.pole_angle - before, math.tau)) > 1e-6:
                pole = (
                    f" (pole angle {math.degrees(before):.1f}° → "
                    f"{math.degrees(ik.pole_angle):.1f}°)"
                )
    return f"Copied onto {_where(dest)} from its mirror twin on {source.owner}: {copied}{pole}."


def _by_key(chain: IKChain) -> tuple[str, str]:
    return chain.key


def _ik(obj: bpy.types.Object, chain: IKChain) -> bpy.types.KinematicConstraint:
    return constraint_on(obj, *chain.key, bpy.types.KinematicConstraint)


def _write(obj: bpy.types.Object, dest: IKChain, bone: str, setting: str, value: Any) -> None:
    if bone:
        setattr(pose_of(obj).bones[bone], setting, value)
        return
    ik = _ik(obj, dest)
    if setting == "target":
        ik.target, ik.subtarget = value
    elif setting == "pole":
        ik.pole_target, ik.pole_subtarget = value
    else:
        setattr(ik, setting, value)


CHECK = Check(
    id=CHECK_ID,
    title="Mirror twins",
    doc=__doc__ or "",
    find=find_symmetry_problems,
    fixes={"copy_from_twin": copy_from_twin},
    options={"max_angle": MAX_ANGLE},
    order=33,
)
