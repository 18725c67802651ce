"""Verification by solving: the layer that changes the pose and evaluates the depsgraph.

``oracle`` judges each chain at goals it picks itself, ``solve`` moves targets within reach,
``animation`` plays the animator's own actions. Importing the package registers the scan's
check (``verify``), whose fixes ``apply_fix`` then finds like any other check's.
"""

from . import animation as _animation  # noqa: F401  (registers the 'verify' check)
