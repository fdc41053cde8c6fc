"""The data directory: a cluster's tables, store files and WALs on disk, laid out as HBase lays
out its root directory, so a cluster survives close() and a crash."""

from __future__ import annotations


def open_cluster(path, region_servers: int = 1, config=None, clock=None):
    """A Cluster on the data directory `path` (created when missing or empty; reopened, with its
    WALs replayed, when it holds one). Close it with `close()` or use it as a context manager."""
    from hsim.client.cluster import Cluster

    return Cluster(region_servers=region_servers, config=config, clock=clock, data_dir=path)
