"""Bad input on the REST gateway: malformed requests and bodies, unknown tables and scanners,
oversized bodies get the HTTP error HBase's REST server (or its HTTP layer) answers; nothing
changes and the server keeps serving."""

import json

import pytest
import requests

from .conftest import cells, cellset


@pytest.fixture
def seeded(rest):
    rest("PUT", "/t/r", cellset(("r", [("cf:a", "1")])))
    return rest


def _unchanged(rest):
    assert cells(rest("GET", "/t/r").json()) == [(b"r", b"cf:a", 1_000, b"1")]
    assert rest("GET", "/").json() == {"table": [{"name": "t"}]}


@pytest.mark.parametrize("data, status", [
    (b"GET /t/r HTTP/1.1 extra words\r\n\r\n", b"400"),                     # bad request line
    (b"GET / HTTP/9.9\r\n\r\n", b"505"),
    (b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n", b"400"),   # negative length
    (b"PUT /t/r HTTP/1.1\r\nHost: x\r\nContent-Length: ten\r\n\r\n", b"400"),
    (b"PUT /t/r HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", b"411"),
    (b"PUT /t/r HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999\r\n\r\n{}", b"413"),
    (b"BREW /t/r HTTP/1.1\r\nHost: x\r\n\r\n", b"501"),                     # unknown method
])
def test_malformed_requests_get_an_http_error(seeded, raw_exchange, data, status):
    reply = raw_exchange(seeded.server.port, data)
    assert reply.split(b" ")[1] == status
    _unchanged(seeded)


@pytest.mark.parametrize("body, ctype", [
    ("{not json", "application/json"),
    ('{"Row": [{"key": "***", "Cell": []}]}', "application/json"),           # not base64
    ('{"Row": "r"}', "application/json"),
    ("<CellSet><Row key='cg=='><Cell", "text/xml"),
    ("\x0a\xff\xff\xff", "application/x-protobuf"),
])
def test_bad_bodies_are_bad_requests_and_change_nothing(seeded, body, ctype):
    r = seeded("PUT", "/t/r", body, headers={"Content-Type": ctype})
    assert r.status_code == 400 and r.text.startswith("Bad request")
    _unchanged(seeded)


def test_oversized_bodies_are_refused_before_being_read(seeded):
    big = cellset(("r", [("cf:a", "x" * 70_000)]))  # the fixture's limit is 64 KB
    r = seeded("PUT", "/t/r", big)
    assert r.status_code == 413
    _unchanged(seeded)


def test_unknown_tables_scanners_and_bad_specs(seeded):
    assert seeded("PUT", "/nope/r", cellset(("r", [("cf:a", "1")]))).status_code == 404
    assert seeded("GET", "/t/scanner/12345").status_code == 404
    assert seeded("GET", "/t/scanner/abc").status_code == 404
    assert seeded("DELETE", "/t/scanner/12345").status_code == 200  # as ScannerResource does
    assert seeded("PUT", "/nope/scanner", "{}").status_code == 404
    assert seeded("GET", "/t/r/cf:a/notanumber").status_code == 400
    assert seeded("GET", "/t/r?v=x").status_code == 400
    assert seeded("PUT", "/t/scanner", json.dumps({"batch": 0})).status_code == 400
    assert seeded("PUT", "/t/r", cellset(("", [("cf:a", "1")]))).status_code == 400
    _unchanged(seeded)


def test_injected_faults_then_success(seeded):
    seeded.server.gateway.faults.fail_next(1, "ioerror")
    r = seeded("PUT", "/t/r", cellset(("r", [("cf:a", "2")])))
    assert r.status_code == 503 and "hsim injected a failure" in r.text
    seeded.server.gateway.faults.fail_next(1, "disconnect")
    with pytest.raises(requests.ConnectionError):  # the server hung up
        seeded("GET", "/t/r")
    _unchanged(seeded)
