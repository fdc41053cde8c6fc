"""HBase's REST gateway (`hbase rest`: JSON, XML and protobuf over HTTP) served by hsim: the
resources over the native client API (`RestGateway`), the HTTP server (`RestServer`, `hsim rest`,
`hsim serve --rest-port`).

    from hsim.rest import RestServer
    server = RestServer(cluster, port=0).start()     # http://127.0.0.1:server.port/
"""

from hsim.rest.resources import RestGateway
from hsim.rest.server import RestServer

__all__ = ["RestGateway", "RestServer"]
