"""HBase REST's models on the wire (hbase-rest org.apache.hadoop.hbase.rest.model): CellSetModel
(RowModel, CellModel) in JSON, XML and protobuf, and the other models in JSON and XML.

Row keys, columns and values are base64 in JSON and XML, as the models' byte[] properties are
(Jackson and JAXB both write byte[] as base64); a cell's value is JSON's "$" and XML's element
text. CellSet's protobuf message is CellSetMessage.proto: CellSet{repeated Row rows = 1},
Row{bytes key = 1, repeated Cell values = 2}, Cell{bytes row = 1, bytes column = 2,
int64 timestamp = 3, bytes data = 4}.

A body that does not parse as the model raises BadRequest (HTTP 400) and nothing is applied.
"""

from __future__ import annotations

import base64
import binascii
import json
import xml.etree.ElementTree as ET

from hsim import protobuf as pb
from hsim.cell import LATEST_TIMESTAMP

JSON, XML, PROTOBUF, BINARY, TEXT = ("application/json", "text/xml", "application/x-protobuf",
                                     "application/octet-stream", "text/plain")
_ALIASES = {"application/xml": XML, "application/protobuf": PROTOBUF}


class BadRequest(Exception):
    """A request HBase's REST server answers with 400 Bad request."""


def media_type(header: str | None) -> str | None:
    """The media type a Content-Type or (first) Accept value names, parameters dropped."""
    if not header:
        return None
    first = header.split(",")[0].split(";")[0].strip().lower()
    return _ALIASES.get(first, first)


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def unb64(text, what: str) -> bytes:
    if not isinstance(text, str):
        raise BadRequest(f"{what} must be a base64 string, not {type(text).__name__}")
    try:
        return base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        raise BadRequest(f"{what} is not base64: {text[:40]!r}") from None


# --- CellSet: [(row key or None, [(column or None, timestamp, value)])] ------------------------
def cellset_to(rows, media: str) -> bytes:
    """rows: [(key, [(column, timestamp, value)])] in the response format."""
    if media == JSON:
        return json.dumps({"Row": [{"key": b64(k), "Cell": [
            {"column": b64(c), "timestamp": ts, "$": b64(v)} for c, ts, v in cells]}
            for k, cells in rows]}, separators=(",", ":")).encode()
    if media == PROTOBUF:
        return b"".join(pb.field_bytes(1, pb.field_bytes(1, k) + b"".join(
            pb.field_bytes(2, pb.field_bytes(2, c) + pb.field_varint(3, ts) + pb.field_bytes(4, v))
            for c, ts, v in cells)) for k, cells in rows)
    root = ET.Element("CellSet")
    for k, cells in rows:
        row = ET.SubElement(root, "Row", key=b64(k))
        for c, ts, v in cells:
            ET.SubElement(row, "Cell", column=b64(c), timestamp=str(ts)).text = b64(v)
    return _xml(root)


def cellset_from(body: bytes, media: str) -> list:
    """The rows of a CellSet body: [(key or None, [(column or None, timestamp, value)])]."""
    try:
        if media == JSON:
            return _cellset_json(json.loads(body or b"{}"))
        if media == PROTOBUF:
            return _cellset_pb(body)
        if media == XML:
            root = ET.fromstring(body)
            return [(_opt(r.get("key"), "row key"), [
                (_opt(c.get("column"), "column"), _ts(c.get("timestamp")),
                 unb64(c.text or "", "value")) for c in r.iter("Cell")])
                for r in root.iter("Row")]
    except (ValueError, ET.ParseError, IndexError, TypeError, AttributeError) as e:
        raise BadRequest(f"the body is not a CellSet: {e}") from None
    raise BadRequest(f"a CellSet cannot be read from {media}")


def _opt(text, what):
    return None if text is None else unb64(text, what)


def _ts(value) -> int:
    if value is None:
        return LATEST_TIMESTAMP
    ts = int(value)
    if not 0 <= ts <= LATEST_TIMESTAMP:
        raise BadRequest(f"timestamp {ts} is out of range")
    return ts


def _cellset_json(doc) -> list:
    if not isinstance(doc, dict) or not isinstance(doc.get("Row", []), list):
        raise BadRequest("a CellSet is {\"Row\": [...]}")
    out = []
    for r in doc.get("Row", []):
        if not isinstance(r, dict) or not isinstance(r.get("Cell", []), list):
            raise BadRequest("a Row is {\"key\": ..., \"Cell\": [...]}")
        out.append((_opt(r.get("key"), "row key"), [
            (_opt(c.get("column"), "column"), _ts(c.get("timestamp")),
             unb64(c.get("$", ""), "value")) for c in r.get("Cell", [])]))
    return out


def _cellset_pb(body: bytes) -> list:
    out = []
    for num, row in pb.read_fields(body, 0, len(body)):
        if num != 1 or not isinstance(row, bytes):
            continue
        key, cells = None, []
        for f, v in pb.read_fields(row, 0, len(row)):
            if f == 1:
                key = v
            elif f == 2:
                c = dict(pb.read_fields(v, 0, len(v)))
                cells.append((c.get(2), _ts(c.get(3)), c.get(4, b"")))
        out.append((key, cells))
    return out


# --- the other models: (JSON document, XML element) ---------------------------------------------
def _xml(root) -> bytes:
    return b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' + ET.tostring(root)


def render(media: str, doc, element, text: str | None = None) -> tuple[str, bytes]:
    """A model in the format asked for: JSON `doc`, XML `element`, or `text` (text/plain)."""
    if media == JSON:
        return JSON, json.dumps(doc, separators=(",", ":")).encode()
    if media == TEXT and text is not None:
        return TEXT, text.encode()
    if media in (XML, None, "*/*") or (media == TEXT and text is None):
        return XML, _xml(element)
    raise NotAcceptable(media)


class NotAcceptable(Exception):
    """No representation of the resource in the media type asked for (HTTP 406)."""


def element(tag: str, attrs: dict | None = None, children=()) -> ET.Element:
    e = ET.Element(tag, {k: str(v) for k, v in (attrs or {}).items()})
    for child in children:
        e.append(child)
    return e


def parse_document(body: bytes, media: str):
    """A JSON object or an XML element from a request body; BadRequest when neither."""
    try:
        if media == JSON:
            doc = json.loads(body or b"null")
            return {} if doc in (None, "") else doc  # an empty body is an empty model
        if media == XML:
            return ET.fromstring(body)
    except (ValueError, ET.ParseError) as e:
        raise BadRequest(f"the body does not parse: {e}") from None
    raise BadRequest(f"this resource reads JSON or XML, not {media}")
