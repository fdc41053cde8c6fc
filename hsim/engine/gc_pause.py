"""Pausing Python's cyclic garbage collector during a flush or compaction.

A compaction decodes, merges and re-encodes hundreds of thousands of cells: tuples, bytes and
lists that never form reference cycles and die (by reference counting) when it ends. While it
runs, those allocations keep triggering the cyclic collector, and each full collection walks
every live object of the process, the MemStores' and block cache's cells included, a large
share of a put-heavy run (BENCHMARKS.md, "Cluster: the native API with flush, compaction and
split on"). Pausing the collector for the duration changes
nothing that is collected (nothing here is cyclic) and the previous state is restored, so a
caller who disabled the collector keeps it disabled.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager


@contextmanager
def gc_paused():
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
