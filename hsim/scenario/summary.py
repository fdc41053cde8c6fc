"""The figures every variant reports about its cluster at the end of its run: per server and
per region requests and files (what the plots draw), the derived spreads, and what the cost
model makes of the whole run."""

from __future__ import annotations

import math

from hsim.bytes import to_string_binary
from hsim.workloads.costmodel import CostModel, ServerLoad


def short_server(name: str) -> str:
    """rs1.hsim,16020,0 -> rs1"""
    return name.split(".", 1)[0]


def cluster_summary(cluster, cost_model: CostModel, ops: int, requests: list | None = None) -> dict:
    """`requests`: the run's request log entries, to lay the whole run out on the timeline."""
    m = cluster.metrics()
    servers = [{
        "name": short_server(s.name),
        "regions": s.regions,
        "read_requests": s.read_requests,
        "write_requests": s.write_requests,
        "store_files": s.store_files,
        "store_file_bytes": s.store_file_bytes,
        "index_bytes": s.index_bytes,
        "bloom_bytes": s.bloom_bytes,
        "flushes": s.flushes,
        "compactions": s.compactions,
        "compaction_bytes_written": s.compaction_bytes_written,
        "block_cache_hits": s.block_cache_hits,
        "blocks_read": s.blocks_read,
    } for s in m.servers]
    regions = [{
        "table": r.table,
        "start_key": to_string_binary(r.start_key),
        "server": short_server(r.server),
        "read_requests": r.read_requests,
        "write_requests": r.write_requests,
        "store_files": r.store_files,
        "store_file_bytes": r.store_file_bytes,
    } for r in sorted(m.regions, key=lambda r: (r.table, r.start_key))]  # key order
    cost = cost_model.evaluate([ServerLoad.from_metrics(s) for s in m.servers], ops=ops or None,
                               requests=requests)
    return {
        "servers": servers,
        "regions": regions,
        "derived": {
            "write_hotspot_ratio": m.hotspot_ratio("write"),
            "read_hotspot_ratio": m.hotspot_ratio("read"),
            "write_amplification": m.write_amplification,
            "store_files": sum(s.store_files for s in m.servers),
            "store_file_bytes": sum(s.store_file_bytes for s in m.servers),
            "index_bytes": m.index_bytes,
            "bloom_bytes": m.bloom_bytes,
        },
        "cost": cost_summary(cost),
    }


def cost_summary(cost) -> dict:
    """The headline numbers of a CostReport (inf, a saturated server, becomes None in JSON)."""
    return {
        "makespan_ms": cost.makespan_ms,
        "throughput_ops_per_s": cost.throughput_ops_per_s,
        "hotspot_ratio": cost.hotspot_ratio,
        "mean_latency_ms": cost.mean_latency_ms,
        "p50_latency_ms": _finite(cost.latency_percentile(50)) if cost.ops else 0.0,
        "p99_latency_ms": _finite(cost.latency_percentile(99)) if cost.ops else 0.0,
    }


def _finite(x: float):
    return None if math.isinf(x) else x
