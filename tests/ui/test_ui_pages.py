"""The web UI on a free port: every page served, figures equal to cluster.metrics()."""

import json
import re
import urllib.error
import urllib.request

import pytest

import hsim
import hsim.ui


def _get(url):
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.status, r.read().decode("utf-8")


@pytest.fixture
def served():
    cluster = hsim.Cluster(region_servers=2)
    cluster.admin.create_table("t", ["cf"], split_keys=[b"m"])
    t = cluster.table("t")
    for i in range(30):
        t.put(f"row{i:02d}".encode() if i % 3 else f"a{i}".encode(), {b"cf:q": b"v"})
    t.get(b"row01")
    cluster.admin.flush("t")
    ui = hsim.ui.start(cluster, port=0)
    yield cluster, ui
    ui.stop()


def test_master_status_lists_servers_and_links_tables(served):
    cluster, ui = served
    assert ui.url == f"http://127.0.0.1:{ui.port}/"
    for path in ("", "master-status"):
        status, html = _get(ui.url + path)
        assert status == 200
        assert 'href="/table.jsp?name=t"' in html
        for s in cluster.metrics().servers:
            assert f"<td>{s.name}</td><td>{s.regions}</td><td>{s.read_requests}</td>" \
                   f"<td>{s.write_requests}</td>" in html


def test_table_page_regions_in_key_order_with_metrics(served):
    cluster, ui = served
    _, html = _get(ui.url + "table.jsp?name=t")
    regions = [r for r in cluster.metrics().regions if r.table == "t"]
    assert [r.start_key for r in regions] == [b"", b"m"]
    starts = re.findall(r'region.jsp\?name=\w+">\w+</a></td><td>([^<]*)</td>', html)
    assert starts == ["", "m"]
    for r in regions:
        assert f"<td>{r.read_requests}</td><td>{r.write_requests}</td><td>{r.store_files}</td>" \
               f"<td>{r.store_file_bytes}</td><td>{r.memstore_heap_bytes}</td>" in html
    assert sum(r.write_requests for r in regions) == 30


def test_region_page_lists_store_files(served):
    cluster, ui = served
    _, html = _get(ui.url + "table.jsp?name=t")
    encoded = re.findall(r'region.jsp\?name=(\w+)"', html)
    assert len(encoded) == 2
    _, page = _get(ui.url + f"region.jsp?name={encoded[0]}")
    region = cluster.master.tables["t"].locator.regions[0]
    for sf in region.stores[b"cf"].files:
        assert f"<td>{sf.name}</td><td>{sf.size}</td>" in page
    assert region.stores[b"cf"].files


def test_jmx_beans_carry_hbase_metric_names(served):
    cluster, ui = served
    _, body = _get(ui.url + "jmx")
    beans = json.loads(body)["beans"]
    servers = [b for b in beans if b["name"].endswith("sub=Server")]
    m = cluster.metrics()
    assert sorted(b["writeRequestCount"] for b in servers) == \
        sorted(s.write_requests for s in m.servers)
    regions = next(b for b in beans if b["name"].endswith("sub=Regions"))
    total = sum(v for k, v in regions.items() if k.endswith("_metric_writeRequestCount"))
    assert total == 30


@pytest.mark.parametrize("path", ["table.jsp?name=nope", "region.jsp?name=nope", "nothing"])
def test_unknown_names_are_404_with_the_hbase_exception(served, path):
    _, ui = served
    with pytest.raises(urllib.error.HTTPError) as e:
        _get(ui.url + path)
    assert e.value.code == 404
    body = e.value.read().decode()
    if "jsp" in path:
        assert "org.apache.hadoop.hbase." in body
