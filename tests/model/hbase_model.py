"""A reference model of HBase's read, flush, compaction and split semantics, written for the
model-based tests independently of hsim's engine (it imports nothing from hsim).

It keeps every put and delete marker with its timestamp and write order (sequence id), and it
keeps them where HBase would: in a region's MemStore or in its store files, because what a read
returns depends on that physical history (VERSIONS and TTL are enforced only by flushes and
compactions, markers leave only at major compactions, KEEP_DELETED_CELLS markers leave by the
files' earliest put timestamp). Flushes, compactions and reads all run through one small
StoreScanner loop over HBase's match codes, with matchers transcribed from HBase's classes
(regionserver/querymatcher: ScanQueryMatcher.preCheck, NormalUserScanQueryMatcher,
RawScanQueryMatcher, MinorCompactionScanQueryMatcher, MajorCompactionScanQueryMatcher,
DropDeletesCompactionScanQueryMatcher, ScanDeleteTracker, ScanWildcardColumnTracker,
ExplicitColumnTracker) and /work/shared/reference/hbase-semantics.md sections 1.3-1.6.

SEEK_NEXT_COL skips the rest of the column. HBase does the same for non-empty qualifiers; in the
empty-qualifier column, which also holds the family markers, how far it skips depends on block
boundaries (StoreScanner.trySkipToNextColumn against ScanQueryMatcher.getKeyForNextColumn,
HBASE-18471), so the model is only used on puts with non-empty qualifiers.
"""

from __future__ import annotations

from dataclasses import dataclass, field

LATEST = (1 << 63) - 1
PUT, DELETE, DELETE_FAMILY_VERSION, DELETE_COLUMN, DELETE_FAMILY = 4, 8, 10, 12, 14
INCLUDE, SKIP, SEEK_NEXT_COL, SEEK_NEXT_ROW = range(4)
INCLUDE_AND_SEEK_NEXT_COL, INCLUDE_AND_SEEK_NEXT_ROW = 4, 5
_OLDEST = -(1 << 63)


@dataclass(frozen=True)
class MCell:
    row: bytes
    family: bytes
    qualifier: bytes
    ts: int
    code: int
    value: bytes
    seq: int
    ttl: int | None = None  # cell TTL in ms

    @property
    def is_delete(self) -> bool:
        return self.code != PUT

    def key(self) -> tuple:
        """CellComparator order: row, family, qualifier asc; ts, type, sequence id desc."""
        return (self.row, self.family, self.qualifier, -self.ts, -self.code, -self.seq)

    def view(self) -> tuple:
        return (self.row, self.family, self.qualifier, self.ts, self.code, self.value)


@dataclass(frozen=True)
class Schema:
    versions: int = 1
    min_versions: int = 0
    ttl: int | None = None  # seconds
    kdc: bool | str = False  # KEEP_DELETED_CELLS: False, True, "TTL"

    def oldest_unexpired(self, now: int) -> int:
        return _OLDEST if self.ttl is None else now - self.ttl * 1000


# --- trackers ----------------------------------------------------------------------------------
class DeleteTracker:
    """ScanDeleteTracker."""

    def __init__(self):
        self.has_family_stamp = False
        self.family_stamp = 0
        self.family_versions = set()
        self.delete = None  # (qualifier, code, ts)

    def add(self, c: MCell) -> None:
        if self.has_family_stamp and c.ts <= self.family_stamp:
            return
        if c.code == DELETE_FAMILY:
            self.has_family_stamp, self.family_stamp = True, c.ts
            return
        if c.code == DELETE_FAMILY_VERSION:
            self.family_versions.add(c.ts)
            return
        if self.delete is not None and c.code < self.delete[1] and c.qualifier == self.delete[0]:
            return  # same column, less specific delete
        self.delete = (c.qualifier, c.code, c.ts)

    def is_empty(self) -> bool:
        return not self.has_family_stamp and not self.family_versions and self.delete is None

    def is_deleted(self, c: MCell) -> str | None:
        if self.has_family_stamp and c.ts <= self.family_stamp:
            return "FAMILY_DELETED"
        if c.ts in self.family_versions:
            return "FAMILY_VERSION_DELETED"
        if self.delete is not None:
            q, code, ts = self.delete
            if c.qualifier == q:
                if code == DELETE_COLUMN:
                    return "COLUMN_DELETED"
                if c.ts == ts:
                    return "VERSION_DELETED"
            self.delete = None
        return None


