"""NONE-path timings of one source tree, to compare two trees side by side (BENCHMARKS.md, "Data
block encodings"): an HFile write of 100,000 cells, cold Gets through a reader with its writer's
cell offsets, a scan through a block cache, and a cluster's puts, Gets and scan.

    python benchmarks/none_path_compare.py TREE     # prints name=seconds lines

Run it alternately for the two trees (e.g. a `git archive` of the base commit and this one).
"""

import gc
import random
import sys
import time

sys.path.insert(0, sys.argv[1])

import hsim  # noqa: E402
from hsim.cell import Cell  # noqa: E402
from hsim.config import Config  # noqa: E402
from hsim.engine.block_cache import BlockCache  # noqa: E402
from hsim.engine.hfile import HFileReader, HFileWriter  # noqa: E402
from hsim.metrics import IOCounters  # noqa: E402
from hsim.schema import ColumnFamily  # noqa: E402

N = 100_000
FAMILY = ColumnFamily()
CONFIG = Config()


def best(f, n: int = 5) -> float:
    times = []
    for _ in range(n):
        gc.collect()
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    rnd = random.Random(1)
    cells = sorted(Cell.make(b"%016x" % rnd.getrandbits(64), b"f", b"q", 1000 + i, 4,
                             b"x" * 100, i + 1) for i in range(N))

    def write():
        w = HFileWriter(FAMILY, CONFIG)
        w.append_all(cells)
        return w.finish(1, False, 0), w.cell_offsets

    print("write=%.5f" % best(write))
    data, offsets = write()
    rows = [c[0] for c in cells[::50]]

    def cold_gets():
        reader = HFileReader(data, "x", FAMILY, CONFIG, None, offsets)
        io = IOCounters()
        for row in rows:
            list(reader.seek_row(row, io))

    def scan_file():
        reader = HFileReader(data, "x", FAMILY, CONFIG, BlockCache(1 << 30))
        assert sum(1 for _ in reader.scan(None, IOCounters())) == N

    print("cold_get=%.5f" % best(cold_gets))
    print("scan_file=%.5f" % best(scan_file))
    runs = [_cluster() for _ in range(2)]
    for k, name in enumerate(("cluster_puts", "cluster_gets", "cluster_scan")):
        print("%s=%.5f" % (name, min(r[k] for r in runs)))


def _cluster() -> tuple[float, float, float]:
    config = hsim.Config().scaled(1 / 128).replace(block_cache_size=CONFIG.block_cache_size)
    c = hsim.Cluster(config=config)
    c.admin.create_table("t", ["f"])
    t = c.table("t")
    rnd = random.Random(3)
    keys = [b"%016x" % rnd.getrandbits(64) for _ in range(60_000)]
    start = time.perf_counter()
    for k in keys:
        t.put(k, {b"f:q": b"x" * 100})
    puts = time.perf_counter() - start
    c.admin.flush("t")
    start = time.perf_counter()
    for k in keys[::10]:
        t.get(k)
    gets = time.perf_counter() - start
    start = time.perf_counter()
    assert sum(1 for _ in t.scan()) == len(set(keys))
    return puts, gets, time.perf_counter() - start


if __name__ == "__main__":
    main()
