"""/jmx: the Hadoop JMX servlet's JSON shape ({"beans": [...]}) with HBase's metric names.

Names follow MetricsRegionServerSource (readRequestCount, writeRequestCount, storeFileCount,
storeFileSize, memStoreSize, flushedCellsCount, blockCacheHitCount, blockCacheMissCount,
blockCacheEvictionCount, blockCacheSize) and MetricsRegionSource's per-region
"Namespace_<ns>_table_<t>_region_<encoded>_metric_<name>" keys.
"""

from __future__ import annotations


def beans(cluster) -> dict:
    m = cluster.metrics()
    out = []
    for s in m.servers:
        out.append({
            "name": "Hadoop:service=HBase,name=RegionServer,sub=Server",
            "tag.Hostname": s.name,
            "regionCount": s.regions,
            "readRequestCount": s.read_requests,
            "writeRequestCount": s.write_requests,
            "totalRequestCount": s.read_requests + s.write_requests,
            "memStoreSize": s.memstore_heap_bytes,
            "storeFileCount": s.store_files,
            "storeFileSize": s.store_file_bytes,
            "storeFileIndexSize": s.index_bytes,
            "staticBloomSize": s.bloom_bytes,
            "flushedOutputBytes": s.bytes_flushed,
            "compactedInputBytes": s.compaction_bytes_read,
            "compactedOutputBytes": s.compaction_bytes_written,
            "blockCacheHitCount": s.block_cache_hits,
            "blockCacheMissCount": s.block_cache_misses,
            "blockCacheEvictionCount": s.block_cache_evictions,
            "blockCacheSize": s.block_cache_size,
        })
    regions = {"name": "Hadoop:service=HBase,name=RegionServer,sub=Regions"}
    for r in m.regions:
        ns, _, t = r.table.rpartition(":")
        enc = r.name.rstrip(".").rsplit(".", 1)[-1]
        p = f"Namespace_{ns or 'default'}_table_{t}_region_{enc}_metric_"
        regions[p + "readRequestCount"] = r.read_requests
        regions[p + "writeRequestCount"] = r.write_requests
        regions[p + "storeFileCount"] = r.store_files
        regions[p + "storeFileSize"] = r.store_file_bytes
        regions[p + "memStoreSize"] = r.memstore_heap_bytes
    out.append(regions)
    return {"beans": out}
