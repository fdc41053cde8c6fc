"""pytest fixtures for testing HBase code offline (registered through the `pytest11` entry
point, so installing hsim is enough):

- `hsim_clock`: the test's clock, a TickingClock (2026-01-01T00:00:00Z, 1 ms per request);
- `hsim_cluster`: a fresh in-process cluster on that clock;
- `hsim_connection`: a happybase Connection (hsim.happybase) to that cluster;
- `hsim_faults`: failure injection: make the next N Thrift calls fail (IOError or a dropped
  connection) to test retry logic;
- `hsim_happybase`: happybase itself patched for the test (hsim.happybase.patch()), so the
  application's own `happybase.Connection(...)` calls reach embedded clusters; the default
  address (localhost:9090) serves `hsim_cluster`, other addresses get fresh clusters on the same
  clock. The fixture's value is the hsim.happybase module (`.cluster(host, port)`).

Every test starts from empty clusters. `@pytest.mark.hsim(region_servers=3, config=Config(...),
now=1_700_000_000_000, clock="manual")` sets up the cluster differently for one test (`clock`:
"tick", the default, or "manual" to stand time still at `now`).

Nothing heavy is imported until a fixture is used, since pytest loads this in every session.
"""

from __future__ import annotations

import pytest


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "hsim(region_servers=1, config=None, now=2026-01-01T00:00Z, clock='tick'): "
        "how the hsim fixtures build the test's cluster")


def _marker(request) -> dict:
    m = request.node.get_closest_marker("hsim")
    return dict(m.kwargs) if m is not None else {}


@pytest.fixture
def hsim_clock(request):
    """The test's clock: a TickingClock from 2026-01-01T00:00:00Z, 1 ms per request (the hsim
    marker's `now` and `clock` change it)."""
    from hsim.clock import DEFAULT_START_MS, ManualClock, TickingClock

    opts = _marker(request)
    kind = opts.get("clock", "tick")
    if kind not in ("tick", "manual"):
        raise ValueError(f"hsim marker: clock must be 'tick' or 'manual', not {kind!r}")
    start = opts.get("now", DEFAULT_START_MS)
    return TickingClock(start) if kind == "tick" else ManualClock(start)


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
def hsim_faults(_hsim_embedded):
    """Failure injection for the in-process happybase server of `hsim_cluster`:
    `hsim_faults.fail_next(2, "ioerror")` (or "disconnect") makes the next two Thrift calls
    fail as a real client sees it (hsim.gateway.faults)."""
    return _hsim_embedded.server().handler.faults


@pytest.fixture
def hsim_happybase(_hsim_embedded):
    """happybase patched to run in-process for the test; the value is hsim.happybase."""
    with _hsim_embedded.patch():
        yield _hsim_embedded
