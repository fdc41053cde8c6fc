"""happybase's wal=False is SKIP_WAL, as HBase's Thrift server maps Mutation.writeToWAL."""


def test_wal_false_skips_the_wal_and_is_lost_on_abort(env, table):
    wal = env.cluster.region_servers[0].wal
    table.put(b"kept", {b"cf:q": b"1"})
    entries = wal.entries
    table.put(b"lost", {b"cf:q": b"1"}, wal=False)
    with table.batch(wal=False) as b:
        b.put(b"lost2", {b"cf:q": b"1"})
        b.delete(b"kept", columns=[b"g:x"])
    assert wal.entries == entries
    table.delete(b"kept", columns=[b"g:y"])  # wal=True by default
    assert wal.entries == entries + 1
    env.cluster.start_region_server()
    report = env.cluster.abort_region_server(0)
    assert report.lost_skip_wal == 3  # two puts and one delete marker
    assert [k for k, _ in table.scan()] == [b"kept"]
