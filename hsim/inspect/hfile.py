"""One store file laid open: HBase's HFile pretty-printer (hsim.inspect.hfile_pretty_printer)
for the n-th file of a store, with where the file sits."""

from __future__ import annotations

from dataclasses import dataclass

from hsim.errors import InvalidArgumentError
from hsim.inspect.hfile_pretty_printer import HFileDescription, describe
from hsim.inspect.store import find_store

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from hsim.client.cluster import Cluster


@dataclass
class HFileView:
    """The `hfile` view: one HFile's trailer, file info, block index and bloom, read from its
    bytes."""

    table: str
    region: str
    family: str
    index: int  # the file's position in the store, oldest (lowest sequence id) first
    is_reference: bool
    description: HFileDescription

    def _head(self) -> str:
        ref = " (a reference to half of a parent's file)" if self.is_reference else ""
        return f"Store file #{self.index} of {self.table}/{self.region}/{self.family}{ref}"

    def __str__(self) -> str:
        return self._head() + "\n" + str(self.description)

    __repr__ = __str__

    def _repr_html_(self) -> str:
        import html

        return f"<h3>{html.escape(self._head())}</h3>" + self.description._repr_html_()


def hfile(cluster: Cluster, table: str, region: int | str | bytes, family: bytes | str,
          n: int = 0, cells: bool = False) -> HFileView:
    """`hfile 't', REGION, 'f', n`: the n-th store file (0 = oldest); with `cells` its cells."""
    with cluster.lock:
        r, s = find_store(cluster, table, region, family)
        if not isinstance(n, int) or not 0 <= n < len(s.files):
            raise InvalidArgumentError(
                f"store {s.name.decode('utf-8', 'replace')} of region {r.encoded_name} has "
                f"{len(s.files)} file(s); no file {n}")
        sf = s.files[n]
        return HFileView(table, r.encoded_name, s.name.decode("utf-8", "replace"), n,
                         sf.is_reference, describe(sf.reader, cells=cells))
