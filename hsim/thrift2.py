"""Thrift2 clients, in-process: the real easybase package talking HBase 2's Thrift2 API
(THBaseService) to an embedded hsim cluster, as hsim.happybase does for happybase.

`Connection` and `ConnectionPool` are easybase's own classes (its argument checks, Table,
Batch, the pool) whose Thrift client sends each call to an embedded Thrift2 server instead of
a socket: every call serialised exactly as on the wire, no network, no thread. Connections to
one (host, port) share one embedded cluster, as connections to one `hbase thrift2` server do.

    import hsim.thrift2 as easybase               # a drop-in import
    conn = easybase.Connection("hbase.example.com")
    hsim.thrift2.cluster("hbase.example.com")     # the cluster behind it (clock, metrics, admin)

    with hsim.thrift2.patch():                    # or @hsim.thrift2.patch() on a function
        app.main()                                # its easybase.Connection(...) runs in-process

`reset()`, `attach(cluster, host, port)` and the clocks are as in hsim.happybase: clusters get
a TickingClock (2026-01-01T00:00:00Z, 1 ms per call) unless reset() was given another. Needs
the easybase package (`pip install --no-deps easybase pure-sasl`; its Kerberos extra is not
used).
"""

from __future__ import annotations

import threading

import easybase as _easybase
import easybase.connection as _eb_connection
import easybase.pool as _eb_pool
from easybase import DEFAULT_HOST, DEFAULT_PORT, NoConnectionsAvailable, Table
from thriftpy2.protocol import TBinaryProtocol

from hsim.thrift.loopback import (LoopbackClient, LoopbackServer, LoopbackTransport, Patch,
                                  Registry, bound)
from hsim.thrift2_server import THBaseService, THBaseServiceHandler

__all__ = ["Connection", "ConnectionPool", "Table", "NoConnectionsAvailable", "DEFAULT_HOST",
           "DEFAULT_PORT", "cluster", "server", "attach", "reset", "patch"]

_pool_lock = threading.Lock()  # one pool built at a time while the name is swapped
_registry = Registry(DEFAULT_HOST, DEFAULT_PORT, THBaseService, THBaseServiceHandler)


def server(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT) -> LoopbackServer:
    """The embedded Thrift2 server for (host, port): `.cluster`, `.handler` (open scanners,
    `.handler.faults`, `.handler.read_only`)."""
    return _registry.server(host, port)


def cluster(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT):
    """The embedded cluster that connections to (host, port) use (created if need be)."""
    return server(host, port).cluster


def attach(cluster, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT) -> None:
    """Serve `cluster` at (host, port) from now on."""
    _registry.attach(cluster, host, port)


def reset(region_servers: int = 1, config=None, clock=None) -> None:
    """Forget every embedded cluster; new ones get these settings."""
    _registry.reset(region_servers, config, clock)


class Connection(_eb_connection.Connection):
    __doc__ = _eb_connection.Connection.__doc__

    def _refresh_thrift_client(self):
        """A loopback client in place of thriftpy2's make_client (binary protocol, string
        fields decoded, as make_client's defaults that easybase uses)."""
        if self.use_kerberos:
            raise NotImplementedError("hsim.thrift2 connections run in-process: no Kerberos")
        address = (self.host, self.port)
        self.transport = LoopbackTransport()
        self.transport.open()  # make_client connects at once
        self.client = LoopbackClient(lambda: server(*address), self.transport, TBinaryProtocol,
                                     service=THBaseService, decode_response=True)

    def __repr__(self) -> str:
        return f"<hsim.thrift2.Connection {self.host}:{self.port}>"


class ConnectionPool(_eb_pool.ConnectionPool):
    __doc__ = _eb_pool.ConnectionPool.__doc__

    def __init__(self, size, **kwargs):
        """easybase's own ConnectionPool.__init__, run while the name it builds connections
        with, `easybase.pool.Connection`, is ours."""
        with _pool_lock, bound(_eb_pool, "Connection", Connection):
            super().__init__(size, **kwargs)


# Where easybase binds the two names: the package, and the modules that use them.
_BINDINGS = ((_easybase, "Connection", Connection), (_easybase, "ConnectionPool", ConnectionPool),
             (_eb_connection, "Connection", Connection), (_eb_pool, "Connection", Connection),
             (_eb_pool, "ConnectionPool", ConnectionPool))


class patch(Patch):
    """Make `easybase.Connection` / `easybase.ConnectionPool` (and the names easybase's own
    modules use) the in-process ones, as a context manager or a decorator."""

    bindings = _BINDINGS
