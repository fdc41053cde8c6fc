"""Durability (org.apache.hadoop.hbase.client.Durability): how far a mutation's WAL edit must
get before the write is acknowledged. A table carries one (TableDescriptor DURABILITY), a
mutation may override it; USE_DEFAULT defers to the table, and a table's USE_DEFAULT is
SYNC_WAL (HRegion.DEFAULT_DURABILITY)."""

from __future__ import annotations

import enum

from hsim.errors import InvalidArgumentError


class Durability(enum.IntEnum):
    """HBase's Durability: how a mutation reaches the WAL before it is acknowledged (a table
    attribute and a per-mutation argument; the stronger of the two wins, as in HRegion)."""

    USE_DEFAULT = 0  # the table's setting (SYNC_WAL unless the table says otherwise)
    SKIP_WAL = 1  # no WAL edit: lost if the server dies before a flush
    ASYNC_WAL = 2  # appended now, synced by the next sync (at most optionallogflushinterval)
    SYNC_WAL = 3  # appended and synced (reaches the OS) before the reply
    FSYNC_WAL = 4  # appended, synced and fsynced before the reply


def parse(value) -> Durability:
    """Accept a Durability, its int, or its name ('SKIP_WAL', 'skip_wal')."""
    if value is None:
        return Durability.USE_DEFAULT
    if isinstance(value, Durability):
        return value
    try:
        if isinstance(value, (bytes, str)):
            name = value.decode() if isinstance(value, bytes) else value
            return Durability[name.upper()]
        if isinstance(value, int) and not isinstance(value, bool):
            return Durability(value)
    except (KeyError, ValueError):
        pass
    names = ", ".join(d.name for d in Durability)
    raise InvalidArgumentError(f"Durability must be one of {names}, not {value!r}")


def effective(mutation: int, table: int) -> Durability:
    """HRegion.getEffectiveDurability: the mutation's own unless USE_DEFAULT, else the
    table's, whose USE_DEFAULT is SYNC_WAL."""
    return _BY_VALUE[mutation or table or 3]  # (a tuple index: this runs on every put)


_BY_VALUE = tuple(Durability)  # the members in value order, 0..4
