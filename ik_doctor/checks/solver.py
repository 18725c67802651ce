"""Solver: iteration and precision settings that stop Blender's IK short of a reachable target.

Measured in 4.2 and 5.3 on the reference rig, with two sets of reachable goals (the oracle's,
and targets drawn to 30% of the reach, which need the most steps):

- The Standard solver iterates up to each IK constraint's ``iterations`` (default 500): 11
  leave the leg 0.2% of its reach short of the oracle's goals, 10 1.2%, 8 3.1% (error); from
  12 those are reached (0.04% short), but up to 20 still leave a target near the root 1% of
  the leg's length short, and 25 reach everything (warning in between). The arm, less folded,
  reaches the oracle's goals from 9 iterations: the error follows the leg. An arm IK without
  Use Tail under a pole (its tip the elbow, its chain the shoulder and upper arm) needs 15: 12
  leave it 2.1% of its reach short with the body turned, 14 0.19% (without the pole, or at
  chain length 1, 12 reach). IK Stretch on two or more of a leg's bones, all under 0.4 (0.001
  to 0.3 alike), slows it: 12 leave the leg 0.22% of its reach short, 15 0.11%, and from 16 the
  stretch 0.1 measured reaches (0.2 needs 20); from 0.4 the stretch reaches at 12, and so does a
  leg with one stretching bone, or an arm with 0.1 on both (0.05%).
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
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import bpy

from ..core.armature import pose_of
from ..core.editing import constraint_on
from ..core.finding import Finding, Severity, chain_finding
from ..core.limb import hangs_down
from ..core.names import readable
from ..core.reach import stretching_bones
from ..core.registry import Check, register
from ..core.rig import IKChain, RigView

STANDARD_ITERATIONS = 500
ITASC_ITERATIONS = 100
ITASC_PRECISION = 0.001
"""Tighter than Blender's 0.005, which leaves a leg up to 0.2% of its length short."""
ITASC_DEFAULT_PRECISION = 0.005
STANDARD_FAILS_BELOW = 12
TAIL_OFF_FAILS_BELOW = 15
"""A chain without Use Tail that a pole turns (measured on the arm; see the module doc)."""
WEAK_STRETCH_FAILS_BELOW = 16
WEAK_STRETCH = 0.4
"""A leg whose IK Stretch on two or more bones is all below this needs more iterations."""
ITASC_FAILS_BELOW = 20


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
        if chain.mute or iterations >= options["min_iterations"]:
            continue
        tail_off = not chain.use_tail and chain.pole is not None and len(chain.moving_bones) > 1
        stretching = _weakly_stretching_leg(rig, chain)
        fails = iterations < (
            TAIL_OFF_FAILS_BELOW
            if tail_off
            else WEAK_STRETCH_FAILS_BELOW
            if stretching
            else STANDARD_FAILS_BELOW
        )
        yield chain_finding(
            "solver",
            rig,
            chain,
            severity=Severity.ERROR if fails else Severity.WARNING,
            title="Too few iterations",
            message=(
                f"IK '{chain.constraint}' on {chain.owner} stops after {iterations} iterations: "
                + (
                    "too few to reach its target without Use Tail under a pole (measured: 12 "
                    "leave an arm 2.1% of its reach short, 14 0.19%; it needs 15)."
                    if fails and tail_off
                    else f"too few to reach its target with weak IK Stretch on "
                    f"{' and '.join(stretching)} (measured: 12 leave a leg 0.22% of its reach "
                    "short with stretch 0.1 and 0.01, 15 0.11%; it needs 16)."
                    if fails and stretching
                    else "too few to reach its target (measured: 11 leave a leg 0.2% of its "
                    "reach short of targets within reach)."
                    if fails
                    else "targets drawn close to the chain root are not reached."
                )
            ),
            why=(
                "The Standard solver moves the chain a step per iteration and stops at this "
                f"count; below {options['min_iterations']} the tip can end short of a target it "
                "can reach, the more so the further the chain must fold."
            ),
            fix_id="iterations",
            fix_label=f"Set iterations to {STANDARD_ITERATIONS} (Blender's default)",
        )


def _weakly_stretching_leg(rig: RigView, chain: IKChain) -> tuple[str, ...]:
    """The bones of a leg that stretch, when two or more do and all by less than
    ``WEAK_STRETCH``: the solver then needs more iterations; else ()."""
    bones = stretching_bones(rig, chain)
    weak = all(rig.pose_bone(name).ik_stretch < WEAK_STRETCH for name in bones)
    return bones if len(bones) > 1 and weak and hangs_down(rig, chain) else ()


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


register(
    Check(
        id="solver",
        title="IK solver settings",
        doc=__doc__ or "",
        find=find_solver_problems,
        fixes={"iterations": set_standard_iterations, "itasc": set_itasc_convergence},
        options={"min_iterations": 25},
        order=60,
    )
)
