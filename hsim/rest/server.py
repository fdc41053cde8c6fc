"""The REST gateway on a TCP socket: HBase's RESTServer (`hbase rest start`) in the standard
library's threading HTTP server, one thread per connection, HTTP/1.1 keep-alive.

A request the HTTP layer cannot read (a malformed request line or header, a body without a
Content-Length, a Content-Length that is not a number) is answered 400 or 411 and the
connection closed; a body over the limit (`max_body`, default 64 MB) is answered 413 without
being read. The server and every other connection carry on. Binds to loopback by default.
"""

from __future__ import annotations

import logging
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from hsim.rest.resources import Dropped, RestGateway

log = logging.getLogger("hsim.rest")
MAX_BODY = 64 * 1024 * 1024
REST_PORT = 8080  # hbase.rest.port


class _Handler(BaseHTTPRequestHandler):
    """The REST server's HTTP request handler: parses the request, hands it to the resources and
    writes their answer (a thread per connection)."""

    protocol_version = "HTTP/1.1"
    server_version = "hsim-rest"
    # a request line too broken to name its version still gets a status line (not HTTP/0.9's
    # bare body)
    default_request_version = "HTTP/1.0"

    def log_message(self, fmt, *args):  # the access log, at debug level
        log.debug("%s " + fmt, self.address_string(), *args)

    def _body(self) -> bytes | None:
        """The request body, or None after answering why it cannot be read."""
        length = self.headers.get("Content-Length")
        if length is None:
            if self.headers.get("Transfer-Encoding"):
                self._send(411, {"Content-Type": "text/plain"}, b"Length Required\r\n", True)
                return None
            return b""
        try:
            n = int(length)
            if n < 0:
                raise ValueError
        except ValueError:
            self._send(400, {"Content-Type": "text/plain"}, b"Bad request: Content-Length\r\n",
                       True)
            return None
        if n > self.server.max_body:
            self._send(413, {"Content-Type": "text/plain"},
                       f"Payload Too Large: {n} bytes (at most {self.server.max_body})\r\n"
                       .encode(), True)
            return None
        return self.rfile.read(n)

    def _send(self, status: int, headers: dict, body: bytes, close: bool = False) -> None:
        if status in (204, 304):
            body = b""  # these answers carry no body (Jetty drops the resource's text)
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        if close:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _serve(self) -> None:
        body = self._body()
        if body is None:
            return
        url = urlsplit(self.path)
        host = self.headers.get("Host") or f"{self.server.server_address[0]}:" \
                                           f"{self.server.server_address[1]}"
        try:
            status, headers, out = self.server.gateway.handle(
                self.command, url.path or "/", parse_qs(url.query, keep_blank_values=True),
                self.headers, body, f"http://{host}")
        except Dropped:
            self.close_connection = True
            return
        except Exception:  # a bug: 500, and the server keeps serving
            log.warning("%s %s failed", self.command, self.path, exc_info=True)
            status, headers, out = 500, {"Content-Type": "text/plain"}, \
                b"Internal Server Error\r\n"
        self._send(status, headers, out)

    do_GET = do_PUT = do_POST = do_DELETE = _serve


class RestServer(ThreadingHTTPServer):
    """Serve `cluster`'s REST API. `port=0` binds a free port (`.port`).

        server = RestServer(cluster, port=0).start()   # a background thread
        ...
        server.stop()
    """

    daemon_threads = True

    def __init__(self, cluster, host: str = "127.0.0.1", port: int = REST_PORT,
                 read_only: bool = False, max_body: int = MAX_BODY):
        self.gateway = RestGateway(cluster, read_only=read_only)
        self.max_body = max_body
        self._thread: threading.Thread | None = None
        super().__init__((host, port), _Handler)

    @property
    def port(self) -> int:
        return self.server_address[1]

    def start(self) -> "RestServer":
        self._thread = threading.Thread(target=self.serve_forever, args=(0.1,), daemon=True,
                                        name="hsim-rest")  # stop() waits at most 0.1 s
        self._thread.start()
        return self

    def stop(self) -> None:
        self.shutdown()
        self.server_close()
        if self._thread is not None:
            self._thread.join(5)

    def __enter__(self) -> "RestServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