class WildcardTracker:
    """ScanWildcardColumnTracker: versions per column, puts counted, markers not."""

    def __init__(self, min_versions: int, max_versions: int, oldest: int):
        self.min_versions, self.max_versions, self.oldest = min_versions, max_versions, oldest
        self.column = None
        self.count = 0
        self.latest = None  # (ts, code) of the last included cell of the column

    def done(self) -> bool:
        return False

    def is_done(self, ts: int) -> bool:
        return self.min_versions <= 0 and ts < self.oldest

    def next_row_or_column(self, c: MCell) -> int:
        return SEEK_NEXT_COL

    def check_column(self, c: MCell) -> int:
        return INCLUDE

    def check_versions(self, c: MCell, ignore_count: bool = False) -> int:
        if c.qualifier != self.column:
            self.column, self.count, self.latest = c.qualifier, 0, None
        elif (c.ts, c.code) == self.latest:
            return SKIP
        if ignore_count:
            return INCLUDE
        if not c.is_delete:
            self.count += 1
        if self.count > self.max_versions:
            return SEEK_NEXT_COL
        if self.count <= self.min_versions or c.ts >= self.oldest:
            self.latest = (c.ts, c.code)
            return INCLUDE
        return SEEK_NEXT_COL


class ExplicitTracker:
    """ExplicitColumnTracker: the requested qualifiers, in order, each with its own count."""

    def __init__(self, columns, min_versions: int, max_versions: int, oldest: int):
        self.columns = sorted(columns)
        self.min_versions, self.max_versions, self.oldest = min_versions, max_versions, oldest
        self.index = 0
        self.counts = [0] * len(self.columns)
        self.latest_ts = None

    def current(self):
        return self.columns[self.index] if self.index < len(self.columns) else None

    def done(self) -> bool:
        return self.index >= len(self.columns)

    def is_done(self, ts: int) -> bool:
        return self.min_versions <= 0 and ts < self.oldest

    def check_column(self, c: MCell) -> int:
        while True:
            if self.done():
                return SEEK_NEXT_ROW
            want = self.columns[self.index]
            if c.qualifier == want:
                return INCLUDE
            self.latest_ts = None
            if c.qualifier < want:
                return SEEK_NEXT_COL
            self.index += 1

    def check_versions(self, c: MCell) -> int:
        if c.ts == self.latest_ts:
            return SKIP
        self.counts[self.index] += 1
        count = self.counts[self.index]
        if count >= self.max_versions or (count >= self.min_versions and c.ts < self.oldest):
            self.index += 1
            self.latest_ts = None
            return INCLUDE_AND_SEEK_NEXT_ROW if self.done() else INCLUDE_AND_SEEK_NEXT_COL
        self.latest_ts = c.ts
        return INCLUDE

    def next_row_or_column(self, c: MCell) -> int:
        # doneWithColumn
        while not self.done():
            want = self.columns[self.index]
            self.latest_ts = None
            if c.qualifier >= want:
                self.index += 1
                if c.qualifier > want:
                    continue
            break
        return SEEK_NEXT_ROW if self.done() else SEEK_NEXT_COL


# --- matchers ----------------------------------------------------------------------------------
def _pre_check(tracker, c: MCell, now: int):
    """ScanQueryMatcher.preCheck (within one row): expired by the family TTL (unless
    MIN_VERSIONS), or by the cell's own TTL."""
    if tracker.done():
        return SEEK_NEXT_ROW
    if tracker.is_done(c.ts):
        return tracker.next_row_or_column(c)
    if c.ttl is not None and c.ts + c.ttl < now:
        return SKIP
    return None


