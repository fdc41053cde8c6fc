"""`hsim rest`: an hsim cluster behind HBase's REST API on a port, for curl, starbase,
hbase-rest-py or any HTTP client (they connect as to HBase's own `hbase rest start`).

    hsim rest [--host 127.0.0.1] [--port 8080] [--servers N] [--data-dir DIR] [--read-only]
              [--clock system|tick|manual] [--max-body-size BYTES] [--verbose]

Binds to loopback unless told otherwise. The first line printed says the address it listens on
(with --port 0, the free port it picked). SIGINT or SIGTERM stops it cleanly.
"""

from __future__ import annotations

import logging
import signal
import sys
import threading

from hsim.gateway.flags import int_in
from hsim.rest.server import REST_PORT, MAX_BODY
from hsim.suggest import SuggestingParser


def add_rest_flags(p) -> None:
    """The flags `hsim rest` and `hsim serve --rest-port` share."""
    p.add_argument("--read-only", action="store_true",
                   help="refuse every write with 403 Forbidden (hbase.rest.readonly)")
    p.add_argument("--max-body-size", type=int_in(1), default=MAX_BODY, metavar="BYTES",
                   help=f"largest request body accepted (default {MAX_BODY}; more: 413)")


def _parser():
    p = SuggestingParser(prog="hsim rest", usage="%(prog)s [options] (see --help)",
                         description=__doc__.split("\n\n")[0])
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    p.add_argument("--port", type=int_in(0, 65535), default=REST_PORT,
                   help=f"port (default {REST_PORT}; 0: a free one)")
    p.add_argument("--servers", type=int_in(1, 1000), default=1, metavar="N",
                   help="region servers")
    p.add_argument("--data-dir", metavar="DIR", default=None,
                   help="keep the tables in this data directory (created if missing)")
    p.add_argument("--clock", choices=("system", "tick", "manual"), default="system",
                   help="system: wall time (default); tick: 1 ms per request; manual: still")
    p.add_argument("--verbose", action="store_true", help="log every request")
    add_rest_flags(p)
    return p


def start(cluster, host: str, port: int, args):
    """A started RestServer for `cluster`, or None after saying why it cannot listen."""
    from hsim.rest.server import RestServer

    try:
        return RestServer(cluster, host=host, port=port, read_only=args.read_only,
                          max_body=args.max_body_size).start()
    except OSError as e:
        print(f"hsim: cannot listen on {host}:{port} for REST: {e}", file=sys.stderr)
        return None


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.WARNING,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    from hsim.client.cluster import Cluster
    from hsim.clock import CLOCKS
    from hsim.errors import HsimError

    try:
        cluster = Cluster(region_servers=args.servers, clock=CLOCKS[args.clock](),
                          data_dir=args.data_dir)
    except (HsimError, OSError) as e:
        print(f"hsim rest: cannot open data directory {args.data_dir}: {e}", file=sys.stderr)
        return 1
    server = start(cluster, args.host, args.port, args)
    if server is None:
        return 1
    stop = threading.Event()
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    mode = ", read-only" if args.read_only else ""
    print(f"hsim rest: listening on http://{args.host}:{server.port}/ ({args.servers} region "
          f"server(s){mode})", flush=True)
    stop.wait()
    server.stop()
    try:
        cluster.close()
    except HsimError as e:
        print(f"hsim rest: {e}", file=sys.stderr)
        return 1
    print("hsim rest: stopped", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
