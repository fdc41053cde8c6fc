"""A bulk load against the put path: the same cells into the same pre-split table, once by
single-cell puts (MemStore, WAL, flushes, compactions) and once by hsim.bulk.write_hfiles +
Admin.bulk_load (BENCHMARKS.md, "Bulk load against the put path").

    pytest benchmarks/bench_bulk_load.py --benchmark-only
    HSIM_BENCH_ROWS=200000 python -m benchmarks.bench_bulk_load 3   # alternating runs, ratio

Both paths end with every cell in a store file (the put path flushes at the end), so both
measure what it takes to get the data into HFiles.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time

import hsim
from hsim import bulk

ROWS = int(os.environ.get("HSIM_BENCH_ROWS", "1000000"))
VALUE = b"x" * 100
SPLITS = [b"%08x" % (i << 28) for i in range(1, 16)]  # 16 regions


def _rows(n: int) -> list:
    return [b"%08x" % (i * 2654435761 % (1 << 32)) for i in range(n)]


def _cluster():
    c = hsim.Cluster(3, config=hsim.Config().scaled(1 / 128), clock=hsim.ManualClock(1))
    c.admin.create_table("t", ["f"], split_keys=SPLITS)
    return c


def by_puts(rows: list):
    c = _cluster()
    put = c.table("t").put
    for r in rows:
        put(r, {b"f:q": VALUE})
    c.admin.flush("t")
    return c


def by_bulk_load(rows: list):
    c = _cluster()
    with tempfile.TemporaryDirectory() as d:
        bulk.write_hfiles(c.table("t"), [(r, b"f", b"q", None, VALUE) for r in rows], d)
        c.admin.bulk_load("t", d)
    return c


def test_put_path(benchmark):
    rows = _rows(ROWS)
    benchmark.pedantic(by_puts, args=(rows,), rounds=1, iterations=1)


def test_bulk_load(benchmark):
    rows = _rows(ROWS)
    benchmark.pedantic(by_bulk_load, args=(rows,), rounds=1, iterations=1)


def _alternate(runs: int) -> None:
    rows = _rows(ROWS)
    times: dict = {"puts": [], "bulk": []}
    for _ in range(runs):
        for name, fn in (("puts", by_puts), ("bulk", by_bulk_load)):
            t0 = time.process_time()
            c = fn(rows)
            times[name].append(time.process_time() - t0)
            wal = sum(s.wal.bytes_written for s in c.master.servers)
            compacted = sum(s.counters.compaction_bytes_written for r in
                            c.master.tables["t"].locator.regions for s in r.stores.values())
            print(f"{name}: {times[name][-1]:.2f} s CPU, WAL {wal} bytes, "
                  f"compaction writes {compacted} bytes", flush=True)
    best = {k: min(v) for k, v in times.items()}
    print(f"{ROWS} cells: bulk load / put path = {best['bulk'] / best['puts']:.3f} "
          f"(best of {runs}: {best['bulk']:.2f} s / {best['puts']:.2f} s CPU)")


if __name__ == "__main__":
    _alternate(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
