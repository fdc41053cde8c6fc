"""ROW_INDEX_V1 (RowIndexCodecV1 / RowIndexEncoderV1 / RowIndexSeekerV1, id 7).

The block body (after the 2-byte id) is the cells as NONE writes them (`keyLen:4 valueLen:4 key
value [tagsLen:2 tags] [mvcc vlong]`, tags never compressed), then `rowCount:4`, the offset of
each row's first cell from the first cell (`:4` each), then the cells' size `:4`. A seek
bisects the row offsets and decodes only that row's cells. A block's encoded size counts each
row's 4-byte offset, so its blocks close a little before NONE's would.
"""

from __future__ import annotations

import struct

from hsim.cell import KV_HEAD, TIMESTAMP_TYPE
from hsim.engine.block import decode_cells
from hsim.engine.block_seek import SeekableBlock
from hsim.engine.encoding.data_block_encoder import BlockWriter, DataBlockEncoder

_INT = struct.Struct(">i")
_pack_head = KV_HEAD.pack
_pack_tstype = TIMESTAMP_TYPE.pack


class RowIndexBlockWriter(BlockWriter):
    """One ROW_INDEX_V1 block being written: plain KeyValues, then the offset of each row's first
    cell, so a reader binary-searches rows."""
    def __init__(self):
        self.parts: list[bytes] = []
        self.size = 0
        self.row_offsets: list[int] = []
        self.last_row = None

    def add(self, cell, tail: bytes, vl: bytes) -> int:
        row, fam, qual, nts, ntype, _seq, value, _ttl = cell
        before = self.size
        if row != self.last_row:  # RowIndexEncoderV1.checkRow: a new row
            self.row_offsets.append(before)
            self.last_row = row
            before -= 4  # the row's offset counts as encoded bytes (extraBytesForRowIndex)
        self.parts.extend((_pack_head(12 + len(row) + len(fam) + len(qual), len(value), len(row)),
                           row, bytes((len(fam),)), fam, qual, _pack_tstype(-nts, -ntype), value,
                           tail, vl))
        self.size += 20 + len(row) + len(fam) + len(qual) + len(value) + len(tail) + len(vl)
        return self.size - before  # the KeyValue, plus 4 when it opens a row

    def finish(self) -> bytes:
        offsets = self.row_offsets
        return b"".join((b"".join(self.parts), _INT.pack(len(offsets)),
                         struct.pack(">%di" % len(offsets), *offsets), _INT.pack(self.size)))


class RowIndexCodecV1(DataBlockEncoder):
    """DATA_BLOCK_ENCODING ROW_INDEX_V1 (RowIndexCodecV1): KeyValues unchanged plus a row index at
    the block's end."""

    name = "ROW_INDEX_V1"
    id = 7

    def block_writer(self, include_tags: bool, include_mvcc: bool) -> RowIndexBlockWriter:
        return RowIndexBlockWriter()

    def decode(self, body, include_tags: bool, include_mvcc: bool, plain: bool = False) -> list:
        size = _INT.unpack_from(body, len(body) - 4)[0]
        return decode_cells(body[:size], include_tags, include_mvcc, plain)

    def block(self, body, include_tags: bool, include_mvcc: bool) -> SeekableBlock:
        """A cached block as RowIndexSeekerV1 reads it: the cells' bytes and the offset of
        each row's first cell, bisected by row (block_seek.SeekableBlock, one offset a row)."""
        size = _INT.unpack_from(body, len(body) - 4)[0]
        n = _INT.unpack_from(body, size)[0]
        return SeekableBlock(body[:size], struct.unpack_from(">%di" % n, body, size + 4),
                             include_tags, include_mvcc)
