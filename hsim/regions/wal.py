"""WAL (AbstractFSWAL/FSHLog): one write-ahead log per region server, in real bytes.

An entry is one row mutation, appended before the mutation is acknowledged, in the spirit of
HBase's WALKey + WALEdit; its bytes (length, checksum, cells) are wal_codec's.

Durability decides how far the bytes get: SYNC_WAL and FSYNC_WAL sync before the reply (a sync
covers every byte before it); ASYNC_WAL leaves the sync to the background syncer, which runs
every hbase.regionserver.optionallogflushinterval of cluster time; SKIP_WAL appends nothing.
Only synced bytes survive an abort. With a data directory a sync writes the bytes through
`sink` (hsim.storage) before it counts: a sync the disk refuses fails the mutation it was for
(DamagedWALError), which is then neither applied nor acknowledged. The log rolls at blocksize
x multiplier or after the roll period; a rolled file is archived once every region's edits in
it are flushed (cleanOldLogs), and past hbase.regionserver.maxlogs files the regions holding
the oldest file are flushed.
"""

from __future__ import annotations

from hsim.durability import Durability
from hsim.errors import DamagedWALError
from hsim.regions.wal_codec import MAGIC, decode_entries, write_entry

_SYNC_WAL, _FSYNC_WAL = int(Durability.SYNC_WAL), int(Durability.FSYNC_WAL)


class WALFile:
    """One WAL file: its bytes and, per region, the highest sequence id it holds."""

    __slots__ = ("buf", "created", "name", "regions")

    def __init__(self, name: str, created: int):
        self.name = name
        self.created = created
        self.buf = bytearray(MAGIC)
        self.regions: dict[str, int] = {}  # encoded region name -> highest seq id in this file

    @property
    def size(self) -> int:
        return len(self.buf)


