"""The requests-per-region-over-time heat strip of /table.jsp.

HBase's table page shows each region's request counters at one moment; a hotspot is a counter
that grows faster than its neighbours', which only a history shows. A Heat keeps the last
`width` samples of every region's total request count (read + write, as
MetricsRegionSource's readRequestCount and writeRequestCount) and gives, per region, the
requests between consecutive samples. Samples are taken per refresh interval by the server's
sampler thread, or by calling `sample()` (tests and the cluster-clock driven callers).
"""

from __future__ import annotations

import threading
from collections import deque


class Heat:
    """The request history behind the heat strips: the last `width` samples of each region's
    request count; sampled by the UI's thread and read by page requests, hence the lock."""
    def __init__(self, width: int = 60):
        self.width = width
        self._samples: deque = deque(maxlen=width + 1)  # (cluster ms, {encoded: requests})
        self._lock = threading.Lock()
        self._servers = ((0, {}), (0, {}))  # the last two (cluster ms, {server: requests})

    def reset(self) -> None:
        """Forget the history (the UI now follows another cluster)."""
        with self._lock:
            self._samples.clear()
            self._servers = ((0, {}), (0, {}))

    def sample(self, cluster) -> None:
        """Record every region's request count now."""
        m = cluster.metrics()
        counts = {r.name.rstrip(".").rsplit(".", 1)[-1]: r.read_requests + r.write_requests
                  for r in m.regions}
        servers = {s.name: s.read_requests + s.write_requests for s in m.servers}
        with self._lock:
            self._samples.append((cluster.clock.now(), counts))
            self._servers = (self._servers[1], (cluster.clock.now(), servers))

    def requests_per_second(self, server: str):
        """The server's requests per second of cluster time between the last two samples, as the
        Master's "Requests Per Second" column; None while the clock has not moved."""
        with self._lock:
            (t0, before), (t1, after) = self._servers
        if t1 <= t0 or server not in after:
            return None
        return (after[server] - before.get(server, 0)) * 1000 / (t1 - t0)

    def strip(self, encoded: str) -> list[int]:
        """The region's requests in each sampled interval, oldest first (a region born after a
        sample counts from zero)."""
        with self._lock:
            samples = list(self._samples)
        out = []
        for (_, before), (_, after) in zip(samples, samples[1:]):
            if encoded in after:
                out.append(after[encoded] - before.get(encoded, 0))
        return out

    def strips(self, encoded_names) -> dict:
        """Per region: [(requests, shade 0..100)] with shades on one scale for the table, so the
        hottest interval of any region is the darkest cell."""
        raw = {e: self.strip(e) for e in encoded_names}
        top = max((v for s in raw.values() for v in s), default=0) or 1
        return {e: [(v, round(100 * v / top)) for v in s] for e, s in raw.items()}
