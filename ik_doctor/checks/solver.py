"""Solver: iteration and precision settings that stop Blender's IK short of a reachable target.

Measured in 4.2 and 5.3 on the reference rig, with two sets of reachable goals (the oracle's,
and targets drawn to 30% of the reach, which need the most steps):

- The Standard solver iterates up to each IK constraint's ``iterations`` (default 500). How many a
  chain needs to land on the oracle's goals depends on its shape: a two-bone limb with a pole needs
  the more the straighter its joint is where the solver starts (``BEND_NEEDS``, alike on legs and
  arms of equal bones, in 4.2 and 5.3; a thigh half the shin's length needs more at every bend, so
  the table is the fewest such limbs need). The reference leg, bent 7.6°, needs 12 (11 leave it 0.2%
  of its reach short, 10 1.2%, 8 3.1%), its arm, bent 13.7°, 9; a leg bent 2° needs 20. Below what
  the table gives for the chain's bend the chain fails (error); above it, up to 24, targets drawn
  near the root stay up to 1% short (warning). A joint posed folded further than at rest starts
  nearer the goals, then must unfold (``FOLDED_FURTHER_NEEDS``): posed 20° further, the leg and the
  arm land from 3; 70°, the leg needs 8 and the arm 7; 150°, 12 and 11 (limited to fold 20° to 90°
  further, no more than the table at that edge: posed 70° and limited ±20°, 4). A chain of one bone
  cut from its limb (chain length 1) reaches by IK Stretch alone, and needs the more the farther it
  must stretch and the weaker its stretch (``ONE_BONE_STRETCH_PACE``, the gap read on the rig: the
  shin, 11% short unstretched, needs 57 at stretch 0.1 or less, 18 at 0.3, 8 at 0.6; rolled 90°,
  2.9% short, 41 at 0.1). Other chains of one bone, or of three, were not measured so, but for a
  short root under two long bones (insect legs, arms from the shoulder): none of 39 insect legs
  lands below 5 iterations, no arm from the shoulder bent 20° below 7, and the straighter their
  lower joint the more they need (``_three_bone_needs``; an insect leg whose femur and tibia lie in
  line needs 16, the reference arm at chain length 3 9). Below that, an error; the others are
  warnings, which Verify by Solving solves. An arm IK without Use Tail under a pole (its tip the
  elbow, its chain the shoulder and upper arm, bent 6.8°) needs 15: 12 leave it 2.1% of its reach
  short with the body turned, 14 0.19% (without the pole, or at chain length 1, 12 reach). IK
  Stretch sets the count of a limb of equal bones with a pole (``STRETCH_NEEDS``, by the greater
  stretch of its bones): on one bone, 0.001 to 0.1, it lands sooner (the arm from 7, the leg from
  10), on both later (11 and 16: 12 leave the leg 0.22% of its reach short, 15 0.11%); at 0.2 on
  both the leg needs 20; from 0.35 the stronger the sooner, either bone alike (at 0.5 the arm 9 and
  the leg 8, at 0.95 both 3). Straight at rest, stretching 0.1 or less, it needs 43 (0.2: 21, 0.3:
  13), and bent a little fewer (1°: 24 on one bone, 29 on both; 5°: 13 and 20). A limb posed shorter
  than built reaches its built targets only by stretching, and needs far more
  (``SHRUNK_STRETCH_NEEDS``: at three quarters of its length, 70 to 80 at stretch 0.1, 22 at 0.3, 13
  at 0.5; at 0.95, 35, 12 and 7). A stretching limb unlike these gets no count. Without a pole, a
  limb straight at rest needs 14 (12 leave the arm 0.31% of its reach short), 16 with its two hinges
  IK-limited to turn opposite ways on X (14: 0.11%). Each holds on a chain as straight as the one
  measured, or straighter. Without a pole the solver starts from the pose: a root posed turned
  toward the fold needs more (``SWUNG_ROOT_NEEDS``: turned 0.4 rad, the leg 12 to 15 where at rest
  it needs 9, the arm 11 where it needs 7).
- iTaSC ignores the constraint's count and reads the armature's ``pose.ik_param``: 15
  iterations miss the oracle's goals, 20 reach them but not the near ones, 25 reach all
  (default 100). Any precision above its default of 0.005 stops it early: at 0.006 the arms
  end 6.5% of their reach short, at 0.015 it does not move at all. A precision of 0 is
  harmless: it converges, and a hundred evaluations cost the same.
- iTaSC starts each evaluation from the last one's result; evaluated until the pose comes to
  rest, as the oracle does, it settles short of points a limb reaches by hand whatever its
  settings: the reference rig's right leg stops 0.8% of its reach short at precision 0.001
  (0.9% at 0.005, 0.8% at 0 with 1000 iterations, in Animation or Simulation mode), and on
  eight real rigs switched to iTaSC 5 of 24 chains stopped 0.1% to 3.5% short. What decides
  it is not a setting: with the object scaled 0.5 to 2, or 3 to 4, a leg stopped 0.2% to 17%
  short or flipped away from its pole, at precision 0.001 and 0.005 alike; scaled 2.25 to 2.75
  it reached every goal; with its bones 2.5 times as long (object unscaled) the legs stopped
  41% short. The Standard solver reaches them all: iTaSC is an error. Switching is left to
  the rigger: it resets iTaSC's own settings, and the Standard solver weighs stiffness and
  scaled bones otherwise (a forearm sheared by its upper arm's scale reached under iTaSC and
  misses under Standard).

What it reports:

- Standard-solver iterations below what a two-bone limb as straight as this one needs, by tables
  measured on limbs of its proportions: an error. The straighter the joint at rest, the more: a
  leg bent 7.6°, as the reference leg, misses the oracle's goals by 0.2% of its reach at 11 and
  reaches them at 12; bent 13.7°, as the arm, from 9; bent 2°, from 20. A thigh twice its shin
  lands sooner (10 at 7.6°), and one half its shin later (17).
- Below 15 for a chain without Use Tail under a pole: an error (the arm, its tip the elbow,
  stops 2.1% short at 12, 0.19% at 14); below 12 where it stretches, unposed and without
  stiffness (IK Stretch 0.01 to 1: 11 stop 0.12% short).
- Below 14 for a straight limb without a pole, 16 with its hinges limited opposite ways: an
  error. Posed against its lower bone's one-sided IK limit, 16 posed 20° so and 10 posed 70°
  (15 and 9 stop 0.1% and 0.3% short, the arm and the leg alike).
- More than the tables give where a bone of the limb is posed longer than at rest (its pose
  scale, or one it inherits): one more from 2% longer, two from 10%, three from 20%, four from
  50% (measured on the leg and the arm: a thigh scaled 1.5 over a shin that does not inherit it
  stops 13% of the reach short at 12 and needs 16). Fewer: an error.
- More where its bones are IK-stiff on X and Z, by tables measured at the leg's and the arm's
  bends: the leg needs 20 with both bones at 0.95 (12 leave it 0.5% of its reach short), 15 at
  0.9, 13 at 0.85; 14 with the shin alone at 0.8, 13 with the thigh alone at 0.6; the arm 15
  at 0.9 on both. Fewer: an error. Two bones stiff unevenly were not measured. Stiff from 0.7
  with IK Stretch on both bones, far more (``STIFF_STRETCH_NEEDS``: at stretch 0.1 the arm with
  its upper arm at 0.9 needs 38, at 0.95 47, both bones at 0.725 35 where the upper arm alone
  needs 19; from stretch 0.3 the stretch decides, 16 at 0.3): fewer is an error, past the 25
  below too.
- Below 25: a warning (targets drawn near the root stay 1% short at 20).
- A joint posed straighter than at rest (or started so by a constraint the IK overrides) needs
  more than a limb built as straight as it starts (``STRAIGHTER_NEEDS``: the arm posed 10°
  straighter starts bent 3.7° and needs 18, where a limb built so needs 16 and its rest bend 9);
  stiff from 0.5, by a table of stiffness and start (the arm's upper arm at 0.6 posed 6°
  straighter needs 14).
- Fewer than a limb posed folded further than at rest needs, by the leg's and the arm's table
  of folds from 2° to 170° further: an error (the arm posed 70° further stops 1.6% of its reach
  short at 5, and lands from 7). A constraint the IK overrides that sets a bone's rotation (a
  Copy Rotation, a Damped Track) sets where the solver starts, and the fold is read there: a
  Damped Track on the forearm at the hand control starts the arm folded 30° further, and it
  lands from 4. Stiff from 0.5 and so started, it needs more than either alone, by a table of
  stiffness and fold (the leg at 0.95 on both bones needs 20 at rest, 8 unstiff posed 70°
  further, and 28 both).
- Fewer than a stretching limb needs, by its stretch and how many of its bones stretch: an
  error (the arm at 0.6 stops short at 6 and lands from 7; the leg at 0.1 on both bones, short
  at 15, lands from 16).
- A limb both stiff and stretching, which no table measured together: an error below the fewer
  of the two counts, a warning from there (the leg stiff 0.95 on both bones with IK Stretch 0.5
  lands from 10, where stiffness alone needs 20, and fails at 8, where stretch alone lands).
- Fewer than a chain of one bone cut from its limb needs to stretch across its gap: an error
  (the shin at stretch 0.1 stops 0.1% short at 56 and lands from 57).
- A chain no table measured (one bone or three, a limb posed folded further that is stiff,
  stretching or grown, a bend or proportion past the tables): a warning below 25, for Verify
  by Solving to prove. An
  insect leg of three bones (a short coxa under a femur and a tibia) lands from 5 iterations;
  one whose femur and tibia lie in line needs 16. Fewer than such chains so bent need: an error
  (3 and 4 leave the insect leg 0.5% and 0.1% of its reach short with the body turned, 5 the
  reference arm from its shoulder 4.1%).
- Nothing for an IK Blender never solves (a second live IK on a bone: only the first is), nor
  for one beside an IK that turns the same bones toward the same point of its control with the
  count it needs: whichever is solved last starts on the goal (the forearm's IK without Use Tail
  at 5 beside an upper arm IK of length 2 at 500 lands; alone it stops 4.1% short).
- iTaSC with fewer than 20 iterations: an error; 20 to 24: a warning.
- iTaSC with a precision above its default 0.005: an error (at 0.006 the arms end 6.5% short, at
  0.015 nothing moves). Precision 0 converges and is not reported.
- iTaSC itself: an error. Evaluated until it comes to rest, it settles short of points a limb
  reaches by hand: the reference rig's right leg by 0.8% of its reach at any precision,
  iteration count or mode, 16% with the rig scaled 1.5 or 2. No setting decides it: of eleven
  object scales from 0.5 to 4, the rig reached only at 2.25 to 2.75.

What its fixes do:

- 500 Standard iterations.
- iTaSC: 100 iterations and precision 0.001.
- None for iTaSC itself: switching to Standard resets its settings, and can miss where iTaSC
  reached.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import bpy

from ..core.armature import pose_of
from ..core.editing import constraint_on
from ..core.finding import ITERATIONS, Finding, Severity, chain_finding
from ..core.names import readable
from ..core.posed_bend import joint_bends
from ..core.reach import stretching_bones
from ..core.registry import Check
from ..core.rig import IKChain, RigView
from ._iteration_needs import MOST_NEEDED, iterations_needed
from ._stacked_chains import same_point

STANDARD_ITERATIONS = 500
ITASC_ITERATIONS = 100
ITASC_PRECISION = 0.001
"""Tighter than Blender's 0.005, which leaves a leg up to 0.2% of its length short."""
ITASC_DEFAULT_PRECISION = 0.005
ITASC_FAILS_BELOW = 20


