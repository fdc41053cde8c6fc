"""A one-cell WAL entry (packed by one cached Struct) has the bytes the general encoding gives,
and every entry is framed by its length, the length's check and its body's CRC32C."""

from hypothesis import given, settings
from hypothesis import strategies as st

from hsim.cell import fields
from google_crc32c import value as crc32c

from hsim.regions.wal_codec import _BODY_HEAD, _FRAME, decode_entries, encode_entry

_cells = st.builds(fields, st.binary(min_size=1, max_size=40), st.binary(max_size=5),
                   st.binary(max_size=20), st.integers(0, 2 ** 63 - 1),
                   st.sampled_from([4, 8, 10, 12, 14]), st.binary(max_size=300),
                   st.integers(0, 2 ** 40), st.sampled_from([-1, 0, 5000]))


@settings(max_examples=80, deadline=None)
@given(_cells, st.integers(1, 2 ** 40), st.integers(0, 2 ** 50))
def test_one_cell_entry_equals_the_general_encoding(cell, seq, now):
    region = "0123456789abcdef0123456789abcdef"
    one = encode_entry(region, seq, now, [cell])
    two = encode_entry(region, seq, now, [cell, cell])  # the general path
    skip = _FRAME.size + _BODY_HEAD.size  # the cells' bytes follow the frame and body head
    assert two[skip:] == one[skip:] * 2
    n = len(one) - _FRAME.size
    assert _FRAME.unpack_from(one) == (n, n ^ 0xFFFFFFFF, crc32c(one[_FRAME.size:]))
    assert _BODY_HEAD.unpack_from(one, _FRAME.size) == (bytes.fromhex(region), seq, now, 1)
    # a decoded cell carries its entry's sequence id
    assert decode_entries(one) == [(region, seq, now, [cell[:5] + (-seq,) + cell[6:]])]