def _check_deleted(deletes: DeleteTracker, tracker, c: MCell):
    if deletes.is_empty():
        return None
    result = deletes.is_deleted(c)
    if result in ("FAMILY_DELETED", "COLUMN_DELETED"):
        return tracker.next_row_or_column(c)
    if result is not None:
        return SKIP
    return None


class UserMatcher:
    """NormalUserScanQueryMatcher (or RawScanQueryMatcher) for one store, one read."""

    def __init__(self, schema: Schema, now: int, columns, max_versions: int, time_range,
                 raw: bool):
        self.now, self.raw = now, raw
        self.tr_min, self.tr_max = time_range
        oldest = 0 if raw else schema.oldest_unexpired(now)
        versions = max_versions if raw else min(max_versions, schema.versions)
        if columns:
            self.tracker = ExplicitTracker(columns, schema.min_versions, versions, oldest)
        else:
            self.tracker = WildcardTracker(schema.min_versions, versions, oldest)
        self.deletes = DeleteTracker()
        self.see_past = schema.kdc is not False

    def match(self, c: MCell) -> int:
        tracker = self.tracker
        if self.raw:
            # RawScanQueryMatcher: preCheck (hsim, like HBase since HBASE-29896, does not apply
            # cell TTLs to raw scans), then matchColumn
            if tracker.is_done(c.ts):
                return tracker.next_row_or_column(c)
            return self._match_column(c)
        code = _pre_check(tracker, c, self.now)
        if code is not None:
            return code
        if c.is_delete:
            inside = self.tr_min <= c.ts < self.tr_max
            if inside if self.see_past else c.ts >= self.tr_min:
                self.deletes.add(c)
            return SKIP
        code = _check_deleted(self.deletes, tracker, c)
        if code is not None:
            return code
        return self._match_column(c)

    def _match_column(self, c: MCell) -> int:
        """UserScanQueryMatcher.matchColumn: time range, then column, then versions."""
        if c.ts >= self.tr_max:
            return SKIP
        if c.ts < self.tr_min:
            return self.tracker.next_row_or_column(c)
        code = self.tracker.check_column(c)
        if code != INCLUDE:
            return code
        return self.tracker.check_versions(c)


class CompactionMatcher:
    """MinorCompactionScanQueryMatcher (flush, minor compaction: retain deletes) or
    MajorCompactionScanQueryMatcher (a compaction of all files: drop deletes)."""

    def __init__(self, schema: Schema, now: int, drop_deletes: bool, earliest_put_ts: int,
                 time_to_purge_ms: int = 0):
        self.now = now
        self.oldest = schema.oldest_unexpired(now)
        self.kdc = schema.kdc
        self.drop = drop_deletes
        self.earliest = earliest_put_ts
        self.purge = time_to_purge_ms
        self.tracker = WildcardTracker(schema.min_versions, schema.versions, self.oldest)
        self.deletes = DeleteTracker()

    def match(self, c: MCell) -> int:
        code = _pre_check(self.tracker, c, self.now)
        if code is not None:
            return code
        if c.is_delete:
            # CompactionScanQueryMatcher.trackDelete
            if self.kdc is False or (self.kdc == "TTL" and c.ts < self.oldest):
                self.deletes.add(c)
            if not self.drop:
                return INCLUDE
            # DropDeletesCompactionScanQueryMatcher.tryDropDelete
            if self.purge > 0 and self.now - c.ts <= self.purge:
                return INCLUDE
            if self.kdc is True or (self.kdc == "TTL" and c.ts >= self.oldest):
                if c.ts < self.earliest:
                    return self.tracker.next_row_or_column(c)
            else:
                return SKIP
        else:
            code = _check_deleted(self.deletes, self.tracker, c)
            if code is not None:
                return code
        return self.tracker.check_versions(c)