UNSURE_NEEDS = ("three_bones", "stretch_and_stiffness")
"""Counts below which a chain is known to stop short, but not that it lands from them."""


def find_solver_problems(rig: RigView, options: Mapping[str, Any]) -> Iterator[Finding]:
    if not rig.chains:
        return
    if pose_of(rig.object).ik_solver == "ITASC":
        finding = _itasc_problem(rig, options)
        if finding is not None:
            yield finding
        yield _itasc_settles_short(rig)
        return
    for chain in rig.chains:
        iterations = rig.ik_constraint(chain).iterations
        if chain.mute or iterations >= max(options["min_iterations"], MOST_NEEDED):
            continue
        if _not_solved(rig, chain):
            continue
        need = iterations_needed(rig, chain)
        fails = need is not None and iterations < need.count
        if fails and need is not None and _landed_by_a_twin(rig, chain, need.count):
            continue
        if iterations >= options["min_iterations"] and not fails:
            continue  # past the option, only a measured count is worth a finding
        # A table's count past the option is the edge this chain ends short below.
        short_below = max(options["min_iterations"], need.count if fails and need else 0)
        yield chain_finding(
            "solver",
            rig,
            chain,
            severity=Severity.ERROR if fails else Severity.WARNING,
            title="Too few iterations",
            message=(
                f"IK '{chain.constraint}' on {chain.owner} stops after {iterations} iterations: "
                + (
                    f"too few to reach its target ({need.measured})."
                    if fails and need is not None
                    else f"perhaps too few for targets drawn near its root ({need.measured} on "
                    "other goals); Verify by Solving solves it."
                    if need is not None and need.kind in UNSURE_NEEDS
                    else "targets drawn close to the chain root are not reached."
                    if need is not None
                    else f"perhaps too few: how many {_unmeasured(rig, chain)} needs was not "
                    "measured (a two-bone leg bent 7.6° needs 12, an insect leg of three bones "
                    "lands from 5, an arm from the shoulder from 9); Verify by Solving solves it."
                )
            ),
            why=(
                "The Standard solver moves the chain a step per iteration and stops at this "
                f"count; below {short_below} the tip can end short of a target it "
                "can reach, the more so the further the chain must fold."
            ),
            fix_id="iterations",
            fix_label=f"Set iterations to {STANDARD_ITERATIONS} (Blender's default)",
            fix_args=(("cause", ITERATIONS),),
            facts=(
                ("stops_after", iterations),
                ("needs", None if need is None else need.count),
                ("needed_for", None if need is None else need.kind),
            ),
        )


