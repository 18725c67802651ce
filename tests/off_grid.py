"""Fault amounts off the generator's grid, for the agreement benchmark's ``--off-grid`` draws."""

from __future__ import annotations


def _steps(low: float, high: float, step: float) -> tuple[float, ...]:
    return tuple(round(low + i * step, 4) for i in range(round((high - low) / step) + 1))


OFF_GRID = {
    "body_squashed": _steps(0.5, 1.6, 0.05),
    "fk_keys": _steps(0.05, 1.0, 0.05),
    "ik_limit": _steps(0, 90, 2),
    "influence": _steps(0, 1, 0.05),
    "inherit_scale_none": _steps(0.3, 2.5, 0.1),
    "insect_leg": _steps(3, 30, 1),
    "iterations": _steps(1, 40, 1),
    "pole_angle": _steps(-180, 180, 10),
    "pose_rotation": _steps(-180, 180, 10),
    "pose_scale": _steps(0.2, 3.0, 0.1),
    "roll": _steps(-180, 180, 10),
    "stiff_both": _steps(0.5, 0.995, 0.015),
    "stiff_owner": _steps(0.5, 0.995, 0.015),
    "stiff_parent": _steps(0.5, 0.995, 0.015),
    "stretch": _steps(0.005, 0.955, 0.05),
}
"""Amounts between and beyond each kind's own (``faulted_limbs.KINDS``), for
``faulted_limbs.random_faults(off_grid=True)``: the rules were read at the grid's amounts, and
a real rig's values lie anywhere."""
