"""Rows and cells over HBase's REST API, as RowResource and MultiRowResource answer."""

import pytest

from hsim.rest import models as m
from .conftest import b64, cells, cellset


def test_put_then_get_in_json_xml_and_protobuf(rest):
    r = rest("PUT", "/t/r1", cellset(("r1", [("cf:a", "1"), ("g:b", "2", 7)])))
    assert r.status_code == 200
    got = rest("GET", "/t/r1").json()
    assert cells(got) == [(b"r1", b"cf:a", 1_000, b"1"), (b"r1", b"g:b", 7, b"2")]
    xml = rest("GET", "/t/r1", headers={"Accept": "text/xml"})
    assert xml.headers["Content-Type"] == "text/xml"
    assert m.cellset_from(xml.content, m.XML) == [(b"r1", [(b"cf:a", 1_000, b"1"),
                                                           (b"g:b", 7, b"2")])]
    pb = rest("GET", "/t/r1", headers={"Accept": "application/x-protobuf"})
    assert m.cellset_from(pb.content, m.PROTOBUF) == m.cellset_from(xml.content, m.XML)
    # a protobuf body is written as HBase's CellSet message
    body = m.cellset_to([(b"r2", [(b"cf:a", 3, b"p")])], m.PROTOBUF)
    assert rest("PUT", "/t/r2", body, headers={"Content-Type": "application/x-protobuf"}) \
        .status_code == 200
    assert cells(rest("GET", "/t/r2").json()) == [(b"r2", b"cf:a", 3, b"p")]


def test_row_spec_columns_timestamps_and_versions(rest):
    for ts in (1, 2, 3, 4):
        rest("PUT", "/t/r", cellset(("r", [("cf:a", f"v{ts}", ts), ("g:x", f"g{ts}", ts)])))
    assert [c[2] for c in cells(rest("GET", "/t/r/cf:a").json())] == [4]
    assert [c[2] for c in cells(rest("GET", "/t/r/cf:a?v=5").json())] == [4, 3, 2]  # VERSIONS 3
    assert [c[2] for c in cells(rest("GET", "/t/r/cf:a/3?v=5").json())] == [2, 1]  # [0, 3)
    assert [c[2] for c in cells(rest("GET", "/t/r/cf:a/2,4?v=5").json())] == [3, 2]
    assert [c[1] for c in cells(rest("GET", "/t/r/g,cf:a").json())] == [b"cf:a", b"g:x"]
    assert rest("GET", "/t/r/cf:a/1").status_code == 404  # nothing before 1: Not found
    # DELETE at a timestamp: every version up to it (Delete.addColumns(f, q, ts))
    assert rest("DELETE", "/t/r/cf:a/3").status_code == 200
    assert [c[2] for c in cells(rest("GET", "/t/r/cf:a?v=5").json())] == [4]
    assert rest("DELETE", "/t/r/g").status_code == 200  # a family
    assert [c[1] for c in cells(rest("GET", "/t/r").json())] == [b"cf:a"]
    assert rest("DELETE", "/t/r").status_code == 200
    assert rest("GET", "/t/r").status_code == 404


def test_prefix_and_range_row_specs_and_multiget(rest):
    for key in ("a1", "a2", "b1", "n1"):
        rest("PUT", f"/t/{key}", cellset((key, [("cf:q", key)])))
    assert [c[0] for c in cells(rest("GET", "/t/a*").json())] == [b"a1", b"a2"]
    assert [c[0] for c in cells(rest("GET", "/t/a2,n2").json())] == [b"a2", b"b1", b"n1"]
    got = rest("GET", "/t/multiget?row=n1&row=zz&row=a1/cf:q").json()
    assert [c[0] for c in cells(got)] == [b"n1", b"a1"]  # in the order asked, missing left out
    assert rest("GET", "/t/multiget?row=zz").status_code == 404


def test_binary_cells(rest):
    r = rest("PUT", "/t/bin/cf:raw", b"\x00\xff", headers={
        "Content-Type": "application/octet-stream", "X-Timestamp": "42"})
    assert r.status_code == 200
    got = rest("GET", "/t/bin/cf:raw", headers={"Accept": "application/octet-stream"})
    assert got.content == b"\x00\xff" and got.headers["X-Timestamp"] == "42"
    two = rest("GET", "/t/bin", headers={"Accept": "application/octet-stream"})
    assert two.status_code == 400  # one column, exactly, for a binary answer


def test_check_and_put_delete_append_increment(rest):
    put = cellset(("r", [("cf:a", "new"), ("cf:a", "")]))  # put cf:a if cf:a is empty/absent
    assert rest("PUT", "/t/r?check=put", put).status_code == 200
    assert rest("PUT", "/t/r?check=put", put).status_code == 304
    assert rest("PUT", "/t/r?check=put", cellset(("r", [("cf:a", "x")]))).status_code == 400
    delete = cellset(("r", [("cf:a", "other")]))  # delete cf:a if it is "other"
    assert rest("PUT", "/t/r?check=delete", delete).status_code == 304
    assert rest("PUT", "/t/r?check=delete", cellset(("r", [("cf:a", "new")]))).status_code == 200
    assert rest("GET", "/t/r").status_code == 404
    rest("PUT", "/t/r?check=append", cellset(("r", [("cf:s", "ab")])))
    got = rest("PUT", "/t/r?check=append&rr=true", cellset(("r", [("cf:s", "cd")])))
    assert [c[3] for c in cells(got.json())] == [b"abcd"]
    got = rest("PUT", "/t/r?check=increment&rr=true", cellset(("r", [("cf:n", "5")])))
    assert cells(got.json())[0][3] == (5).to_bytes(8, "big")
    assert rest("PUT", "/t/r?check=bogus", put).status_code == 400


def test_read_only_refuses_writes_and_serves_reads(rest):
    rest("PUT", "/t/r", cellset(("r", [("cf:a", "1")])))
    rest.server.gateway.read_only = True
    for method, path, body in (("PUT", "/t/r", cellset(("r", [("cf:a", "2")]))),
                               ("DELETE", "/t/r", None), ("DELETE", "/t/schema", None),
                               ("POST", "/t/scanner", "{}")):
        r = rest(method, path, body)
        assert (r.status_code, r.text) == (403, "Forbidden\r\n")
    assert cells(rest("GET", "/t/r").json())[0][3] == b"1"


@pytest.mark.parametrize("path", ["/nope/r", "/nope/schema", "/nope/regions"])
def test_unknown_tables_are_not_found(rest, path):
    r = rest("GET", path)
    assert r.status_code == 404 and r.text.startswith("Not found\r\n")
    assert "TableNotFoundException" in r.text
    assert rest("PUT", "/t/r", cellset(("r", [("zz:a", "1")]))).status_code == 404  # family
    assert rest("GET", "/t/r").status_code == 404 and b64("r")
