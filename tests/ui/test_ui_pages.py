"""The web UI on a free port: every page served, figures equal to cluster.metrics()."""

import json
import re
import urllib.error
import urllib.request

import pytest

import hsim
import hsim.ui


def _get(url):
    with urllib.request.urlopen(url) as r:
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
    ui = hsim.ui.start(cluster, port=0, sample_every=None)
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
        assert f'<td><a href="/storeFile.jsp?name={sf.name}">{sf.name}</a></td><td>{sf.size}</td>' \
            in page
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


def test_store_file_page_shows_trailer_index_and_bloom(served):
    cluster, ui = served
    region = cluster.master.tables["t"].locator.regions[0]
    sf = region.stores[b"cf"].files[0]
    _, page = _get(ui.url + f"storeFile.jsp?name={sf.name}")
    assert f'href="/region.jsp?name={region.encoded_name}"' in page
    assert f"<td>entryCount</td><td>{sf.entry_count}</td>" in page
    for section in ("Trailer", "File info", "BLOOM_FILTER_TYPE"):
        assert section in page
    with pytest.raises(urllib.error.HTTPError) as e:
        _get(ui.url + "storeFile.jsp?name=nosuchfile")
    assert e.value.code == 404
    assert "no store file &#39;nosuchfile&#39;" in e.value.read().decode()


def test_explain_form_says_which_files_a_get_skipped(served):
    cluster, ui = served
    t = cluster.table("t")
    t.put(b"row01", {b"cf:q": b"v2"})
    cluster.admin.flush("t")  # a second file in the upper region; the bloom rules out "row99"
    _, form = _get(ui.url + "explain.jsp")
    assert '<form method="get" action="/explain.jsp">' in form and "<option>t</option>" in form
    _, page = _get(ui.url + "explain.jsp?table=t&row=row99&column=cf:q")
    assert "EXPLAIN get &#x27;t&#x27;, &#x27;row99&#x27;" in page
    assert "skipped" in page and "negative" in page
    assert '<meta http-equiv="refresh"' not in page  # the form does not re-run the Get itself


def test_heat_strip_shows_the_hot_region(served):
    cluster, ui = served
    t = cluster.table("t")
    ui.sample()
    for i in range(40):
        t.put(f"zz{i}".encode(), {b"cf:q": b"v"})  # all in the upper region [m, )
    ui.sample()
    _, page = _get(ui.url + "table.jsp?name=t")
    strips = re.findall(r'<div class="heat"[^>]*>(.*?)</div>', page)
    last = [re.findall(r'title="(\d+)" style="background:rgba\(200,40,20,([\d.]+)\)', s)[-1]
            for s in strips]
    assert last == [("0", "0.0"), ("40", "1.0")]


def test_ui_follows_another_cluster():
    a, b = hsim.Cluster(), hsim.Cluster()
    b.admin.create_table("only_b", ["cf"])
    with hsim.ui.start(a, port=0, sample_every=None) as ui:
        assert "only_b" not in _get(ui.url)[1]
        ui.follow(b)
        assert 'href="/table.jsp?name=only_b"' in _get(ui.url)[1]


# Names as HBase spells them: MetricsRegionServerSource's constants, and the key prefixes of
# MetricsRegionSourceImpl and MetricsTableSourceImpl.
HBASE_SERVER_NAMES = {
    "regionCount", "storeCount", "readRequestCount", "filteredReadRequestCount",
    "writeRequestCount", "checkMutatePassedCount", "checkMutateFailedCount", "totalRequestCount",
    "memStoreSize", "memStoreHeapSize", "storeFileCount", "storeFileSize", "storeFileIndexSize",
    "staticBloomSize", "flushedCellsCount", "flushedOutputBytes", "compactedInputBytes",
    "compactedOutputBytes", "blockCacheHitCount", "blockCacheMissCount",
    "blockCacheEvictionCount", "blockCacheSize", "hlogFileCount", "hlogFileSize",  # WALFILE_*
    "updatesBlockedTime", "blockedRequestCount", "compactionQueueLength",
    "smallCompactionQueueLength", "largeCompactionQueueLength"}
HBASE_REGION_NAMES = {"storeCount", "storeFileCount", "memStoreSize", "memStoreHeapSize",
                      "storeFileSize", "readRequestCount", "filteredReadRequestCount",
                      "writeRequestCount"}


