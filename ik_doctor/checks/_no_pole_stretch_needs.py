"""Iterations a two-bone limb without a pole needs while IK Stretch is on, for the solver check's
count (``_iteration_needs``): the solver chooses the bend plane, and the stretch swings the
count as it does under a pole, by rows of their own."""

from __future__ import annotations

# fmt: off
NO_POLE_STRETCH_NEEDS = (
    (7.63, ((0.001, 10), (0.05, 10), (0.1, 10), (0.125, 12), (0.15, 14), (0.175, 15), (0.2, 16),
            (0.225, 16), (0.25, 16), (0.275, 15), (0.3, 14), (0.325, 13), (0.35, 12), (0.375, 11),
            (0.4, 10), (0.425, 10), (0.45, 9), (0.475, 8), (0.5, 8), (0.55, 8), (0.6, 7),
            (0.65, 7), (0.7, 7), (0.8, 7), (0.95, 6))),
    (13.7, ((0.001, 8), (0.05, 8), (0.1, 8), (0.125, 9), (0.15, 11), (0.175, 12), (0.2, 13),
            (0.225, 14), (0.25, 14), (0.275, 14), (0.3, 14), (0.325, 13), (0.35, 12), (0.375, 12),
            (0.4, 11), (0.425, 10), (0.45, 10), (0.475, 9), (0.5, 8), (0.55, 7), (0.6, 7),
            (0.65, 7), (0.7, 7), (0.8, 6), (0.95, 6))),
)
# fmt: on
"""Iterations a two-bone limb of equal bones without a pole needs with IK Stretch on both bones,
by its joint's bend at rest (the leg's and the arm's) and the greater stretch: the fewer of the
lower bone stretching with a tenth of it on the upper, and both alike (both need up to 3 more
at 0.15 to 0.2). Fresh seed 328, a miss: the leg without a pole, stretch 0.1 (0.01 on the
thigh), at 5 iterations stopped 1.1% of its reach short under "not measured". Measured on 4.2
at each row (one fewer stops 0.10% to 0.32% short), and on 5.3 alike at eight of them. One bone
stretching alone, or a straight limb, was not measured (no count)."""
