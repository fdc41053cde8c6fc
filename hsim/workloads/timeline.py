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
"""

from __future__ import annotations

import heapq


def closed_loop(servers: list, fg: list, bg: list, n_servers: int, threads: int) -> tuple:
    """(elapsed ms, per-server busy ms) of the jobs run by `threads` client threads. Job i is on
    server `servers[i]` and costs fg[i] ms of serving (a request) or bg[i] ms of background
    work (a job with fg[i] == 0 is not a request and takes no thread)."""
    free = [0.0] * max(1, threads)  # when each client thread is next free (a heap)
    busy = [0.0] * n_servers  # each server's busy-until clock
    queue = [0.0] * n_servers  # each server's compaction queue: busy until
    used = [0.0] * n_servers
    now = 0.0
    pop, push = heapq.heappop, heapq.heappush
    for s, f, b in zip(servers, fg, bg):
        if f:
            now = pop(free)
            start = busy[s] if busy[s] > now else now
            end = start + f
            busy[s] = end
            push(free, end)
            used[s] += f
        if b:
            start = queue[s] if queue[s] > now else now
            if busy[s] > start:
                start = busy[s]
            busy[s] = queue[s] = start + b
            used[s] += b
    return max(busy, default=0.0), used


def paced(servers: list, fg: list, bg: list, n_servers: int, gap_ms: float) -> tuple:
    """(latencies of the requests, their servers, ms until the last job ends) with request k
    offered at k x gap_ms: each waits for its server, then is served."""
    busy = [0.0] * n_servers
    queue = [0.0] * n_servers
    lat, where = [], []
    now = -gap_ms
    for s, f, b in zip(servers, fg, bg):
        if f:
            now += gap_ms
            start = busy[s] if busy[s] > now else now
            busy[s] = start + f
            lat.append(busy[s] - now)
            where.append(s)
        if b:
            start = queue[s] if queue[s] > now else now
            if busy[s] > start:
                start = busy[s]
            busy[s] = queue[s] = start + b
    return lat, where, max(busy, default=0.0)
