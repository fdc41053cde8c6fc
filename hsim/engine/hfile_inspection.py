"""What `hsim hfile`, the store views and the tests read of an HFile: every cell, every block
as its header describes it, every index entry; no cache and no counters (HFilePrettyPrinter's
view, not a read). A mixin of HFileReader."""

from __future__ import annotations

from dataclasses import dataclass

from hsim.cell import Cell
from hsim.engine.block import read_block, read_header
from hsim.engine.block_index import parse_non_root


@dataclass(frozen=True)
class BlockRecord:
    """One block of a file as its header describes it (plus, for data blocks, its cells)."""

    offset: int
    block_type: str  # the magic, e.g. "DATABLK*"
    on_disk_size: int  # header + compressed body + checksums
    uncompressed_size: int  # body, uncompressed, without header
    first_cell: Cell | None = None
    cell_count: int = 0


class HFileInspection:
    """HFileReader's inspection methods (it provides data, _offsets, _on_disk, _uncompressed,
    _headers, _root_*, index_levels, _decompress and _decode)."""

    def cells(self, plain: bool = False):
        """Every cell of the file, block by block (no cache, no counters); `plain`: as field
        tuples (see decode_cells)."""
        for off in self._offsets:
            _, body = read_block(self.data, off, self._decompress)
            yield from self._decode(body, plain)

    def blocks(self) -> list[BlockRecord]:
        """The data blocks: offset, sizes, first cell and cell count."""
        out = []
        for off, size, body_size in zip(self._offsets, self._on_disk, self._uncompressed):
            _, body = read_block(self.data, off, self._decompress)
            cells = self._decode(body)
            out.append(BlockRecord(off, read_header(self.data, off)[0].decode(), size, body_size,
                                   cells[0] if cells else None, len(cells)))
        return out

    def all_blocks(self) -> list[BlockRecord]:
        """Every block of the file in order, as its header describes it."""
        return [BlockRecord(off, magic.decode("latin-1"), size, body)
                for off, magic, size, body in self._headers]

    def index_entries(self) -> list[tuple[int, int, int, tuple]]:
        """(level, offset, on-disk size, key 5-tuple) of every index entry, root level first
        (level 1 = root); no cache, no counters."""
        out = [(1, o, s, k) for k, o, s in zip(self._root_keys, self._root_offsets,
                                                 self._root_sizes)]
        level_offsets = list(self._root_offsets)
        for level in range(2, self.index_levels + 1):
            nxt = []
            for off in level_offsets:
                _, body = read_block(self.data, off, self._decompress)
                keys, offsets, sizes = parse_non_root(body)
                out.extend((level, o, s, k) for k, o, s in zip(keys, offsets, sizes))
                nxt.extend(offsets)
            level_offsets = nxt
        return out
