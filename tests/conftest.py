"""Shared test settings: Hypothesis profiles.

``ci`` (the default) is derandomised so every run checks the same examples;
``long`` is for campaigns: ``HYPOTHESIS_PROFILE=long python -m pytest``.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", derandomize=True, max_examples=100, deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("long", max_examples=5000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
