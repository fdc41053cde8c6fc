"""A WAL's bytes cut at every length read as a prefix of its entries and say `torn`; any bit
flipped anywhere after the header is detected (`corrupt`) and never replays a changed value."""

from hypothesis import given, settings
from hypothesis import strategies as st

from hsim.cell import fields
from hsim.regions.wal_codec import MAGIC, decode_entries, read_wal_file, write_entry

REGION = "0123456789abcdef0123456789abcdef"


def _wal(n=4):
    """A WAL file of `n` entries (one with two cells), its entries and their boundaries."""
    buf = bytearray(MAGIC)
    bounds = [len(buf)]
    for i in range(n):
        cells = [fields(b"row%d" % i, b"f", b"q", 100 + i, 4, b"value-%d" % i, 0, -1)]
        if i == 2:
            cells.append(fields(b"row2", b"g", b"", 7, 8, b"", 0, 5000))
        write_entry(buf, bytes.fromhex(REGION), i + 1, 1000 + i, cells)
        bounds.append(len(buf))
    data = bytes(buf)
    return data, decode_entries(data, len(MAGIC)), bounds


def test_every_cut_reads_a_prefix_and_is_torn_between_entries():
    data, full, bounds = _wal()
    for cut in range(len(data) + 1):
        entries, damage, first_format = read_wal_file(data[:cut])
        assert not first_format
        assert entries == full[:len(entries)]
        if cut == 0 or cut in bounds:
            assert damage is None and len(entries) == max(bounds.index(cut) if cut else 0, 0)
        else:
            whole = max(b for b in bounds if b <= cut) if cut >= len(MAGIC) else 0
            assert damage.kind == "torn" and damage.offset == whole
            assert damage.bytes_dropped == cut - whole


def test_every_flipped_bit_is_detected_and_no_value_changes():
    data, full, bounds = _wal()
    for i in range(len(data)):
        for bit in range(8):
            bad = bytearray(data)
            bad[i] ^= 1 << bit
            entries, damage, _first = read_wal_file(bytes(bad))
            assert entries == full[:len(entries)], (i, bit)  # a prefix, every value intact
            assert damage is not None, (i, bit)  # never silent
            if i >= len(MAGIC):
                hit = max(j for j, b in enumerate(bounds) if b <= i)  # the entry flipped
                assert damage.kind == "corrupt" and damage.offset == bounds[hit]
                assert len(entries) == hit
                assert damage.entries_dropped == len(full) - hit - 1
                assert damage.bytes_dropped == len(data) - bounds[hit]


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400), st.booleans())
def test_any_bytes_read_without_raising(data, header):
    """Whatever a WAL file holds, reading it ends in entries and a reason, never an exception."""
    data = (MAGIC if header else b"") + data
    entries, damage, _first = read_wal_file(data)
    if damage is not None:
        assert 0 <= damage.offset < len(data) and damage.bytes_dropped == len(data) - damage.offset