def _not_solved(rig: RigView, chain: IKChain) -> bool:
    """Whether an earlier IK Blender solves (``RigView.pulls``) sits on the chain's bone: it solves
    only a bone's first such IK, so this one's count is never used (measured on 4.2: a shin's second
    IK at 5 iterations below a first at 500 lands, and at 500 below one at 5 misses by 4.4%)."""
    for twin in rig.chains_on_bone(chain.owner):
        if twin.key == chain.key:
            return False
        if rig.pulls(twin):
            return True
    return False


def _landed_by_a_twin(rig: RigView, chain: IKChain, needs: int) -> bool:
    """Whether another IK turns the same bones toward the same point of the same control with
    the iterations this chain needs: whichever of the two Blender solves last starts from, or
    puts the tip on, the goal the other reached (measured on 4.2: the forearm's IK without Use
    Tail at 5 iterations beside an upper arm IK of length 2 at 500, in either order of counts,
    lands; alone it stops 4.1% short)."""
    for twin in rig.chains_with_bone(chain.moving_bones[0]) if chain.moving_bones else ():
        if (
            twin.owner == chain.owner
            or not rig.pulls(twin)
            or _not_solved(rig, twin)
            or not twin.shares_control(chain)
            or set(twin.moving_bones) != set(chain.moving_bones)
            or not same_point(rig, twin, chain)
        ):
            continue
        count = rig.ik_constraint(twin).iterations
        own = iterations_needed(rig, twin)
        if count >= max(needs, own.count if own is not None else 0):
            return True
    return False


