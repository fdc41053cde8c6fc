"""HBase's REST API over hsim's native client API: one request in, (status, headers, body) out,
as HBase's REST resources (hbase-rest: TableResource, RowResource, MultiRowResource,
ScannerResource, ScannerInstanceResource and the cluster resources of admin_resources) answer.

- a row GET answers the CellSet of the row spec (hsim.rest.rowspec), 404 "Not found" when it
  is empty; with Accept application/octet-stream, the value of the one column asked for;
- a PUT or POST of a CellSet writes its rows (a row's key and a cell's column, when missing,
  come from the path); with ?check=put|delete|append|increment the last cell is the check (or
  the operation) as RowResource does; an octet-stream body is one cell (X-Row, X-Column,
  X-Timestamp headers or the path);
- a DELETE deletes the row, or its listed families and columns (all versions), at the path's
  timestamp when there is one;
- a scanner is created by PUT or POST of a ScannerModel (201, Location: its URL); each GET
  answers up to `batch` cells (?c= overrides, ?n= caps the rows), 204 once it is exhausted;
  an unknown scanner is 404; DELETE drops it;
- errors are ResourceBase.processException's: table or family not found 404, a bad argument
  400, any other failure 503 "Unavailable"; a write to a read-only gateway 403.
Each request is one request of the cluster (one clock tick).
"""

from __future__ import annotations

import itertools
import logging
from urllib.parse import unquote

from hsim.cell import FAMILY, LATEST_TIMESTAMP, NEG_TS, QUALIFIER, ROW, VALUE
from hsim.client.batch import Mutation
from hsim.errors import (HsimError, InvalidArgumentError, NoSuchColumnFamilyError,
                         RetriesExhaustedWithDetailsError, TableNotFoundError,
                         UnknownScannerError)
from hsim.filters.parser import parse_filter
from hsim.gateway import columns as cols
from hsim.gateway.faults import Faults, InjectedFault
from hsim.gateway.scanners import MAX_SCANNERS, Scanners
from hsim.rest import admin_resources as admin_r
from hsim.rest import models as m
from hsim.rest.models import BadRequest, NotAcceptable
from hsim.rest.rowspec import RowSpec
from hsim.rest.scanner_model import ScannerModel

log = logging.getLogger("hsim.rest")
CRLF = "\r\n"
SCANNER_EXPIRY_MS = 3_600_000  # hbase.rest.scannercache.expiry (1 hour)
_WRITES = ("PUT", "POST", "DELETE")


class Dropped(Exception):
    """Close the connection without an answer (an injected dropped connection)."""


def _text(status: int, text: str, headers: dict | None = None):
    return status, {"Content-Type": m.TEXT, **(headers or {})}, (text + CRLF).encode()


def _ok(status: int = 200, headers: dict | None = None):
    return status, dict(headers or {}), b""


def _column(c: bytes) -> bytes:
    """A row spec's or CellModel's column as hsim's column spec (CellUtil.parseColumn)."""
    if not c or c.startswith(b":"):
        raise BadRequest("Bad request: Column incorrectly specified.")
    return c


def _cells_of(rows):
    for cells in rows:
        yield from cells


class _CellStream:
    """A scanner's cells one by one, with ScannerResultGenerator.putBack."""

    def __init__(self, rows, batch: int):
        self.rows, self.batch = rows, batch  # batch: cells per GET (ScannerModel.batch)
        self._cells = _cells_of(rows)
        self._back = None

    def __iter__(self):
        return self

    def __next__(self):
        if self._back is not None:
            cell, self._back = self._back, None
            return cell
        return next(self._cells)

    def put_back(self, cell) -> None:
        self._back = cell

    def close(self) -> None:
        self._cells.close()


def _group(cells) -> list:
    """Cells (in order) -> CellSet rows [(key, [(column, ts, value)])]."""
    out = []
    for c in cells:
        if not out or out[-1][0] != c[ROW]:
            out.append((c[ROW], []))
        out[-1][1].append((c[FAMILY] + b":" + c[QUALIFIER], -c[NEG_TS], c[VALUE]))
    return out


