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
        # data blocks fetched (cache or file), uncompressed without header: HBase's
        # BLOCK_BYTES_SCANNED (HFileScannerImpl.recordBlockSize)
        "block_bytes_scanned",
    )

    # Scan/Get.setCacheBlocks: False on the UncachedReads view a read with cache_blocks=False
    # counts through (data blocks it reads are not added to the cache)
    cache_blocks = True

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


class UncachedReads:
    """The IOCounters of a read with Scan/Get.setCacheBlocks(false): it counts into them, and
    tells the HFile readers not to add the data blocks it reads (blocks already cached still
    hit; index and bloom blocks are cached as always, HFileBlockIndex's shouldCache)."""

    __slots__ = ("_io",)
    cache_blocks = False

    def __init__(self, io: IOCounters):
        object.__setattr__(self, "_io", io)

    def __getattr__(self, name):
        return getattr(self._io, name)

    def __setattr__(self, name, value):
        setattr(self._io, name, value)


# --- metric records returned by cluster.metrics() ----------------------------------------------
from dataclasses import asdict, dataclass, field, fields, make_dataclass  # noqa: E402
from typing import NamedTuple  # noqa: E402

_KEY_FIELDS = ("start_key", "end_key")


class Metric(NamedTuple):
    """One metric's schema: its name in hsim, unit, the records that carry it, what it counts,
    and the name HBase's RegionServer exports it under in JMX ("" where HBase has none)."""

    name: str
    unit: str  # "count", "bytes", "files", "requests", "blocks", "cells", "ms"
    levels: str  # S: ServerMetrics, R: RegionMetrics, F: StoreMetrics (a column family)
    description: str
    hbase: str = ""  # the "Server" bean's attribute (MetricsRegionServerSource)

    @property
    def label(self) -> str:
        """What views call it: its name in words ("bytes_flushed": "bytes flushed")."""
        return self.name.replace("_", " ")

    def text(self, value: int) -> str:
        """`label value` for a view, with the unit unless it is a plain count or the label
        already says it ("flushes 3", "bytes flushed 4923", "block cache size 512 bytes")."""
        if self.unit == "count" or self.unit in self.label.split():
            return f"{self.label} {value}"
        return f"{self.label} {value} {self.unit}"


# The metrics schema: every metric of every record, defined once; the records below are built
# from it, in its order. Columns: name, unit, records (S server, R region, F store), the name
# HBase's RegionServer bean exports it under ("-": none), what it counts.
_SCHEMA = """
regions                  count    S   regionCount             regions open on the server
read_requests            requests SR  readRequestCount        rows returned (Gets and scanned rows)
filtered_read_requests   requests SR  filteredReadRequestCount rows a scan or Get read, not returned
write_requests           requests SR  writeRequestCount       mutations applied
check_mutate_passed      count    S   checkMutatePassedCount  checkAndMutate checks that passed
check_mutate_failed      count    S   checkMutateFailedCount  checkAndMutate checks that failed
memstore_data_bytes      bytes    F   memStoreSize            cell bytes in the MemStore
memstore_heap_bytes      bytes    SRF memStoreHeapSize        MemStore heap (cells + overhead)
store_files              files    SRF storeFileCount          HFiles in the stores
store_file_bytes         bytes    SRF storeFileSize           on-disk bytes of the HFiles
index_bytes              bytes    SF  storeFileIndexSize      block-index bytes of the HFiles
bloom_bytes              bytes    SF  staticBloomSize         bloom filter bytes of the HFiles
flushes                  count    SF  -                       MemStore flushes
bytes_flushed            bytes    SF  flushedOutputBytes      bytes written by flushes
cells_flushed            cells    F   flushedCellsCount       cells written by flushes
compactions              count    S   -                       minor and major compactions
minor_compactions        count    F   -                       minor compactions (some files)
major_compactions        count    F   -                       major compactions (all files)
compaction_files_read    files    F   -                       HFiles read by compactions
compaction_bytes_read    bytes    SF  compactedInputBytes     bytes read by compactions
compaction_bytes_written bytes    SF  compactedOutputBytes    bytes written by compactions
cells_dropped_deleted    cells    F   -                       cells dropped under a delete marker
cells_dropped_expired    cells    F   -                       cells compactions dropped past TTL
cells_dropped_versions   cells    F   -                       cells dropped beyond VERSIONS
markers_dropped          cells    F   -                       markers dropped by major compactions
expired_files_dropped    files    F   -                       whole HFiles dropped as expired
flush_failures           count    SF  -                       flushes whose file the disk refused
compaction_failures      count    SF  -                       compactions the disk refused
block_cache_hits         blocks   S   blockCacheHitCount      block cache hits
block_cache_misses       blocks   S   blockCacheMissCount     block cache misses
block_cache_evictions    blocks   S   blockCacheEvictionCount blocks evicted from the cache
block_cache_size         bytes    S   blockCacheSize          bytes held by the block cache
blocks_read              blocks   SF  -                       blocks read from the files ("disk")
bytes_read               bytes    S   -                       on-disk bytes of the blocks read
cache_hits               blocks   F   -                       cache hits of the store's reads
cache_misses             blocks   F   -                       cache misses of the store's reads
bloom_checks             count    SF  -                       bloom filter checks
bloom_negatives          count    SF  -                       bloom checks that ruled a file out
wal_files                files    S   hlogFileCount           live WAL files (not yet archived)
wal_bytes                bytes    S   hlogFileSize            bytes in the live WAL files
wal_bytes_written        bytes    S   -                       every byte ever appended to the WAL
wal_syncs                count    S   -                       WAL syncs
wal_fsyncs               count    S   -                       WAL syncs that also fsync (FSYNC_WAL)
wal_rolls                count    S   -                       WAL rolls
wal_archived             files    S   -                       WAL files moved to oldWALs
wal_forced_flushes       count    S   -                       flushes forced by maxlogs
wal_sync_failures        count    S   -                       WAL syncs the disk refused
read_rpcs                requests S   -                       Get calls and scanner batches
chunk_cache_hits         blocks   S   -                       cache hits on index/bloom chunks
updates_blocked_ms       ms       S   updatesBlockedTime      cluster ms updates waited on a flush
blocked_requests         requests S   blockedRequestCount     updates blocked at the MemStore limit
compaction_queue_length  count    S   compactionQueueLength   compactions waiting (not running)
small_compaction_queue_length count S smallCompactionQueueLength compactions waiting, small queue
large_compaction_queue_length count S largeCompactionQueueLength compactions waiting, large queue
"""
METRICS = {m.name: m for m in (
    Metric(name, unit, levels, description, "" if hbase == "-" else hbase)
    for name, unit, levels, hbase, description in (
        line.split(None, 4) for line in _SCHEMA.strip().splitlines()))}