def _unmeasured(rig: RigView, chain: IKChain) -> str:
    """Why no table speaks for the chain, in words."""
    bones = len(chain.moving_bones)
    if bones != 2:
        return f"a chain of {bones} bone{'s' * (bones != 1)}"
    bends = joint_bends(rig, chain)
    if bends is not None and bends[1]:
        return "a limb whose joint is posed folded further than at rest (where it starts)"
    if stretching_bones(rig, chain):
        return "a two-bone limb stretching, proportioned and bent like this one"
    return "a two-bone limb proportioned and bent like this one"


def _itasc(obj: bpy.types.Object) -> bpy.types.Itasc:
    """The iTaSC settings of an armature that uses iTaSC (the stubs type them as the base)."""
    param = pose_of(obj).ik_param
    assert isinstance(param, bpy.types.Itasc), f"'{obj.name}' does not use iTaSC"
    return param


def _itasc_problem(rig: RigView, options: Mapping[str, Any]) -> Finding | None:
    param = _itasc(rig.object)
    few = param.iterations < options["min_iterations"]
    loose = param.precision > ITASC_DEFAULT_PRECISION
    if not (few or loose):
        return None
    fails = loose or param.iterations < ITASC_FAILS_BELOW
    problems = []
    if few:
        problems.append(f"{param.iterations} iterations")
    if loose:
        problems.append(f"precision {param.precision:.3g}")
    return Finding(
        check_id="solver",
        severity=Severity.ERROR if fails else Severity.WARNING,
        armature=rig.name,
        title="iTaSC stops too soon",
        message=(
            f"The iTaSC solver of '{rig.name}' uses {' and '.join(problems)}: "
            + (
                "it stops before the chains reach their targets."
                if fails
                else "targets drawn close to a chain's root are not reached."
            )
        ),
        why=(
            "iTaSC ignores the IK constraints' iteration counts and stops when it runs out of "
            "its own iterations or when the chain moves less than the precision per step: "
            "with these settings it stops with the tip short of a reachable target."
        ),
        fix_id="itasc",
        fix_label="Set iTaSC "
        + " and ".join(
            ([f"iterations to {ITASC_ITERATIONS}"] if few else [])
            + ([f"precision to {ITASC_PRECISION}"] if loose else [])
        ),
    )


