"""FAST_DIFF (FastDiffDeltaEncoder, id 4): DIFF's idea with cheaper decoding.

A block's first cell: `flag:1 = 0, compressedInt(keyLength) compressedInt(valueLength)
compressedInt(0)`, its whole flat key, its value. Every later cell: `flag:1` (bits 0-2 how many
leading timestamp bytes it shares with the previous cell's, 3 same key length, 4 same value
length, 5 same type, 6 same value), the key and value lengths unless the same, `common`
(findCommonPrefixInFlatKey without timestamp and type), then as DIFF the row from byte
`common` and the qualifier (the family is never repeated), the timestamp's unshared bytes, the
type unless the same, the value unless the same.
"""

from __future__ import annotations

from hsim.cell import SHORT, TIMESTAMP_TYPE
from hsim.engine.encoding.buffered import BufferedEncoder
from hsim.engine.encoding.data_block_encoder import (common_prefix, compressed_int,
                                                     flat_key_common_prefix, read_lengths)
from hsim.engine.encoding.diff import append_row_qualifier, rebuild_row_qualifier

MASK_TIMESTAMP_LENGTH = 7
FLAG_SAME_KEY_LENGTH = 1 << 3
FLAG_SAME_VALUE_LENGTH = 1 << 4
FLAG_SAME_TYPE = 1 << 5
FLAG_SAME_VALUE = 1 << 6

_pack_tstype = TIMESTAMP_TYPE.pack
_unpack_tstype = TIMESTAMP_TYPE.unpack


class FastDiffDeltaEncoder(BufferedEncoder):
    """DATA_BLOCK_ENCODING FAST_DIFF (FastDiffDeltaEncoder): DIFF's key deltas, plus a flag for a
    value equal to the previous cell's."""

    name = "FAST_DIFF"
    id = 4

    def encode_cell(self, cell, prev):
        row, fam, qual, nts, ntype, _seq, value, _ttl = cell
        tstype = _pack_tstype(-nts, -ntype)
        rlen = len(row)
        flen = len(fam)
        klen = 12 + rlen + flen + len(qual)
        vlen = len(value)
        record = (row, qual, tstype, value, klen)
        if prev is None:
            delta = b"".join((b"\x00", compressed_int(klen), compressed_int(vlen), b"\x00",
                              SHORT.pack(rlen), row, bytes((flen,)), fam, qual, tstype, value))
            return delta, record, 8 + klen + vlen
        p_row, p_qual, p_tstype, p_value, p_klen = prev
        common = flat_key_common_prefix(row, qual, b"", p_row, p_qual, b"", flen, False)
        flag = common_prefix(tstype[:7], p_tstype[:7])
        if klen == p_klen:
            flag |= FLAG_SAME_KEY_LENGTH
        same_vlen = vlen == len(p_value)
        if same_vlen:
            flag |= FLAG_SAME_VALUE_LENGTH
            if value == p_value:
                flag |= FLAG_SAME_VALUE
        if tstype[8] == p_tstype[8]:
            flag |= FLAG_SAME_TYPE
        out = [bytes((flag,))]
        if not flag & FLAG_SAME_KEY_LENGTH:
            out.append(compressed_int(klen))
        if not same_vlen:
            out.append(compressed_int(vlen))
        append_row_qualifier(out, common, row, qual, flen)
        out.append(tstype[flag & MASK_TIMESTAMP_LENGTH:8])
        if not flag & FLAG_SAME_TYPE:
            out.append(tstype[8:])
        if not flag & FLAG_SAME_VALUE:
            out.append(value)
        return b"".join(out), record, 8 + klen + vlen

    def decode_key(self, buf, pos, state):
        flag = buf[pos]
        pos += 1
        klen, vlen, common, pos = read_lengths(buf, pos, flag, FLAG_SAME_KEY_LENGTH,
                                               FLAG_SAME_VALUE_LENGTH, state)
        if not state:  # the block's first cell: its flat key whole
            rlen = buf[pos] << 8 | buf[pos + 1]
            row = bytes(buf[pos + 2:pos + 2 + rlen])
            flen = buf[pos + 2 + rlen]
            fstart = pos + 3 + rlen
            fam = state["fam"] = bytes(buf[fstart:fstart + flen])
            kend = pos + klen
            qual = bytes(buf[fstart + flen:kend - 9])
            tstype = bytes(buf[kend - 9:kend])
            value = bytes(buf[kend:kend + vlen])
            pos = kend + vlen
        else:
            fam = state["fam"]
            row, qual, pos = rebuild_row_qualifier(buf, pos, common, klen, state["row"],
                                                   state["qual"], len(fam))
            shared = flag & MASK_TIMESTAMP_LENGTH
            p_tstype = state["tstype"]
            end = pos + 8 - shared
            ts_bytes = p_tstype[:shared] + bytes(buf[pos:end])
            pos = end
            if flag & FLAG_SAME_TYPE:
                tstype = ts_bytes + p_tstype[8:]
            else:
                tstype = ts_bytes + bytes(buf[pos:pos + 1])
                pos += 1
            if flag & FLAG_SAME_VALUE:
                value = state["value"]
            else:
                value = bytes(buf[pos:pos + vlen])
                pos += vlen
        state.update(row=row, qual=qual, tstype=tstype, value=value, klen=klen, vlen=vlen)
        ts, code = _unpack_tstype(tstype)
        return row, fam, qual, ts, code, value, pos
