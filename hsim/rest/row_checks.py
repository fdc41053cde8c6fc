"""RowResource's ?check= updates: check-and-put, check-and-delete, append and increment, each
on one row of the CellSet (the row key from the body, else the path).

- check=put: the last cell is the check (its column must also be among the cells to put);
  the other cells are put if the column's value equals the check cell's value: 200, else
  304 "Value not Modified";
- check=delete: the last cell is the check (its column from the path when missing); the other
  cells name what to delete (a family, or one version of a column at the cell's timestamp),
  and with only the check cell its column is deleted (all versions): 200, else 304;
- check=append / check=increment: every cell is appended to / added to its column (an
  increment's value is the amount as text); with ?rr=true the Result comes back as a CellSet.
"""

from __future__ import annotations

from hsim.cell import LATEST_TIMESTAMP
from hsim.client.batch import Mutation
from hsim.rest import models as m

CRLF = "\r\n"


def _text(status: int, text: str):
    return status, {"Content-Type": m.TEXT}, (text + CRLF).encode()


def _one_row(spec, rows):
    if len(rows) != 1:
        return None, _text(400, "Bad request: Number of rows specified is not 1.")
    key, cells = rows[0]
    key = key if key is not None else spec.row
    if not key:
        return None, _text(400, "Bad request: Row key found to be null.")
    return (key, cells), None


def checked_update(table, spec, rows, check: str, return_result: bool):
    if check not in ("put", "delete", "append", "increment"):
        return _text(400, f"Invalid check value '{check}'")
    row, error = _one_row(spec, rows)
    if error:
        return error
    key, cells = row
    if check == "put":
        return _check_and_put(table, key, cells)
    if check == "delete":
        return _check_and_delete(table, spec, key, cells)
    data = {}
    for i, (column, _ts, value) in enumerate(cells):
        column = column if column is not None else \
            (spec.columns[i] if i < len(spec.columns) else None)
        if column is None or b":" not in column:
            return _text(400, "Bad request: Column incorrectly specified.")
        data[column] = value
    if check == "append":
        result = table.append_cells(key, data)
    else:
        try:
            amounts = {c: int(v.decode("ascii")) for c, v in data.items()}
        except (UnicodeDecodeError, ValueError):
            return _text(400, "Bad request: an increment's value is a number")
        result = table.increment_cells(key, amounts)
    if not return_result:
        return 200, {}, b""
    rows = [(key, [(c.family + b":" + c.qualifier, c.timestamp, c.value) for c in result])]
    return 200, {"Content-Type": m.JSON}, m.cellset_to(rows, m.JSON)


def _check_and_put(table, key, cells):
    if len(cells) <= 1:
        return _text(400, "Bad request: Either row key is null or no data found for columns "
                          "specified.")
    check_col, _ts, check_value = cells[-1]
    if check_col is None or b":" not in check_col or check_col.endswith(b":"):
        return _text(400, "Bad request: Column incorrectly specified.")
    puts = {}
    for column, ts, value in cells[:-1]:
        if column is None:
            return _text(400, "Bad request: Column found to be null.")
        puts.setdefault(None if ts == LATEST_TIMESTAMP else ts, {})[column] = value
    if not any(check_col in d for d in puts.values()):
        return _text(400, "Bad request: The column to put and check do not match.")
    applied = table.check_and_mutate(key, check_col, check_value, [
        Mutation("put", key, data=d, timestamp=ts) for ts, d in puts.items()])
    return (200, {}, b"") if applied else _text(304, "Value not Modified")


def _check_and_delete(table, spec, key, cells):
    check_col, _ts, check_value = cells[-1]
    if check_col is None:
        if not spec.columns:
            return _text(400, "Bad request: Column not specified for check.")
        check_col = spec.columns[0]
    if b":" not in check_col:
        return _text(400, "Bad request: Column to check incorrectly specified.")
    deletes = []
    for column, ts, _v in cells[:-1]:
        if column is None:
            return _text(400, "Bad request: Column found to be null.")
        t = None if ts == LATEST_TIMESTAMP else ts
        deletes.append(Mutation("delete_column", key, column=column, timestamp=t)
                       if b":" in column else
                       Mutation("delete_family", key, column=column, timestamp=t))
    if len(cells) == 1:
        deletes.append(Mutation("delete_columns", key, column=check_col))
    applied = table.check_and_mutate(key, check_col, check_value, deletes)
    return (200, {}, b"") if applied else _text(304, " Delete check failed.")
