"""`hsim serve`: an hsim cluster behind HBase's Thrift-1 API on a port, for happybase or any
other Thrift-1 client (they connect as to HBase's own `hbase thrift start`); with --thrift2,
behind HBase 2's Thrift2 API instead (`hbase thrift2 start`: easybase, thbase, ...).

    hsim serve [--thrift2] [--read-only] [--rest-port [PORT]] [--max-body-size BYTES]
               [--host 127.0.0.1] [--port 9090] [--servers N] [--transport buffered|framed]
               [--protocol binary|compact] [--config JSON|FILE] [--clock system|tick|manual]
               [--max-connections N] [--max-message-size BYTES] [--max-frame-size BYTES]
               [--max-scanners N] [--max-scanners-per-connection N]
               [--ui-port [PORT]] [--ui-bind HOST]

Binds to loopback unless told otherwise. The first line printed says the address it listens on
(with --port 0, the free port it picked). SIGINT or SIGTERM stops it cleanly.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import sys

from hsim.suggest import SuggestingParser
from hsim.gateway.flags import int_in
from hsim.gateway.scanners import MAX_SCANNERS, MAX_SCANNERS_PER_CONNECTION
from hsim.thrift.server import (MAX_CONNECTIONS, MAX_FRAME_SIZE, MAX_MESSAGE_SIZE, PROTOCOLS,
                               TRANSPORTS)


def _config(text: str | None):
    """Config overrides as a JSON object (or a file holding one); "scale" applies
    Config.scaled(factor) after the other fields."""
    from hsim.config import Config

    if not text:
        return Config()
    if not text.lstrip().startswith("{") and os.path.exists(text):
        with open(text, encoding="utf-8") as f:
            text = f.read()
    fields = json.loads(text)
    if not isinstance(fields, dict):
        raise ValueError("--config must be a JSON object of Config fields")
    scale = fields.pop("scale", None)
    unknown = sorted(set(fields) - set(Config.__dataclass_fields__))
    if unknown:
        raise ValueError(f"unknown Config field(s): {', '.join(unknown)}")
    config = Config(**fields)  # each field's type and range checked (InvalidArgumentError)
    return config.scaled(scale) if scale is not None else config


def _parser() -> argparse.ArgumentParser:
    p = SuggestingParser(prog="hsim serve", usage="%(prog)s [options] (see --help)",
                         description=__doc__.split("\n\n")[0])
    p.add_argument("--thrift2", action="store_true",
                   help="serve HBase 2's Thrift2 API (THBaseService) instead of Thrift-1")
    p.add_argument("--rest-port", type=int_in(0, 65535), nargs="?", const=8080, default=None,
                   metavar="PORT", help="also serve HBase's REST API (bare: port 8080) on the "
                                        "same cluster and host")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    p.add_argument("--port", type=int_in(0, 65535), default=9090,
                   help="port (default 9090; 0: a free one)")
    p.add_argument("--servers", type=int_in(1, 1000), default=1, metavar="N",
                   help="region servers")
    p.add_argument("--transport", choices=sorted(TRANSPORTS), default="buffered")
    p.add_argument("--protocol", choices=sorted(PROTOCOLS), default="binary")
    p.add_argument("--config", metavar="JSON", help="Config fields as JSON, or a JSON file")
    p.add_argument("--clock", choices=("system", "tick", "manual"), default="system",
                   help="system: wall time, never the same millisecond twice (default); tick: "
                        "1 ms per request from 2026-01-01T00:00Z; manual: time stands still")
    p.add_argument("--max-message-size", type=int_in(1024), default=MAX_MESSAGE_SIZE,
                   metavar="BYTES")
    p.add_argument("--max-frame-size", type=int_in(1024), default=MAX_FRAME_SIZE,
                   metavar="BYTES")
    p.add_argument("--max-connections", type=int_in(1), default=MAX_CONNECTIONS, metavar="N",
                   help="open connections at most; more are closed at once (default 1000)")
    p.add_argument("--max-scanners", type=int_in(1), default=MAX_SCANNERS, metavar="N",
                   help="open Thrift scanners at most, server-wide (default 1000)")
    p.add_argument("--max-scanners-per-connection", type=int_in(1),
                   default=MAX_SCANNERS_PER_CONNECTION, metavar="N",
                   help="open Thrift scanners at most per client connection (default 100)")
    p.add_argument("--fail-next", type=int, default=0, metavar="N",
                   help="failure injection: the first N calls fail (see --fail-kind)")
    p.add_argument("--fail-kind", choices=("ioerror", "disconnect"), default="ioerror",
                   help="how injected failures look: a Thrift IOError or a dropped connection")
    p.add_argument("--data-dir", metavar="PATH", default=None,
                   help="keep the tables in this data directory (created if missing); a "
                        "restart reopens it and replays its WALs. Default: in memory only")
    p.add_argument("--verbose", action="store_true", help="log refused connections")
    from hsim.rest.cli import add_rest_flags
    from hsim.ui.cli import add_ui_flags

    add_rest_flags(p)  # --read-only (Thrift2 and REST), --max-body-size (REST)

    add_ui_flags(p)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    from hsim.client.cluster import Cluster
    from hsim.clock import CLOCKS
    from hsim.thrift.server import ThriftServer

    if args.read_only and not args.thrift2 and args.rest_port is None:
        parser.error("--read-only applies to the Thrift2 and REST gateways (HBase's Thrift-1 "
                     "server has no read-only mode): add --thrift2 or --rest-port")

    try:
        config = _config(args.config)
    except (ValueError, TypeError, OSError, ArithmeticError, RecursionError) as e:
        parser.error(f"argument --config: {e}")  # exits 2 with the usage line
    clock = CLOCKS[args.clock]()
    from hsim.errors import HsimError

    try:
        cluster = Cluster(region_servers=args.servers, config=config, clock=clock,
                          data_dir=args.data_dir)
    except (HsimError, OSError) as e:
        print(f"hsim serve: cannot open data directory {args.data_dir}: {e}", file=sys.stderr)
        return 1
    extra = {"read_only": args.read_only} if args.thrift2 else {}
    if args.thrift2:
        try:
            from hsim.thrift2_server import Thrift2Server as ThriftServer  # noqa: N814
        except HsimError as e:  # the IDL's package is not installed
            print(f"hsim serve: {e}", file=sys.stderr)
            return 1
    server = ThriftServer(cluster, host=args.host, port=args.port, transport=args.transport,
                          protocol=args.protocol, max_message_size=args.max_message_size,
                          max_frame_size=args.max_frame_size,
                          max_connections=args.max_connections,
                          max_scanners=args.max_scanners,
                          max_scanners_per_connection=args.max_scanners_per_connection,
                          **extra)
    server.handler.faults.fail_next(max(args.fail_next, 0), args.fail_kind)
    try:
        server.bind()
    except OSError as e:
        print(f"hsim serve: cannot listen on {args.host}:{args.port}: {e}", file=sys.stderr)
        return 1

    def _stop(signum, _frame):
        server.stop_accepting()

    signal.signal(signal.SIGINT, _stop)
    signal.signal(signal.SIGTERM, _stop)
    api = "Thrift2" if args.thrift2 else "Thrift-1"
    print(f"hsim serve: listening on {args.host}:{server.port} ({args.transport} transport, "
          f"{args.protocol} protocol, {args.servers} region server(s), {api})", flush=True)
    ui = None
    if args.ui_port is not None:
        from hsim.errors import HsimError
        from hsim.ui import start

        try:
            ui = start(cluster, port=args.ui_port, host=args.ui_bind)
        except HsimError as e:
            server.stop()
            print(f"hsim serve: {e}", file=sys.stderr)
            return 1
        print(f"hsim serve: web UI on {ui.url}", flush=True)
    rest = None
    if args.rest_port is not None:
        from hsim.rest.cli import start as start_rest

        rest = start_rest(cluster, args.host, args.rest_port, args)
        if rest is None:
            server.stop()
            return 1
        print(f"hsim serve: REST on http://{args.host}:{rest.port}/", flush=True)
    server.serve_forever()
    server.stop()
    if ui:
        ui.stop()
    if rest:
        rest.stop()
    try:
        cluster.close()  # with a data directory: flush and archive the WALs
    except HsimError as e:  # a full disk: the WALs stay, the next start replays them
        print(f"hsim serve: {e}", file=sys.stderr)
        return 1
    print(f"hsim serve: stopped after {server.connections_served} connection(s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