class RestGateway:
    """Serves one cluster's REST API. Thread-safe: each request is one cluster request."""

    def __init__(self, cluster, read_only: bool = False, max_scanners: int = MAX_SCANNERS):
        self.cluster, self.admin = cluster, cluster.admin
        self.read_only = read_only
        self.scanners = Scanners(SCANNER_EXPIRY_MS, max_scanners, max_scanners)
        self.faults = Faults()  # failure injection: faults.fail_next(n, "ioerror"|"disconnect")

    # --- entry ----------------------------------------------------------------------------------
    def handle(self, method: str, path: str, query: dict, headers, body: bytes, base: str):
        """(status, headers, body) for one request. `headers`: a case-insensitive mapping."""
        accept = m.media_type(headers.get("Accept"))
        ctype = m.media_type(headers.get("Content-Type"))
        try:
            self.faults.check(f"{method} {path}")
        except InjectedFault as f:
            if f.kind == "disconnect":
                raise Dropped() from None
            return _text(503, f"Unavailable{CRLF}java.io.IOException: {f.message}")
        parts = [unquote(p) for p in path.split("/")[1:]] if path != "/" else []
        try:
            if method in _WRITES and self.read_only:
                return _text(403, "Forbidden")
            with self.cluster.request():
                return self._route(method, parts, path, query, accept, ctype, headers, body,
                                   base)
        except BadRequest as e:
            return _text(400, f"Bad request{CRLF}{e}")
        except NotAcceptable as e:
            return _text(406, f"Not Acceptable: {e} (hsim answers this resource in "
                              "JSON, XML or text)")
        except (TableNotFoundError, NoSuchColumnFamilyError, UnknownScannerError) as e:
            return _text(404, f"Not found{CRLF}{e.hbase_exception}: {e.message}")
        except RetriesExhaustedWithDetailsError as e:
            cause = e.failures[0][1] if e.failures else e
            status = 404 if isinstance(cause, (TableNotFoundError, NoSuchColumnFamilyError)) \
                else 503
            return _text(status, f"{'Not found' if status == 404 else 'Unavailable'}{CRLF}{e}")
        except InvalidArgumentError as e:  # a RuntimeException: 400
            return _text(400, f"Bad request{CRLF}{e.hbase_exception}: {e.message}")
        except HsimError as e:
            return _text(503, f"Unavailable{CRLF}{e.hbase_exception}: {e.message}")

    def _route(self, method, parts, path, query, accept, ctype, headers, body, base):
        if not parts or parts == [""]:
            return self._get_only(method, lambda: admin_r.table_list(
                accept, sorted(self.admin.list_tables())))
        head = parts[0]
        if head == "version" and len(parts) <= 2:
            if parts[1:] == ["cluster"]:
                return self._get_only(method, lambda: admin_r.cluster_version(
                    accept, self.cluster_version))
            return self._get_only(method, lambda: admin_r.version(accept))
        if head == "status" and parts[1:] == ["cluster"]:
            return self._get_only(method, lambda: admin_r.cluster_status(accept, self.admin))
        if head == "namespaces":
            return self._namespaces(method, parts[1:], accept)
        table = head
        rest = parts[1:]
        if rest == ["schema"]:
            return self._schema(method, table, accept, ctype, body)
        if rest == ["regions"]:
            return self._get_only(method, lambda: admin_r.regions(accept, table, self.admin))
        if rest[:1] == ["scanner"]:
            return self._scanner(method, table, rest[1:], query, accept, ctype, body, base)
        if rest == ["multiget"]:
            return self._multiget(table, query, accept) if method == "GET" else \
                _text(405, "Method Not Allowed")
        if not rest or not rest[0]:
            return _text(400, "Bad request: no row key")
        spec = RowSpec(path.split("/", 2)[2])
        if "v" in query:
            spec.max_versions = _int(query["v"][0], "v")
        return self._row(method, table, spec, query, accept, ctype, headers, body)

    @staticmethod
    def _get_only(method, answer):
        if method != "GET":
            return _text(405, "Method Not Allowed")
        media, body = answer()
        return 200, {"Content-Type": media}, body

    cluster_version = "2.5.0"  # the HBase version hsim's semantics follow (docs/gateways.md)

    # --- tables and namespaces ------------------------------------------------------------------
    def _schema(self, method, table, accept, ctype, body):
        if method == "GET":
            media, out = admin_r.schema(accept, self.admin.describe(table))
            return 200, {"Content-Type": media}, out
        if method in ("PUT", "POST"):
            families = admin_r.schema_from(body, ctype)
            return _ok(admin_r.put_schema(self.admin, table, families, method == "PUT"))
        if method == "DELETE":
            if self.admin.is_table_enabled(table):
                self.admin.disable_table(table)
            self.admin.delete_table(table)
            return _ok()
        return _text(405, "Method Not Allowed")

    def _namespaces(self, method, rest, accept):
        if not rest:
            return self._get_only(method, lambda: admin_r.namespaces(
                accept, self.admin.list_namespaces()))
        name = rest[0]
        exists = name in self.admin.list_namespaces()
        if method == "GET":
            if not exists:  # the resource's RuntimeException: Jersey answers 500
                return _text(500, f"Cannot retrieve info for '{name}'.")
            if rest[1:] == ["tables"]:  # TableModel names: the qualifiers
                media, out = admin_r.table_list(accept, [
                    q for ns, _, q in (t.rpartition(":") for t in sorted(self.admin.list_tables()))
                    if (ns or "default") == name])
            else:
                media, out = admin_r.namespace(accept, self.admin, name)
            return 200, {"Content-Type": media}, out
        if method == "POST":
            if exists:
                return _text(403, f"Namespace '{name}' already exists.  Use REST PUT to alter "
                                  "the existing namespace.")
            self.admin.create_namespace(name)
            return _ok(201)
        if method == "PUT":
            if not exists:
                return _text(403, f"Namespace '{name}' does not exist. Use REST POST to create "
                                  "the namespace.")
            return _ok()  # hsim keeps no namespace properties to change
        if method == "DELETE":
            if not exists:
                return _text(404, f"Namespace '{name}' does not exists.  Cannot drop namespace.")
            self.admin.drop_namespace(name)
            return _ok()
        return _text(405, "Method Not Allowed")

    # --- rows -----------------------------------------------------------------------------------
    def _read(self, table, spec: RowSpec):
        """The row spec's cells: a Get for one row, a scan for a range or prefix."""
        t = self.cluster.table(table)
        columns = cols.select([_column(c) for c in spec.columns])
        if spec.single_row:
            return t.get(spec.row, columns=columns, time_range=spec.time_range,
                         max_versions=spec.max_versions)
        return list(_cells_of(t.scan(start_row=spec.row, stop_row=spec.end_row,
                                     columns=columns, time_range=spec.time_range,
                                     max_versions=spec.max_versions)))

    def _row(self, method, table, spec, query, accept, ctype, headers, body):
        if method == "GET":
            cells = self._read(table, spec)
            if not cells:
                return _text(404, "Not found")
            if accept == m.BINARY:
                if len(spec.columns) != 1:
                    return _text(400, "Bad request: Default 'GET' method only works if there is "
                                      "exactly 1 column in the row.")
                return 200, {"Content-Type": m.BINARY,
                             "X-Timestamp": str(-cells[0][NEG_TS])}, cells[0][VALUE]
            media = accept if accept in (m.JSON, m.PROTOBUF) else m.XML
            return 200, {"Content-Type": media}, m.cellset_to(_group(cells), media)
        if method == "DELETE":
            return self._delete(table, spec)
        if method not in ("PUT", "POST"):
            return _text(405, "Method Not Allowed")
        if ctype == m.BINARY:
            return self._put_binary(table, spec, headers, body)
        rows = m.cellset_from(body, ctype)
        check = (query.get("check") or [None])[0]
        if check:
            from hsim.rest.row_checks import checked_update

            return checked_update(self.cluster.table(table), spec, rows, check.lower(),
                                  (query.get("rr") or ["false"])[0].lower() == "true")
        return self._put(table, spec, rows)

    def _put(self, table, spec, rows):
        mutations = []
        for key, cells in rows:
            key = key if key is not None else spec.row
            if not key:
                return _text(400, "Bad request: Row key not specified.")
            by_ts: dict = {}
            for i, (column, ts, value) in enumerate(cells):
                if column is None:
                    column = spec.columns[i] if i < len(spec.columns) else None
                if column is None:
                    return _text(400, "Bad request: Column found to be null.")
                by_ts.setdefault(None if ts == LATEST_TIMESTAMP else ts, {})[
                    _column(column)] = value
            mutations += [Mutation("put", key, data=d, timestamp=ts) for ts, d in by_ts.items()]
        if mutations:
            self.cluster.table(table).mutate_rows(mutations)
        return _ok()

    def _put_binary(self, table, spec, headers, body):
        row = headers.get("X-Row")
        row = row.encode("utf-8") if row is not None else spec.row
        column = headers.get("X-Column")
        column = column.encode("utf-8") if column is not None else \
            (spec.columns[0] if spec.columns else None)
        if column is None:
            return _text(400, "Bad request: Column found to be null.")
        ts = headers.get("X-Timestamp")
        self.cluster.table(table).put(row, {_column(column): body},
                                      timestamp=None if ts is None else _int(ts, "X-Timestamp"))
        return _ok()

    def _delete(self, table, spec):
        ts = spec.end_time if spec.has_timestamp else None
        if not spec.columns:
            deletes = [Mutation("delete_row", spec.row, timestamp=ts)]
        else:
            deletes = [Mutation("delete_family" if b":" not in c else "delete_columns",
                                spec.row, column=_column(c), timestamp=ts) for c in spec.columns]
        self.cluster.table(table).mutate_rows(deletes)
        return _ok()

    def _multiget(self, table, query, accept):
        """MultiRowResource: each ?row= is a row spec; the rows found, in the order asked."""
        found = []
        versions = _int(query["v"][0], "v") if "v" in query else 1
        for text in query.get("row", []):
            spec = RowSpec(text)
            spec.max_versions = versions
            found += _group(self._read(table, spec))
        if not found:
            return _text(404, "Not found")
        media = accept if accept in (m.JSON, m.PROTOBUF) else m.XML
        return 200, {"Content-Type": media}, m.cellset_to(found, media)

    # --- scanners -------------------------------------------------------------------------------
    def _scanner(self, method, table, rest, query, accept, ctype, body, base):
        if not rest:
            if method not in ("PUT", "POST"):
                return _text(405, "Method Not Allowed")
            model = ScannerModel.parse(body, ctype)
            filt = parse_filter(model.filter) if model.filter else None
            self.scanners.check_room()
            rows = self.cluster.table(table).scan(
                start_row=model.start_row or None, stop_row=model.end_row or None,
                columns=cols.select([_column(c) for c in model.columns]),
                time_range=model.time_range, max_versions=model.max_versions, filter=filt,
                caching=model.caching, limit=model.limit, lazy=True)
            sid = self.scanners.add(rows, lambda r: _CellStream(r, model.batch))
            return _ok(201, {"Location": f"{base}/{table}/scanner/{sid}"})
        try:
            sid = int(rest[0])
        except ValueError:
            sid = -1
        if method == "DELETE":
            if sid in self.scanners:
                self.scanners.close(sid)
            return _ok()
        if method != "GET":
            return _text(405, "Method Not Allowed")
        if sid not in self.scanners:
            return _text(404, "Not found")
        max_rows = _int(query["n"][0], "n") if "n" in query else 0
        with self.scanners.use(sid) as stream:
            limit = _int(query["c"][0], "c") if "c" in query else stream.batch
            cells = _next_cells(stream, limit, max_rows)
        if not cells:
            return 204, {}, b""
        media = accept if accept in (m.JSON, m.PROTOBUF) else m.XML
        return 200, {"Content-Type": media, "Cache-Control": "no-cache"}, \
            m.cellset_to(_group(cells), media)


def _next_cells(stream: _CellStream, limit: int, max_rows: int) -> list:
    """ScannerInstanceResource.get: up to `limit` cells, stopping before row `max_rows` + 1."""
    out = []
    rows = 0
    for cell in itertools.islice(stream, max(limit, 1)):
        if not out or out[-1][ROW] != cell[ROW]:
            rows += 1
            if max_rows > 0 and rows > max_rows:
                stream.put_back(cell)
                break
        out.append(cell)
    return out


def _int(text: str, what: str) -> int:
    try:
        return int(text)
    except (TypeError, ValueError):
        raise BadRequest(f"{what} must be a number, not {text!r}") from None