def run_matcher(matcher, cells: list) -> list:
    """StoreScanner's loop over one row of one family: cells in CellComparator order."""
    out = []
    i, n = 0, len(cells)
    while i < n:
        c = cells[i]
        code = matcher.match(c)
        if code in (INCLUDE, INCLUDE_AND_SEEK_NEXT_COL, INCLUDE_AND_SEEK_NEXT_ROW):
            out.append(c)
        if code in (INCLUDE, SKIP):
            i += 1
        elif code in (SEEK_NEXT_COL, INCLUDE_AND_SEEK_NEXT_COL):
            q = c.qualifier
            while i < n and cells[i].qualifier == q:
                i += 1
        else:  # SEEK_NEXT_ROW, INCLUDE_AND_SEEK_NEXT_ROW
            break
    return out


def _by_row(cells: list) -> dict:
    rows: dict = {}
    for c in cells:
        rows.setdefault(c.row, []).append(c)
    return rows


# --- physical state ----------------------------------------------------------------------------
@dataclass
class MFile:
    """A store file: sorted cells and the metadata compactions read."""

    cells: list
    seq: int

    @property
    def earliest_put_ts(self) -> int:  # EARLIEST_PUT_TS, HConstants.LATEST_TIMESTAMP if none
        return min((c.ts for c in self.cells if not c.is_delete), default=LATEST)

    @property
    def max_ts(self) -> int:  # TimeRangeTracker's INITIAL_MAX_TIMESTAMP (-1) for an empty file
        return max((c.ts for c in self.cells), default=-1)


@dataclass
class MStore:
    memstore: list = field(default_factory=list)
    files: list = field(default_factory=list)  # oldest first


def rewrite(cells: list, schema: Schema, now: int, drop_deletes: bool,
            earliest_put_ts: int = _OLDEST, time_to_purge_ms: int = 0) -> list:
    """What a flush or compaction writes: each row through a fresh compaction matcher."""
    cells = sorted(cells, key=MCell.key)
    out = []
    for row_cells in _by_row(cells).values():
        m = CompactionMatcher(schema, now, drop_deletes, earliest_put_ts, time_to_purge_ms)
        out.extend(run_matcher(m, row_cells))
    return out


@dataclass
class MRegion:
    start: bytes
    end: bytes  # b"" = no end
    stores: dict
    seq: int = 0  # the region's last sequence id: each region has its own (daughters start
    # from their parent's, a merged region from the larger of its parents')

    def contains(self, row: bytes) -> bool:
        return row >= self.start and (not self.end or row < self.end)


