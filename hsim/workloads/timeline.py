"""The timeline: requests and background jobs laid out on each region server's busy-until clock.

A run's requests, in the order the clients made them, each priced by the cost model
(hsim.workloads.costmodel), are served on their region server one at a time: a request starts
when it is issued and its server is free, and waits otherwise. Background jobs (flushes,
compactions, the compactions a split leaves its daughters) go on their server's compaction
queue, one at a time, from the moment the request that caused them was issued, and occupy the
server while they run: requests arriving meanwhile wait behind them.

Two passes over the same requests:

- `closed_loop`: `threads` client threads, each issuing its next request when its last one
  answered (a bulk load, a benchmark's run phase). The run's elapsed time is when the last
  request or job ends: a hot server that moves from one machine to the next gets no credit for
  the idle servers, since every thread is waiting on the hot one.
- `paced`: the requests offered evenly spaced at a rate; a request's latency is its wait plus
  its own service time.

Both take the requests as (servers, service times) and the background jobs as
(requests issued before it, server, time) triples, in order.
"""

from __future__ import annotations

import heapq
from itertools import accumulate


class Logged:
    """RequestLog entries (a LogSlice) made ready to price again and again (a sensitivity sweep
    re-prices the same entries under other unit costs): the servers' names, each entry's
    server index, its counts as a matrix, which entries are requests and which background
    jobs, and each server's totals. `priced` keeps what the cost model made of them under
    each set of prices that differ on the counts present, `elapsed` the closed loop's time."""

    __slots__ = ("names", "where", "request_counts", "jobs", "job_counts", "totals", "present",
                 "priced", "elapsed", "_stretches")

    def __init__(self, entries, names: list):
        import numpy as np

        self.names = list(names)
        index = {n: i for i, n in enumerate(self.names)}
        for name in dict.fromkeys(entries.servers):  # a server started since: idle until then
            if name not in index:
                index[name] = len(self.names)
                self.names.append(name)
        n = len(entries)
        at = np.array([index[x] for x in entries.servers], dtype=np.intp)
        counts = np.frombuffer(entries.counts, dtype=np.int64).reshape(n, -1) \
            if n else np.zeros((0, 0), dtype=np.int64)
        is_request = (counts[:, 0] + counts[:, 1]) > 0 if n else np.zeros(0, dtype=bool)
        self.where = at[is_request].tolist()  # each request's server
        self.request_counts = counts[is_request].astype(np.float64)
        job = ~is_request
        before = np.cumsum(is_request)[job]  # requests issued before each job
        self.jobs = list(zip(before.tolist(), at[job].tolist()))
        self.job_counts = counts[job].astype(np.float64)
        self.totals = [counts[at == s].sum(axis=0).tolist() for s in range(len(self.names))]
        self.present = counts.any(axis=0).tolist() if n else []  # columns with any count
        self.priced: dict = {}
        self.elapsed: dict = {}  # the closed loop's elapsed ms, per set of prices
        self._stretches: dict = {}

    def __len__(self) -> int:
        return len(self.where) + len(self.jobs)

    def stretches(self, threads: int) -> list:
        """`runs` of the requests for `threads` client threads (found once)."""
        if threads not in self._stretches:
            jobs = [(before, s, 0.0) for before, s in self.jobs]
            self._stretches[threads] = runs(self.where, jobs, 2 * threads)
        return self._stretches[threads]


def runs(where: list, jobs: list, least: int) -> list:
    """(start, stop) of each stretch of at least `least` consecutive requests on one server with
    no background job queued inside it: where a hot server holds every client thread."""
    cuts = {before for before, _, _ in jobs}
    out, start = [], 0
    for k in range(1, len(where) + 1):
        if k == len(where) or where[k] != where[start] or k in cuts:
            if k - start >= least:
                out.append((start, k))
            start = k
    return out


def closed_loop(where: list, fg: list, jobs: list, n_servers: int, threads: int,
                stretches: list = ()) -> float:
    """The elapsed ms of requests (request k on server where[k], fg[k] ms of service) made by
    `threads` client threads, with background `jobs` (before, server, ms) on the servers'
    compaction queues. `stretches`: `runs(where, jobs, 2 * threads)`, taken in one step where
    their server is the bottleneck (busy past every thread's next issue: each request then
    starts when the one before it ends, so only the sums matter)."""
    c = max(1, threads)
    free = [0.0] * c  # when each client thread is next free (a heap)
    busy = [0.0] * n_servers  # each server's busy-until clock
    queue = [0.0] * n_servers  # each server's compaction queue: busy until
    replace = heapq.heapreplace
    sums = list(accumulate(fg, initial=0.0)) if stretches else ()
    k, now = 0, 0.0
    marks = sorted([(before, 0, s, ms) for before, s, ms in jobs]
                   + [(a, 1, b, 0.0) for a, b in stretches] + [(len(where), 2, None, 0.0)])
    for at, kind, s, ms in marks:
        for srv, f in zip(where[k:at], fg[k:at]):  # one request at a time up to the mark
            now = free[0]
            b = busy[srv]
            end = (b if b > now else now) + f
            busy[srv] = end
            replace(free, end)
        k = at
        if kind == 0:  # a job, queued when the request before it was issued
            start = queue[s] if queue[s] > now else now
            if busy[s] > start:
                start = busy[s]
            busy[s] = queue[s] = start + ms
        elif kind == 1 and busy[where[at]] >= max(free):  # a stretch [at, s) on a bottleneck
            srv, b, base = where[at], busy[where[at]], sums[at]
            now = b + sums[s - c] - base  # the last issue: when the c-th last request before ended
            free = [b + sums[j] - base for j in range(s - c + 1, s + 1)]  # increasing: a heap
            busy[srv] = free[-1]
            k = s
    return max(busy, default=0.0)


def paced(where: list, fg: list, jobs: list, n_servers: int, gap_ms: float) -> list:
    """The latency of each request when request k is offered at k x gap_ms: it waits for its
    server, then is served."""
    busy = [0.0] * n_servers
    queue = [0.0] * n_servers
    lat = []
    k = 0
    for before, s, ms in jobs + [(len(where), None, 0.0)]:
        for j in range(k, before):
            now = j * gap_ms
            srv = where[j]
            b = busy[srv]
            end = (b if b > now else now) + fg[j]
            busy[srv] = end
            lat.append(end - now)
        k = before
        if s is not None:
            now = (before - 1) * gap_ms if before else 0.0
            start = queue[s] if queue[s] > now else now
            if busy[s] > start:
                start = busy[s]
            busy[s] = queue[s] = start + ms
    return lat
