"""Reopening a data directory whose WAL is torn, corrupt or in hsim's first WAL format: replay
stops at the first bad entry, says what it dropped (data_dir.wal_damage, a log record), moves a
corrupt file aside to corrupt/, and never replays a changed value."""

import logging
import os

import hsim
from hsim.regions.wal_codec import _FRAME, MAGIC, read_wal_file

from .disk import crash


def _crashed_with_three_puts(path):
    c = hsim.Cluster(data_dir=path)
    c.admin.create_table("t", ["f"])
    t = c.table("t")
    for row in (b"a", b"b", b"c"):
        t.put(row, {b"f:q": b"value-" + row})
    srv = c.region_servers[0]
    wal = path / "WALs" / srv.name / srv.wal.current.name
    crash(c)
    return wal


def _rows(c) -> dict:
    return {cells[0].row: cells[0].value for cells in c.table("t").scan()}


def test_flipped_byte_stops_replay_reports_and_moves_the_wal_aside(tmp_path, caplog):
    wal = _crashed_with_three_puts(tmp_path)
    data = bytearray(wal.read_bytes())
    at = data.index(b"value-b")
    data[at + 6] ^= 0x01  # "value-b" would replay as "value-c"
    wal.write_bytes(bytes(data))
    with caplog.at_level(logging.WARNING, logger="hsim.storage"):
        c = hsim.Cluster(data_dir=tmp_path)
    assert _rows(c) == {b"a": b"value-a"}  # b's entry and all after it are not replayed
    (path, damage), = c.data_dir.wal_damage
    assert path == str(wal) and damage.kind == "corrupt" and damage.reason == "checksum mismatch"
    assert damage.entries_dropped == 1  # c's entry, intact but after the bad one
    assert f"WAL {wal}: replayed 1 entries, then a corrupt entry" in caplog.text
    assert (tmp_path / "corrupt" / wal.name).read_bytes() == bytes(data)  # kept for a look
    assert not (tmp_path / "oldWALs" / wal.name).exists()
    c.close()


def test_torn_tail_is_dropped_and_reported(tmp_path):
    wal = _crashed_with_three_puts(tmp_path)
    data = wal.read_bytes()
    wal.write_bytes(data[:-5])  # the process died in the middle of the last write
    c = hsim.Cluster(data_dir=tmp_path)
    assert _rows(c) == {b"a": b"value-a", b"b": b"value-b"}
    (_path, damage), = c.data_dir.wal_damage
    assert damage.kind == "torn" and damage.bytes_dropped == len(data) - 5 - damage.offset
    assert (tmp_path / "oldWALs" / wal.name).exists()  # a torn tail is a normal end
    c.close()


def test_first_format_wal_is_still_replayed(tmp_path, caplog):
    """A WAL written by hsim before entries had checksums: `length:u32 body`, no header."""
    wal = _crashed_with_three_puts(tmp_path)
    data = wal.read_bytes()
    old, pos = bytearray(), len(MAGIC)
    while pos < len(data):
        n = _FRAME.unpack_from(data, pos)[0]
        old += n.to_bytes(4, "big") + data[pos + _FRAME.size:pos + _FRAME.size + n]
        pos += _FRAME.size + n
    wal.write_bytes(bytes(old))
    assert read_wal_file(bytes(old))[2]  # read as the first format
    with caplog.at_level(logging.INFO, logger="hsim.storage"):
        c = hsim.Cluster(data_dir=tmp_path)
    assert _rows(c) == {r: b"value-" + r for r in (b"a", b"b", b"c")}
    assert "first WAL format" in caplog.text and c.data_dir.wal_damage == []
    c.close()
    assert not os.path.exists(wal)
