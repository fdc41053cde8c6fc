"""The UI's HTTP server: stdlib ThreadingHTTPServer in a daemon thread, Jinja2 templates,
loopback unless told otherwise, GET only (read-only, as the Master's info server is for a user).

The server follows one cluster at a time (`follow()` switches it: `hsim run --ui` shows the
variant being run) and samples its regions' request counts every refresh interval for the
heat strip."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

from jinja2 import Environment, PackageLoader, select_autoescape

from hsim.errors import HsimError
from hsim.ui import jmx, pages
from hsim.ui.heat import Heat

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from hsim.client.cluster import Cluster

_ENV = Environment(loader=PackageLoader("hsim.ui", "templates"), autoescape=select_autoescape())
REFRESH_SECONDS = 2


class UIBindError(OSError):
    """The UI's port cannot be bound (in use, not permitted, out of range). An OSError, not an
    hsim error: no HBase request is involved, so there is no Java exception to name."""


class UIServer:
    """A running UI: `.port`, `.url`, `.stop()`."""

    def __init__(self, cluster: Cluster, host: str = "127.0.0.1", port: int = 0,
                 sample_every: float | None = REFRESH_SECONDS):
        self.cluster = cluster
        self.heat = Heat()
        self.sample()
        handler = type("Handler", (_Handler,), {"ui": self})
        try:
            self._httpd = ThreadingHTTPServer((host, port), handler)
        except (OSError, OverflowError) as e:  # OverflowError: a port outside 0-65535
            raise UIBindError(f"cannot serve the UI on {host}:{port}: "
                              f"{getattr(e, 'strerror', None) or e}") from None
        self._httpd.daemon_threads = True
        self.port = self._httpd.server_address[1]
        self.url = f"http://{host}:{self.port}/"
        self._stopped = threading.Event()
        self._threads = [threading.Thread(target=self._httpd.serve_forever, daemon=True,
                                          name="hsim-ui")]
        if sample_every:
            self._threads.append(threading.Thread(target=self._sampler, args=(sample_every,),
                                                  daemon=True, name="hsim-ui-heat"))
        for t in self._threads:
            t.start()

    def follow(self, cluster: Cluster) -> None:
        """Show `cluster` from now on (its heat strip starts afresh)."""
        self.cluster = cluster
        self.heat.reset()
        self.sample()

    def sample(self) -> None:
        """Take one heat-strip sample of the followed cluster."""
        c = self.cluster
        with c.lock:
            self.heat.sample(c)

    def _sampler(self, every: float) -> None:
        while not self._stopped.wait(every):
            self.sample()

    def stop(self) -> None:
        """Stop serving and close the socket."""
        self._stopped.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        for t in self._threads:
            t.join()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def start(cluster: Cluster, port: int = 0, host: str = "127.0.0.1",
          sample_every: float | None = REFRESH_SECONDS) -> UIServer:
    """Serve the UI for `cluster` on host:port (0: a free port) in a daemon thread; sample the
    heat strip every `sample_every` seconds (None: only when `.sample()` is called)."""
    return UIServer(cluster, host=host, port=port, sample_every=sample_every)


class _Handler(BaseHTTPRequestHandler):
    """The web UI's HTTP request handler: one page per HBase UI page, read from the cluster the UI
    follows."""

    ui = None

    def log_message(self, *args):  # quiet: a terminal running a scenario stays readable
        pass

    def do_GET(self):
        url = urlparse(self.path)
        q = {k: v[0] for k, v in parse_qs(url.query).items()}
        c = self.ui.cluster
        try:
            if url.path in ("/", "/master-status"):
                ctx = pages.master_status(c)
                ctx["rates"] = {s.name: self.ui.heat.requests_per_second(s.name)
                                for s in ctx["servers"]}
                self._page("master.html", ctx)
            elif url.path == "/table.jsp":
                ctx = pages.table(c, q.get("name", ""))
                heat = self.ui.heat.strips([r["encoded"] for r in ctx["regions"]])
                for r in ctx["regions"]:
                    r["heat"] = heat[r["encoded"]]
                self._page("table.html", dict(ctx, interval=REFRESH_SECONDS))
            elif url.path == "/region.jsp":
                self._page("region.html", pages.region(c, q.get("name", "")))
            elif url.path == "/snapshot.jsp":
                self._page("snapshot.html", pages.snapshot(c, q.get("name", "")), refresh=0)
            elif url.path == "/storeFile.jsp":
                self._page("storefile.html", pages.store_file(c, q.get("name", "")), refresh=0)
            elif url.path == "/explain.jsp":
                self._page("explain.html", pages.explain(c, q.get("table", ""),
                                                         q.get("row", ""), q.get("column", "")),
                           refresh=0)
            elif url.path == "/favicon.ico":  # browsers ask for it on /jmx; none to give
                self._send(204, "image/x-icon", "")
            elif url.path == "/jmx":
                self._send(200, "application/json", json.dumps(jmx.beans(c), indent=2))
            else:
                self._page("error.html", {"error": f"no page {url.path}"}, 404, refresh=0)
        except HsimError as e:
            self._page("error.html", {"error": f"{e.hbase_exception}: {e}"}, 404, refresh=0)
        except Exception as e:  # a bug in hsim: an answer naming it, not a dropped connection
            self._page("error.html", {"error": f"internal error: {type(e).__name__}: {e}"}, 500,
                       refresh=0)

    def _page(self, template: str, ctx: dict, status: int = 200,
              refresh: int = REFRESH_SECONDS) -> None:
        html = _ENV.get_template(template).render(refresh=refresh, **ctx)
        self._send(status, "text/html; charset=utf-8", html)

    def _send(self, status: int, ctype: str, body: str) -> None:
        data = body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