def test_jmx_bean_and_attribute_names_are_hbases(served):
    cluster, ui = served
    beans = json.loads(_get(ui.url + "jmx")[1])["beans"]
    names = [b["name"] for b in beans]
    assert names == ["Hadoop:service=HBase,name=RegionServer,sub=Server"] * 2 + [
        "Hadoop:service=HBase,name=RegionServer,sub=Regions",
        "Hadoop:service=HBase,name=RegionServer,sub=Tables"]
    for b in beans[:2]:
        assert set(b) - {"name", "tag.Hostname"} == HBASE_SERVER_NAMES
    encoded = {r.encoded_name for r in cluster.master.tables["t"].locator.regions}
    keys = set(beans[2]) - {"name"}
    assert keys == {f"Namespace_default_table_t_region_{e}_metric_{n}"
                    for e in encoded for n in HBASE_REGION_NAMES}
    tables = beans[3]
    assert tables["Namespace_default_table_t_metric_writeRequestCount"] == 30
    assert tables["Namespace_default_table_t_metric_regionCount"] == 2
    assert tables["Namespace_default_table_t_metric_storeFileCount"] == sum(
        r.store_files for r in cluster.metrics().regions)


def test_master_status_requests_per_second_on_the_cluster_clock_and_block_cache(served):
    cluster, ui = served
    ui.sample()
    before = {s.name: s.read_requests + s.write_requests for s in cluster.metrics().servers}
    t0 = cluster.clock.now()
    t = cluster.table("t")
    for i in range(10):
        t.put(f"zz{i}".encode(), {b"cf:q": b"v"})
    ui.sample()
    elapsed_s = (cluster.clock.now() - t0) / 1000
    _, html = _get(ui.url + "master-status")
    for s in cluster.metrics().servers:
        rate = (s.read_requests + s.write_requests - before[s.name]) / elapsed_s
        assert f"<td>{s.memstore_heap_bytes}</td><td>{rate:.1f}</td><td>{s.block_cache_hits}" \
               f"</td><td>{s.block_cache_misses}</td><td>{s.block_cache_size}</td>" in html


def test_region_page_shows_store_sizes_and_compaction_history(served):
    cluster, ui = served
    cluster.table("t").put(b"a99", {b"cf:q": b"v"})
    cluster.admin.flush("t")
    cluster.admin.major_compact("t")
    region = cluster.master.tables["t"].locator.regions[0]
    m = next(r for r in cluster.metrics().regions if r.name == region.name).stores[0]
    _, page = _get(ui.url + f"region.jsp?name={region.encoded_name}")
    assert f"index {m.index_bytes} bytes, bloom {m.bloom_bytes} bytes" in page
    assert m.major_compactions == 1
    assert f"<td>{m.flushes}</td><td>{m.bytes_flushed}</td><td>{m.minor_compactions}</td>" \
           f"<td>1</td><td>{m.compaction_files_read}</td>" in page


def test_a_bug_in_a_page_answers_500_naming_it(served, monkeypatch):
    cluster, ui = served

    def broken(_cluster):
        raise RuntimeError("boom")

    monkeypatch.setattr(hsim.ui.pages, "master_status", broken)
    with pytest.raises(urllib.error.HTTPError) as e:
        _get(ui.url + "master-status")
    assert e.value.code == 500
    assert "internal error: RuntimeError: boom" in e.value.read().decode()


def test_the_pages_follow_merges_and_moves(served):
    cluster, ui = served
    a, b = cluster.admin.regions("t")
    merged = cluster.admin.merge_regions(a.encoded_name, b.encoded_name)
    enc = merged.rstrip(".").rsplit(".", 1)[-1]
    _, html = _get(ui.url + "master-status")
    assert "Load balancer: StochasticLoadBalancer (on); region normalizer on; region splits " \
           "on, merges on; 0 splits, 1 merges, 0 moves." in html
    _, html = _get(ui.url + "table.jsp?name=t")
    assert f'region.jsp?name={enc}"' in html and a.encoded_name not in html
    _, html = _get(ui.url + f"region.jsp?name={enc}")
    assert f"Merged from {a.encoded_name}, {b.encoded_name}" in html
    cluster.admin.major_compact(merged)
    _, html = _get(ui.url + f"region.jsp?name={enc}")
    assert "Merged from" not in html
    cluster.admin.merge_switch(False)
    _, html = _get(ui.url + "master-status")
    assert "region splits on, merges off;" in html


def test_snapshot_pages_list_files_shared_and_archived(served):
    cluster, ui = served
    status, html = _get(ui.url)
    assert "No snapshots." in html
    cluster.admin.snapshot("s1", "t")
    status, html = _get(ui.url)
    assert 'href="/snapshot.jsp?name=s1"' in html
    status, html = _get(ui.url + "snapshot.jsp?name=s1")
    assert status == 200 and "Snapshot: s1" in html
    assert "no (archived)" not in html and ">yes<" in html
    cluster.admin.major_compact("t")  # the table writes new files: the snapshot's are its own
    status, html = _get(ui.url + "snapshot.jsp?name=s1")
    assert "no (archived)" in html and ">yes<" not in html
    with pytest.raises(urllib.error.HTTPError) as e:
        _get(ui.url + "snapshot.jsp?name=nope")
    assert e.value.code == 404
