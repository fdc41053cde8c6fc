"""DIFF (DiffKeyDeltaEncoder, id 3): the family once a block, flags, and timestamps as diffs.

A block's first cell starts with `famLen:1 family`. Each cell: `flag:1` (bit 0 same key length,
1 same value length, 2 same type, 3 timestamp is a diff, 4-6 timestamp bytes - 1, 7 sign),
`compressedInt(keyLength)` unless the same, `compressedInt(valueLength)` unless the same,
`compressedInt(common)` (findCommonPrefixInFlatKey without timestamp and type); if the row
differs: `rowLen:2 row` from byte `common` on, then the qualifier; else the qualifier past its
common part. Then the timestamp, or its difference from the previous one when that takes fewer
bytes (ByteBufferUtils.longFitsIn, written low byte first), the type unless the same, the value.
"""

from __future__ import annotations

from hsim.cell import SHORT
from hsim.engine.encoding.buffered import BufferedEncoder
from hsim.engine.encoding.data_block_encoder import (compressed_int, flat_key_common_prefix,
                                                     read_lengths)

FLAG_SAME_KEY_LENGTH = 1
FLAG_SAME_VALUE_LENGTH = 1 << 1
FLAG_SAME_TYPE = 1 << 2
FLAG_TIMESTAMP_IS_DIFF = 1 << 3
SHIFT_TIMESTAMP_LENGTH = 4
FLAG_TIMESTAMP_SIGN = 1 << 7


def long_fits_in(value: int) -> int:
    """ByteBufferUtils.longFitsIn: bytes needed for a non-negative long (8 for a negative)."""
    if value < 0:
        return 8
    return max(1, (value.bit_length() + 7) >> 3)


class DiffKeyDeltaEncoder(BufferedEncoder):
    """DATA_BLOCK_ENCODING DIFF (DiffKeyDeltaEncoder): each key stored as what differs from the
    previous one, with flags saying which parts are shared."""

    name = "DIFF"
    id = 3

    def encode_cell(self, cell, prev):
        row, fam, qual, nts, ntype, _seq, value, _ttl = cell
        ts = -nts
        code = -ntype
        rlen = len(row)
        flen = len(fam)
        klen = 12 + rlen + flen + len(qual)
        vlen = len(value)
        out = []
        flag = 0
        if prev is None:
            common = 0
            t = ts
            if t < 0:
                flag |= FLAG_TIMESTAMP_SIGN
                t = -t
            n = long_fits_in(t)
            flag |= (n - 1) << SHIFT_TIMESTAMP_LENGTH
            out.append(bytes((flen,)) + fam)
        else:
            p_row, p_qual, p_ts, p_code, p_klen, p_vlen = prev
            common = flat_key_common_prefix(row, qual, b"", p_row, p_qual, b"", flen, False)
            if klen == p_klen:
                flag |= FLAG_SAME_KEY_LENGTH
            if vlen == p_vlen:
                flag |= FLAG_SAME_VALUE_LENGTH
            if code == p_code:
                flag |= FLAG_SAME_TYPE
            diff = p_ts - ts
            t = -ts if ts < 0 else ts
            n = long_fits_in(t)
            d = -diff if diff < 0 else diff
            dn = long_fits_in(d)
            if dn < n:
                flag |= (dn - 1) << SHIFT_TIMESTAMP_LENGTH | FLAG_TIMESTAMP_IS_DIFF
                if diff < 0:
                    flag |= FLAG_TIMESTAMP_SIGN
                t, n = d, dn
            else:
                flag |= (n - 1) << SHIFT_TIMESTAMP_LENGTH
                if ts < 0:
                    flag |= FLAG_TIMESTAMP_SIGN
        out.append(bytes((flag,)))
        if not flag & FLAG_SAME_KEY_LENGTH:
            out.append(compressed_int(klen))
        if not flag & FLAG_SAME_VALUE_LENGTH:
            out.append(compressed_int(vlen))
        append_row_qualifier(out, common, row, qual, flen)
        out.append((t & 0xFFFFFFFFFFFFFFFF).to_bytes(8, "little")[:n])
        if not flag & FLAG_SAME_TYPE:
            out.append(bytes((code,)))
        out.append(value)
        return b"".join(out), (row, qual, ts, code, klen, vlen), 8 + klen + vlen

    def decode_key(self, buf, pos, state):
        if not state:
            flen = buf[pos]
            state["fam"] = bytes(buf[pos + 1: pos + 1 + flen])
            pos += 1 + flen
            state["row"] = state["qual"] = b""
            state["ts"] = state["type"] = state["klen"] = state["vlen"] = 0
        fam = state["fam"]
        flag = buf[pos]
        pos += 1
        klen, vlen, common, pos = read_lengths(buf, pos, flag, FLAG_SAME_KEY_LENGTH,
                                               FLAG_SAME_VALUE_LENGTH, state)
        row, qual, pos = rebuild_row_qualifier(buf, pos, common, klen, state["row"],
                                               state["qual"], len(fam))
        n = ((flag >> SHIFT_TIMESTAMP_LENGTH) & 7) + 1
        t = int.from_bytes(buf[pos:pos + n], "little")
        if n == 8 and t >= 1 << 63:
            t -= 1 << 64
        pos += n
        if flag & FLAG_TIMESTAMP_SIGN:
            t = -t
        ts = state["ts"] - t if flag & FLAG_TIMESTAMP_IS_DIFF else t
        if flag & FLAG_SAME_TYPE:
            code = state["type"]
        else:
            code = buf[pos]
            pos += 1
        value = bytes(buf[pos:pos + vlen])
        state.update(row=row, qual=qual, ts=ts, type=code, klen=klen, vlen=vlen)
        return row, fam, qual, ts, code, value, pos + vlen


def append_row_qualifier(out: list, common: int, row: bytes, qual: bytes, flen: int) -> None:
    """`compressedInt(common)`, then the row (with its length) from flat-key byte `common` and
    the qualifier, or the qualifier past its common part when the row is shared: the key's
    parts as DIFF and FAST_DIFF write them (`rebuild_row_qualifier` reads them back)."""
    out.append(compressed_int(common))
    rlen = len(row)
    if common < rlen + 2:
        out.append((SHORT.pack(rlen) + row)[common:])
        out.append(qual)
    else:
        out.append(qual[common - rlen - 3 - flen:])


def rebuild_row_qualifier(buf, pos, common, klen, prev_row, prev_qual, flen):
    """Row and qualifier from the previous key's first `common` flat-key bytes and what follows
    (shared by DIFF and FAST_DIFF, whose key parts are laid out alike); returns (row,
    qualifier, position after them)."""
    prev_len = len(prev_row)
    if common < prev_len + 2:
        head = (SHORT.pack(prev_len) + prev_row)[:common]
        if common < 2:
            head += bytes(buf[pos:pos + 2 - common])
            pos += 2 - common
            rlen = head[0] << 8 | head[1]
            row = bytes(buf[pos:pos + rlen])
            pos += rlen
        else:
            rlen = prev_len
            row = head[2:] + bytes(buf[pos:pos + rlen + 2 - common])
            pos += rlen + 2 - common
        qend = pos + klen - rlen - flen - 12
        return row, bytes(buf[pos:qend]), qend
    qc = common - prev_len - 3 - flen
    qend = pos + klen - common - 9
    return prev_row, prev_qual[:qc] + bytes(buf[pos:qend]), qend
