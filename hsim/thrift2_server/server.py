"""The Thrift2 server on a TCP socket: Thrift-1's server (hsim.thrift.server: the buffered or
framed transport, the binary or compact protocol, HBase's frame and message limits, each
request checked whole before it is decoded) serving THBaseService instead of Hbase."""

from __future__ import annotations

from hsim.thrift.server import ThriftServer
from hsim.thrift2_server.handler import THBaseServiceHandler
from hsim.thrift2_server.idl import THBaseService


class Thrift2Server(ThriftServer):
    """Serve `cluster` over Thrift2 (`hbase thrift2`). `read_only`: refuse every write."""

    service = THBaseService
    handler_class = THBaseServiceHandler

    def __init__(self, cluster, *args, read_only: bool = False, **kwargs):
        super().__init__(cluster, *args, **kwargs)
        self.handler.read_only = read_only
