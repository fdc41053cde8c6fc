"""The regions of a table: key ranges, servers, memstores, store files, requests
(what the HBase master UI's table page shows)."""

from __future__ import annotations

from dataclasses import dataclass, field

from hsim.errors import InvalidArgumentError, UnknownRegionError
from hsim.inspect.render import html_table, key_text, text_table
from hsim.metrics import describe

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from hsim.client.cluster import Cluster
    from hsim.regions.region import Region


@dataclass
class RegionRow:
    """One region in the `regions` view."""

    index: int
    name: str
    encoded_name: str
    start_key: bytes
    end_key: bytes
    server: str
    memstore_heap_bytes: int  # what the flush check compares with the flush size
    store_files: int
    store_file_bytes: int
    read_requests: int
    write_requests: int
    files_per_family: dict = field(default_factory=dict)


@dataclass
class RegionsView:
    """The `regions` view: a table's regions, their key ranges, servers, sizes and requests."""

    table: str
    regions: list

    # The metric columns, by metric name (their headings: hsim.metrics' labels).
    METRICS = ("memstore_heap_bytes", "store_files", "store_file_bytes", "read_requests",
               "write_requests")

    def _headers(self):
        return ("#", "REGION (encoded)", "START KEY", "END KEY", "SERVER") + tuple(
            describe(name).label.upper() for name in self.METRICS)

    def _rows(self):
        return [(r.index, r.encoded_name, key_text(r.start_key, "(first)"),
                 key_text(r.end_key, "(last)"), r.server)
                + tuple(getattr(r, name) for name in self.METRICS) for r in self.regions]

    def __str__(self) -> str:
        servers = len({r.server for r in self.regions})
        head = f"Table {self.table}: {len(self.regions)} region(s) on {servers} server(s)"
        return "\n".join([head] + text_table(self._headers(), self._rows()))

    __repr__ = __str__

    def _repr_html_(self) -> str:
        return html_table(self._headers(), self._rows(), f"Regions of {self.table}")


def regions(cluster: Cluster, table: str) -> RegionsView:
    """`regions 't'`: every region of the table, in key order."""
    rows = []
    for i, r in enumerate(cluster.admin.regions(table)):
        rows.append(RegionRow(
            index=i, name=r.name, encoded_name=r.encoded_name, start_key=r.start_key,
            end_key=r.end_key, server=r.server, memstore_heap_bytes=r.memstore_bytes,
            store_files=r.store_file_count, store_file_bytes=r.size,
            read_requests=r.read_requests, write_requests=r.write_requests,
            files_per_family={f: len(v) for f, v in r.store_files.items()}))
    return RegionsView(table, rows)


def find_region(cluster: Cluster, table: str, spec: int | str | bytes) -> Region:
    """A region of `table` by its index in key order, its name, its encoded name, or a unique
    prefix of the encoded name."""
    with cluster.lock:
        regs = list(cluster.master.table_state(table).locator.regions)
    if isinstance(spec, int) and not isinstance(spec, bool):
        if 0 <= spec < len(regs):
            return regs[spec]
        raise InvalidArgumentError(f"table {table} has {len(regs)} region(s); no region {spec}")
    spec = str(spec)
    for r in regs:
        if spec in (r.name, r.encoded_name):
            return r
    found = [r for r in regs if spec and r.encoded_name.startswith(spec)]
    if len(found) == 1:
        return found[0]
    raise UnknownRegionError(spec)
