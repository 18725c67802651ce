"""Hypothesis profiles for the property tests: a short, repeatable one for CI, a long one.

CI runs the "ci" profile: a fixed derandomised set of examples, no deadline (building a rig in
Blender takes milliseconds to seconds on a shared runner), a few hundred examples in all. For a
long local hunt (conftest imports this module, so the profile exists when pytest starts)::

    .venv/4.2/bin/python -m pytest --hypothesis-profile=long tests/test_property_rigs.py
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings

UNHEALTHY_BUT_EXPECTED = [HealthCheck.too_slow, HealthCheck.data_too_large]

settings.register_profile(
    "ci",
    max_examples=100,
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=UNHEALTHY_BUT_EXPECTED,
)
settings.register_profile(
    "long",
    max_examples=2000,
    deadline=None,
    print_blob=True,
    suppress_health_check=UNHEALTHY_BUT_EXPECTED,
)

if settings.get_current_profile_name() == "default":
    settings.load_profile("ci")
