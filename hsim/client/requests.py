"""Turning client arguments into what regions take: column specs, time ranges, per-family
ScanQuery objects, with HBase's client-side checks (Get, Scan, Put, Delete constructors)."""

from __future__ import annotations

from hsim.cell import LATEST_TIMESTAMP, to_bytes_arg
from hsim.engine.query_matcher import ScanQuery
from hsim.errors import DoNotRetryError, InvalidArgumentError


def b(x) -> bytes:
    try:
        return to_bytes_arg(x)
    except TypeError as e:
        raise InvalidArgumentError(str(e)) from None


def split_column(col, require_qualifier: bool = True) -> tuple[bytes, bytes | None]:
    """b"f:q" -> (b"f", b"q"); b"f" -> (b"f", None) when a whole family is allowed."""
    col = b(col)
    fam, sep, q = col.partition(b":")
    if not fam:
        raise InvalidArgumentError("Family cannot be null")
    if not sep:
        if require_qualifier:
            raise InvalidArgumentError(f"column {col!r} must be family:qualifier")
        return fam, None
    return fam, q


def time_range(time_range=None, timestamp=None) -> tuple[int, int]:
    """TimeRange checks: non-negative bounds, max >= min; a timestamp t is [t, t+1)."""
    from hsim.client import validation

    if timestamp is not None:
        validation.timestamp(timestamp)
        return (timestamp, timestamp + 1)
    if time_range is None:
        return (0, LATEST_TIMESTAMP)
    if not isinstance(time_range, (tuple, list)) or len(time_range) != 2:
        raise validation.type_error("time_range", "a (min, max) pair", time_range)
    lo, hi = (validation.integer(x, "time_range bound") for x in time_range)
    if lo < 0 or hi < 0:
        raise InvalidArgumentError(
            f"Timestamp cannot be negative. minStamp:{lo}, maxStamp:{hi}")
    if hi < lo:
        raise InvalidArgumentError("maxStamp is smaller than minStamp")
    return (int(lo), int(hi))


def column_list(columns) -> list:
    """A request's `columns`: one column, or a list, tuple or set of them (None: none)."""
    if columns is None:
        return []
    if isinstance(columns, (bytes, str, bytearray)):
        return [columns]
    if isinstance(columns, (list, tuple, set, frozenset)):
        return list(columns)
    raise TypeError(f"columns must be a column or a list of columns, not "
                    f"{type(columns).__name__}")


def queries(families: dict, columns, max_versions, tr, raw: bool, has_filter: bool,
            cache_blocks: bool = True) -> dict:
    """family -> ScanQuery for every family the request reads, in family order.
    `cache_blocks`: Scan/Get.setCacheBlocks (False: the data blocks read are not cached)."""
    if type(cache_blocks) is not bool:
        raise InvalidArgumentError(f"cache_blocks must be a bool, not {cache_blocks!r}")
    if max_versions is None:
        max_versions = 1
    if not isinstance(max_versions, int) or isinstance(max_versions, bool):
        raise TypeError(f"max_versions must be an int, not {type(max_versions).__name__}")
    if max_versions <= 0:
        raise InvalidArgumentError(f"max_versions must be positive, not {max_versions}")
    if raw and columns:
        raise DoNotRetryError("Cannot specify any column for a raw scan")
    wanted: dict[bytes, set | None] = {}
    if columns:
        for col in column_list(columns):
            fam, q = split_column(col, require_qualifier=False)
            if fam not in families:
                from hsim.errors import NoSuchColumnFamilyError

                raise NoSuchColumnFamilyError(
                    f"Column family {fam.decode('utf-8', 'replace')} does not exist")
            # Get/Scan.addFamily replaces the family's columns with "all"; a later addColumn
            # narrows it to a column set again (the order matters, as in HBase).
            if q is None:
                wanted[fam] = None
            elif wanted.get(fam) is None:
                wanted[fam] = {q}
            else:
                wanted[fam].add(q)
    else:
        wanted = {f: None for f in families}
    out = {}
    for fam in sorted(wanted):
        qs = wanted[fam]
        out[fam] = ScanQuery(time_range=tr, max_versions=max_versions,
                             columns=None if qs is None else frozenset(qs), raw=raw,
                             has_filter=has_filter, cache_blocks=cache_blocks)
    return out


def prefix_stop(prefix: bytes) -> bytes | None:
    """Scan.setRowPrefixFilter's stop row: the closest row after every row with the prefix."""
    p = bytearray(prefix)
    while p and p[-1] == 0xFF:
        p.pop()
    if not p:
        return None
    p[-1] += 1
    return bytes(p)
