"""Verification by solving: the layer that changes the pose and evaluates the depsgraph.

``oracle`` judges each chain at goals it picks itself, ``solve`` moves targets within reach,
``animation`` plays the animator's own actions, ``export_scan`` proves them through the game
exporters. The scans' checks (``verify``, ``export``) join the registry as the others do
(``ik_doctor.plugins``), so ``apply_fix`` finds their fixes like any other check's.
"""

from __future__ import annotations

from ..core.registry import Check


def scans() -> list[Check]:
    """The checks whose findings the scans make (``diagnose`` finds none of them)."""
    from . import animation, export_scan

    return [animation.CHECK, export_scan.CHECK]
