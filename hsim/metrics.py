"""Counters and metric records. Every layer counts what it does; nothing is sampled.

`IOCounters` is the read-path tally that HFile readers, the block cache and stores add to.
A caller passes one in; `explain` passes a fresh one to see what a single request did.

Every record's `to_dict()` is JSON-ready: row keys appear in the shell's printable form
(`Bytes.toStringBinary`, `\\xHH` escapes), so a saved snapshot reads like shell output.
`ClusterMetrics.from_dict` reverses it (`Bytes.toBytesBinary`), so
`ClusterMetrics.from_dict(json.loads(m.to_json())) == m`.
"""

from __future__ import annotations

import json

from hsim.bytes import to_bytes_binary, to_string_binary


class IOCounters:
    """What reads did: blocks fetched from "disk" or the cache, bloom checks, files skipped."""

    __slots__ = (
        "blocks_read",  # data/index/bloom blocks fetched from the file ("disk")
        "bytes_read",  # on-disk bytes of those blocks
        "cache_hits",
        "chunk_hits",  # of cache_hits: index and bloom chunks (a lookup, not a data block)
        "cache_misses",
        "bloom_checks",
        "bloom_negatives",
        "bloom_probes",  # keys looked up in bloom chunks (a ROWCOL check can make two)
        "files_skipped_time_range",
        "files_skipped_key_range",
        "files_skipped_bloom",
        "cells_scanned",  # cells the merge handed to the query matcher
    )

    def __init__(self):
        for name in self.__slots__:
            setattr(self, name, 0)

    def add(self, other: "IOCounters") -> None:
        """Add another tally into this one."""
        for name in self.__slots__:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def to_dict(self) -> dict:
        """Every counter by name."""
        return {name: getattr(self, name) for name in self.__slots__}

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v}" for k, v in self.to_dict().items() if v)
        return f"IOCounters({inner})"


# --- metric records returned by cluster.metrics() ----------------------------------------------
from dataclasses import asdict, dataclass, field  # noqa: E402

_KEY_FIELDS = ("start_key", "end_key")


def printable_keys(d: dict) -> dict:
    """A region record's dict with its row keys as `Bytes.toStringBinary` text (JSON-ready);
    `Bytes.toBytesBinary` (hsim.bytes.to_bytes_binary) reads them back."""
    return {k: to_string_binary(v) if k in _KEY_FIELDS else v for k, v in d.items()}


@dataclass
class StoreMetrics:
    """One column family's store in one region: memstore, files, flushes, compactions, reads."""

    family: str
    memstore_data_bytes: int
    memstore_heap_bytes: int
    store_files: int
    store_file_bytes: int
    index_bytes: int
    bloom_bytes: int
    flushes: int
    bytes_flushed: int
    cells_flushed: int
    minor_compactions: int
    major_compactions: int
    compaction_files_read: int
    compaction_bytes_read: int
    compaction_bytes_written: int
    cells_dropped_deleted: int
    cells_dropped_expired: int
    cells_dropped_versions: int
    markers_dropped: int
    expired_files_dropped: int
    blocks_read: int
    cache_hits: int
    cache_misses: int
    bloom_checks: int
    bloom_negatives: int

    def to_dict(self) -> dict:
        """Every field by name (JSON-ready)."""
        return asdict(self)


@dataclass
class RegionMetrics:
    """One region: its key range, hosting server, request counts and stores."""

    name: str
    table: str
    start_key: bytes
    end_key: bytes
    server: str
    read_requests: int
    write_requests: int
    memstore_heap_bytes: int
    store_files: int
    store_file_bytes: int
    stores: list = field(default_factory=list)

    def to_dict(self) -> dict:
        """JSON-ready: row keys as Bytes.toStringBinary text, stores as dicts."""
        return printable_keys(asdict(self))

    @classmethod
    def from_dict(cls, d: dict) -> "RegionMetrics":
        """The inverse of `to_dict` (keys read back with `Bytes.toBytesBinary`)."""
        return cls(**{**d, "start_key": to_bytes_binary(d["start_key"]),
                      "end_key": to_bytes_binary(d["end_key"]),
                      "stores": [StoreMetrics(**s) for s in d.get("stores", [])]})


