"""Verification by solving: the layer that changes the pose and evaluates the depsgraph.

``oracle`` judges each chain at goals it picks itself, ``solve`` moves targets within reach,
``animation`` plays the animator's own actions, ``export_scan`` proves them through the game
exporters. Importing the package registers the scans' checks (``verify``, ``export``), whose
fixes ``apply_fix`` then finds like any other check's.
"""

from . import animation as _animation  # noqa: F401  (registers the 'verify' check)
from . import export_scan as _export_scan  # noqa: F401  (registers the 'export' check)
