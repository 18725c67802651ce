"""What the locks check would say of a chain once another check's fix changed it: given a pole,
or its posed twist cleared. A check asks before it offers such a fix, and withholds it where the
chain would then stop short under this check's error (a trade)."""

from __future__ import annotations

from dataclasses import replace

from ..core.finding import Finding, Severity
from ..core.rig import IKChain, RigView
from ..core.start import start_kept_by_a_lock
from ._aimed_start import aim_that_lands
from ._lock_stretch import bend_locked, weighed_against_stretch
from ._twisted_start import weighed_against_twist
from .locks import chain_lock_findings, restricted_bones


def track_that_holds_locks(rig: RigView, chain: IKChain) -> str | None:
    """The Damped Track that lands a chain whose IK locks block its bend
    (``_aimed_start.weighed_against_aim``): muted, the chain would stop short, this check's
    error."""
    track = aim_that_lands(rig, chain)
    if track is None:
        return None
    found = weighed_against_stretch(rig, chain, [*chain_lock_findings(rig, chain, 1.0)])
    held = any(f.severity == Severity.ERROR and f.fix_id == "free_axes" for f in found)
    return track if held else None


def twist_that_holds_locks(rig: RigView, chain: IKChain) -> str | None:
    """The bone whose posed twist lands a chain its IK locks would stop
    (``weighed_against_twist``): untwisted, the chain would stop short, this check's error."""
    found = weighed_against_stretch(rig, chain, [*chain_lock_findings(rig, chain, 1.0)])
    errors = [f for f in found if f.severity == Severity.ERROR]
    weighed = weighed_against_twist(rig, chain, found)
    if not errors or any(f.severity == Severity.ERROR for f in weighed):
        return None
    return next(t[0] for f in weighed if (t := dict(f.facts).get("twisted_start")))


def lock_that_holds_a_pole(rig: RigView, chain: IKChain) -> str | None:
    """Why giving this chain a pole would stop it folding: a bone locked on the axis it bends
    on, which it now folds around out of its plane (a warning without a pole, measured: it
    lands; an error with one: 3.3% to 6.5% of the reach short)."""
    locked = _error_with_a_pole(rig, chain, "free_axes")
    if locked is None:
        return None
    return (
        f"{locked.bone} is locked on the axis the chain bends on, which it folds around only "
        "while it has no pole: with a pole it would stop short; free that axis first"
    )


def stiffness_that_fails_with_a_pole(rig: RigView, chain: IKChain) -> str | None:
    """Why giving this chain a pole would leave it short: IK stiffness the tables of limbs with
    a pole fail (seed 94: the forearm at 0.86 lands without a pole, 0.09% of the reach short;
    given one by the pole fix, it stops 0.12% short, the tables' 0.12%)."""
    stiff = _error_with_a_pole(rig, chain, "clear_stiffness")
    if stiff is None:
        return None
    return (
        f"with a pole the IK stiffness of {stiff.bone} would leave it about "
        f"{stiff.stated['shortfall']:.2%} of the reach short (measured on limbs with a pole); "
        "lower that stiffness first"
    )


def _error_with_a_pole(rig: RigView, chain: IKChain, fix_id: str) -> Finding | None:
    """The error with this fix that the chain would have if it had a pole: read once per chain
    and pass, and only where a bone of the chain is locked, limited or stiff (a rig of 2,000
    free limbs asks for each)."""

    def errors() -> list[Finding]:
        if restricted_bones(rig).isdisjoint(chain.bones):
            return []
        found = chain_lock_findings(rig, replace(chain, pole=rig.object), 0.0)
        return [finding for finding in found if finding.severity == Severity.ERROR]

    found = rig.remember(("locks with a pole", chain), errors)
    return next((finding for finding in found if finding.fix_id == fix_id), None)


def lock_holds_the_bend_of(rig: RigView, chain: IKChain, name: str) -> bool:
    """Whether an IK lock (or a zero-width limit) blocks ``name``'s own bend axis, this check's
    "Bend axis locked"."""
    return name in _bend_locked(rig, chain)


def start_held_by_a_lock(rig: RigView, chain: IKChain) -> str | None:
    """Why freeing the chain's locked bend axes would break it (``start_kept_by_a_lock``)."""
    return start_kept_by_a_lock(rig, chain, _bend_locked(rig, chain))


def _bend_locked(rig: RigView, chain: IKChain) -> set[str]:
    """Asked per overridden constraint and by more than one check: once per chain and pass."""
    return rig.remember(
        ("bend locked", chain), lambda: bend_locked(list(chain_lock_findings(rig, chain, 1.0)))
    )
