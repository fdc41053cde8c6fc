"""The write-ahead logs: each live server's WAL files (the current one last), their sizes and
the regions whose edits they hold, with the WAL's syncs, rolls and forced flushes."""

from __future__ import annotations

from dataclasses import dataclass, field

from hsim.inspect.render import html_table, text_table

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from hsim.client.cluster import Cluster


@dataclass
class WALFileRow:
    """One WAL file of one region server: its size, unsynced bytes and regions."""

    server: str
    name: str
    bytes: int
    unsynced_bytes: int
    regions: int  # regions with edits in the file
    current: bool


@dataclass
class WALView:
    """Every live server's WAL files, with each server's syncs, rolls, archived files and
    forced flushes (the shell's `wal` command)."""

    files: list
    totals: dict = field(default_factory=dict)  # server -> (syncs, rolls, archived, forced)

    _HEADERS = ("SERVER", "WAL FILE", "BYTES", "UNSYNCED", "REGIONS", "STATE")

    def _rows(self):
        return [(f.server, f.name, f.bytes, f.unsynced_bytes, f.regions,
                 "current" if f.current else "rolled") for f in self.files]

    def __str__(self) -> str:
        lines = text_table(self._HEADERS, self._rows())
        for server, (syncs, rolls, archived, forced) in self.totals.items():
            lines.append(f"{server}: {syncs} syncs, {rolls} rolls, {archived} archived, "
                         f"{forced} forced flushes")
        return "\n".join([f"WALs of {len(self.totals)} live server(s)"] + lines)

    __repr__ = __str__

    def _repr_html_(self) -> str:
        return html_table(self._HEADERS, self._rows(), "Write-ahead logs")


def wal(cluster: Cluster) -> WALView:
    """`wal`: every live region server's WAL files."""
    files, totals = [], {}
    with cluster.lock:
        for srv in cluster.region_servers:
            w = srv.wal
            for f in w.files:
                cur = f is w.current
                files.append(WALFileRow(srv.name, f.name, f.size,
                                        w.unsynced_bytes if cur else 0, len(f.regions), cur))
            totals[srv.name] = (w.syncs, w.rolls, len(w.archived), w.forced_flushes)
    return WALView(files, totals)
