def split_uncompacted(cluster, table: str, row: bytes, region_index: int = 0):
    """Split the table's region at `row` as SplitTableRegionProcedure alone does: the
    daughters open on the parent's server holding References to its files, not compacted.
    Returns the two daughters."""
    st = cluster.master.tables[table]
    parent = st.locator.regions[region_index]
    server = parent.server
    with cluster.lock:
        a, b = parent.daughters(row, cluster.clock.now())
        server.close_region(parent, retire=True)
        server.open_region(a)
        server.open_region(b)
        st.locator.set([a, b])
    return a, b
