"""PrefetchExecutor: the files waiting to have their blocks read into the cache after opening.

HBase hands a prefetch-on-open file to a thread pool that starts reading it
hbase.hfile.prefetch.delay after the open (PrefetchExecutor.request) and stops it when the
file closes first (PrefetchExecutor.cancel). Here the queue is one per block cache (one per
region server, as the executor is one per JVM) and runs on the cluster's clock: each request
first runs the prefetches whose start time has come, so the blocks are there exactly when
the delay has passed and not before. The delay's random variation
(hbase.hfile.prefetch.delay.variation) is left out: a seeded run would gain nothing from it.
"""

from __future__ import annotations

import heapq


class PrefetchExecutor:
    """The prefetch-on-open queue of one block cache: files due to be read into the cache at a
    cluster time, cancelled if they close first."""
    def __init__(self):
        self._queue: list = []  # (due time, request number, reader, blocks to warm)
        self._requests = 0

    def __bool__(self) -> bool:
        return bool(self._queue)

    def __len__(self) -> int:
        return len(self._queue)

    def request(self, reader, due: int) -> None:
        self._requests += 1
        heapq.heappush(self._queue, (due, self._requests, reader))

    def cancel(self, name: str) -> None:
        """The file closed before its prefetch ran."""
        self._queue = [e for e in self._queue if e[2].name != name]
        heapq.heapify(self._queue)

    def run_due(self, now: int) -> int:
        """Run every prefetch due at `now` or before, oldest first; how many ran."""
        ran = 0
        while self._queue and self._queue[0][0] <= now:
            _, _, reader = heapq.heappop(self._queue)
            reader.warm(data=True, index=True, blooms=True)
            ran += 1
        return ran
