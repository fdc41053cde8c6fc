"""Thrift2 structs <-> hsim's native requests and cells, as HBase's thrift2 ThriftUtilities
converts them (getFromThrift, resultFromHBase, putFromThrift, deleteFromThrift, scanFromThrift,
incrementFromThrift, appendFromThrift, rowMutationsFromThrift).

- TGet.timestamp is Get.setTimestamp (that one version time), and overrides timeRange;
- a TColumn without a qualifier is the whole family (addFamily), with b"" the empty qualifier;
- a TPut's cells take their own timestamp, else the TPut's, else the server's now;
- a TDelete without columns deletes the row (at its timestamp); with columns its timestamp is
  ignored, and each column (at the column's timestamp, else the latest) follows deleteType:
  DELETE_COLUMN the one version, DELETE_COLUMNS every version up to it, DELETE_FAMILY the
  family, DELETE_FAMILY_VERSION one version of every column of the family (a timestamp is
  required);
- a TResult lists the Result's cells in cell order; an empty Result has no row.
"""

from __future__ import annotations

from hsim.cell import FAMILY, NEG_TS, NEG_TYPE, QUALIFIER, ROW, VALUE
from hsim.client.batch import Mutation
from hsim.durability import Durability
from hsim.errors import InvalidArgumentError
from hsim.filters.parser import parse_filter
from hsim.gateway import columns as cols
from hsim.gateway.errors import Escaped
from hsim.thrift2_server.idl import ttypes

_DELETE = ttypes.TDeleteType
# TDurability -> hsim (durabilityFromThrift; an unknown value is USE_DEFAULT).
_DURABILITY = {0: None, 1: Durability.SKIP_WAL, 2: Durability.ASYNC_WAL, 3: Durability.SYNC_WAL,
               4: Durability.FSYNC_WAL}


def durability(value) -> Durability | None:
    return None if value is None else _DURABILITY.get(value)


def column_specs(columns) -> list | None:
    """TColumns -> the native column list (Get/Scan addFamily and addColumn, in order)."""
    if not columns:
        return None
    return cols.select([c.family if c.qualifier is None else c.family + b":" + c.qualifier
                        for c in columns])


def _filter(filter_string, filter_bytes):
    if filter_bytes is not None:
        raise InvalidArgumentError("hsim reads filters as filter strings (TGet/TScan."
                                   "filterString), not as protobuf filterBytes")
    return parse_filter(filter_string) if filter_string else None


def get_args(tget) -> dict:
    """The native Table.get arguments of a TGet (after its row)."""
    args = dict(columns=column_specs(tget.columns), max_versions=tget.maxVersions,
                filter=_filter(tget.filterString, tget.filterBytes),
                max_results_per_family=tget.storeLimit,
                row_offset_per_family=tget.storeOffset,
                cache_blocks=_cache_blocks(tget.cacheBlocks))
    if tget.timestamp is not None:
        args["timestamp"] = tget.timestamp
    elif tget.timeRange is not None:
        args["time_range"] = (tget.timeRange.minStamp, tget.timeRange.maxStamp)
    return args


def scan_args(tscan) -> dict:
    """The native Table.scan arguments of a TScan (scanFromThrift)."""
    if tscan.colFamTimeRangeMap:
        raise InvalidArgumentError("hsim does not model per-family time ranges "
                                   "(TScan.colFamTimeRangeMap)")
    tr = tscan.timeRange
    batch = tscan.batchSize
    return dict(
        start_row=tscan.startRow or None, stop_row=tscan.stopRow or None,
        columns=column_specs(tscan.columns), max_versions=tscan.maxVersions,
        time_range=None if tr is None else (tr.minStamp, tr.maxStamp),
        filter=_filter(tscan.filterString, tscan.filterBytes), reversed=bool(tscan.reversed),
        caching=tscan.caching if tscan.caching and tscan.caching > 0 else 1000,
        batch=batch if batch and batch > 0 else None,
        limit=tscan.limit if tscan.limit and tscan.limit > 0 else None,
        cache_blocks=_cache_blocks(tscan.cacheBlocks))


def _cache_blocks(flag) -> bool:
    """TGet/TScan.cacheBlocks (Get/Scan.setCacheBlocks when set; true when not)."""
    return True if flag is None else bool(flag)


def tresult(cells) -> object:
    """resultFromHBase: the row (absent for an empty Result) and its cells in order."""
    if not cells:
        return ttypes.TResult(row=None, columnValues=[])
    return ttypes.TResult(row=cells[0][ROW], columnValues=[
        ttypes.TColumnValue(family=c[FAMILY], qualifier=c[QUALIFIER], value=c[VALUE],
                            timestamp=-c[NEG_TS], type=-c[NEG_TYPE]) for c in cells])


def put_mutations(tput) -> list:
    """putFromThrift: one native put per distinct cell timestamp (one row mutation)."""
    if not tput.columnValues:
        raise Escaped(InvalidArgumentError("No columns to insert"))
    wal = durability(tput.durability)
    by_ts: dict = {}
    for cv in tput.columnValues:
        ts = cv.timestamp if cv.timestamp is not None else tput.timestamp
        by_ts.setdefault(ts, {})[cv.family + b":" + cv.qualifier] = \
            cv.value if cv.value is not None else b""
    return [Mutation("put", tput.row, data=data, timestamp=ts, durability=wal)
            for ts, data in by_ts.items()]


def delete_mutations(tdelete, families=None) -> list:
    """deleteFromThrift. An IllegalArgumentException here is outside the handler's try."""
    row, wal = tdelete.row, durability(tdelete.durability)
    if not tdelete.columns:
        return [Mutation("delete_row", row, timestamp=tdelete.timestamp, durability=wal)]
    if tdelete.deleteType is None:
        raise Escaped(InvalidArgumentError("DeleteType is required for TDelete"))
    out = []
    for c in tdelete.columns:
        ts = c.timestamp  # with columns, the TDelete's own timestamp is not read
        kind = tdelete.deleteType
        if kind == _DELETE.DELETE_FAMILY:
            out.append(Mutation("delete_family", row, column=c.family, timestamp=ts,
                                durability=wal))
        elif kind == _DELETE.DELETE_FAMILY_VERSION:
            if c.timestamp is None:
                raise Escaped(InvalidArgumentError(
                    "Timestamp is required for TDelete with DeleteFamilyVersion type"))
            out.append(Mutation("delete_family_version", row, column=c.family,
                                timestamp=c.timestamp, durability=wal))
        elif kind in (_DELETE.DELETE_COLUMN, _DELETE.DELETE_COLUMNS):
            column = c.family + b":" + (c.qualifier or b"")  # a null qualifier: the empty one
            out.append(Mutation("delete_column" if kind == _DELETE.DELETE_COLUMN else
                                "delete_columns", row, column=column, timestamp=ts,
                                durability=wal))
        else:
            raise Escaped(InvalidArgumentError(f"Unknown delete type {kind}"))
    return out


def row_mutations(trm) -> list:
    """rowMutationsFromThrift: each TMutation's put or delete, in order, all of one row."""
    out = []
    for m in trm.mutations:
        op = m.put if m.put is not None else m.deleteSingle
        if op is None:
            continue
        if op.row != trm.row:
            raise InvalidArgumentError(
                "The row in the recently added Put/Delete doesn't match the original one")
        out.extend(put_mutations(op) if m.put is not None else delete_mutations(op))
    return out
