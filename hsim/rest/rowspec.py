"""A row resource's path, as HBase REST's RowSpec reads it:
`<row>[,<end row>|*][/<column>[,<column>...]][/<timestamp>|/<start>,<end>]`.

- a row ending in `*` is a prefix (a scan from the prefix to the prefix + 0xFF); `start,end`
  is a range; otherwise one row (a Get);
- columns are `family` or `family:qualifier`, kept sorted and without repeats (a TreeSet);
- one timestamp T reads [0, T) and deletes at T; `start,end` reads [start, end);
- each part is URL-decoded as UTF-8 (URLDecoder: `+` is a space).
"""

from __future__ import annotations

from urllib.parse import unquote_plus

from hsim.cell import LATEST_TIMESTAMP
from hsim.rest.models import BadRequest


def _decode(text: str) -> bytes:
    return unquote_plus(text, encoding="utf-8", errors="strict").encode("utf-8")


class RowSpec:
    """A REST path's row part (RowSpec): row or row range, columns, time range and versions,
    parsed once per request."""

    def __init__(self, path: str):
        parts = path.lstrip("/").split("/")
        rows = parts[0]
        if not rows:
            raise BadRequest("invalid path: no row key")
        self.end_row: bytes | None = None
        if "," in rows:
            start, end = rows.split(",", 1)
            self.row, self.end_row = _decode(start), _decode(end)
        else:
            self.row = _decode(rows)
        if self.row.endswith(b"*"):
            if self.end_row is not None:
                raise BadRequest("invalid path: start row specified with wildcard")
            self.row = self.row[:-1]
            self.end_row = self.row + b"\xff"
        columns: set = set()
        if len(parts) > 1 and parts[1]:
            for c in parts[1].split(","):
                if not c:
                    raise BadRequest("invalid path")
                columns.add(_decode(c))
        self.columns = sorted(columns)
        self.start_time, self.end_time = 0, LATEST_TIMESTAMP
        if len(parts) > 2 and parts[2]:
            stamps = parts[2].split(",", 1)
            try:
                t0 = int(_decode(stamps[0]))
                t1 = int(_decode(stamps[1])) if len(stamps) > 1 else 0
            except ValueError:
                raise BadRequest(f"invalid timestamp in {parts[2]!r}") from None
            if t1:
                self.start_time, self.end_time = t0, t1
            else:
                self.end_time = t0
        self.max_versions = 1

    @property
    def single_row(self) -> bool:
        return self.end_row is None

    @property
    def has_timestamp(self) -> bool:
        return self.start_time == 0 and self.end_time != LATEST_TIMESTAMP

    @property
    def time_range(self) -> tuple[int, int] | None:
        if self.start_time == 0 and self.end_time == LATEST_TIMESTAMP:
            return None
        return (self.start_time, self.end_time)