@dataclass
class ServerMetrics:
    """One region server: totals over its regions plus its block cache."""

    name: str
    regions: int
    read_requests: int
    write_requests: int
    memstore_heap_bytes: int
    store_files: int
    store_file_bytes: int
    index_bytes: int
    bloom_bytes: int
    flushes: int
    bytes_flushed: int
    compactions: int
    compaction_bytes_read: int
    compaction_bytes_written: int
    block_cache_hits: int
    block_cache_misses: int
    block_cache_evictions: int
    block_cache_size: int
    blocks_read: int
    bytes_read: int
    bloom_checks: int
    bloom_negatives: int
    wal_files: int = 0  # live WAL files (not yet archived)
    wal_bytes: int = 0  # bytes in the live WAL files
    wal_bytes_written: int = 0  # every byte ever appended
    wal_syncs: int = 0
    wal_fsyncs: int = 0
    wal_rolls: int = 0
    wal_archived: int = 0  # files moved to oldWALs
    wal_forced_flushes: int = 0  # region flushes forced by hbase.regionserver.maxlogs
    read_rpcs: int = 0  # Get calls and scanner batches (read_requests counts rows)
    chunk_cache_hits: int = 0  # of block_cache_hits: index and bloom chunks

    def to_dict(self) -> dict:
        """Every field by name (JSON-ready)."""
        return asdict(self)


@dataclass
class ClusterMetrics:
    """What `cluster.metrics()` returns: every server and region, plus derived ratios."""

    servers: list
    regions: list

    @property
    def total_requests(self) -> int:
        """Read plus write requests over all servers."""
        return sum(s.read_requests + s.write_requests for s in self.servers)

    def write_share_per_server(self) -> dict:
        """Each server's share of all write requests (0..1), by server name."""
        total = sum(s.write_requests for s in self.servers) or 1
        return {s.name: s.write_requests / total for s in self.servers}

    def write_share_per_region(self) -> dict:
        """Each region's share of all write requests (0..1), by region name."""
        total = sum(r.write_requests for r in self.regions) or 1
        return {r.name: r.write_requests / total for r in self.regions}

    def hotspot_ratio(self, kind: str = "all") -> float:
        """Busiest server's requests / mean requests per server (1.0 = perfectly even)."""
        def load(s):
            if kind == "write":
                return s.write_requests
            if kind == "read":
                return s.read_requests
            return s.read_requests + s.write_requests
        loads = [load(s) for s in self.servers]
        mean = sum(loads) / len(loads) if loads else 0
        return max(loads) / mean if mean else 0.0

    @property
    def bytes_flushed(self) -> int:
        """Bytes flushed from memstores over all servers."""
        return sum(s.bytes_flushed for s in self.servers)

    @property
    def compaction_bytes_written(self) -> int:
        """Bytes compactions wrote over all servers."""
        return sum(s.compaction_bytes_written for s in self.servers)

    @property
    def write_amplification(self) -> float:
        """(bytes flushed + bytes rewritten by compactions) / bytes flushed."""
        f = self.bytes_flushed
        return (f + self.compaction_bytes_written) / f if f else 0.0

    @property
    def index_bytes(self) -> int:
        """Block index bytes of every store file."""
        return sum(s.index_bytes for s in self.servers)

    @property
    def bloom_bytes(self) -> int:
        """Bloom filter bytes of every store file."""
        return sum(s.bloom_bytes for s in self.servers)

    def to_dict(self) -> dict:
        """JSON-ready: servers, regions (keys as toStringBinary) and the derived ratios."""
        return {
            "servers": [s.to_dict() for s in self.servers],
            "regions": [r.to_dict() for r in self.regions],
            "derived": {
                "write_share_per_server": self.write_share_per_server(),
                "write_share_per_region": self.write_share_per_region(),
                "hotspot_ratio": self.hotspot_ratio(),
                "write_hotspot_ratio": self.hotspot_ratio("write"),
                "write_amplification": self.write_amplification,
                "index_bytes": self.index_bytes,
                "bloom_bytes": self.bloom_bytes,
            },
        }

    def to_json(self, indent: int | None = 2) -> str:
        """`to_dict()` as JSON text, keys in a stable order (for saving and diffing)."""
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, d: dict) -> "ClusterMetrics":
        """The inverse of `to_dict`; the "derived" section is recomputed, not read."""
        return cls(servers=[ServerMetrics(**s) for s in d["servers"]],
                   regions=[RegionMetrics.from_dict(r) for r in d["regions"]])
