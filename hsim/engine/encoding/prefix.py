"""PREFIX (PrefixKeyDeltaEncoder, id 2): each key as its common prefix with the previous key.

Per cell: `compressedInt(keyLength - common) compressedInt(valueLength) compressedInt(common)
key[common:] value`, where `common` is findCommonPrefixInFlatKey with the timestamp and type
(the first cell of a block: 0). Then the tags and memstore timestamp (buffered.py).
"""

from __future__ import annotations

from hsim.cell import SHORT, TIMESTAMP_TYPE
from hsim.engine.encoding.buffered import BufferedEncoder
from hsim.engine.encoding.data_block_encoder import (
    compressed_int,
    flat_key_common_prefix,
    read_compressed_int,
)

_pack_tstype = TIMESTAMP_TYPE.pack


class PrefixKeyDeltaEncoder(BufferedEncoder):
    """DATA_BLOCK_ENCODING PREFIX (PrefixKeyDeltaEncoder): each key stored as the length of the
    prefix it shares with the previous key plus the rest."""

    name = "PREFIX"
    id = 2

    def encode_cell(self, cell, prev):
        row, fam, qual, nts, ntype, _seq, value, _ttl = cell
        tstype = _pack_tstype(-nts, -ntype)
        key = b"".join((SHORT.pack(len(row)), row, bytes((len(fam),)), fam, qual,
                        tstype))
        klen = len(key)
        common = 0 if prev is None else flat_key_common_prefix(
            row, qual, tstype, prev[0], prev[1], prev[2], len(fam), True)
        delta = b"".join((compressed_int(klen - common), compressed_int(len(value)),
                          compressed_int(common), key[common:], value))
        return delta, (row, qual, tstype, key), 8 + klen + len(value)

    def decode_key(self, buf, pos, state):
        rest, pos = read_compressed_int(buf, pos)
        vlen, pos = read_compressed_int(buf, pos)
        common, pos = read_compressed_int(buf, pos)
        end = pos + rest
        key = state["key"][:common] + bytes(buf[pos:end]) if common else bytes(buf[pos:end])
        state["key"] = key
        rlen = key[0] << 8 | key[1]
        flen = key[2 + rlen]
        fend = 3 + rlen + flen
        ts, code = TIMESTAMP_TYPE.unpack_from(key, len(key) - 9)
        return (key[2:2 + rlen], key[3 + rlen:fend], key[fend:-9], ts, code,
                bytes(buf[end:end + vlen]), end + vlen)
