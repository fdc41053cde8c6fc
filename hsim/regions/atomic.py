"""Increment, Append and checkAndMutate inside the region (HRegion.increment, append,
checkAndMutate / doCheckAndRowMutate): one request that reads the row's current cells and
writes what follows from them under the row lock, so no mutation of the row can land between
the read and the write. The client sends one Mutate RPC; the read happens here, on the server.

hsim runs one request at a time under the cluster's lock, which is the row lock here. Each
function checks everything (the row's range, the families, the current values) before it
writes, and writes through `Region.mutate` (one sequence id, one WAL edit). The reads are
counted as HBase counts them: each family an Increment or Append reads is one Get inside the
region (HRegion.reckonDeltasByStore), one read request; a check is one Get, one read request.
"""

from __future__ import annotations

import struct

from hsim.cell import LATEST_TIMESTAMP, PUT
from hsim.engine.query_matcher import ScanQuery
from hsim.errors import DoNotRetryError

_PUT = int(PUT)
_LONG = struct.Struct(">q")


def java_long(value: int) -> int:
    """HRegion.reckonDeltasByStore adds `getLongValue(current) + deltaAmount` as Java longs:
    the sum wraps around, with no overflow check."""
    return (value + (1 << 63)) % (1 << 64) - (1 << 63)


def current_cells(region, row: bytes, columns, now: int) -> dict:
    """(family, qualifier) -> the latest visible cell of each column, read inside the region:
    one Get per family (a read request each). Every family is checked before any is read."""
    region.check_row_in_range(row)
    wanted: dict[bytes, set] = {}
    for fam, q in columns:
        wanted.setdefault(fam, set()).add(q)
    stores = {fam: region.store(fam) for fam in sorted(wanted)}  # NoSuchColumnFamilyError
    out = {}
    for fam, store in stores.items():
        query = ScanQuery(max_versions=1, columns=frozenset(wanted[fam]))
        for c in store.get(row, query, now, store.counters.io):
            out[(c.family, c.qualifier)] = c
        region.read_requests += 1
    return out


def increment(region, row: bytes, amounts: list, ttl: int, now: int,
              durability: int = 0) -> tuple[list, list]:
    """Add each (family, qualifier, amount) to its 8-byte big-endian counter (missing counts
    as 0). Returns (the new values in `amounts` order, the cells written). A counter's new
    cell is stamped max(now, old timestamp + 1) (HRegion.reckonDeltasByStore), so it is
    always the newest version."""
    current = current_cells(region, row, [(f, q) for f, q, _ in amounts], now)
    entries, values = [], []
    for fam, q, amount in amounts:
        old = current.get((fam, q))
        if old is None:
            value, ts = amount, now
        else:
            if len(old.value) != 8:
                raise DoNotRetryError(f"Field is not a long, it's {len(old.value)} bytes wide")
            value = _LONG.unpack(old.value)[0] + amount
            ts = max(old.timestamp + 1, now)
        value = java_long(value)
        entries.append((fam, q, ts, _PUT, _LONG.pack(value), ttl))
        values.append(value)
    return values, region.mutate(row, entries, now, durability)


def append(region, row: bytes, deltas: list, ttl: int, now: int,
           durability: int = 0) -> list:
    """Append each (family, qualifier, bytes) to its cell's value (a missing cell becomes the
    appended bytes, stamped now; an existing one max(now, old timestamp + 1)). Returns the
    cells written."""
    current = current_cells(region, row, [(f, q) for f, q, _ in deltas], now)
    entries = []
    for fam, q, delta in deltas:
        old = current.get((fam, q))
        if old is None:
            entries.append((fam, q, now, _PUT, delta, ttl))
        else:
            entries.append((fam, q, max(old.timestamp + 1, now), _PUT, old.value + delta, ttl))
    return region.mutate(row, entries, now, durability)


def check_and_mutate(region, row: bytes, family: bytes, qualifier: bytes,
                     expected: bytes | None, entries: list, now: int,
                     durability: int = 0) -> bool:
    """checkAndMutate(EQUAL): apply the row mutation `entries` if the column's latest value
    equals `expected` (None or b"": if the column is absent or empty). Returns whether it
    was applied.

    As HRegion.checkAndMutateInternal does, the Put cells that carry no timestamp are stamped
    max(now, the checked cell's timestamp), so the write is never hidden behind the cell it
    was checked against; Delete cells keep theirs."""
    cur = current_cells(region, row, [(family, qualifier)], now).get((family, qualifier))
    if not expected:
        # a null or empty expected value matches a missing cell or an empty one
        matches = cur is None or cur.value == b""
    else:
        matches = cur is not None and cur.value == expected
    if not matches:
        return False
    if cur is not None and cur.timestamp > now:
        ts = cur.timestamp
        entries = [(f, q, ts if code == _PUT and (t is None or t == LATEST_TIMESTAMP) else t,
                    code, value, ttl) for f, q, t, code, value, ttl in entries]
    region.mutate(row, entries, now, durability)
    return True
