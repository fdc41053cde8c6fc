"""Data block encodings (HBase's DataBlockEncoding): one encoder per file, NONE among them.

| name | HBase class | id |
| --- | --- | --- |
| NONE | NoOpDataBlockEncoder | 0 |
| PREFIX | PrefixKeyDeltaEncoder | 2 |
| DIFF | DiffKeyDeltaEncoder | 3 |
| FAST_DIFF | FastDiffDeltaEncoder | 4 |
| ROW_INDEX_V1 | RowIndexCodecV1 | 7 |
"""

from __future__ import annotations

from hsim.engine.encoding.data_block_encoder import ID_SIZE, DataBlockEncoder
from hsim.engine.encoding.diff import DiffKeyDeltaEncoder
from hsim.engine.encoding.fast_diff import FastDiffDeltaEncoder
from hsim.engine.encoding.none import NoneEncoder
from hsim.engine.encoding.prefix import PrefixKeyDeltaEncoder
from hsim.engine.encoding.row_index_v1 import RowIndexCodecV1

ENCODERS: dict[str, DataBlockEncoder] = {e.name: e for e in (
    NoneEncoder(), PrefixKeyDeltaEncoder(), DiffKeyDeltaEncoder(), FastDiffDeltaEncoder(),
    RowIndexCodecV1())}
BY_ID: dict[int, DataBlockEncoder] = {e.id: e for e in ENCODERS.values()}

__all__ = ["BY_ID", "ENCODERS", "ID_SIZE", "DataBlockEncoder"]
