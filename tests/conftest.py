"""Hypothesis runs derandomized, so CI and every machine see the same examples (the project's
determinism rule); set HYPOTHESIS_PROFILE=explore to search afresh."""

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None)
settings.register_profile("explore", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
