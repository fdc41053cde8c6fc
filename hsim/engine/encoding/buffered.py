"""BufferedDataBlockEncoder: what PREFIX, DIFF and FAST_DIFF share.

Their block body (after the 2-byte id) is `unencodedSize:4` (the block's KeyValue bytes, as
NONE would write them; endBlockEncoding fills it in) then the cells, each the encoder's key and
value delta followed by afterEncodingKeyValue's part: with tags, the tags length as a compressed
int and the tags through TagCompressionContext (COMPRESS_TAGS, HBase's default, on for every
encoded file); with memstore timestamps, the sequence id as a Hadoop vlong.
"""

from __future__ import annotations

import struct

from hsim.cell import NO_TTL
from hsim.engine.block import read_vlong
from hsim.engine.encoding.data_block_encoder import (
    BlockWriter,
    DataBlockEncoder,
    TagDictionary,
    compress_tags,
    compressed_int,
    read_compressed_int,
    uncompress_tags,
)

_INT = struct.Struct(">i")
_new = tuple.__new__


class BufferedBlockWriter(BlockWriter):
    """The per-block state: the cells so far, the previous cell, the tag dictionary."""

    def __init__(self, encoder, include_tags: bool, include_mvcc: bool):
        self.encoder = encoder
        self.include_tags = include_tags
        self.include_mvcc = include_mvcc
        self.parts: list[bytes] = []
        self.prev = None  # the encoder's record of the previous cell
        self.unencoded = 0
        self.tags = TagDictionary() if include_tags else None

    def add(self, cell, tail: bytes, vl: bytes) -> int:
        delta, self.prev, kv_size = self.encoder.encode_cell(cell, self.prev)
        parts = self.parts
        n = len(parts)
        parts.append(delta)
        if self.include_tags:
            tags_len = len(tail) - 2
            parts.append(compressed_int(tags_len))
            if tags_len:
                parts.append(compress_tags(tail[2:], self.tags))
            kv_size += len(tail)
        if vl:
            parts.append(vl)
            kv_size += len(vl)
        self.unencoded += kv_size
        return sum(map(len, parts[n:]))

    def finish(self) -> bytes:
        return _INT.pack(self.unencoded) + b"".join(self.parts)


class BufferedEncoder(DataBlockEncoder):
    """A subclass gives `encode_cell(cell, prev) -> (bytes, new prev, KeyValue size without
    tags and mvcc)` and `decode_key(buf, pos, state) -> (row, family, qualifier, ts, type,
    value, pos)` (state: a dict the decoder keeps between the cells of one block)."""

    def block_writer(self, include_tags: bool, include_mvcc: bool) -> BufferedBlockWriter:
        return BufferedBlockWriter(self, include_tags, include_mvcc)

    def walk(self, body, include_tags: bool, include_mvcc: bool):
        """The cells of a body in order, as field tuples (internalDecodeKeyValues)."""
        pos = 4  # past the unencoded size
        end = len(body)
        state: dict = {}
        tags = TagDictionary() if include_tags else None
        decode_key = self.decode_key
        ttl = NO_TTL
        seq = 0
        while pos < end:
            row, fam, qual, ts, code, value, pos = decode_key(body, pos, state)
            if include_tags:
                tags_len, pos = read_compressed_int(body, pos)
                ttl = NO_TTL
                if tags_len:
                    ttl, pos = uncompress_tags(body, pos, tags_len, tags)
            if include_mvcc:
                seq, pos = read_vlong(body, pos)
            yield (row, fam, qual, -ts, -code, -seq, value, ttl)

    def decode(self, body, include_tags: bool, include_mvcc: bool, plain: bool = False) -> list:
        cells = self.walk(body, include_tags, include_mvcc)
        if plain:
            return list(cells)
        from hsim.cell import Cell
        return [_new(Cell, t) for t in cells]

    def seek_row(self, body, row: bytes, include_tags: bool, include_mvcc: bool):
        """BufferedEncodedSeeker.seekToKeyInBlock for a row: decode from the block's first
        cell, keep the row's cells, stop at the first cell past it."""
        from hsim.cell import Cell
        out = []
        for t in self.walk(body, include_tags, include_mvcc):
            r = t[0]
            if r == row:
                out.append(_new(Cell, t))
            elif r > row:
                return out, False
        return out, True