def schema(record: type | object) -> tuple[Metric, ...]:
    """The metrics of a record class or instance (StoreMetrics, RegionMetrics, ServerMetrics),
    in field order."""
    return tuple(METRICS[f.name] for f in fields(record) if f.name in METRICS)


def describe(name: str) -> Metric:
    """The schema of a metric by name (KeyError for a name no record has)."""
    return METRICS[name]


def printable_keys(d: dict) -> dict:
    """A region record's dict with its row keys as `Bytes.toStringBinary` text (JSON-ready);
    `Bytes.toBytesBinary` (hsim.bytes.to_bytes_binary) reads them back."""
    return {k: to_string_binary(v) if k in _KEY_FIELDS else v for k, v in d.items()}


def _record(name: str, level: str, doc: str, identity: list, **methods):
    """A metrics record: its identity fields, then every metric of `level` in schema order,
    each an int defaulting to 0."""
    counts = [(m.name, int, field(default=0)) for m in METRICS.values() if level in m.levels]
    extra = [("stores", list, field(default_factory=list))] if level == "R" else []
    cls = make_dataclass(name, identity + counts + extra, namespace={"__doc__": doc, **methods})
    cls.__module__ = __name__
    return cls


def _to_dict(self) -> dict:
    """Every field by name (JSON-ready)."""
    return asdict(self)


def _region_to_dict(self) -> dict:
    """JSON-ready: row keys as Bytes.toStringBinary text, stores as dicts."""
    return printable_keys(asdict(self))


@classmethod
def _region_from_dict(cls, d: dict) -> "RegionMetrics":
    """The inverse of `to_dict` (keys read back with `Bytes.toBytesBinary`)."""
    return cls(**{**d, "start_key": to_bytes_binary(d["start_key"]),
                  "end_key": to_bytes_binary(d["end_key"]),
                  "stores": [StoreMetrics(**s) for s in d.get("stores", [])]})


StoreMetrics = _record(
    "StoreMetrics", "F", "One column family's store in one region: memstore, files, flushes, "
    "compactions, reads.", [("family", str)], to_dict=_to_dict)
RegionMetrics = _record(
    "RegionMetrics", "R", "One region: its key range, hosting server, request counts and stores.",
    [("name", str), ("table", str), ("start_key", bytes), ("end_key", bytes), ("server", str)],
    to_dict=_region_to_dict, from_dict=_region_from_dict)
ServerMetrics = _record(
    "ServerMetrics", "S", "One region server: totals over its regions plus its block cache and "
    "WAL.", [("name", str)], to_dict=_to_dict)


def write_amplification(flushed: int, rewritten: int) -> float:
    """Bytes written to store files (flushes and compactions) per byte flushed (0 if none)."""
    return (flushed + rewritten) / flushed if flushed else 0.0


class _ServerTotal:
    """A ClusterMetrics attribute: the server metric of the same name summed over all servers
    (documented from the schema)."""

    def __set_name__(self, owner, name: str) -> None:
        self.name = name
        self.__doc__ = f"{METRICS[name].description}, over all servers ({METRICS[name].unit})"

    def __get__(self, metrics, owner=None):
        if metrics is None:
            return self
        return sum(getattr(s, self.name) for s in metrics.servers)


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

    bytes_flushed = _ServerTotal()
    compaction_bytes_written = _ServerTotal()
    index_bytes = _ServerTotal()
    bloom_bytes = _ServerTotal()

    @property
    def write_amplification(self) -> float:
        """(bytes flushed + bytes rewritten by compactions) / bytes flushed."""
        return write_amplification(self.bytes_flushed, self.compaction_bytes_written)

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


def schema_markdown() -> str:
    """The metrics reference table of docs/metrics.md, generated from the records' schema."""
    out = []
    for record in (ServerMetrics, RegionMetrics, StoreMetrics):
        out += [f"### {record.__name__}", "", "| metric | unit | what it counts | HBase name |",
                "| --- | --- | --- | --- |"]
        out += [f"| `{m.name}` | {m.unit} | {m.description} | {f'`{m.hbase}`' if m.hbase else ''} |"
                for m in schema(record)]
        out.append("")
    return "\n".join(out)
