"""Shared test settings.

Hypothesis deadlines are off: the first numba call in a process compiles or
loads kernels (a second or more), which would trip any per-example deadline.
Set HYPOTHESIS_PROFILE=thorough for many more examples.
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", deadline=None, max_examples=100, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "thorough", deadline=None, max_examples=2000, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
