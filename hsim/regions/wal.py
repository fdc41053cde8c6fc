"""WAL (AbstractFSWAL/FSHLog): one write-ahead log per region server, in real bytes.

An entry is one row mutation, appended before the mutation is acknowledged, in the spirit of
HBase's WALKey + WALEdit. hsim's own compact encoding (big-endian):

    entry  = length:u32  region:16 bytes (the encoded name, as raw md5)  seq:i64  write_time:i64
             cells:u32  cell*
    cell   = row_len:u16 row  family_len:u8 family  qualifier_len:u32 qualifier  timestamp:i64
             type:u8  value_len:u32 value  ttl:i64

Durability decides how far the bytes get: SYNC_WAL and FSYNC_WAL sync before the reply (a sync
covers every byte before it); ASYNC_WAL leaves the sync to the background syncer, which runs
every hbase.regionserver.optionallogflushinterval of cluster time; SKIP_WAL appends nothing.
Only synced bytes survive an abort. The log rolls at blocksize x multiplier or after the roll
period; a rolled file is archived once every region's edits in it are flushed (cleanOldLogs), and
past hbase.regionserver.maxlogs files the regions holding the oldest file are flushed.
"""

from __future__ import annotations

import struct

from hsim.cell import Cell
from hsim.durability import Durability
from hsim.errors import CorruptWALError

_HEAD = struct.Struct(">I16sqqI")
_SYNC_WAL, _FSYNC_WAL = int(Durability.SYNC_WAL), int(Durability.FSYNC_WAL)


class WALFile:
    """One WAL file: its bytes and, per region, the highest sequence id it holds."""

    __slots__ = ("buf", "created", "name", "regions")

    def __init__(self, name: str, created: int):
        self.name = name
        self.created = created
        self.buf = bytearray()
        self.regions: dict[str, int] = {}  # encoded region name -> highest seq id in this file

    @property
    def size(self) -> int:
        return len(self.buf)


_MID = struct.Struct(">qBI")
_I64, _U16, _U32 = struct.Struct(">q"), struct.Struct(">H"), struct.Struct(">I")


def _one_cell_head(lengths: tuple) -> struct.Struct:
    """The entry header and a cell's fields up to its value length, for these row, family and
    qualifier lengths, as one Struct: a one-cell entry (most puts) packs in one call."""
    if len(_ONE_CELL_HEADS) >= 1024:
        _ONE_CELL_HEADS.clear()
    st = _ONE_CELL_HEADS[lengths] = struct.Struct(">I16sqqIH%dsB%dsI%dsqBI" % lengths)
    return st


_ONE_CELL_HEADS: dict[tuple, struct.Struct] = {}


def encode_entry(region: str, seq: int, now: int, cells: list, raw: bytes | None = None) -> bytes:
    """One entry's bytes; `raw` is the region's encoded name as 16 bytes, when the caller has it."""
    buf = bytearray()
    write_entry(buf, raw or bytes.fromhex(region), seq, now, cells)
    return bytes(buf)


def write_entry(buf: bytearray, raw: bytes, seq: int, now: int, cells: list) -> None:
    """Append one entry's bytes to `buf` (the region's encoded name as 16 raw bytes): the WAL
    writes straight into its file's buffer, with no entry bytes object in between."""
    if len(cells) == 1:
        c = cells[0]
        row, fam, q, value = c[0], c[1], c[2], c[6]
        lengths = (len(row), len(fam), len(q))
        st = _ONE_CELL_HEADS.get(lengths) or _one_cell_head(lengths)
        buf += st.pack(st.size + len(value) + 4, raw, seq, now, 1, lengths[0], row, lengths[1],
                       fam, lengths[2], q, -c[3], -c[4], len(value))
        buf += value
        buf += _I64.pack(c[7])
        return
    parts = []
    for c in cells:
        row, fam, q, value = c[0], c[1], c[2], c[6]
        parts.append(b"".join((_U16.pack(len(row)), row, bytes((len(fam),)), fam,
                               _U32.pack(len(q)), q, _MID.pack(-c[3], -c[4], len(value)), value,
                               _I64.pack(c[7]))))
    body = b"".join(parts)
    buf += _HEAD.pack(_HEAD.size - 4 + len(body), raw, seq, now, len(cells))
    buf += body


def decode_entries(buf) -> list:
    """[(encoded region, seq, write time, [Cell])] from a WAL's bytes."""
    try:
        return _decode(buf)
    except (struct.error, IndexError) as e:
        raise CorruptWALError(f"WAL bytes end inside an entry: {e}") from None


def _decode(buf) -> list:
    out = []
    pos, end = 0, len(buf)
    unpack_from = struct.unpack_from
    while pos < end:
        length, region, seq, when, n = _HEAD.unpack_from(buf, pos)
        stop = pos + 4 + length
        pos += _HEAD.size
        cells = []
        for _ in range(n):
            (rl,) = unpack_from(">H", buf, pos)
            row = bytes(buf[pos + 2:pos + 2 + rl])
            pos += 2 + rl
            fl = buf[pos]
            fam = bytes(buf[pos + 1:pos + 1 + fl])
            pos += 1 + fl
            (ql,) = unpack_from(">I", buf, pos)
            q = bytes(buf[pos + 4:pos + 4 + ql])
            pos += 4 + ql
            ts, code, vl = unpack_from(">qBI", buf, pos)
            pos += 13
            value = bytes(buf[pos:pos + vl])
            pos += vl
            (ttl,) = unpack_from(">q", buf, pos)
            pos += 8
            cells.append(Cell.make(row, fam, q, ts, code, value, seq, ttl))
        if pos != stop:
            raise CorruptWALError(f"WAL entry at offset {stop - 4 - length} is malformed")
        out.append((region.hex(), seq, when, cells))
    return out


class WAL:
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
        self.on_roll = None  # set by the region server: asks which regions to flush
        self._raw: dict[str, bytes] = {}  # encoded region name -> its 16 raw bytes
        self._async_interval = config.wal_async_flush_interval_ms
        self._roll_size = config.wal_block_size * config.wal_roll_multiplier
        self._roll_period = config.wal_roll_period_ms
        self._new_file(now)

    def _new_file(self, now: int) -> None:
        self.current = WALFile(f"{self.prefix}.{now}.{len(self.files) + len(self.archived)}", now)
        self.files.append(self.current)
        self.synced = 0

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
        cur.regions[region] = seq
        self.bytes_written += len(buf) - start
        self.entries += 1
        if durability >= _SYNC_WAL:
            self.synced = len(buf)
            self.syncs += 1
            if durability == _FSYNC_WAL:
                self.fsyncs += 1
            self.last_sync = now
        if len(buf) >= self._roll_size or now - cur.created >= self._roll_period:
            self.roll(now)

    def sync(self, now: int, fsync: bool = False) -> None:
        if self.synced < self.current.size:
            self.synced = self.current.size
            self.syncs += 1
            if fsync:
                self.fsyncs += 1
        self.last_sync = now

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
        flushed, and flush the regions pinning the oldest file past maxlogs."""
        self.sync(now)
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
            for target, buf in ((synced, f.buf[:cut]), (unsynced, f.buf[cut:])):
                for region, _seq, _when, cells in decode_entries(buf):
                    target.setdefault(region, []).extend(cells)
        return synced, unsynced
