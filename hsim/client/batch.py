"""Batch and Mutation: mutations queued on the client and sent together (happybase's Batch;
in HBase, Table.batch of RowMutations), each row's mutations applied atomically."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from hsim.client.table import Table
    from hsim.durability import Durability


class Mutation:
    """One mutation in a batch: kind is put, delete_row, delete_family, delete_family_version,
    delete_columns or delete_column."""

    __slots__ = ("column", "data", "durability", "kind", "row", "timestamp", "ttl_ms")

    def __init__(self, kind: str, row: bytes | str, data: dict | None = None,
                 column: bytes | str | None = None, timestamp: int | None = None,
                 ttl_ms: int | None = None,
                 durability: Durability | str | None = None):
        self.kind, self.row, self.data, self.column = kind, row, data, column
        self.timestamp, self.ttl_ms, self.durability = timestamp, ttl_ms, durability


class Batch:
    """Collects mutations and applies them with `send()` (or on leaving a `with` block without
    an exception): each row's mutations atomically, as HBase's Table.batch of RowMutations."""

    def __init__(self, table: Table, durability: Durability | str | None = None):
        self.table = table
        self.durability = durability  # for every mutation that names none itself
        self.mutations: list[Mutation] = []

    def put(self, row: bytes | str, data: dict, timestamp: int | None = None,
            ttl_ms: int | None = None, durability: Durability | str | None = None) -> None:
        """Queue a put."""
        self.mutations.append(Mutation("put", row, data=data, timestamp=timestamp, ttl_ms=ttl_ms,
                                       durability=durability))

    def delete_row(self, row: bytes | str, timestamp: int | None = None,
                   durability: Durability | str | None = None) -> None:
        """Queue a delete of the whole row."""
        self.mutations.append(Mutation("delete_row", row, timestamp=timestamp,
                                       durability=durability))

    def delete_family(self, row: bytes | str, family: bytes | str, timestamp: int | None = None,
                      durability: Durability | str | None = None) -> None:
        """Queue a delete of one family in the row."""
        self.mutations.append(Mutation("delete_family", row, column=family, timestamp=timestamp,
                                       durability=durability))

    def delete_columns(self, row: bytes | str, column: bytes | str, timestamp: int | None = None,
                       durability: Durability | str | None = None) -> None:
        """Queue a delete of every version of a column (DeleteColumn)."""
        self.mutations.append(Mutation("delete_columns", row, column=column, timestamp=timestamp,
                                       durability=durability))

    def delete_column(self, row: bytes | str, column: bytes | str, timestamp: int | None = None,
                      durability: Durability | str | None = None) -> None:
        """Queue a delete of one version of a column (Delete)."""
        self.mutations.append(Mutation("delete_column", row, column=column, timestamp=timestamp,
                                       durability=durability))

    def send(self) -> None:
        """Send the queued mutations as one batch, and start a new one."""
        muts, self.mutations = self.mutations, []
        self.table.mutate_rows(muts, self.durability)

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.send()
        return False
