"""A Thrift-1 server without a socket, for happybase in-process.

happybase's Connection talks to `self.transport` (open/close/is_open) and `self.client` (a
thriftpy2 TClient). The loopback client is a TClient whose request bytes go to the server's
processor in the calling thread and whose reply bytes come back the same way: every call is
serialised exactly as on the wire (str arguments become UTF-8, a wrong type fails as thriftpy2
fails it, `string` fields come back as bytes since happybase reads with decode_response=False),
with no network and no thread.
"""

from __future__ import annotations

from thriftpy2.thrift import TClient, TProcessor
from thriftpy2.transport import TCyMemoryBuffer, TTransportException

from hsim.thrift.handler import HbaseHandler
from hsim.thrift.idl import Hbase


class LoopbackServer:
    """One embedded Thrift server: a cluster, its handler (and open scanners), a processor."""

    def __init__(self, cluster):
        self.cluster = cluster
        self.handler = HbaseHandler(cluster)
        self.processor = TProcessor(Hbase, self.handler)

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
    connection follows its (host, port) to a fresh cluster after hsim.happybase.reset())."""

    def __init__(self, server, transport: LoopbackTransport, protocol_class):
        super().__init__(Hbase, None)
        self._server = server
        self._transport = transport
        self._protocol_class = protocol_class

    def _send(self, _api: str, **kwargs) -> None:
        if not self._transport.is_open():
            raise TTransportException(TTransportException.NOT_OPEN, "Transport not open")
        out = TCyMemoryBuffer()
        self._oprot = self._protocol_class(out, decode_response=False)
        super()._send(_api, **kwargs)
        server = self._server() if callable(self._server) else self._server
        reply = server.process(out.getvalue(), self._protocol_class)
        self._iprot = self._protocol_class(TCyMemoryBuffer(reply), decode_response=False)
