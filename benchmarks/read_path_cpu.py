"""CPU time (process_time, best of a few) of Gets, scans and a major compaction through the
public API, printed as JSON. Run it from each checkout to compare, alternating:

    PYTHONPATH=. python benchmarks/read_path_cpu.py

Figures: BENCHMARKS.md, "The store scanner". Not collected by pytest (a plain script), since
pytest-benchmark's wall-clock rounds were too noisy on a shared machine for a 10% budget."""
import json
import random
import time

import hsim
from hsim.filters import ColumnPaginationFilter

def clock(fn, reps=3):
    best = None
    for _ in range(reps):
        t = time.process_time()
        fn()
        d = time.process_time() - t
        best = d if best is None or d < best else best
    return best

out = {}
c = hsim.Cluster(clock=hsim.ManualClock(1000))
c.admin.create_table("t", {"f": hsim.ColumnFamily(block_size=65536)})
t = c.table("t")
for i in range(50_000):
    t.put(b"r%07d" % (i * 7919 % 50_000), {b"f:q": b"x" * 100})
c.admin.flush("t")
keys = [b"r%07d" % (i * 37 % 50_000) for i in range(5000)]
get = t.get
out["tall_gets_warm"] = clock(lambda: [get(k) for k in keys])
out["tall_gets_2cols"] = clock(lambda: [get(k, columns=[b"f:q", b"f:z"]) for k in keys])
out["tall_gets_filter"] = clock(lambda: [get(k, filter=ColumnPaginationFilter(1, 0)) for k in keys])
out["tall_scan"] = clock(lambda: sum(1 for _ in t.scan(caching=1000)))
out["tall_scan_small_batches"] = clock(lambda: sum(1 for _ in t.scan(caching=10)))
out["filtered_scan"] = clock(lambda: sum(1 for _ in t.scan(filter=ColumnPaginationFilter(1, 0),
                                                            caching=1000)))
# cold gets: a new cluster each time (blocks decoded from bytes)
def cold():
    c2 = hsim.Cluster(clock=hsim.ManualClock(1000))
    c2.admin.create_table("t", {"f": hsim.ColumnFamily(block_size=65536)})
    t2 = c2.table("t")
    for i in range(20_000):
        t2.put(b"r%07d" % i, {b"f:q": b"x" * 100})
    c2.admin.flush("t")
    g = t2.get
    s = time.process_time()
    for i in range(0, 20_000, 4):
        g(b"r%07d" % i)
    return time.process_time() - s
out["cold_gets"] = min(cold() for _ in range(3))
# gets over several files with versions
c3 = hsim.Cluster(clock=hsim.ManualClock(1000))
c3.admin.create_table("t", {"f": hsim.ColumnFamily(max_versions=3)})
t3 = c3.table("t")
for f in range(4):
    for i in range(5000):
        if i % 4 == f or f == 0:
            c3.clock.advance(1)
            t3.put(b"row%06d" % i, {b"f:q%d" % f: b"x" * 100})
    c3.admin.flush("t")
ks = [b"row%06d" % i for i in range(0, 5000, 5)]
out["gets_4_files"] = clock(lambda: [t3.get(k, max_versions=3) for k in ks])
# major compaction
def compaction():
    c4 = hsim.Cluster(clock=hsim.ManualClock(1000))
    c4.admin.create_table("t", {"f": hsim.ColumnFamily()})
    t4 = c4.table("t")
    rnd = random.Random(3)
    for _f in range(4):
        for _ in range(10_000):
            t4.put(b"%012x" % rnd.getrandbits(40), {b"f:q": b"x" * 100})
        c4.admin.flush("t")
    s = time.process_time()
    c4.admin.major_compact("t")
    return time.process_time() - s
out["major_compaction"] = min(compaction() for _ in range(2))
print(json.dumps(out))
