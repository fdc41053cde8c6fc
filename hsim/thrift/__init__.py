"""HBase's Thrift-1 `Hbase` service served by hsim: the handler over the native API
(`HbaseHandler`), an in-process loopback for happybase (`hsim.thrift.loopback`) and a socket
server (`ThriftServer`, `hsim serve`). The IDL is the one the happybase package ships.

    from hsim.thrift import HbaseHandler, ThriftServer
    server = ThriftServer(cluster, port=0).start()     # serves on 127.0.0.1:server.port
"""

from hsim.thrift.handler import HbaseHandler
from hsim.thrift.idl import Hbase, ttypes
from hsim.thrift.server import ThriftServer

__all__ = ["Hbase", "HbaseHandler", "ThriftServer", "ttypes"]
