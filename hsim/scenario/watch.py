"""`hsim run NAME --ui`: the web UI (hsim.ui) following the cluster of the variant being run.
It lives with the scenarios, which build the clusters, so the UI knows nothing of scenarios."""

from __future__ import annotations

import sys
from contextlib import contextmanager

from hsim.scenario import context


@contextmanager
def watch_runs(port: int, host: str = "127.0.0.1", hold: bool = False):
    """Serve the UI while the block runs; each cluster a scenario run builds is shown as it is
    built (an empty cluster until the first). Yields the UI's URL. With `hold` (a terminal),
    the last cluster stays on view after the run until Enter or Ctrl-C."""
    from hsim.client.cluster import Cluster
    from hsim.ui.server import start

    ui = start(Cluster(), port=port, host=host)
    context.CLUSTER_WATCHERS.append(ui.follow)
    try:
        yield ui.url
        if hold:
            print(f"hsim run: the web UI shows the last cluster at {ui.url}; Enter stops it",
                  file=sys.stderr, flush=True)
            try:
                sys.stdin.readline()
            except KeyboardInterrupt:
                pass
    finally:
        context.CLUSTER_WATCHERS.remove(ui.follow)
        ui.stop()
