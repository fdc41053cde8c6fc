"""Scanners (ScannerResource, ScannerInstanceResource) and the cluster, table and namespace
resources over HBase's REST API."""

import json

from hsim.rest import models as m
from .conftest import b64, cells, cellset


def _fill(rest, n=6):
    for i in range(n):
        key = f"r{i}"
        rest("PUT", f"/t/{key}", cellset((key, [("cf:a", f"a{i}"), ("g:b", f"b{i}")])))


def test_scanner_batches_rows_and_the_end(rest):
    _fill(rest)
    r = rest("PUT", "/t/scanner", json.dumps({"batch": 3, "startRow": b64("r1"),
                                              "endRow": b64("r5")}))
    assert r.status_code == 201
    url = r.headers["Location"]
    assert url.startswith(rest.url + "/t/scanner/")
    first = rest.http.get(url, headers={"Accept": "application/json"})
    assert [(c[0], c[1]) for c in cells(first.json())] == [
        (b"r1", b"cf:a"), (b"r1", b"g:b"), (b"r2", b"cf:a")]  # 3 cells, across a row
    one_row = rest.http.get(url + "?n=1", headers={"Accept": "application/json"})
    assert [c[0] for c in cells(one_row.json())] == [b"r2"]  # the rest of r2, then stop
    rest_of = rest.http.get(url + "?c=100", headers={"Accept": "application/json"})
    assert [c[0] for c in cells(rest_of.json())] == [b"r3", b"r3", b"r4", b"r4"]
    assert rest.http.get(url).status_code == 204  # exhausted
    assert rest.http.delete(url).status_code == 200
    assert rest.http.get(url).status_code == 404
    assert len(rest.server.gateway.scanners) == 0


def test_scanner_filters_in_json_and_xml_and_protobuf(rest):
    _fill(rest)
    row_filter = json.dumps({"type": "RowFilter", "op": "EQUAL", "comparator": {
        "type": "RegexStringComparator", "value": "^r[24]$"}})
    url = rest("POST", "/t/scanner", json.dumps({"filter": row_filter})).headers["Location"]
    assert {c[0] for c in cells(rest.http.get(url, headers={"Accept": "application/json"})
                                .json())} == {b"r2", b"r4"}
    xml = (f'<Scanner maxVersions="1"><column>{b64("g:b")}</column>'
           f'<filter>{{"type": "PrefixFilter", "value": "{b64("r3")}"}}</filter></Scanner>')
    url = rest("PUT", "/t/scanner", xml, headers={"Content-Type": "text/xml"}).headers["Location"]
    got = rest.http.get(url, headers={"Accept": "text/xml"})
    assert m.cellset_from(got.content, m.XML) == [(b"r3", [(b"g:b", 1_000, b"b3")])]
    body = b"\x0a\x02r4" + b"\x1a\x04cf:a"  # startRow r4, column cf:a (ScannerMessage)
    url = rest("PUT", "/t/scanner", body, headers={"Content-Type": "application/x-protobuf"}) \
        .headers["Location"]
    got = rest.http.get(url, headers={"Accept": "application/x-protobuf"})
    assert m.cellset_from(got.content, m.PROTOBUF) == [(b"r4", [(b"cf:a", 1_000, b"a4")]),
                                                       (b"r5", [(b"cf:a", 1_000, b"a5")])]
    bad = rest("PUT", "/t/scanner", json.dumps({"filter": json.dumps({"type": "BitFilter"})}))
    assert bad.status_code == 400 and "BitFilter" in bad.text


def test_version_cluster_and_table_list(rest):
    assert rest("GET", "/version").json()["REST"] == "0.0.3"
    assert rest("GET", "/version", headers={"Accept": "text/plain"}).text.startswith("rest 0.0.3")
    assert isinstance(rest("GET", "/version/cluster").json(), str)
    assert b'<ClusterVersion Version="' in rest("GET", "/version/cluster",
                                                headers={"Accept": "text/xml"}).content
    status = rest("GET", "/status/cluster").json()
    assert status["regions"] == 2 and len(status["LiveNodes"]) == 2
    assert rest("GET", "/").json() == {"table": [{"name": "t"}]}
    regions = rest("GET", "/t/regions").json()["Region"]
    assert [(r["startKey"], r["endKey"]) for r in regions] == [("", b64("m")), (b64("m"), "")]
    assert rest("PUT", "/version", "{}").status_code == 405


def test_schema_create_update_replace_and_delete(rest):
    schema = {"name": "u", "ColumnSchema": [{"name": "a", "VERSIONS": "4", "TTL": "60"}]}
    assert rest("PUT", "/u/schema", json.dumps(schema)).status_code == 201
    got = rest("GET", "/u/schema").json()
    assert got["name"] == "u" and got["ColumnSchema"][0]["VERSIONS"] == "4"
    assert got["ColumnSchema"][0]["TTL"] == "60"
    # POST on an existing table adds or changes the model's families: 200
    add = {"name": "u", "ColumnSchema": [{"name": "b"}]}
    assert rest("POST", "/u/schema", json.dumps(add)).status_code == 200
    assert [c["name"] for c in rest("GET", "/u/schema").json()["ColumnSchema"]] == ["a", "b"]
    # PUT replaces: the families become the model's
    assert rest("PUT", "/u/schema", json.dumps(add)).status_code == 201
    assert [c["name"] for c in rest("GET", "/u/schema").json()["ColumnSchema"]] == ["b"]
    bad = {"name": "u", "ColumnSchema": [{"name": "c", "MOB_THRESHOLD": "1"}]}
    r = rest("POST", "/u/schema", json.dumps(bad))
    assert r.status_code == 400 and "hsim does not model" in r.text
    assert [c["name"] for c in rest("GET", "/u/schema").json()["ColumnSchema"]] == ["b"]
    assert rest("DELETE", "/u/schema").status_code == 200
    assert rest("GET", "/u/schema").status_code == 404


def test_namespaces(rest):
    assert rest("GET", "/namespaces").json() == {"Namespace": ["default", "hbase"]}
    assert rest("POST", "/namespaces/ns").status_code == 201
    assert rest("POST", "/namespaces/ns").status_code == 403
    rest("PUT", "/ns:x/schema", json.dumps({"name": "ns:x", "ColumnSchema": [{"name": "f"}]}))
    assert rest("GET", "/namespaces/ns/tables").json() == {"table": [{"name": "x"}]}
    assert rest("GET", "/namespaces/ns").status_code == 200
    assert rest("DELETE", "/namespaces/ns").status_code == 503  # not empty: ConstraintException
    rest("DELETE", "/ns:x/schema")
    assert rest("DELETE", "/namespaces/ns").status_code == 200
    assert rest("GET", "/namespaces/ns").status_code == 500  # Jersey's answer to the resource
    assert rest("DELETE", "/namespaces/ns").status_code == 404
