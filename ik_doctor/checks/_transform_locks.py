"""Locks findings on a bone's transform locks (Lock Rotation), which IK does not heed: said so,
as information, so that a rigger who locked an axis that way knows the solver still turns it."""

from __future__ import annotations

from collections.abc import Iterator

from ..core.finding import Finding, Severity, chain_finding
from ..core.rig import AXES, IKChain, RigView


def transform_lock_findings(rig: RigView, chain: IKChain) -> Iterator[Finding]:
    """One information finding per chain bone with a transform lock on its rotation."""
    for name in chain.bones:
        pose_bone = rig.pose_bone(name)
        axes = "".join(a for a, locked in zip(AXES, pose_bone.lock_rotation, strict=True) if locked)
        if not axes:
            continue
        yield chain_finding(
            "locks",
            rig,
            chain,
            bone=name,
            severity=Severity.INFO,
            title="Transform locks ignored",
            message=(
                f"The transform locks on {axis_list(axes)} of {name} do not stop IK: the "
                "solver ignores them."
            ),
            why=(
                "Lock Rotation only stops rotating the bone by hand; IK still turns it. To keep "
                "the solver off an axis, use the bone's IK locks (Lock IK X/Y/Z)."
            ),
            no_fix_reason="nothing to fix: transform locks do not affect IK",
        )


def axis_list(axes: str) -> str:
    """Axes as a finding spells them: ``xz`` as X/Z."""
    return "/".join(axis.upper() for axis in axes)
