"""RequestLog: what each request and each background job cost its region server, in the order
they ran, for a timeline to be priced from (hsim.workloads.timeline).

Off unless asked for (`Cluster.record_requests()`): a long-lived cluster keeps no log. One log
serves the whole cluster, so the entries keep the order the requests were made in. An entry is
the server's name (in `servers`) and its counts in `FIELDS` order, the cost model's ServerLoad
fields (`counts`, a flat array of 64-bit ints: compact, and read by numpy without copying).

- A Get or a scanner batch (one read RPC): rows returned, rows examined (HBase's
  readRequestsCount plus filteredReadRequestsCount: the rows a filter dropped cost as much to
  read), cells the merge handed to the query matcher, data blocks from the cache, index and
  bloom chunks, blocks read from store files, and of those the ones a scanner read streaming.
- A mutation (one write RPC): the bytes its WAL append wrote, and the cluster time it was
  blocked waiting for a flush (compactions on cluster time: hsim.regions.compact_split).
- A background job (a flush, a compaction; a split is its parent's flush and its daughters'
  compactions): the bytes it wrote or read, no RPC.

Streaming (StoreScanner.trySwitchToStreamRead): a scan starts with positional reads (pread) and
switches a store's scanner to a streaming read once it has read
hbase.storescanner.pread.max.bytes (ScanInfo's default: 4 x the family's BLOCKSIZE); from then
on its blocks come as a sequential read, priced by bandwidth, not by a seek each. A Get always
preads. hsim counts what a scanner has read in data blocks of the family's size.
"""

from __future__ import annotations

from array import array
from weakref import WeakKeyDictionary

FIELDS = ("read_requests", "write_requests", "scan_rows", "cache_hits", "blocks_read_from_disk",
          "bytes_flushed", "bytes_compacted_read", "bytes_compacted_written", "wal_bytes",
          "chunk_hits", "rows_examined", "cells_scanned", "streamed_blocks", "streamed_bytes",
          "blocked_ms")


def _read_counts(region) -> list:
    """Per store: (cache hits, chunks among them, blocks read, bytes read, cells scanned)."""
    out = []
    for s in region.stores.values():
        io = s.counters.io
        out.append((io.cache_hits, io.chunk_hits, io.blocks_read, io.bytes_read,
                    io.cells_scanned))
    return out


def _examined(region) -> int:
    """Rows the region's reads examined: read_requests plus filtered_read_requests (HBase's
    filteredReadRequestCount), read as 0 where the region has no such count."""
    return region.read_requests + getattr(region, "filtered_read_requests", 0)


class LogSlice:
    """Entries of a RequestLog: `servers[i]` made the request or ran the job whose counts are
    `counts[i * len(FIELDS):(i + 1) * len(FIELDS)]`."""

    __slots__ = ("servers", "counts")

    def __init__(self, servers: list | None = None, counts: array | None = None):
        self.servers = [] if servers is None else servers
        self.counts = array("q") if counts is None else counts

    def __len__(self) -> int:
        return len(self.servers)

    def __add__(self, other: "LogSlice") -> "LogSlice":
        return LogSlice(self.servers + other.servers, self.counts + other.counts)

    def __iter__(self):
        """Each entry as a tuple: the server's name, then its counts."""
        w = len(FIELDS)
        for i, name in enumerate(self.servers):
            yield (name, *self.counts[i * w:(i + 1) * w])


class RequestLog(LogSlice):
    """The cluster's requests and background jobs, in order (see the module docstring)."""

    __slots__ = ("_scanned",)

    def __init__(self):
        super().__init__()
        self._scanned = WeakKeyDictionary()  # RegionScanner -> {family: data blocks read}

    def mark(self) -> int:
        """A position to take the entries from later (`since(mark)`)."""
        return len(self.servers)

    def since(self, mark: int = 0) -> LogSlice:
        """The entries from `mark` on (a copy)."""
        return LogSlice(self.servers[mark:], self.counts[mark * len(FIELDS):])

    def before_read(self, region) -> tuple:
        """The counts a read is measured against (call before it runs)."""
        return _read_counts(region), _examined(region)

    def read(self, server: str, region, before: tuple, rows: int, scanner=None) -> None:
        """One read RPC on `region` (a Get, or a batch of `scanner`) that returned `rows` rows."""
        then, examined = before
        hits = chunks = disk = cells = streamed = streamed_bytes = 0
        state = None if scanner is None else self._scanned.setdefault(scanner, {})
        for (fam, store), (h0, k0, d0, b0, c0) in zip(region.stores.items(), then):
            io = store.counters.io
            h, k, d = io.cache_hits - h0, io.chunk_hits - k0, io.blocks_read - d0
            hits += h - k
            chunks += k
            disk += d
            cells += io.cells_scanned - c0
            if state is not None and d:
                s, b = self._streamed(state, fam, store, h - k + d, d, io.bytes_read - b0,
                                      region.config)
                streamed += s
                streamed_bytes += b
        examined = _examined(region) - examined
        self.servers.append(server)
        self.counts.extend((1, 0, rows, hits, disk, 0, 0, 0, 0, chunks,
                            examined if examined > rows else rows, cells, streamed,
                            streamed_bytes, 0))

    @staticmethod
    def _streamed(state: dict, fam, store, touched: int, disk: int, disk_bytes: int,
                  config) -> tuple:
        """(blocks, bytes) of this batch's disk reads that came after the store scanner's switch
        to streaming: the batch's last `touched` blocks past the pread limit, disk reads
        counted among them first."""
        block = store.family.block_size
        limit = config.storescanner_pread_max_bytes
        limit = 4 * block if limit is None else limit
        prior = state.get(fam, 0)
        state[fam] = prior + touched
        pread_blocks = -(-limit // block) if block else 0
        after = max(0, prior + touched - max(prior, pread_blocks))
        blocks = min(disk, after)
        return blocks, disk_bytes * blocks // disk

    def read_write(self, server: str, region, before: tuple, wal_bytes: int,
                   blocked_ms: int = 0) -> None:
        """One read-modify-write RPC (Increment, Append, checkAndMutate): a mutation whose
        region read the row first; priced as one write request with the read's blocks, cells
        and rows examined, the WAL bytes of its append and the time it waited for a flush."""
        self.read(server, region, before, 0)
        n = len(FIELDS)
        entry = self.counts[-n:]
        entry[0], entry[1], entry[FIELDS.index("wal_bytes")] = 0, 1, wal_bytes
        entry[FIELDS.index("blocked_ms")] = blocked_ms
        self.counts[-n:] = entry

    def write(self, server: str, wal_bytes: int, blocked_ms: int = 0) -> None:
        """One mutation RPC; `wal_bytes`: what its WAL append wrote; `blocked_ms`: the cluster
        time it waited for a flush first (RegionServer.wait_for_flush)."""
        self.servers.append(server)
        self.counts.extend((0, 1, 0, 0, 0, 0, 0, 0, wal_bytes, 0, 0, 0, 0, 0, blocked_ms))

    def background(self, server: str, flushed: int = 0, compacted_read: int = 0,
                   compacted_written: int = 0) -> None:
        """A flush or a compaction the server ran."""
        if flushed or compacted_read or compacted_written:
            self.servers.append(server)
            self.counts.extend((0, 0, 0, 0, 0, flushed, compacted_read, compacted_written, 0,
                                0, 0, 0, 0, 0, 0))
