"""/jmx: the Hadoop JMX servlet's JSON shape ({"beans": [...]}) with HBase's bean and metric
names, as a RegionServer's /jmx shows them:

- "Hadoop:service=HBase,name=RegionServer,sub=Server", one per server: the names of
  MetricsRegionServerSource (regionCount, storeCount, readRequestCount,
  filteredReadRequestCount, writeRequestCount, checkMutatePassedCount, checkMutateFailedCount,
  totalRequestCount, memStoreSize (data), memStoreHeapSize, storeFileCount, storeFileSize,
  storeFileIndexSize, staticBloomSize, flushedCellsCount, flushedOutputBytes,
  compactedInputBytes, compactedOutputBytes, blockCache{Hit,Miss,Eviction}Count, blockCacheSize,
  hlogFileCount, hlogFileSize), read from the metrics schema's HBase names (hsim.metrics).
- "...,sub=Regions": MetricsRegionSourceImpl's keys
  "Namespace_<ns>_table_<qualifier>_region_<encoded name>_metric_<name>".
- "...,sub=Tables": MetricsTableSourceImpl's keys "Namespace_<ns>_table_<qualifier>_metric_<name>".
hsim keeps one process for all servers, so each Server bean carries its server's tag.Hostname.
"""

from __future__ import annotations

from hsim.metrics import schema

SERVER_BEAN = "Hadoop:service=HBase,name=RegionServer,sub=Server"
REGIONS_BEAN = "Hadoop:service=HBase,name=RegionServer,sub=Regions"
TABLES_BEAN = "Hadoop:service=HBase,name=RegionServer,sub=Tables"


def _memstore_data(r) -> int:
    return sum(s.memstore_data_bytes for s in r.stores)


def _table_prefix(table: str) -> str:
    ns, _, t = table.rpartition(":")
    return f"Namespace_{ns or 'default'}_table_{t}"


def _region_gauges(r) -> dict:
    """The per-region (and, summed, per-table) figures, by HBase's names."""
    return {"storeCount": len(r.stores), "storeFileCount": r.store_files,
            "memStoreSize": _memstore_data(r), "memStoreHeapSize": r.memstore_heap_bytes,
            "storeFileSize": r.store_file_bytes, "readRequestCount": r.read_requests,
            "filteredReadRequestCount": r.filtered_read_requests,
            "writeRequestCount": r.write_requests}


def beans(cluster) -> dict:
    with cluster.lock:
        m = cluster.metrics()
    by_server: dict = {}
    for r in m.regions:
        by_server.setdefault(r.server, []).append(r)
    out = []
    for s in m.servers:
        regions = by_server.get(s.name, [])
        bean = {"name": SERVER_BEAN, "tag.Hostname": s.name}
        # every ServerMetrics figure HBase's Server bean also has, by the schema's HBase name
        bean.update({m.hbase: getattr(s, m.name) for m in schema(s) if m.hbase})
        bean.update({  # and the ones HBase derives from its regions
            "storeCount": sum(len(r.stores) for r in regions),
            "totalRequestCount": s.read_requests + s.write_requests,
            "memStoreSize": sum(_memstore_data(r) for r in regions),
            "flushedCellsCount": sum(st.cells_flushed for r in regions for st in r.stores),
        })
        out.append(bean)
    regions = {"name": REGIONS_BEAN}
    tables = {"name": TABLES_BEAN}
    for r in m.regions:
        enc = r.name.rstrip(".").rsplit(".", 1)[-1]
        gauges = _region_gauges(r)
        for k, v in gauges.items():
            regions[f"{_table_prefix(r.table)}_region_{enc}_metric_{k}"] = v
        tp = f"{_table_prefix(r.table)}_metric_"
        gauges["regionCount"] = 1
        gauges["totalRequestCount"] = r.read_requests + r.write_requests
        for k, v in gauges.items():
            tables[tp + k] = tables.get(tp + k, 0) + v
    out += [regions, tables]
    return {"beans": out}
