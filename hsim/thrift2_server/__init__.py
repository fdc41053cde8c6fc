"""HBase 2.x's Thrift2 `THBaseService` (`hbase thrift2`) served by hsim: the handler over the
native client API (`THBaseServiceHandler`) and a socket server (`Thrift2Server`, `hsim serve
--thrift2`); in-process clients come from hsim.thrift2. The IDL is the one the easybase package
ships (hsim.thrift2_server.idl).

    from hsim.thrift2_server import Thrift2Server
    server = Thrift2Server(cluster, port=0).start()     # serves on 127.0.0.1:server.port
"""

from hsim.thrift2_server.handler import THBaseServiceHandler
from hsim.thrift2_server.idl import THBaseService, ttypes
from hsim.thrift2_server.server import Thrift2Server

__all__ = ["THBaseService", "THBaseServiceHandler", "Thrift2Server", "ttypes"]
