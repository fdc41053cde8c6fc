"""Puts at scale and cold Gets, each against the floor measured in the same process.

The floor is what a sorted in-memory store costs at the least in Python: a
`sortedcontainers.SortedDict` keyed by the cell key as one bytes string (row, family,
qualifier, timestamp), holding the 100-byte value. Each size runs in its own subprocess so
that the resident-size growth it reports is that of one store only:

    pytest benchmarks/bench_scale.py --benchmark-only                    # 300k and 1M cells
    HSIM_BENCH_SCALE_SIZES=300000,1000000,3000000,10000000 \\
        pytest benchmarks/bench_scale.py --benchmark-only                # the large sizes too
    python benchmarks/bench_scale.py 1000000 scaled                      # one run, JSON out
    python benchmarks/bench_scale.py ladder 300000                       # the put path's layers

Keys are random `user%012d` rows (one cell each, family `f`, qualifier `q`, 100-byte values);
`default` is `Config()`, `scaled` is `Config().scaled(1/128)` (hundreds of flushes, dozens of
compactions, splits). Memory per cell is the growth of the process's resident set over the
load divided by the cells, read from /proc/self/statm (Linux).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time

import pytest

SIZES = [int(s) for s in os.environ.get("HSIM_BENCH_SCALE_SIZES", "300000,1000000").split(",")]
VALUE = b"x" * 100
HERE = os.path.dirname(os.path.abspath(__file__))


def _rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _keys(n: int, seed: int = 1) -> list[bytes]:
    rnd = random.Random(seed)
    return [b"user%012d" % rnd.randrange(10 ** 12) for _ in range(n)]


def _config(name: str):
    import hsim
    return hsim.Config() if name == "default" else hsim.Config().scaled(1 / 128)


def floor(keys: list[bytes]) -> float:
    """Seconds to insert the keys' cell keys into a SortedDict (the floor)."""
    from sortedcontainers import SortedDict
    d = SortedDict()
    t0 = time.perf_counter()
    for k in keys:
        d[k + b"\x01f\x01q\x00\x00\x00\x00\x00\x00\x00\x01"] = VALUE
    return time.perf_counter() - t0


def run_puts(n: int, config: str) -> dict:
    """Load n cells through Table.put; the floor first, in the same process."""
    import hsim
    keys = _keys(n)
    floor_s = floor(keys)
    rss0 = _rss()
    c = hsim.Cluster(region_servers=3, config=_config(config), clock=hsim.ManualClock(1))
    c.admin.create_table("t", ["f"])
    put = c.table("t").put
    t0 = time.perf_counter()
    for k in keys:
        put(k, {b"f:q": VALUE})
    put_s = time.perf_counter() - t0
    rss1 = _rss()
    m = c.metrics()
    return dict(cells=n, config=config, put_s=put_s, floor_s=floor_s,
                ratio=put_s / floor_s, puts_per_s=n / put_s, us_per_put=put_s / n * 1e6,
                bytes_per_cell=(rss1 - rss0) / n, regions=len(m.regions),
                flushes=sum(s.flushes for s in m.servers),
                compactions=sum(s.compactions for s in m.servers), splits=c.master.splits)


