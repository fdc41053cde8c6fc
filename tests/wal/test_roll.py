"""WAL rolling, archiving and hbase.regionserver.maxlogs."""

import hsim
from hsim.regions.wal_codec import decode_entries, encode_entry


def test_entry_round_trip():
    cells = [hsim.Cell.make(b"row", b"f", b"q", 5, 4, b"value", 9, -1),
             hsim.Cell.make(b"row", b"g", b"", 6, 14, b"", 9, 3000)]
    enc = encode_entry("0123456789abcdef0123456789abcdef", 9, 77, cells)
    assert decode_entries(enc + enc) == [("0123456789abcdef0123456789abcdef", 9, 77, cells)] * 2


def test_corrupt_entry_is_a_clear_error():
    import pytest

    from hsim.errors import CorruptWALError

    good = encode_entry("00" * 16, 1, 1, [hsim.Cell.make(b"r", b"f", b"q", 1, 4, b"v")])
    enc = bytearray(good)
    enc[3] += 1  # the length no longer matches its check
    with pytest.raises(CorruptWALError, match="length check"):
        decode_entries(enc)
    with pytest.raises(CorruptWALError, match="torn entry"):
        decode_entries(good[:-3])


def cluster(**cfg):
    c = hsim.Cluster(1, config=hsim.Config(**cfg), clock=hsim.ManualClock(1000))
    c.admin.create_table("t", ["f"], split_keys=[b"m"])
    return c, c.table("t"), c.region_servers[0].wal


def test_rolls_by_size_and_archives_flushed_files():
    c, t, wal = cluster(wal_block_size=2000)  # rolls at 1000 bytes
    for i in range(40):
        t.put(b"a%03d" % i, {b"f:q": b"x" * 20})
    assert wal.rolls >= 3 and len(wal.files) == wal.rolls + 1
    assert wal.archived == []  # nothing flushed yet
    c.admin.flush("t")
    t.put(b"a999", {b"f:q": b"x" * 2000})  # rolls again: the flushed files go
    assert len(wal.archived) >= 3 and len(wal.files) <= 2


def test_rolls_by_period():
    c, t, wal = cluster(wal_roll_period_ms=60_000)
    t.put(b"a", {b"f:q": b"1"})
    c.clock.advance(60_000)
    t.put(b"b", {b"f:q": b"1"})
    assert wal.rolls == 1


def test_maxlogs_forces_flushes_of_the_oldest_regions():
    c, t, wal = cluster(wal_block_size=2000, wal_max_logs=2)
    t.put(b"z", {b"f:q": b"old"})  # the region [m,) pins the first file
    for i in range(40):
        t.put(b"a%03d" % i, {b"f:q": b"x" * 20})
    assert wal.forced_flushes >= 1 and len(wal.files) <= 3
    z_region = c.master.tables["t"].locator.locate(b"z")
    assert z_region.memstore_heap == 0
    assert t.get(b"z")[0].value == b"old"