def _itasc_settles_short(rig: RigView) -> Finding:
    return Finding(
        check_id="solver",
        severity=Severity.ERROR,
        armature=rig.name,
        title="iTaSC settles short",
        message=(
            f"'{rig.name}' uses the iTaSC solver, which settles short of targets within reach "
            "(measured: a two-bone leg 0.8% of its reach short at any precision, iteration "
            "count or mode, 16% with the rig scaled 1.5, and it reached only at scales 2.25 to "
            "2.75 of the eleven from 0.5 to 4 tried; 5 of 24 chains on real rigs 0.1% to 3.5% "
            "short)."
        ),
        why=(
            "iTaSC solves every chain of the armature together, from the last evaluation's "
            "result, and stops once a step changes little: it can come to rest with the tip "
            "short of a point the limb reaches by hand. The Standard solver, which iterates "
            "each chain to its target, reaches them."
        ),
        no_fix_reason=(
            "switch to the Standard solver by hand (Armature properties > Inverse Kinematics) "
            "if iTaSC's features are not needed: switching resets iTaSC's settings, and the "
            "Standard solver can miss where iTaSC reached (a limb sheared by a scaled bone)"
        ),
    )


def set_standard_iterations(obj: bpy.types.Object, finding: Finding) -> str:
    constraint = constraint_on(obj, finding.bone, finding.constraint, bpy.types.KinematicConstraint)
    before = constraint.iterations
    constraint.iterations = STANDARD_ITERATIONS
    return (
        f"Set the iterations of IK '{constraint.name}' on {finding.bone} from {before} to "
        f"{STANDARD_ITERATIONS}."
    )


def set_itasc_convergence(obj: bpy.types.Object, finding: Finding) -> str:
    param = _itasc(obj)
    changed = []
    if param.iterations < ITASC_ITERATIONS:
        changed.append(f"iterations from {param.iterations} to {ITASC_ITERATIONS}")
        param.iterations = ITASC_ITERATIONS
    if param.precision > ITASC_DEFAULT_PRECISION:
        changed.append(f"precision from {param.precision:.3g} to {ITASC_PRECISION}")
        param.precision = ITASC_PRECISION
    return f"Set the iTaSC {' and '.join(changed)} on '{readable(obj)}'."


CHECK = Check(
    id="solver",
    title="IK solver settings",
    doc=__doc__ or "",
    find=find_solver_problems,
    fixes={"iterations": set_standard_iterations, "itasc": set_itasc_convergence},
    options={"min_iterations": 25},
    order=60,
)
