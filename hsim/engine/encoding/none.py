"""NONE (NoOpDataBlockEncoder, id 0): the block is the KeyValues themselves.

The HFile writer's loop writes each cell's KeyValue bytes into the block (it builds them for
every encoding's unencoded size anyway), so NONE needs no per-cell writer; reading is
block.decode_cells, and a Get binary-searches the writer's cell offsets (block_seek) when it has
them.
"""

from __future__ import annotations

from hsim.engine.block import decode_cells
from hsim.engine.encoding.data_block_encoder import DataBlockEncoder


class NoneEncoder(DataBlockEncoder):
    """DATA_BLOCK_ENCODING NONE: plain KeyValues, which the HFile writer builds itself (no block
    writer); the reader decodes them here like any encoding."""

    name = "NONE"
    id = 0

    def block_writer(self, include_tags: bool, include_mvcc: bool) -> None:
        return None

    def decode(self, body, include_tags: bool, include_mvcc: bool, plain: bool = False) -> list:
        return decode_cells(body, include_tags, include_mvcc, plain)

    def block(self, body, include_tags: bool, include_mvcc: bool) -> list:
        return decode_cells(body, include_tags, include_mvcc)
