"""A Thrift-1 server without a socket, for happybase in-process.

happybase's Connection talks to `self.transport` (open/close/is_open) and `self.client` (a
thriftpy2 TClient). The loopback client is a TClient whose request bytes go to the server's
processor in the calling thread and whose reply bytes come back the same way: every call is
serialised exactly as on the wire (str arguments become UTF-8, a wrong type fails as thriftpy2
fails it, `string` fields come back as bytes since happybase reads with decode_response=False),
with no network and no thread.
"""

from __future__ import annotations

import contextlib
import threading

from thriftpy2.thrift import TClient, TProcessor
from thriftpy2.transport import TCyMemoryBuffer, TTransportException

from hsim.thrift.handler import HbaseHandler
from hsim.thrift.idl import Hbase


class LoopbackServer:
    """One embedded Thrift server: a cluster, its handler (and open scanners), a processor.
    `service` and `handler_class`: another Thrift service (default Thrift-1's Hbase)."""

    def __init__(self, cluster, service=Hbase, handler_class=HbaseHandler):
        self.cluster = cluster
        self.handler = handler_class(cluster)
        self.processor = TProcessor(service, self.handler)

    def process(self, request: bytes, protocol_class) -> bytes:
        reply = TCyMemoryBuffer()
        self.processor.process(protocol_class(TCyMemoryBuffer(request)), protocol_class(reply))
        return reply.getvalue()


class LoopbackTransport:
    """Stands where happybase's buffered/framed transport over a TSocket stands."""

    def __init__(self):
        self._open = False

    def is_open(self) -> bool:
        return self._open

    def open(self) -> None:
        self._open = True

    def close(self) -> None:
        self._open = False


class LoopbackClient(TClient):
    """`server` is a LoopbackServer or a callable returning one, looked up on every call (so a
    connection follows its (host, port) to a fresh cluster after hsim.happybase.reset()).
    `decode_response`: whether `string` fields come back as str (thriftpy2's make_client
    default, which easybase uses) or bytes (happybase)."""

    def __init__(self, server, transport: LoopbackTransport, protocol_class, service=Hbase,
                 decode_response: bool = False):
        super().__init__(service, None)
        self._server = server
        self._transport = transport
        self._protocol_class = protocol_class
        self._decode = decode_response

    def _send(self, _api: str, **kwargs) -> None:
        if not self._transport.is_open():
            raise TTransportException(TTransportException.NOT_OPEN, "Transport not open")
        out = TCyMemoryBuffer()
        self._oprot = self._protocol_class(out, decode_response=self._decode)
        super()._send(_api, **kwargs)
        server = self._server() if callable(self._server) else self._server
        reply = server.process(out.getvalue(), self._protocol_class)
        self._iprot = self._protocol_class(TCyMemoryBuffer(reply), decode_response=self._decode)

    def close(self) -> None:
        """TClient.close for a client that may not have sent anything yet."""
        self._transport.close()


class Registry:
    """The embedded servers of one in-process client module (hsim.happybase, hsim.thrift2), by
    the (host, port) a connection names: connections to one address share one cluster, as
    connections to one Thrift server do. New clusters get the settings of the last reset()."""

    def __init__(self, default_host: str, default_port: int, service=Hbase,
                 handler_class=HbaseHandler):
        self.default = (default_host, default_port)
        self.service, self.handler_class = service, handler_class
        self._lock = threading.Lock()
        self._servers: dict[tuple, LoopbackServer] = {}
        self._new_cluster = {"region_servers": 1, "config": None, "clock": None}

    def address(self, host, port) -> tuple:
        return (host or self.default[0], port or self.default[1])

    def _server_for(self, cluster) -> LoopbackServer:
        return LoopbackServer(cluster, self.service, self.handler_class)

    def server(self, host=None, port=None) -> LoopbackServer:
        key = self.address(host, port)
        found = self._servers.get(key)
        if found is None:
            with self._lock:
                found = self._servers.get(key)
                if found is None:
                    from hsim.client.cluster import Cluster
                    from hsim.clock import TickingClock

                    new = self._new_cluster
                    found = self._servers[key] = self._server_for(Cluster(
                        region_servers=new["region_servers"], config=new["config"],
                        clock=new["clock"] if new["clock"] is not None else TickingClock()))
        return found

    def attach(self, cluster, host=None, port=None) -> None:
        with self._lock:
            self._servers[self.address(host, port)] = self._server_for(cluster)

    def reset(self, region_servers: int = 1, config=None, clock=None) -> None:
        with self._lock:
            self._servers.clear()
            self._new_cluster.update(region_servers=region_servers, config=config, clock=clock)


@contextlib.contextmanager
def bound(module, name, value):
    """`module.name` is `value` inside the block, and what it was after."""
    saved = getattr(module, name)
    setattr(module, name, value)
    try:
        yield
    finally:
        setattr(module, name, saved)


class Patch(contextlib.ContextDecorator):
    """Make a client package's names the in-process ones, as a context manager or a
    decorator: `bindings` lists (module, name, in-process value). Code that imported a name
    before the patch keeps the name it bound."""

    bindings: tuple = ()

    def __enter__(self):
        self._saved = [(mod, name, getattr(mod, name)) for mod, name, _ in self.bindings]
        for mod, name, ours in self.bindings:
            setattr(mod, name, ours)
        return self

    def __exit__(self, *exc):
        for mod, name, original in reversed(self._saved):
            setattr(mod, name, original)
        return False