class WAL:
    """One region server's write-ahead log (FSHLog): owns its WAL files (bytes and the highest
    sequence id per region in each), what is synced, and the roll and archive counters. The
    server's regions append; the server rolls it and archives flushed files."""

    def __init__(self, server_name: str, config, now: int):
        self.prefix = server_name.replace(",", "%2C")  # as HBase names WAL files
        self.config = config
        self.files: list[WALFile] = []
        self.archived: list[str] = []  # names of files moved to oldWALs
        self.synced = 0  # bytes of the current file that a sync has covered
        self.last_sync = now
        self.bytes_written = 0
        self.entries = 0
        self.syncs = 0
        self.fsyncs = 0
        self.rolls = 0
        self.forced_flushes = 0
        self.sync_failures = 0  # syncs the disk refused (hsim.storage)
        self.on_roll = None  # set by the region server: asks which regions to flush
        # set with a data directory: sink(file, start, fsync) writes file.buf[start:] at offset
        # `start` of that file on disk (and fsyncs), or raises OSError
        self.sink = None
        self._raw: dict[str, bytes] = {}  # encoded region name -> its 16 raw bytes
        self._async_interval = config.wal_async_flush_interval_ms
        self._roll_size = config.wal_block_size * config.wal_roll_multiplier
        self._roll_period = config.wal_roll_period_ms
        self._new_file(now)

    def _new_file(self, now: int) -> None:
        self.current = WALFile(f"{self.prefix}.{now}.{len(self.files) + len(self.archived)}", now)
        self.files.append(self.current)
        self.synced = len(MAGIC)  # the header needs no sync of its own: it goes with the first

    # --- appends -------------------------------------------------------------------------------
    def append(self, region: str, seq: int, now: int, cells: list, durability: int) -> None:
        """Append one row mutation's entry (before its cells reach the MemStore), synced
        before returning for SYNC_WAL and FSYNC_WAL. Kept lean: it is on every put."""
        if now - self.last_sync >= self._async_interval:
            self.sync(now)  # the ASYNC_WAL syncer ran before this edit arrived
        raw = self._raw.get(region)
        if raw is None:
            raw = self._raw[region] = bytes.fromhex(region)
        cur = self.current
        buf = cur.buf
        start = len(buf)
        write_entry(buf, raw, seq, now, cells)
        if durability >= _SYNC_WAL:
            if self.sink is not None:
                try:
                    self.sink(cur, self.synced, durability == _FSYNC_WAL)
                except OSError as e:
                    del buf[start:]  # as if never appended: the mutation is not applied
                    self.sync_failures += 1
                    raise DamagedWALError(f"append to WAL {cur.name} failed, the mutation is "
                                          f"not applied: {e}") from None
            self.synced = len(buf)
            self.syncs += 1
            if durability == _FSYNC_WAL:
                self.fsyncs += 1
            self.last_sync = now
        cur.regions[region] = seq
        self.bytes_written += len(buf) - start
        self.entries += 1
        if len(buf) >= self._roll_size or now - cur.created >= self._roll_period:
            self.roll(now)

    def sync(self, now: int, fsync: bool = False) -> bool:
        """Sync the current file (the background syncer, a roll, a close). False when the disk
        refused: the bytes stay unsynced and the next sync tries again (an ASYNC_WAL edit is
        only durable once a sync reaches it)."""
        if self.synced < self.current.size:
            if self.sink is not None:
                try:
                    self.sink(self.current, self.synced, fsync)
                except OSError:
                    self.sync_failures += 1
                    return False
            self.synced = self.current.size
            self.syncs += 1
            if fsync:
                self.fsyncs += 1
        self.last_sync = now
        return True

    def sync_if_due(self, now: int) -> None:
        """The ASYNC_WAL syncer, which runs every optionallogflushinterval of cluster time:
        by `now` it has synced whatever was appended an interval after the last sync."""
        if now - self.last_sync >= self._async_interval:
            self.sync(now)

    @property
    def unsynced_bytes(self) -> int:
        return self.current.size - self.synced

    @property
    def size(self) -> int:
        return sum(f.size for f in self.files)

    # --- rolling and archiving ----------------------------------------------------------------
    def roll(self, now: int) -> None:
        """Close the current file (closing syncs it) and start a new one; then archive what is
        flushed, and flush the regions pinning the oldest file past maxlogs. A file the disk
        will not sync is not closed: the roll waits for the next append."""
        if not self.sync(now):
            return
        self.rolls += 1
        self._new_file(now)
        if self.on_roll is not None:
            self.on_roll(self, now)

    def archivable(self, f: WALFile, lowest_unflushed) -> bool:
        return all(seq < lowest_unflushed(r) for r, seq in f.regions.items())

    def clean_old_logs(self, lowest_unflushed) -> None:
        """Archive every closed file all of whose edits are flushed (AbstractFSWAL.cleanOldLogs)."""
        keep, known = [], {}

        def lowest(region: str) -> int:  # once per region: it reads the region's MemStores
            low = known.get(region)
            if low is None:
                low = known[region] = lowest_unflushed(region)
            return low

        for f in self.files[:-1]:
            if self.archivable(f, lowest):
                self.archived.append(f.name)
            else:
                keep.append(f)
        self.files = keep + [self.current]

    # --- splitting (WALSplitter) ---------------------------------------------------------------
    def split(self) -> tuple[dict, dict]:
        """The edits a crash leaves per region: (synced {region: [Cell]}, unsynced {region:
        [Cell]}); only the synced ones are recoverable."""
        synced: dict[str, list] = {}
        unsynced: dict[str, list] = {}
        for f in self.files:
            cut = self.synced if f is self.current else f.size
            for target, a, b in ((synced, len(MAGIC), cut), (unsynced, max(cut, len(MAGIC)),
                                                                f.size)):
                for region, _seq, _when, cells in decode_entries(f.buf, a, b):
                    target.setdefault(region, []).extend(cells)
        return synced, unsynced
