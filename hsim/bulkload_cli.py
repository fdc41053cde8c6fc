"""`hsim bulkload DIR TABLE --data-dir PATH` (also `hsim completebulkload`): HBase's
`hbase completebulkload DIR TABLE` (BulkLoadHFilesTool) on a data directory."""

from __future__ import annotations

import argparse
import os
import sys

from hsim.errors import HsimError


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="hsim bulkload",
        description="Move the HFiles under DIR/<family>/ into TABLE's stores (no WAL edit but "
                    "a BULK_LOAD marker, no MemStore); files spanning a region boundary are "
                    "split first.")
    ap.add_argument("dir", metavar="DIR", help="the directory of family subdirectories")
    ap.add_argument("table", metavar="TABLE", help="the table to load into")
    ap.add_argument("--data-dir", metavar="PATH", required=True,
                    help="the data directory holding TABLE")
    return ap


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(sys.argv[1:] if argv is None else argv)
    from hsim.client.cluster import Cluster

    if not os.path.isdir(args.data_dir):  # a load never creates a data directory
        print(f"hsim bulkload: no data directory at {args.data_dir}", file=sys.stderr)
        return 1
    try:
        cluster = Cluster(data_dir=args.data_dir)
    except (HsimError, OSError) as e:
        print(f"hsim bulkload: cannot open data directory {args.data_dir}: {e}",
              file=sys.stderr)
        return 1
    try:
        n = cluster.admin.bulk_load(args.table, args.dir)
    except (HsimError, OSError) as e:
        print(f"hsim bulkload: {e}", file=sys.stderr)
        return 1
    finally:
        try:
            cluster.close()
        except HsimError as e:
            print(f"hsim bulkload: {e}", file=sys.stderr)
    print(f"Loaded {n} HFile{'s' if n != 1 else ''} into {args.table}")
    return 0
