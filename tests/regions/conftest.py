import pytest

import hsim


@pytest.fixture
def small_config():
    """A config scaled so that a few thousand cells cause flushes, compactions and splits."""
    return hsim.Config().scaled(1 / 2048)  # 64 KiB flush size, 5 MiB region size


@pytest.fixture
def cluster():
    return hsim.Cluster(region_servers=3, clock=hsim.ManualClock(1_000))