class Model:
    """One table: regions of stores (each with its sequence ids), a schema per family."""

    def __init__(self, families: dict, time_to_purge_ms: int = 0):
        self.schema = dict(families)  # family -> Schema
        self.regions = [MRegion(b"", b"", {f: MStore() for f in families})]
        self.purge = time_to_purge_ms  # hbase.hstore.time.to.purge.deletes

    def region(self, row: bytes) -> MRegion:
        return next(r for r in self.regions if r.contains(row))

    # --- writes ---------------------------------------------------------------------------
    def mutate(self, row: bytes, entries: list, now: int) -> None:
        """One row mutation: (family, qualifier, ts|None, code, value, ttl). A Delete of one
        version without a timestamp takes the k-th newest visible version's timestamp
        (HRegion.prepareDeleteTimestamps), everything else without one takes now."""
        region = self.region(row)
        region.seq += 1
        counts: dict = {}
        cells = []
        for fam, q, ts, code, value, ttl in entries:
            if ts is None:
                ts = now
                if code == DELETE:
                    k = counts[(fam, q)] = counts.get((fam, q), 0) + 1
                    found = self.get(row, now, columns={fam: {q}}, max_versions=k)
                    if len(found) == k:
                        ts = found[k - 1].ts
            cells.append(MCell(row, fam, q, ts, code, value, region.seq, ttl))
        for c in cells:
            region.stores[c.family].memstore.append(c)

    def read_modify_write(self, row: bytes, fam: bytes, q: bytes, delta, ttl, now: int):
        """Increment (delta an int: 8-byte big-endian longs, a missing cell counting as 0) or
        Append (delta bytes), as HRegion.reckonDeltas does: read the current cell with a Get,
        write the new value at max(current ts + 1, now), or now. Returns the new value, or
        None when the current value is not a long (DoNotRetryIOException)."""
        found = self.get(row, now, columns={fam: {q}}, max_versions=1)
        old = found[0] if found else None
        if isinstance(delta, int):
            if old is not None and len(old.value) != 8:
                return None
            base = int.from_bytes(old.value, "big", signed=True) if old else 0
            value = ((base + delta + 2**63) % 2**64 - 2**63).to_bytes(8, "big", signed=True)
        else:
            value = (old.value if old else b"") + delta
        ts = now if old is None else max(old.ts + 1, now)
        self.mutate(row, [(fam, q, ts, PUT, value, ttl)], now)
        return value

    # --- flush, compaction, split ---------------------------------------------------------
    def flush_store(self, region: MRegion, family: bytes, now: int) -> None:
        store = region.stores[family]
        if not store.memstore:
            return
        cells = rewrite(store.memstore, self.schema[family], now, drop_deletes=False)
        store.memstore = []
        store.files.append(MFile(cells, region.seq))  # empty when every cell was dropped

    def flush_region(self, region: MRegion, now: int) -> None:
        for fam in region.stores:
            self.flush_store(region, fam, now)

    def bulk_load(self, cells: list, now: int) -> None:
        """HRegion.bulkLoadHFiles in each region the (row, family, qualifier, ts, value) puts
        reach: flush, a new sequence id every loaded cell takes, one file per family holding
        the cells as written (HFileOutputFormat2 runs no matcher)."""
        groups: dict = {}
        for row, fam, q, ts, value in cells:
            region = self.region(row)
            groups.setdefault(region.start, (region, {}))[1].setdefault(fam, []).append(
                (row, fam, q, ts, value))
        for region, families in groups.values():
            self.flush_region(region, now)
            region.seq += 1
            for fam, group in sorted(families.items()):
                loaded = [MCell(row, f, q, ts, PUT, value, region.seq) for row, f, q, ts, value
                          in group]
                region.stores[fam].files.append(MFile(sorted(loaded, key=MCell.key),
                                                      region.seq))
            region.seq += 1  # the BULK_LOAD marker's WAL entry takes the next one

    def compact(self, region: MRegion, family: bytes, lo: int, hi: int, now: int) -> None:
        """Compact files[lo:hi]; a compaction of every file drops deletes (Compactor:
        request.isAllFiles() -> COMPACT_DROP_DELETES)."""
        store = region.stores[family]
        chosen = store.files[lo:hi]
        drop = len(chosen) == len(store.files)
        earliest = min(f.earliest_put_ts for f in chosen) if drop else _OLDEST
        cells = rewrite([c for f in chosen for c in f.cells], self.schema[family], now, drop,
                        earliest, self.purge)
        store.files[lo:hi] = [MFile(cells, max(f.seq for f in chosen))]  # empty or not

    def drop_expired_files(self, region: MRegion, family: bytes, now: int) -> None:
        """HStore.removeUnneededFiles (hbase.store.delete.expired.storefile, on by default):
        files, but the newest, wholly past the family TTL; never an empty file (HBase reads its
        max timestamp as Long.MAX_VALUE)."""
        schema = self.schema[family]
        if schema.min_versions > 0 or schema.ttl is None:
            return
        store = region.stores[family]
        cutoff = now - schema.ttl * 1000
        keep = [f for f in store.files[:-1] if f.max_ts >= cutoff or not f.cells]
        store.files = keep + store.files[-1:]

    def major_compact(self, now: int) -> None:
        for region in self.regions:
            self.major_compact_region(region, now)

    def split(self, point: bytes, now: int) -> None:
        """Flush the region holding `point`, give each daughter its half of every file (with
        the parent file's metadata, as a Reference shares the HFile's file info), and compact
        each daughter store that got files: all of them, dropping deletes."""
        parent = self.region(point)
        self.flush_region(parent, now)
        halves = []
        for lo, hi in ((parent.start, point), (point, parent.end)):
            daughter = MRegion(lo, hi, {f: MStore() for f in parent.stores}, parent.seq)
            for fam, store in parent.stores.items():
                # HRegionFileSystem.splitStoreFile: no reference to a half without rows
                refs = [r for r in (_Reference(f, lo, hi) for f in store.files) if r.cells]
                daughter.stores[fam].files = refs
                if refs:
                    self.drop_expired_files(daughter, fam, now)
                    self.compact(daughter, fam, 0, len(daughter.stores[fam].files), now)
            halves.append(daughter)
        i = self.regions.index(parent)
        self.regions[i:i + 1] = halves

    def merge(self, first: MRegion, second: MRegion, now: int) -> MRegion:
        """MergeTableRegionsProcedure: both regions flush as they close; the merged region
        reads every file of both through references (whole files: a parent's file holds only
        its rows) until a compaction rewrites them. A store orders its files by sequence id
        (StoreFileComparators.SEQ_ID), so the merged store's newest file (the one
        removeUnneededFiles never drops) is the one with the highest, from either parent."""
        self.flush_region(first, now)
        self.flush_region(second, now)
        merged = MRegion(first.start, second.end, {
            f: MStore(files=sorted(first.stores[f].files + second.stores[f].files,
                                   key=lambda file: file.seq))
            for f in first.stores}, max(first.seq, second.seq))
        i = self.regions.index(first)
        self.regions[i:i + 2] = [merged]
        return merged

    def major_compact_region(self, region: MRegion, now: int) -> None:
        for fam, store in region.stores.items():
            self.drop_expired_files(region, fam, now)
            if store.files:
                self.compact(region, fam, 0, len(store.files), now)

    def alter(self, family: bytes, schema: Schema) -> None:
        self.schema[family] = schema

    # --- reads ----------------------------------------------------------------------------
    def _row_family_cells(self, row: bytes, family: bytes) -> list:
        store = self.region(row).stores[family]
        cells = [c for c in store.memstore if c.row == row]
        for f in store.files:
            cells.extend(c for c in f.cells if c.row == row)
        cells.sort(key=MCell.key)
        return cells

    def _families(self, columns):
        """family -> qualifiers (None: the whole family), in family order."""
        if columns is None:
            return {f: None for f in sorted(self.schema)}
        return {f: columns[f] for f in sorted(columns)}

    def read_row(self, row: bytes, now: int, columns=None, max_versions: int = 1,
                 time_range=(0, LATEST), raw: bool = False) -> list:
        out = []
        for fam, quals in self._families(columns).items():
            m = UserMatcher(self.schema[fam], now, quals, max_versions, time_range, raw)
            out.extend(run_matcher(m, self._row_family_cells(row, fam)))
        return out

    def get(self, row: bytes, now: int, **read) -> list:
        return self.read_row(row, now, **read)

    def rows(self) -> list:
        rows = set()
        for region in self.regions:
            for store in region.stores.values():
                rows.update(c.row for c in store.memstore)
                for f in store.files:
                    rows.update(c.row for c in f.cells)
        return sorted(rows)

    def scan(self, now: int, start=None, stop=None, reversed=False, limit=None, **read) -> list:
        """Rows as cell lists. Forward: [start, stop); reversed: start down to stop (excl.)."""
        rows = self.rows()
        if reversed:
            rows = [r for r in rows[::-1] if (start is None or r <= start)
                    and (stop is None or r > stop)]
        else:
            rows = [r for r in rows if (start is None or r >= start)
                    and (stop is None or r < stop)]
        out = []
        for row in rows:
            cells = self.read_row(row, now, **read)
            if cells:
                out.append(cells)
                if limit is not None and len(out) >= limit:
                    break
        return out

    def file_counts(self) -> list:
        return [[len(r.stores[f].files) for f in sorted(r.stores)] for r in self.regions]


class _Reference(MFile):
    """Half of a parent's file: its cells in [lo, hi), the parent's metadata."""

    def __init__(self, parent: MFile, lo: bytes, hi: bytes):
        cells = [c for c in parent.cells if c.row >= lo and (not hi or c.row < hi)]
        super().__init__(cells, parent.seq)
        self.parent = parent

    @property
    def earliest_put_ts(self) -> int:
        return self.parent.earliest_put_ts

    @property
    def max_ts(self) -> int:
        return self.parent.max_ts
