"""happybase, in-process: the real happybase package talking to an embedded hsim cluster.

`Connection` and `ConnectionPool` are happybase's own classes (all their argument checks,
Table, Batch, the pool's thread-local reuse) whose Thrift client sends each call to an embedded
Thrift-1 server (hsim.thrift.loopback) instead of a socket: no network, no thread. Connections
to one (host, port) share one embedded cluster, as connections to one Thrift server do.

    import hsim.happybase as happybase          # a drop-in import
    conn = happybase.Connection("hbase.example.com")
    hsim.happybase.cluster("hbase.example.com")  # the cluster behind it (clock, metrics, admin)

    with hsim.happybase.patch():                 # or @hsim.happybase.patch() on a function
        app.main()                               # its happybase.Connection(...) runs in-process

`reset()` drops every embedded cluster (the next connection starts from an empty one) and sets
how new clusters are built; `attach(cluster, host, port)` puts a cluster you built behind an
address. Clusters get a TickingClock unless reset() was given another clock: time starts at
2026-01-01T00:00:00Z and moves 1 ms per Thrift call, so put, delete, put keeps the second put
and consecutive puts make versions, as on a cluster, with the same timestamps in every run.
`reset(clock=hsim.SystemClock())` gives wall-clock time; `reset(clock=hsim.ManualClock(t))`
stands time still (every request in one millisecond).
"""

from __future__ import annotations

import threading

import happybase as _happybase
import happybase.connection as _hb_connection
import happybase.pool as _hb_pool
from happybase import DEFAULT_HOST, DEFAULT_PORT, Batch, NoConnectionsAvailable, Table

from hsim.thrift.loopback import (LoopbackClient, LoopbackServer, LoopbackTransport, Patch,
                                  Registry, bound)

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from hsim.client.cluster import Cluster
    from hsim.clock import ManualClock, SystemClock, TickingClock
    from hsim.config import Config

__all__ = ["Connection", "ConnectionPool", "Table", "Batch", "NoConnectionsAvailable",
           "DEFAULT_HOST", "DEFAULT_PORT", "cluster", "server", "attach", "reset", "patch"]

_pool_lock = threading.Lock()  # one pool built at a time while the name is swapped
_registry = Registry(DEFAULT_HOST, DEFAULT_PORT)


def server(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT) -> LoopbackServer:
    """The embedded Thrift server for (host, port): `.cluster`, `.handler` (open scanners)."""
    return _registry.server(host, port)


def cluster(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT) -> Cluster:
    """The embedded cluster that connections to (host, port) use (created if need be)."""
    return server(host, port).cluster


def attach(cluster: Cluster, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT) -> None:
    """Serve `cluster` at (host, port) from now on."""
    _registry.attach(cluster, host, port)


def reset(region_servers: int = 1, config: Config | None = None,
          clock: ManualClock | TickingClock | SystemClock | None = None) -> None:
    """Forget every embedded cluster; new ones get these settings (clock: one clock object
    shared by the clusters created until the next reset, default a fresh TickingClock each)."""
    _registry.reset(region_servers, config, clock)


class Connection(_happybase.Connection):
    __doc__ = _happybase.Connection.__doc__

    def _refresh_thrift_client(self):
        """A loopback transport and client in place of TSocket, transport and TClient."""
        address = (self.host, self.port)
        self.transport = LoopbackTransport()
        self.client = LoopbackClient(lambda: server(*address), self.transport,
                                     self._protocol_class)

    def __repr__(self) -> str:
        return f"<hsim.happybase.Connection {self.host}:{self.port}>"


class ConnectionPool(_hb_pool.ConnectionPool):
    __doc__ = _hb_pool.ConnectionPool.__doc__

    def __init__(self, size: int, **kwargs: object) -> None:
        """happybase's own ConnectionPool.__init__ (its checks, queue and first connection),
        run while the name it builds connections with, `happybase.pool.Connection`, is ours."""
        with _pool_lock, bound(_hb_pool, "Connection", Connection):
            super().__init__(size, **kwargs)


# Where happybase binds the two names: the package, and the modules that use them.
_BINDINGS = ((_happybase, "Connection", Connection), (_happybase, "ConnectionPool", ConnectionPool),
             (_hb_connection, "Connection", Connection), (_hb_pool, "Connection", Connection),
             (_hb_pool, "ConnectionPool", ConnectionPool))


class patch(Patch):
    """Make `happybase.Connection` / `happybase.ConnectionPool` (and the names happybase's
    own modules use) the in-process ones, as a context manager or a decorator. Code that did
    `from happybase import Connection` before the patch keeps the name it bound."""

    bindings = _BINDINGS
