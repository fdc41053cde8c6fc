"""pytest fixtures for testing HBase code offline (registered through the `pytest11` entry
point, so installing hsim is enough):

- `hsim_clock`: a ManualClock at 0 for the test;
- `hsim_cluster`: a fresh in-process cluster on that clock;
- `hsim_connection`: a happybase Connection (hsim.happybase) to that cluster;
- `hsim_happybase`: happybase itself patched for the test (hsim.happybase.patch()), so the
  application's own `happybase.Connection(...)` calls reach embedded clusters; the default
  address (localhost:9090) serves `hsim_cluster`, other addresses get fresh clusters on the same
  clock. The fixture's value is the hsim.happybase module (`.cluster(host, port)`).

Every test starts from empty clusters. `@pytest.mark.hsim(region_servers=3, config=Config(...),
now=1_700_000_000_000)` sets up the cluster differently for one test.

Nothing heavy is imported until a fixture is used, since pytest loads this in every session.
"""

from __future__ import annotations

import pytest


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "hsim(region_servers=1, config=None, now=0): how the hsim fixtures build "
        "the test's cluster")


def _marker(request) -> dict:
    m = request.node.get_closest_marker("hsim")
    return dict(m.kwargs) if m is not None else {}


@pytest.fixture
def hsim_clock(request):
    """The test's clock: a ManualClock at 0 (or the hsim marker's `now`)."""
    from hsim.clock import ManualClock

    return ManualClock(_marker(request).get("now", 0))


@pytest.fixture
def hsim_cluster(request, hsim_clock):
    """A fresh in-process cluster on `hsim_clock`."""
    from hsim.client.cluster import Cluster

    opts = _marker(request)
    return Cluster(region_servers=opts.get("region_servers", 1), config=opts.get("config"),
                   clock=hsim_clock)


@pytest.fixture
def _hsim_embedded(hsim_cluster, hsim_clock):
    import hsim.happybase as hb

    hb.reset(region_servers=len(hsim_cluster.region_servers), config=hsim_cluster.config,
             clock=hsim_clock)
    hb.attach(hsim_cluster)
    yield hb
    hb.reset()


@pytest.fixture
def hsim_connection(_hsim_embedded):
    """A happybase Connection to `hsim_cluster`, in-process."""
    conn = _hsim_embedded.Connection()
    yield conn
    conn.close()


@pytest.fixture
def hsim_happybase(_hsim_embedded):
    """happybase patched to run in-process for the test; the value is hsim.happybase."""
    with _hsim_embedded.patch():
        yield _hsim_embedded
