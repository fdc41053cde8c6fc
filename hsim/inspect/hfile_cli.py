"""`hsim hfile PATH [-m] [-b] [-h] [-v] [-p] [-e] [-s] [-k] [-i] [-w ROW]`: HBase's
`hbase hfile` (HFilePrettyPrinter) on any HFile on disk, e.g. under a `--data-dir`.

The flags mean what HFilePrettyPrinter's mean: -m print meta data (trailer, file info, mid-key,
blooms), -b print block index meta data, -h print block headers, -v verbose (the "Scanning ->"
and "Scanned kv count" lines), -p print key/values, -e print keys, -s print statistics (key and
value lengths, row sizes), -k check row order (look for out-of-order keys), -i check MOB
integrity (hsim writes no MOB reference cells, so the check finds none to report), -w ROW print
the cells of one row only. A file hsim cannot read is named with the reason on one line (exit 1).
"""

from __future__ import annotations

import argparse
import os
import struct
import sys

from hsim.bytes import to_bytes_binary, to_string_binary as tsb
from hsim.config import Config
from hsim.engine.hfile_reader import HFileReader
from hsim.inspect.hfile_pretty_printer import cell_string, describe
from hsim.schema import ColumnFamily


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="hsim hfile", add_help=False,
                                description="HBase's HFilePrettyPrinter on an HFile on disk")
    p.add_argument("path", metavar="PATH", help="the HFile (e.g. under a --data-dir)")
    flags = [("-v", "verbose", "Verbose output; emits file and meta data delimiters"),
             ("-p", "printkv", "Print key/value pairs"), ("-e", "printkey", "Print keys"),
             ("-m", "printmeta", "Print meta data of file"),
             ("-b", "printblocks", "Print block index meta data"),
             ("-h", "printblockheaders", "Print block headers for each block."),
             ("-k", "checkrow", "Enable row order check; looks for out-of-order keys"),
             ("-s", "stats", "Print statistics"),
             ("-i", "checkMobIntegrity", "Print all cells whose mob files are missing")]
    for short, long, text in flags:
        p.add_argument(short, f"--{long}", action="store_true", help=text)
    p.add_argument("-w", "--seekToRow", metavar="ROW",
                   help="Seek to this row and print all the kvs for this row only")
    p.add_argument("--help", action="help", help="show this help and exit")
    return p


def open_hfile(path: str) -> HFileReader:
    """An HFileReader over the file's bytes; ValueError (one line) when hsim cannot read it."""
    with open(path, "rb") as f:
        data = f.read()
    try:
        return HFileReader(data, os.path.basename(path), ColumnFamily(), Config())
    except (ValueError, KeyError, IndexError, struct.error, UnicodeDecodeError) as e:
        reason = str(e) or type(e).__name__
        raise ValueError(f"not an HFile hsim can read ({reason})") from None


def _stats(cells) -> list[str]:
    """KeyValueStatsCollector, in brief: key and value lengths, row sizes in bytes and cells."""
    key_lens, val_lens, row_bytes, row_cells = [], [], [], []
    prev_row = None
    for c in cells:
        klen = 12 + len(c[0]) + len(c[1]) + len(c[2])
        key_lens.append(klen)
        val_lens.append(len(c[6]))
        if c[0] != prev_row:
            row_bytes.append(0)
            row_cells.append(0)
            prev_row = c[0]
        row_bytes[-1] += 8 + klen + len(c[6])
        row_cells[-1] += 1

    def line(name, xs):
        if not xs:
            return f"{name}: count=0"
        return (f"{name}: count={len(xs)}, min={min(xs)}, max={max(xs)}, "
                f"mean={sum(xs) / len(xs):.2f}")
    return ["Stats:", "   " + line("Key length", key_lens), "   " + line("Val length", val_lens),
            "   " + line("Row size (bytes)", row_bytes),
            "   " + line("Row size (columns)", row_cells)]


def run(args, out) -> None:
    reader = open_hfile(args.path)
    if args.verbose:
        print(f"Scanning -> {args.path}", file=out)
    d = describe(reader)
    if args.printmeta:
        print("\n".join(d.meta_lines()), file=out)
    if args.printblocks:
        print("\n".join(d.index_lines()), file=out)
    if args.printblockheaders:
        print("\n".join(d.header_lines()), file=out)
    scanning = (args.printkv or args.printkey or args.checkrow or args.stats
                or args.checkMobIntegrity or args.seekToRow is not None)
    if not scanning:
        return
    row = None if args.seekToRow is None else to_bytes_binary(args.seekToRow)
    cells = [c for c in reader.cells() if row is None or c[0] == row]
    prev = None
    for c in cells:
        if args.printkv:
            print(f"K: {cell_string(c)} V: {tsb(c[6])}", file=out)
        elif args.printkey:
            print(f"K: {cell_string(c)}", file=out)
        if args.checkrow and prev is not None and prev[0] > c[0]:
            print(f"WARNING, previous row is greater then current row\n\tfilename -> "
                  f"{args.path}\n\tprevious -> {tsb(prev[0])}\n\tcurrent  -> {tsb(c[0])}",
                  file=out)
        prev = c
    if args.verbose:
        print(f"Scanned kv count -> {len(cells)}", file=out)
    if args.stats:
        print("\n".join(_stats(cells)), file=out)


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    try:
        run(args, sys.stdout)
    except OSError as e:
        print(f"hsim hfile: {args.path}: {e.strerror or e}", file=sys.stderr)
        return 1
    except (ValueError, KeyError, IndexError, struct.error) as e:  # a block hsim cannot decode
        print(f"hsim hfile: {args.path}: {e}", file=sys.stderr)
        return 1
    return 0
