"""Every test here runs twice: real happybase in-process (hsim.happybase) and real happybase
over a socket to the Thrift-1 server (the code behind `hsim serve`) on a free loopback port."""

import happybase
import pytest

import hsim.happybase
from hsim.thrift.server import ThriftServer


class Env:
    """What a test needs: a connection, a way to make more (and pools), the cluster behind
    them, its clock and the server-side handler (to count open scanners)."""

    def __init__(self, kind, cluster, clock, handler, module, address):
        self.kind, self.cluster, self.clock, self.handler = kind, cluster, clock, handler
        self._module, self._address = module, address
        self._opened = []
        self.conn = self.connection()

    def connection(self, **kwargs) -> happybase.Connection:
        self._opened.append(self._module.Connection(**self._address, **kwargs))
        return self._opened[-1]

    def pool(self, size, **kwargs) -> happybase.ConnectionPool:
        return self._module.ConnectionPool(size, **self._address, **kwargs)

    def close(self):
        for c in self._opened:
            c.close()

    @property
    def open_scanners(self) -> int:
        return len(self.handler.scanners)


@pytest.fixture(params=["in-process", "socket"])
def env(request, hsim_cluster, hsim_clock, hsim_connection):
    if request.param == "in-process":
        e = Env("in-process", hsim_cluster, hsim_clock, hsim.happybase.server().handler,
                hsim.happybase, {})
        yield e
        e.close()
        return
    server = ThriftServer(hsim_cluster, port=0).start()
    e = Env("socket", hsim_cluster, hsim_clock, server.handler, happybase,
            {"host": "127.0.0.1", "port": server.port})
    try:
        yield e
    finally:
        e.close()
        server.stop()


@pytest.fixture
def table(env):
    """A table `t` with families cf (3 versions) and g (1 version)."""
    env.conn.create_table("t", {"cf": {"max_versions": 3}, "g": {"max_versions": 1}})
    return env.conn.table("t")
