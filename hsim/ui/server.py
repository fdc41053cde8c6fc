"""The UI's HTTP server: stdlib ThreadingHTTPServer in a daemon thread, Jinja2 templates,
loopback only, GET only (read-only, as the Master's info server is for a user)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

from jinja2 import Environment, PackageLoader, select_autoescape

from hsim.errors import HsimError
from hsim.ui import jmx, pages

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from hsim.client.cluster import Cluster

_ENV = Environment(loader=PackageLoader("hsim.ui", "templates"), autoescape=select_autoescape())
REFRESH_SECONDS = 2


class UIServer:
    """A running UI: `.port`, `.url`, `.stop()`."""

    def __init__(self, cluster: Cluster, host: str = "127.0.0.1", port: int = 0):
        self.cluster = cluster
        handler = type("Handler", (_Handler,), {"cluster": cluster})
        self._httpd = ThreadingHTTPServer((host, port), handler)
        self._httpd.daemon_threads = True
        self.port = self._httpd.server_address[1]
        self.url = f"http://{host}:{self.port}/"
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True,
                                        name="hsim-ui")
        self._thread.start()

    def stop(self) -> None:
        """Stop serving and close the socket."""
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def start(cluster: Cluster, port: int = 0, host: str = "127.0.0.1") -> UIServer:
    """Serve the UI for `cluster` on host:port (0: a free port) in a daemon thread."""
    return UIServer(cluster, host=host, port=port)


class _Handler(BaseHTTPRequestHandler):
    cluster = None

    def log_message(self, *args):  # quiet: a terminal running a scenario stays readable
        pass

    def do_GET(self):
        url = urlparse(self.path)
        q = {k: v[0] for k, v in parse_qs(url.query).items()}
        c = self.cluster
        try:
            if url.path in ("/", "/master-status"):
                self._page("master.html", pages.master_status(c))
            elif url.path == "/table.jsp":
                self._page("table.html", pages.table(c, q.get("name", "")))
            elif url.path == "/region.jsp":
                self._page("region.html", pages.region(c, q.get("name", "")))
            elif url.path == "/jmx":
                self._send(200, "application/json", json.dumps(jmx.beans(c), indent=2))
            else:
                self._page("error.html", {"error": f"no page {url.path}"}, status=404)
        except HsimError as e:
            self._page("error.html", {"error": f"{e.hbase_exception}: {e}"}, status=404)

    def _page(self, template: str, ctx: dict, status: int = 200) -> None:
        html = _ENV.get_template(template).render(refresh=REFRESH_SECONDS, **ctx)
        self._send(status, "text/html; charset=utf-8", html)

    def _send(self, status: int, ctype: str, body: str) -> None:
        data = body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
