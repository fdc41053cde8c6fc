"""Table's read-modify-write requests (HBase's Table.increment, append, checkAndMutate): each
one Mutate request that the region answers under its row lock, so the client never reads and
writes in two round trips. A mixin of Table, kept apart so table.py holds the put, get, delete
and scan paths alone."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hsim.bytes import to_string_binary
from hsim.cell import NO_TTL, from_fields
from hsim.client import entries as en
from hsim.client import validation as v
from hsim.client.batch import Mutation
from hsim.client.validation import b
from hsim.durability import parse as parse_durability
from hsim.errors import InvalidArgumentError, WrongRowError

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from collections.abc import Iterable
    from hsim.cell import Cell
    from hsim.durability import Durability

_ttl, _ts = v.ttl_ms, v.timestamp


class AtomicOperations:
    """Increment, append and check-and-mutate on a Table (which gives `cluster`, `_column`,
    `_families`, `_region`, `_put_entries` and `_entries_of`)."""

    def increment(self, row: bytes | str, column: bytes | str, amount: int = 1,
                  ttl_ms: int | None = None,
                  durability: Durability | str | None = None) -> int:
        """Add `amount` to an 8-byte big-endian counter (missing counts as 0); returns the new
        value. The new cell's timestamp is max(now, old ts + 1) (HRegion.reckonDeltas)."""
        self._column(column)  # a dict or list as the column: its own error, not "unhashable"
        return self.increment_columns(row, {column: amount}, ttl_ms=ttl_ms,
                                      durability=durability)[b(column)]

    def increment_columns(self, row: bytes | str, amounts: dict, ttl_ms: int | None = None,
                          durability: Durability | str | None = None) -> dict:
        """Add to several 8-byte counters of one row atomically; returns the new values. One
        Mutate request: the region reads the counters and writes the sums under the row lock
        (hsim.regions.atomic.increment)."""
        values, _cells = self._increment(row, amounts, ttl_ms, durability)
        return {b(col): value for col, value in zip(amounts, values)}

    def increment_cells(self, row: bytes | str, amounts: dict, ttl_ms: int | None = None,
                        durability: Durability | str | None = None) -> list[Cell]:
        """`increment_columns`, returning what HBase's Table.increment returns: the Result of
        the cells it wrote (the new counters with their timestamps), in column order."""
        _values, cells = self._increment(row, amounts, ttl_ms, durability)
        return sorted(map(from_fields, cells), key=lambda c: (c.family, c.qualifier))

    def _increment(self, row, amounts, ttl_ms, durability) -> tuple[list, list]:
        """One Increment request: (the new values, the cells written)."""
        if not v.mapping(amounts, "amounts"):
            raise InvalidArgumentError("No columns to increment")
        row, ttl = v.row(row), _ttl(ttl_ms)
        cols = [(*self._column(col), v.increment_amount(amount))
                for col, amount in amounts.items()]
        with self.cluster.lock:
            return self._send("increment", row, durability, cols, ttl)

    def append(self, row: bytes | str, data: dict, ttl_ms: int | None = None,
               durability: Durability | str | None = None) -> dict:
        """Append bytes to cells (a missing cell becomes the appended bytes); returns new values.
        One Mutate request, read and written inside the region."""
        cells = self.append_cells(row, data, ttl_ms=ttl_ms, durability=durability)
        written = {(c.family, c.qualifier): c.value for c in cells}
        return {b(col): written[self._column(col)] for col in data}

    def append_cells(self, row: bytes | str, data: dict, ttl_ms: int | None = None,
                     durability: Durability | str | None = None) -> list[Cell]:
        """`append`, returning what HBase's Table.append returns: the Result of the cells it
        wrote (with their timestamps), in column order."""
        if not v.mapping(data, "data"):
            raise InvalidArgumentError("No columns to append")
        row, ttl, max_size = v.row(row), _ttl(ttl_ms), self.cluster.config.keyvalue_max_size
        deltas = [(*self._column(col), v.to_bytes(d, "value")) for col, d in data.items()]
        for fam, q, delta in deltas:  # the request's cells, as checkCellSizeLimit
            v.cell_size(row, fam, q, delta, max_size)
        with self.cluster.lock:
            cells = self._send("append", row, durability, deltas, ttl)
        return sorted(map(from_fields, cells), key=lambda c: (c.family, c.qualifier))

    def _send(self, op: str, row: bytes, durability, *args):
        """One read-modify-write request (`op`: a RegionServer method) to the row's region, at
        the request's time."""
        durability = 0 if durability is None else parse_durability(durability)
        now = self.cluster.tick()  # first: a chore due at this tick may move the region
        region = self._region(row)
        return getattr(region.server, op)(region, row, *args, now, durability)

    def check_and_put(self, row: bytes | str, column: bytes | str, value: bytes | str | None,
                      data: dict, timestamp: int | None = None,
                      ttl_ms: int | None = None,
                      durability: Durability | str | None = None) -> bool:
        """checkAndMutate(EQUAL): put `data` if the column's latest value equals `value`
        (None or b"": if the column is absent or empty). Returns whether the put was applied.
        One Mutate request: the region checks and writes under the row lock."""
        row = v.row(row)
        entries = self._put_entries(row, data, timestamp, ttl_ms)
        return self._check_and_mutate(row, column, value, entries, durability)

    def check_and_delete(self, row: bytes | str, column: bytes | str, value: bytes | str | None,
                         columns: Iterable[bytes | str] | bytes | str | None = None,
                         timestamp: int | None = None,
                         durability: Durability | str | None = None) -> bool:
        """Delete `columns` (all versions; None = the whole row) if the check passes."""
        row, ts = v.row(row), _ts(timestamp)
        self._column(column)
        if columns is None:
            entries = en.row_delete(self._families(), ts)
        else:
            entries = [(*self._column(c), ts, en.DELETE_COLUMN_CODE, b"", NO_TTL)
                       for c in v.column_list(columns)]
        return self._check_and_mutate(row, column, value, entries, durability)

    def check_and_mutate(self, row: bytes | str, column: bytes | str, value: bytes | str | None,
                         mutations: list, durability: Durability | str | None = None) -> bool:
        """checkAndMutate(EQUAL) with RowMutations (HRegion.doCheckAndRowMutate): if the
        column's latest value equals `value` (None or b"": absent or empty), apply `mutations`
        (Mutation records of this row, puts and deletes, as a batch takes them) as one atomic
        row mutation, synced at the strongest of their durabilities. Returns whether applied."""
        row = v.row(row)
        if (not isinstance(mutations, (list, tuple)) or not mutations
                or not all(isinstance(m, Mutation) for m in mutations)):
            raise v.type_error("mutations", "a non-empty list of Mutation", mutations)
        self._column(column)
        default = parse_durability(durability)
        entries, strongest = [], 0
        for m in mutations:
            if v.row(m.row) != row:
                raise WrongRowError(
                    f"The row in the recently added Put/Delete <{to_string_binary(b(m.row))}> "
                    f"doesn't match the original one <{to_string_binary(row)}>")
            entries.extend(self._entries_of(row, m))
            strongest = max(strongest, default if m.durability is None else
                            parse_durability(m.durability))
        return self._check_and_mutate(row, column, value, entries, strongest)

    def _check_and_mutate(self, row: bytes, column, value, entries: list, durability) -> bool:
        """One checkAndMutate request (hsim.regions.atomic.check_and_mutate)."""
        fam, q = self._column(column)
        expected = None if value is None else v.to_bytes(value, "value")
        with self.cluster.lock:
            return self._send("check_and_mutate", row, durability, fam, q, expected, entries)
