"""Thrift2 tests: a raw THBaseService client (thriftpy2, the IDL easybase ships) to the
Thrift2 handler, in-process (hsim.thrift2's loopback) and over a socket (the server behind
`hsim serve --thrift2`). easybase must be installed (pip install --no-deps easybase pure-sasl)."""

import pytest

pytest.importorskip("easybase", reason="the Thrift2 IDL comes from easybase: "
                    "pip install --no-deps easybase pure-sasl")

import hsim  # noqa: E402
from thriftpy2.protocol import TBinaryProtocol  # noqa: E402
from thriftpy2.rpc import make_client  # noqa: E402

from hsim.thrift.loopback import LoopbackClient, LoopbackServer, LoopbackTransport  # noqa: E402
from hsim.thrift2_server import THBaseService, THBaseServiceHandler, Thrift2Server  # noqa: E402


class Env:
    def __init__(self, kind, cluster, handler, connect):
        self.kind, self.cluster, self.handler = kind, cluster, handler
        self._connect = connect
        self._clients = []
        self.client = self.connect()

    def connect(self):
        c = self._connect()
        self._clients.append(c)
        return c

    def close(self):
        for c in self._clients:
            c.close()


@pytest.fixture(params=["in-process", "socket"])
def env(request):
    cluster = hsim.Cluster(clock=hsim.ManualClock(1_000))
    if request.param == "in-process":
        server = LoopbackServer(cluster, THBaseService, THBaseServiceHandler)

        def connect():
            transport = LoopbackTransport()
            transport.open()
            return LoopbackClient(server, transport, TBinaryProtocol, service=THBaseService,
                                  decode_response=True)

        e = Env("in-process", cluster, server.handler, connect)
        yield e
        e.close()
        return
    with Thrift2Server(cluster, port=0) as server:  # started, and stopped after the test
        e = Env("socket", cluster, server.handler,
                lambda: make_client(THBaseService, "127.0.0.1", server.port, timeout=20_000))
        yield e
        e.close()


@pytest.fixture
def client(env):
    """A client of a cluster with table `t`: families cf (3 versions) and g (1 version)."""
    env.cluster.admin.create_table("t", {"cf": hsim.ColumnFamily(max_versions=3), "g": None})
    return env.client
