"""HFileOutputFormat2 for hsim: `write_hfiles` writes sorted HFiles for a bulk load, one per
region and family, split at the table's region boundaries, as `Admin.bulk_load` (and
`hsim bulkload DIR TABLE`) then moves into the stores (docs/bulk-load.md).

It sits in the client layer: it reads a table's region boundaries and families through the
cluster, and writes each file with the engine's HFile writer, the one a flush uses.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
from bisect import bisect_right
from typing import Any, Iterable

from hsim.cell import NO_TTL, PUT, fields
from hsim.client import validation as v
from hsim.client.table import Table
from hsim.config import Config
from hsim.engine.bulk_load import bulk_file_info, write_hfile
from hsim.errors import InvalidArgumentError, NoSuchColumnFamilyError
from hsim.schema import ColumnFamily

__all__ = ["write_hfiles"]

_PUT = int(PUT)


def write_hfiles(table_or_regions: "Table | list", cells_or_rows: "Iterable | dict",
                 out_dir: "str | os.PathLike", *, families: "list | None" = None,
                 now: int | None = None, compaction_exclude: bool = False,
                 task: str = "hsim-bulk", config: Config | None = None,
                 **family_options: Any) -> list[str]:
    """Write `cells_or_rows` as HFiles under `out_dir`/<family>/, one per region and family.

    `table_or_regions`: a `Table` (its regions' boundaries, its families, its cluster's clock
    and config) or a list of split keys (then `families` names them, `now` is required).
    `cells_or_rows`: (row, family, qualifier, timestamp or None, value) tuples, or a mapping
    {row: {b"family:qualifier": value}}; a cell without a timestamp gets `now`
    (updateLatestStamp). `family_options`: ColumnFamily fields (block_size, compression,
    bloom_filter, ...) replacing the family's. `compaction_exclude`:
    hbase.mapreduce.hfileoutputformat.compaction.exclude. Returns the paths written."""
    if isinstance(table_or_regions, Table):
        cluster = table_or_regions.cluster
        with cluster.lock:
            st = cluster.master.table_state(table_or_regions.name)
            split_keys = [r.start_key for r in st.locator.regions][1:]
            fams = dict(st.descriptor.families)
            config = cluster.config
            now = cluster.clock.now() if now is None else now
    else:
        split_keys = sorted(v.row(k, "split key") for k in table_or_regions)
        if now is None:
            raise InvalidArgumentError("write_hfiles with split keys needs now= (ms)")
        names = [v.to_bytes(f, "family") for f in (families or [])]
        if not names:
            raise InvalidArgumentError("write_hfiles with split keys needs families=[...]")
        fams = {f: ColumnFamily() for f in names}
        config = config or Config()
    try:
        fams = {f: dataclasses.replace(cf, **family_options) for f, cf in fams.items()}
    except TypeError as e:
        raise InvalidArgumentError(f"write_hfiles: unknown family option: {e}") from None
    groups: dict = {}
    for cell in _cells(cells_or_rows, now):
        if cell[1] not in fams:
            raise NoSuchColumnFamilyError(
                f"Column family {cell[1].decode('utf-8', 'replace')} does not exist")
        groups.setdefault((bisect_right(split_keys, cell[0]), cell[1]), []).append(cell)
    info = bulk_file_info(now, task, compaction_exclude)
    paths = []
    for (region, fam), cells in sorted(groups.items()):
        cells.sort()
        data = write_hfile(fams[fam], config, cells, now, info)
        fdir = os.path.join(out_dir, fam.decode("utf-8"))
        os.makedirs(fdir, exist_ok=True)
        name = hashlib.md5(f"{task}/{now}/{region}/{fam!r}".encode()).hexdigest()
        path = os.path.join(fdir, name)
        with open(path, "wb") as f:
            f.write(data)
        paths.append(path)
    return paths


def _cells(cells_or_rows, now: int):
    """Plain field tuples (seq id 0, as HFileOutputFormat2's cells carry) of the input."""
    if isinstance(cells_or_rows, dict):
        for row, columns in cells_or_rows.items():
            row = v.row(row)
            for column, value in v.mapping(columns, "row data").items():
                fam, sep, qual = v.to_bytes(column, "column").partition(b":")
                if not sep:
                    raise InvalidArgumentError(f"column {column!r} is not family:qualifier")
                yield fields(row, fam, qual, now, _PUT, v.to_bytes(value, "value"), 0, NO_TTL)
        return
    for item in cells_or_rows:
        try:
            row, fam, qual, ts, value = item
        except (TypeError, ValueError):
            raise InvalidArgumentError(
                f"a cell is (row, family, qualifier, timestamp, value), not {item!r}") from None
        ts = now if ts is None else v.timestamp(ts)
        yield fields(v.row(row), v.to_bytes(fam, "family"), v.to_bytes(qual, "qualifier"), ts,
                     _PUT, v.to_bytes(value, "value"), 0, NO_TTL)
