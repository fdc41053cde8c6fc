"""`hsim ui`: the web UI on a cluster of its own, and the flags other commands share to start it.

    hsim ui [--port 16010] [--bind 127.0.0.1] [--servers N] [--data-dir DIR]

16010 is the port of HBase's Master info server (hbase.master.info.port). The UI binds to
loopback unless --bind says otherwise. SIGINT or SIGTERM stops it.
"""

from __future__ import annotations

import signal
import sys
import threading

from hsim.errors import HsimError
from hsim.suggest import SuggestingParser

MASTER_INFO_PORT = 16010  # HConstants.DEFAULT_MASTER_INFOPORT


def add_ui_flags(p, flag: str = "--ui-port", bind: str = "--ui-bind") -> None:
    """`--ui-port [PORT]` (off unless given; bare: 16010) and `--ui-bind HOST` (loopback)."""
    p.add_argument(flag, type=int, nargs="?", const=MASTER_INFO_PORT, default=None,
                   metavar="PORT", help=f"also serve the web UI (bare: port {MASTER_INFO_PORT})")
    p.add_argument(bind, default="127.0.0.1", metavar="HOST",
                   help="address the web UI binds to (default 127.0.0.1)")


def _parser():
    p = SuggestingParser(prog="hsim ui", description=__doc__.split("\n\n")[0])
    p.add_argument("--port", type=int, default=MASTER_INFO_PORT,
                   help=f"port (default {MASTER_INFO_PORT}; 0: a free one)")
    p.add_argument("--bind", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    p.add_argument("--servers", type=int, default=1, metavar="N", help="region servers")
    p.add_argument("--data-dir", metavar="DIR", help="open the cluster kept in DIR")
    return p


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    from hsim.client.cluster import Cluster
    from hsim.ui.server import UIBindError, start

    try:
        cluster = Cluster(region_servers=max(args.servers, 1), data_dir=args.data_dir)
        ui = start(cluster, port=args.port, host=args.bind)
    except (HsimError, UIBindError) as e:
        print(f"hsim ui: {e}", file=sys.stderr)
        return 1
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    print(f"hsim ui: serving {ui.url}", flush=True)
    stop.wait()
    ui.stop()
    try:
        cluster.close()  # with a data directory: everything on disk, the WALs archived
    except HsimError as e:  # a full disk: the WALs stay, the next start replays them
        print(f"hsim ui: {e}", file=sys.stderr)
        return 1
    print("hsim ui: stopped", flush=True)
    return 0
