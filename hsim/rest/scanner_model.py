"""HBase REST's ScannerModel, read from JSON, XML or protobuf (ScannerMessage.proto): the
scan a PUT or POST to /<table>/scanner asks for.

JSON: {"startRow": b64, "endRow": b64, "column": [b64, ...], "batch": n, "caching": n,
"startTime": t, "endTime": t, "maxVersions": n, "limit": n, "filter": "<FilterModel JSON>"};
XML: the same names as attributes of <Scanner>, with <column> and <filter> elements. An empty
body is a scan of everything. `batch` is the number of cells each GET answers (default
Integer.MAX_VALUE: everything left).
"""

from __future__ import annotations

from hsim import protobuf as pb
from hsim.cell import LATEST_TIMESTAMP
from hsim.rest import models as m
from hsim.rest.filters import filter_string
from hsim.rest.models import BadRequest

_INT_MAX = 2**31 - 1


def _int(value, what: str, lo: int = 0, hi: int = LATEST_TIMESTAMP) -> int:
    try:
        n = int(value)
    except (TypeError, ValueError):
        raise BadRequest(f"{what} must be a number, not {value!r}") from None
    if not lo <= n <= hi:
        raise BadRequest(f"{what} must be between {lo} and {hi}, not {n}")
    return n


class ScannerModel:
    """A REST scanner request's body (ScannerModel, XML or JSON), with REST's defaults: what a POST
    to /table/scanner asks for."""
    def __init__(self):
        self.start_row = self.end_row = b""
        self.columns: list[bytes] = []
        self.batch, self.caching, self.limit = _INT_MAX, 1000, None
        self.start_time, self.end_time = 0, LATEST_TIMESTAMP
        self.max_versions = 1
        self.filter: bytes | None = None

    @property
    def time_range(self):
        if self.start_time == 0 and self.end_time == LATEST_TIMESTAMP:
            return None
        return (self.start_time, self.end_time)

    @classmethod
    def parse(cls, body: bytes, media: str | None) -> "ScannerModel":
        model = cls()
        if not body.strip() or body.strip() == b'""':
            return model  # no model: scan everything (Jackson reads "" as no object)
        if media == m.PROTOBUF:
            fields = pb.read_fields(body, 0, len(body)) if body else []
            values = {"startRow": None, "endRow": None}
            for num, v in fields:
                name = {1: "startRow", 2: "endRow", 4: "batch", 5: "startTime", 6: "endTime",
                        7: "maxVersions", 9: "caching", 12: "limit"}.get(num)
                if num == 3:
                    model.columns.append(v)
                elif num == 8:
                    model.filter = filter_string(v.decode("utf-8", "replace"))
                elif name:
                    values[name] = v
            model._apply({k: v for k, v in values.items() if v is not None}, raw_rows=True)
            return model
        doc = m.parse_document(body, media)
        if media == m.JSON:
            if not isinstance(doc, dict):
                raise BadRequest("a scanner is a JSON object")
            columns = doc.get("column") or []
            model.columns = [m.unb64(c, "column") for c in
                             (columns if isinstance(columns, list) else [columns])]
            if doc.get("filter"):
                model.filter = filter_string(str(doc["filter"]))
            model._apply(doc)
        else:
            model.columns = [m.unb64((c.text or "").strip(), "column")
                             for c in doc.iter("column")]
            f = doc.find("filter")
            if f is not None and (f.text or "").strip():
                model.filter = filter_string(f.text)
            model._apply(dict(doc.attrib))
        return model

    def _apply(self, d: dict, raw_rows: bool = False) -> None:
        for key, attr in (("startRow", "start_row"), ("endRow", "end_row")):
            if d.get(key) is not None:
                setattr(self, attr, d[key] if raw_rows else m.unb64(d[key], key))
        if d.get("batch") is not None:
            self.batch = _int(d["batch"], "batch", 1, _INT_MAX)
        if d.get("caching") is not None:
            self.caching = _int(d["caching"], "caching", 1, _INT_MAX)
        if d.get("limit") is not None:
            self.limit = _int(d["limit"], "limit", 1, _INT_MAX)
        if d.get("maxVersions") is not None:
            self.max_versions = _int(d["maxVersions"], "maxVersions", 1, _INT_MAX)
        if d.get("startTime") is not None:
            self.start_time = _int(d["startTime"], "startTime")
        if d.get("endTime") is not None:
            self.end_time = _int(d["endTime"], "endTime")
