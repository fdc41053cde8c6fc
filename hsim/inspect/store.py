"""One store (a column family of one region): its MemStore's cells and its store files with
sizes, time ranges and sequence ids, the things a flush and a compaction change."""

from __future__ import annotations

from dataclasses import dataclass, field

from hsim.bytes import to_string_binary
from hsim.errors import NoSuchColumnFamilyError
from hsim.inspect.hfile_pretty_printer import cell_string
from hsim.inspect.regions import find_region
from hsim.inspect.render import html_lines, html_table, key_text, text_table, time_text
from hsim.metrics import describe

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from hsim.client.cluster import Cluster

MAX_CELLS_SHOWN = 50
# The store's counters the view shows, by metric name (labels and units: hsim.metrics).
COUNTERS = ("flushes", "minor_compactions", "major_compactions", "bytes_flushed",
            "compaction_bytes_written")


@dataclass
class StoreFileRow:
    """One store file in the `store` view: size, cells, key and time ranges, bloom."""

    index: int
    name: str
    size: int
    entries: int
    min_timestamp: int
    max_timestamp: int
    max_seq_id: int
    first_row: bytes | None
    last_row: bytes | None
    bloom_type: str
    index_bytes: int
    bloom_bytes: int
    data_blocks: int
    is_major: bool
    is_reference: bool


@dataclass
class StoreView:
    """The `store` view: one store's memstore and files, oldest first."""

    table: str
    region: str
    family: str
    options: dict
    memstore_cells: list
    memstore_data_bytes: int
    memstore_heap_bytes: int
    files: list
    counters: dict = field(default_factory=dict)  # metric name -> value
    timestamps: str = "iso"

    _HEADERS = ("#", "FILE", "SIZE", "ENTRIES", "TIME RANGE", "MAX SEQ ID", "FIRST ROW",
                "LAST ROW", "BLOOM", "INDEX B", "BLOOM B", "BLOCKS", "FLAGS")

    def _rows(self):
        mode = self.timestamps
        return [(f.index, f.name, f.size, f.entries,
                 f"{time_text(f.min_timestamp, mode)}..{time_text(f.max_timestamp, mode)}",
                 f.max_seq_id, key_text(f.first_row or b"", "-"),
                 key_text(f.last_row or b"", "-"), f.bloom_type, f.index_bytes, f.bloom_bytes,
                 f.data_blocks, ",".join(x for x, on in (("major", f.is_major),
                                                          ("reference", f.is_reference)) if on)
                 or "-") for f in self.files]

    def _memstore_lines(self) -> list[str]:
        cells = self.memstore_cells
        head = f"MemStore: {len(cells)} cell(s), {self.memstore_data_bytes} bytes " \
               f"(heap {self.memstore_heap_bytes})"
        if cells:
            lo = min(c.timestamp for c in cells)
            hi = max(c.timestamp for c in cells)
            head += f", timestamps {time_text(lo, self.timestamps)}.." \
                    f"{time_text(hi, self.timestamps)}"
        lines = [head]
        for c in cells[:MAX_CELLS_SHOWN]:
            lines.append(f"  {cell_string(c)}  V: {to_string_binary(c.value)}")
        if len(cells) > MAX_CELLS_SHOWN:
            lines.append(f"  ... and {len(cells) - MAX_CELLS_SHOWN} more")
        return lines

    def _lines(self) -> list[str]:
        opts = ", ".join(f"{k} {v}" for k, v in self.options.items())
        lines = [f"Store {self.table}/{self.region}/{self.family} ({opts})"]
        lines += self._memstore_lines()
        total = sum(f.size for f in self.files)
        lines.append(f"Store files: {len(self.files)} ({total} bytes)")
        if self.files:
            lines += text_table(self._HEADERS, self._rows())
        return lines + self._counter_lines()

    def _counter_lines(self) -> list[str]:
        if not self.counters:
            return []
        return [", ".join(describe(name).text(v) for name, v in self.counters.items())]

    def __str__(self) -> str:
        return "\n".join(self._lines())

    __repr__ = __str__

    def _repr_html_(self) -> str:
        opts = ", ".join(f"{k} {v}" for k, v in self.options.items())
        return (html_lines([f"Store {self.table}/{self.region}/{self.family} ({opts})"]
                           + self._memstore_lines())
                + html_table(self._HEADERS, self._rows(), "Store files")
                + (html_lines(counters) if (counters := self._counter_lines()) else ""))


def family_options(cf) -> dict:
    kdc = cf.keep_deleted_cells.value
    options = {"VERSIONS": cf.max_versions, "MIN_VERSIONS": cf.min_versions,
               "TTL": "FOREVER" if cf.ttl is None else cf.ttl, "KEEP_DELETED_CELLS": kdc,
               "BLOOMFILTER": cf.bloom_filter, "BLOCKSIZE": cf.block_size,
               "COMPRESSION": cf.compression}
    if cf.data_block_encoding != "NONE":  # shown when set, so NONE stores read as before
        options["DATA_BLOCK_ENCODING"] = cf.data_block_encoding
    return options


def find_store(cluster, table: str, region, family):
    r = find_region(cluster, table, region)
    fam = family if isinstance(family, bytes) else str(family).encode("utf-8")
    s = r.stores.get(fam)
    if s is None:
        raise NoSuchColumnFamilyError(
            f"Column family {fam.decode('utf-8', 'replace')} does not exist in region "
            f"{r.name} in table {table}")
    return r, s


def store(cluster: Cluster, table: str, region: int | str | bytes, family: bytes | str,
          timestamps: str = "iso") -> StoreView:
    """`store 't', REGION, 'f'`: REGION is an index (0 = first region), a region name, an
    encoded name or a unique prefix of one."""
    with cluster.lock:
        r, s = find_store(cluster, table, region, family)
        files = []
        for i, sf in enumerate(s.files):
            rd = sf.reader
            files.append(StoreFileRow(
                index=i, name=sf.name, size=sf.size, entries=sf.entry_count,
                min_timestamp=sf.min_timestamp, max_timestamp=sf.max_timestamp,
                max_seq_id=sf.max_seq_id, first_row=sf.first_row, last_row=sf.last_row,
                bloom_type=rd.bloom_type, index_bytes=rd.index_size, bloom_bytes=rd.bloom_size,
                data_blocks=rd.data_block_count, is_major=sf.is_major,
                is_reference=sf.is_reference))
        counters = {name: getattr(s.counters, name) for name in COUNTERS}
        return StoreView(table=table, region=r.encoded_name,
                         family=s.name.decode("utf-8", "replace"),
                         options=family_options(s.family), memstore_cells=s.memstore.all_cells(),
                         memstore_data_bytes=s.memstore.data_size
                         + s.memstore.snapshot_data_size,
                         memstore_heap_bytes=s.memstore.heap_size
                         + s.memstore.snapshot_heap_size,
                         files=files, counters=counters, timestamps=timestamps)