def run_ladder(n: int) -> dict:
    """Seconds per put of each layer of the put path, as ratios to the floor, for the same keys
    in one process (default config, no flush): where a put's time goes."""
    import hsim
    from sortedcontainers import SortedList
    from hsim.cell import PUT, fields
    from hsim.engine.memstore import MemStore
    keys = _keys(n)
    out = {"floor": floor(keys)}

    def timed(name, fn):
        t0 = time.perf_counter()
        fn()
        out[name] = time.perf_counter() - t0

    def sorted_list():
        add = SortedList().add
        for k in keys:
            add(fields(k, b"f", b"q", 1, PUT, VALUE, 1))

    def memstore():
        add = MemStore().add
        for k in keys:
            add(fields(k, b"f", b"q", 1, PUT, VALUE, 1))

    def cluster():
        c = hsim.Cluster(region_servers=1, clock=hsim.ManualClock(1))
        c.admin.create_table("t", ["f"])
        return c

    def region_server():
        c = cluster()
        region = c.table("t")._region(b"")
        mutate, entry = region.server.mutate, (b"f", b"q", None, PUT, VALUE, -1)
        for k in keys:
            mutate(region, k, [entry], 1)

    def table():
        put = cluster().table("t").put
        for k in keys:
            put(k, {b"f:q": VALUE})

    for name, fn in [("sorted_list", sorted_list), ("memstore", memstore),
                     ("region_server", region_server), ("table", table)]:
        timed(name, fn)
    f = out["floor"]
    return dict(cells=n, floor_us=f / n * 1e6,
                **{k: round(v / f, 2) for k, v in out.items() if k != "floor"})


def run_cold_gets(n: int = 200_000, gets: int = 5_000) -> dict:
    """Gets of present rows of a BLOCKCACHE => false family: every Get reads its data block
    (HBase's cache-miss path; index and bloom blocks stay cached, as HBase always caches
    them). Beside them, in the same process, the same Gets on a cached copy of the table whose
    blocks were all read once before (the cache-hit path): `uncached_vs_cached` is the speed of
    the first over the second (CPU time). Floor: a SortedDict lookup."""
    import hsim
    from sortedcontainers import SortedDict
    keys = _keys(n)
    c = hsim.Cluster(region_servers=1, clock=hsim.ManualClock(1))
    c.admin.create_table("t", {"f": {"BLOCKCACHE": False}})
    c.admin.create_table("c", ["f"])
    t, cached = c.table("t"), c.table("c")
    for k in keys:
        t.put(k, {b"f:q": VALUE})
        cached.put(k, {b"f:q": VALUE})
    c.admin.flush("t")
    c.admin.flush("c")
    sample = random.Random(5).sample(keys, gets)
    for k in sample:
        assert cached.get(k)  # every block the timed Gets read is now in the cache

    def timed(get):
        t0, c0 = time.perf_counter(), time.process_time()
        for k in sample:
            get(k)
        return time.perf_counter() - t0, time.process_time() - c0

    get_s, cpu_s = timed(t.get)  # on a shared machine, wall time counts others' work too
    hit_s, hit_cpu_s = timed(cached.get)
    d = SortedDict((k, VALUE) for k in keys)
    t0 = time.perf_counter()
    for k in sample:
        d[k]
    floor_s = time.perf_counter() - t0
    return dict(gets=gets, get_s=get_s, gets_per_s=gets / get_s, gets_per_cpu_s=gets / cpu_s,
                cached_gets_per_cpu_s=gets / hit_cpu_s, uncached_vs_cached=hit_cpu_s / cpu_s,
                floor_s=floor_s, ratio=get_s / floor_s)


def _subprocess(*args: str) -> dict:
    out = subprocess.run([sys.executable, os.path.join(HERE, "bench_scale.py"), *args],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


@pytest.mark.parametrize("config", ["default", "scaled"])
@pytest.mark.parametrize("cells", SIZES)
def test_puts_at_scale(benchmark, cells, config):
    result = benchmark.pedantic(_subprocess, args=(str(cells), config), rounds=1, iterations=1)
    assert result["cells"] == cells
    benchmark.extra_info.update(result)


def test_cold_gets(benchmark):
    result = benchmark.pedantic(_subprocess, args=("cold-get",), rounds=1, iterations=1)
    assert result["gets"] > 0
    benchmark.extra_info.update(result)


if __name__ == "__main__":
    if sys.argv[1] == "cold-get":
        print(json.dumps(run_cold_gets()))
    elif sys.argv[1] == "ladder":
        print(json.dumps(run_ladder(int(sys.argv[2]) if len(sys.argv) > 2 else 300_000)))
    else:
        config = sys.argv[2] if len(sys.argv) > 2 else "default"
        print(json.dumps(run_puts(int(sys.argv[1]), config)))
