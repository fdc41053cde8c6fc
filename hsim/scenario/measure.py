"""Measurements several scenarios take: where a table's writes landed, and what reading a set
of key ranges cost."""

from __future__ import annotations


def write_spread(cluster, table: str) -> dict:
    """How a table's writes spread: the busiest server's share, the hotspot ratio over servers
    (busiest / mean; 1.0 is even), how many regions took writes, and the last region's share."""
    m = cluster.metrics()
    shares = m.write_share_per_server()
    regions = sorted((r for r in m.regions if r.table == table), key=lambda r: r.start_key)
    total = sum(r.write_requests for r in regions) or 1
    return {
        "max_server_write_share": max(shares.values()) if shares else 0.0,
        "write_hotspot_ratio": m.hotspot_ratio("write"),
        "regions_written": sum(1 for r in regions if r.write_requests),
        "regions": len(regions),
        "last_region_write_share": regions[-1].write_requests / total if regions else 0.0,
    }


def read_ranges(table, ranges, keep=None, limit: int | None = None, reversed: bool = False,
                **scan_args) -> tuple[int, int]:
    """Scan each (start, stop) range (b"" = open end); returns (rows read, rows kept), where
    `keep(cells)` decides which rows the reader wanted (all when None)."""
    read = kept = 0
    for start, stop in ranges:
        for cells in table.scan(start_row=start or None, stop_row=stop or None, limit=limit,
                                reversed=reversed, **scan_args):
            read += 1
            if keep is None or keep(cells):
                kept += 1
    return read, kept


def family_totals(cluster, table: str) -> dict:
    """family -> its StoreMetrics fields summed over the table's regions."""
    out: dict = {}
    for r in cluster.metrics().regions:
        if r.table != table:
            continue
        for s in r.stores:
            acc = out.setdefault(s.family, {})
            for k, v in s.to_dict().items():
                if k != "family":
                    acc[k] = acc.get(k, 0) + v
    return out


def blocks_touched(cluster) -> int:
    """Blocks the cluster's reads have touched so far: block cache hits plus blocks read."""
    return sum(s.block_cache_hits + s.blocks_read for s in cluster.metrics().servers)


def bytes_read(cluster) -> int:
    """On-disk bytes of the blocks reads fetched from store files (cache misses) so far."""
    return sum(s.bytes_read for s in cluster.metrics().servers)


def store_file_readers(cluster, table: str) -> list:
    """The HFile readers of a table's store files, every region and family."""
    regions = cluster.master.table_state(table).locator.regions
    return [sf.reader for r in regions for s in r.stores.values() for sf in s.files]


def evict_table_blocks(cluster, table: str) -> None:
    """Drop a table's blocks from every block cache (as after a restart): the next reads of it
    go to disk."""
    for server in cluster.master.servers:
        for reader in store_file_readers(cluster, table):
            server.block_cache.evict_file(reader.name)
