"""hsim.bytes (HBase's Bytes helpers, Bytes.split) and hsim.presplit (RegionSplitter)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hsim import bytes as hb
from hsim.bytes import (
    DecimalStringSplit,
    HexStringSplit,
    UniformSplit,
    admin_split_keys,
    split,
    to_bytes,
    to_bytes_binary,
    to_int,
    to_long,
    to_short,
    to_string_binary,
)
from hsim.errors import InvalidArgumentError


def java_bytes(signed):
    """A row as the HBase book prints it: signed Java bytes."""
    return bytes(b & 0xFF for b in signed)


# The seed 000_9607e60d89c16ae9.txt, "Relationship Between RowKeys and Region Splits":
# Bytes.split("0000000000000000", "ffffffffffffffff") for 10 regions, as signed Java bytes.
SEED_SPLIT_ROWS = [
    [48] * 16,  # 0
    [54] + [-10] * 15,  # 6
    [61] + [-67] * 14 + [-68],  # =
    [68] + [-124] * 14 + [-126],  # D
    [75] * 15 + [72],  # K
    [82] + [18] * 14 + [14],  # R
    [88] + [-40] * 14 + [-44],  # X
    [95] + [-97] * 14 + [-102],  # _
    [102] * 16,  # f
]


# -- to_bytes / to_long / to_int / to_short ----------------------------------------------------


def test_to_bytes_long_is_8_byte_big_endian_signed():
    assert to_bytes(1) == b"\x00" * 7 + b"\x01"
    assert to_bytes(-1) == b"\xff" * 8
    assert to_bytes(0x0102030405060708) == bytes(range(1, 9))
    assert to_bytes(-(1 << 63)) == b"\x80" + b"\x00" * 7


def test_to_bytes_str_bool_bytes():
    assert to_bytes("héllo") == b"h\xc3\xa9llo"
    assert to_bytes(True) == b"\xff" and to_bytes(False) == b"\x00"
    assert to_bytes(bytearray(b"ab")) == b"ab"
    with pytest.raises(TypeError):
        to_bytes(1.5)


@given(st.integers(min_value=-(1 << 63), max_value=(1 << 63) - 1))
def test_to_long_round_trips(n):
    assert to_long(to_bytes(n)) == n


def test_to_int_short_and_offsets():
    assert to_int(b"\x80\x00\x00\x00") == -(1 << 31)
    assert to_int(b"\x00\x00\x01\x00") == 256
    assert to_short(b"\xff\xfe") == -2
    assert to_short(b"\x7f\xff") == 32767
    assert to_long(b"xx" + to_bytes(42), 2) == 42
    assert to_int(b"\x00\x00\x00\x00\x00\x07", 2) == 7


@pytest.mark.parametrize("fn, data", [(to_long, b"\x00" * 7), (to_int, b"\x00" * 3),
                                      (to_short, b"\x00"), (to_long, b"\x00" * 9)])
def test_too_few_bytes_is_illegal_argument(fn, data):
    offset = 2 if len(data) == 9 else 0
    with pytest.raises(InvalidArgumentError, match="IllegalArgumentException"):
        fn(data, offset)


# -- to_string_binary / to_bytes_binary --------------------------------------------------------


def test_to_string_binary_escapes_like_java():
    assert to_string_binary(b"row-1") == "row-1"
    assert to_string_binary(b"\x00\x7f\x80\xff") == "\\x00\\x7F\\x80\\xFF"
    assert to_string_binary(b"a\\b") == "a\\x5Cb"  # the backslash is escaped
    assert to_string_binary(b" ~") == " ~"
    assert to_string_binary(to_bytes(1)) == "\\x00" * 7 + "\\x01"
    assert to_string_binary(None) == "null"
    assert to_string_binary(b"") == ""


def test_to_string_binary_printable_set_is_ascii_space_to_tilde_but_backslash():
    printable = {c for c in range(256) if len(to_string_binary(bytes([c]))) == 1}
    assert printable == set(range(0x20, 0x7F)) - {0x5C}


@given(st.binary(max_size=40))
def test_to_bytes_binary_inverts_to_string_binary(data):
    assert to_bytes_binary(to_string_binary(data)) == data


def test_to_bytes_binary_odd_inputs():
    # Only upper-case hex digits make an escape; otherwise just the backslash is dropped.
    assert to_bytes_binary("\\xff") == b"xff"
    assert to_bytes_binary("\\x0A") == b"\n"
    assert to_bytes_binary("a\\b") == b"a\\b"
    with pytest.raises(InvalidArgumentError):
        to_bytes_binary("ab\\x4")


# -- Bytes.split -------------------------------------------------------------------------------


def test_split_reproduces_the_seed_table():
    rows = split(b"0" * 16, b"f" * 16, 7)
    assert rows == [java_bytes(r) for r in SEED_SPLIT_ROWS]
    assert bytes(r[0] for r in rows) == b"06=DKRX_f"


def test_split_too_small_range_pads_both_keys():
    assert split(b"aaa", b"aab", 1) == [b"aaa\x00", b"aaa\x80", b"aab\x00"]


def test_split_pads_twice_when_one_byte_is_not_enough():
    keys = split(b"a", b"a\x01", 300)
    assert keys[0] == b"a\x00\x00\x00" and keys[-1] == b"a\x01\x00\x00"
    assert len(keys) == 302 and all(len(k) == 4 for k in keys)
    assert keys == sorted(set(keys))


def test_split_pads_the_shorter_key_but_returns_the_originals():
    assert split(b"a", b"b\x00\x00", 1) == [b"a", b"a\x80\x00", b"b\x00\x00"]
    assert split(b"b", b"c\x00", 1) == [b"b", b"b\x80", b"c\x00"]
    assert split(b"b", b"c", 1) == [b"b\x00", b"b\x80", b"c\x00"]  # gap 1 < 2: padded


def test_split_inclusive_counts_the_end():
    keys = split(b"", b"\xff" * 8, 9, inclusive=True)
    assert keys[0] == b"" and keys[-1] == b"\xff" * 8
    assert keys[1].hex() == "1999999999999999" and keys[9].hex() == "e666666666666661"
    assert split(b"\x00", b"\x04", 3) == [b"\x00", b"\x01", b"\x02", b"\x03", b"\x04"]
    assert split(b"\x00", b"\x04", 3, inclusive=True)[1:-1] == [b"\x01", b"\x02", b"\x03"]


def test_split_errors():
    with pytest.raises(InvalidArgumentError, match="b <= a"):
        split(b"b", b"a", 1)
    with pytest.raises(InvalidArgumentError, match="b <= a"):
        split(b"a", b"a\x00", 1)  # equal once padded
    with pytest.raises(InvalidArgumentError, match="num cannot be <= 0"):
        split(b"a", b"b", 0)


@given(st.binary(max_size=6), st.binary(max_size=6), st.integers(1, 40), st.booleans())
def test_split_is_sorted_inside_the_padded_range(a, b, num, inclusive):
    width = max(len(a), len(b))
    if a.ljust(width, b"\0") >= b.ljust(width, b"\0"):
        return
    keys = split(a, b, num, inclusive)
    assert len(keys) == num + 2
    assert keys[1:-1] == sorted(set(keys[1:-1]))
    assert keys[0] < keys[1]
    # inclusive: the range's last step may land exactly on b (Bytes.iterateOnSplits with
    # inclusive=true adds 1 to the range), e.g. split(b"b", b"u", 19, True)[-2] == b"u"
    if inclusive:
        assert keys[-2] <= keys[-1]
    else:
        assert keys[-2] < keys[-1]


# -- RegionSplitter ----------------------------------------------------------------------------


def test_hex_string_split_ten_regions():
    assert HexStringSplit().split(10) == [
        b"19999999", b"33333332", b"4ccccccb", b"66666664", b"7ffffffd",
        b"99999996", b"b333332f", b"ccccccc8", b"e6666661"]


def test_decimal_string_split_ten_regions():
    assert DecimalStringSplit().split(10) == [b"%d0000000" % i for i in range(1, 10)]


def test_uniform_split_ten_regions():
    keys = UniformSplit().split(10)
    assert [k.hex() for k in keys] == [
        "1999999999999999", "3333333333333332", "4ccccccccccccccb", "6666666666666664",
        "7ffffffffffffffd", "9999999999999996", "b33333333333332f", "ccccccccccccccc8",
        "e666666666666661"]


def test_algorithms_are_reexported_from_bytes():
    from hsim import presplit

    assert hb.HexStringSplit is presplit.HexStringSplit
    assert hb.admin_split_keys is presplit.admin_split_keys
    with pytest.raises(AttributeError):
        hb.NoSuchThing  # noqa: B018


def test_first_and_last_rows():
    assert HexStringSplit().first_row() == b"00000000"
    assert HexStringSplit().last_row() == b"ffffffff"  # BigInteger.toString(16) is lower case
    assert DecimalStringSplit().last_row() == b"99999999"
    assert UniformSplit().first_row() == b"" and UniformSplit().last_row() == b"\xff" * 8


def test_configured_rows():
    assert HexStringSplit(first_row="0000", last_row="ffff").split(4) == [
        b"4000", b"8000", b"c000"]
    # The last row sets the width; the first row is parsed as a number.
    assert HexStringSplit(first_row="10", last_row="0000001f").split(2) == [b"00000018"]
    assert DecimalStringSplit(last_row="999").split(4) == [b"250", b"500", b"750"]
    # Inclusive: the gap a..b is 2, enough for one key without padding.
    assert UniformSplit(first_row=b"a", last_row=b"b").split(2) == [b"b"]
    # A str row of UniformSplit is read as toStringBinary text.
    assert UniformSplit(first_row="\\x00", last_row="\\x10").split(2) == [b"\x08"]
    s = HexStringSplit()
    s.set_last_row(b"FF")
    assert s.split(2) == [b"80"]


def test_split_points():
    assert HexStringSplit().split_point(b"00000000", b"80000000") == b"40000000"
    assert HexStringSplit().split_point(b"", b"") == b"7fffffff"  # empty = first/last row
    assert DecimalStringSplit().split_point(b"20000000", b"30000001") == b"25000000"
    assert UniformSplit().split_point(b"a", b"c") == b"b"
    assert UniformSplit().split_point(b"", b"") == b"\x7f" + b"\xff" * 7
    assert UniformSplit().split_point(b"a", b"b") == b"a\x80"


def test_region_splitter_errors():
    with pytest.raises(InvalidArgumentError, match="less than first row"):
        HexStringSplit(first_row="ff", last_row="0f").split(2)
    with pytest.raises(InvalidArgumentError, match="granularity"):
        HexStringSplit(last_row="0000000f").split(17)
    assert HexStringSplit(last_row="0000000f").split(16)[0] == b"00000001"
    with pytest.raises(InvalidArgumentError):
        HexStringSplit().split(0)
    with pytest.raises(InvalidArgumentError, match="base-16"):
        HexStringSplit(first_row="xyz")
    with pytest.raises(InvalidArgumentError, match="base-10"):
        DecimalStringSplit(last_row="9a")
    with pytest.raises(InvalidArgumentError, match="less than first row"):
        UniformSplit(last_row=b"").split(3)
    with pytest.raises(InvalidArgumentError):
        UniformSplit().split(1)  # Bytes.split with num 0, as in HBase
    with pytest.raises(InvalidArgumentError):
        HexStringSplit().split_point(b"00000000", b"00000000")


# -- Admin.createTable(desc, startKey, endKey, numRegions) -------------------------------------


def test_admin_split_keys_match_the_seed():
    keys = admin_split_keys(b"0" * 16, b"f" * 16, 10)
    assert keys == [java_bytes(r) for r in SEED_SPLIT_ROWS]
    assert admin_split_keys("0" * 16, "f" * 16, 10) == keys  # str keys are UTF-8


def test_admin_split_keys_three_regions_and_errors():
    assert admin_split_keys(b"a", b"z", 3) == [b"a", b"z"]
    assert admin_split_keys(b"a", b"z", 5) == [b"a", b"i", b"q", b"z"]
    with pytest.raises(InvalidArgumentError, match="at least three regions"):
        admin_split_keys(b"a", b"z", 2)
    with pytest.raises(InvalidArgumentError, match="smaller than end key"):
        admin_split_keys(b"z", b"a", 4)
    with pytest.raises(InvalidArgumentError, match="smaller than end key"):
        admin_split_keys(b"a", b"a", 4)
