"""REST tests: `hsim.rest.RestServer` on a free loopback port over a cluster whose clock stands
still, and `requests` (a dev dependency of starbase's suite, present with hsim's dev tools)."""

import base64
import json

import pytest
import requests

import hsim
from hsim.rest import RestServer

JSON = {"Accept": "application/json", "Content-Type": "application/json"}


def b64(s) -> str:
    return base64.b64encode(s if isinstance(s, bytes) else s.encode()).decode()


def unb64(s) -> bytes:
    return base64.b64decode(s)


def cellset(*rows) -> str:
    """cellset(("r", [("cf:a", "v"), ("cf:b", "w", 5)])) as CellSet JSON."""
    return json.dumps({"Row": [{"key": b64(k), "Cell": [
        {"column": b64(c[0]), "$": b64(c[1]), **({"timestamp": c[2]} if len(c) > 2 else {})}
        for c in cells]} for k, cells in rows]})


def cells(doc) -> list:
    """A CellSet JSON answer as [(row, column, timestamp, value)]."""
    return [(unb64(r["key"]), unb64(c["column"]), c["timestamp"], unb64(c["$"]))
            for r in doc["Row"] for c in r["Cell"]]


class Rest:
    def __init__(self, server, cluster):
        self.server, self.cluster = server, cluster
        self.url = f"http://127.0.0.1:{server.port}"
        self.http = requests.Session()

    def __call__(self, method, path, data=None, headers=None, **kw):
        return self.http.request(method, self.url + path, data=data,
                                 headers=JSON if headers is None else headers, timeout=30, **kw)


@pytest.fixture
def rest():
    cluster = hsim.Cluster(clock=hsim.ManualClock(1_000), region_servers=2)
    cluster.admin.create_table("t", {"cf": hsim.ColumnFamily(max_versions=3), "g": None},
                               split_keys=[b"m"])
    with RestServer(cluster, port=0, max_body=1 << 16) as server:
        r = Rest(server, cluster)
        yield r
        r.http.close()
