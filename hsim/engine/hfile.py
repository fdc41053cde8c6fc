"""HFile v3 writer and reader: real bytes laid out as HBase lays them out.

    scanned section      data blocks, with leaf-index and bloom-chunk blocks written inline
                         at data-block boundaries
    non-scanned section  intermediate index blocks
    load-on-open         root index (+ mid-key metadata), meta index, file info, bloom metas
    trailer              4096 bytes

The writer follows HFileWriterImpl + StoreFileWriter: a data block is closed when its
uncompressed cell bytes reach BLOCKSIZE, checked *before* each new cell unless that cell's key
equals the previous one (so equal keys never straddle blocks); each closed block gets an index
entry keyed by getMidpoint(previous block's last cell, its first cell); the bloom, time range,
earliest put and delete-family count are tracked per cell.

The reader follows HFileReaderImpl: load-on-open on construction (not counted as I/O), then
every data, leaf/intermediate index and bloom block is fetched through the block cache with key
(file name, offset): a miss decodes the block and counts blocks_read and bytes_read (on-disk
size), a hit counts cache_hits. What is cached for a data block is its decoded list of cells,
accounted at its uncompressed size with header; that is what makes repeated reads fast.
"""

from __future__ import annotations

import struct
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from itertools import islice
from operator import itemgetter

from hsim.cell import LATEST_TIMESTAMP, NO_TTL, TTL_TAG_TYPE, Cell
from hsim.config import Config
from hsim.engine import block as blk
from hsim.engine.block import HEADER_SIZE, decode_cells, read_block, read_header, write_block
from hsim.engine.block_index import (
    BlockIndexWriter,
    first_on_row,
    get_midpoint,
    key_bytes,
    key_to_cell,
    parse_key,
    parse_mid_key_metadata,
    parse_non_root,
    parse_root,
    search_key,
)
from hsim.engine.bloom import CompoundBloomMeta, CompoundBloomWriter, rowcol_key
from hsim.engine.codecs import ALGORITHM_NAMES, ALGORITHM_ORDINALS, compressor, decompressor
from hsim.engine.trailer import (
    TRAILER_SIZE,
    FixedFileTrailer,
    file_info_bytes,
    parse_file_info,
    parse_time_range,
    time_range_bytes,
)
from hsim.schema import ColumnFamily

LONG_MAX = (1 << 63) - 1
_IIH = struct.Struct(">iiH")
_QB = struct.Struct(">qB")
_Q = struct.Struct(">q")
_I = struct.Struct(">i")
_TTL_TAGS = struct.Struct(">HHBq")
_NEG_LATEST = -LATEST_TIMESTAMP
_ROW = itemgetter(0)

# File info keys (HFileInfo, HStoreFile, HFileWriterImpl).
LASTKEY = b"hfile.LASTKEY"
AVG_KEY_LEN = b"hfile.AVG_KEY_LEN"
AVG_VALUE_LEN = b"hfile.AVG_VALUE_LEN"
CREATE_TIME_TS = b"hfile.CREATE_TIME_TS"
MAX_TAGS_LEN = b"hfile.MAX_TAGS_LEN"
TAGS_COMPRESSED = b"hfile.TAGS_COMPRESSED"
MAX_MEMSTORE_TS_KEY = b"MAX_MEMSTORE_TS_KEY"
KEY_VALUE_VERSION = b"KEY_VALUE_VERSION"
BLOOM_FILTER_TYPE = b"BLOOM_FILTER_TYPE"
LAST_BLOOM_KEY = b"LAST_BLOOM_KEY"
DELETE_FAMILY_COUNT = b"DELETE_FAMILY_COUNT"
MAX_SEQ_ID_KEY = b"MAX_SEQ_ID_KEY"
MAJOR_COMPACTION_KEY = b"MAJOR_COMPACTION_KEY"
TIMERANGE = b"TIMERANGE"
EARLIEST_PUT_TS = b"EARLIEST_PUT_TS"
# hsim's one addition: the exact KeyValue bytes of the file's cells (sum of serialized_size),
# which HBase does not record but the simulator reports.
KEYVALUE_BYTES = b"hsim.KEYVALUE_BYTES"

# Hadoop vlong bytes of a non-negative sequence id: one byte below 128, else a length byte.
_SMALL_VLONG = [bytes((i,)) for i in range(128)]
_VLONG_LEN = [b""] + [bytes(((-112 - n) & 0xFF,)) for n in range(1, 9)]


class HFileWriter:
    """Writes one HFile. `append(cell)` in Cell order, then `finish(...)` returns the bytes.

    Appends are `send`s of batches to a generator that keeps the whole per-cell state in local
    variables: the loop over a batch costs no attribute lookups or calls per cell; bloom keys
    are handed to the bloom writers in bulk at block boundaries."""

    def __init__(self, family: ColumnFamily, config: Config, *, include_tags: bool = False,
                 include_mvcc: bool = True, full_first_keys: bool = False):
        self.family = family
        self.config = config
        self.include_tags = include_tags
        self.include_mvcc = include_mvcc
        self.full_first_keys = full_first_keys
        self._compress = compressor(family.compression)
        self._parts: list[bytes] = []  # the file so far, block by block
        self._pos = 0
        self._prev_offset: dict[bytes, int] = {}
        self._total_uncompressed = 0
        self._first_data_offset = -1
        self._last_data_offset = -1
        self._last_of_prev_block = None
        self._index = BlockIndexWriter(config.index_chunk_size, config.index_min_entries)
        bloom_type = family.bloom_filter
        self._bloom = None if bloom_type == "NONE" else CompoundBloomWriter(
            bloom_type, config.bloom_error_rate, config.bloom_block_size, config.bloom_max_fold)
        # StoreFileWriter: a delete-family bloom only when there is no ROWCOL bloom.
        self._df_bloom = None if bloom_type == "ROWCOL" else CompoundBloomWriter(
            "ROW", config.bloom_error_rate, config.bloom_block_size, config.bloom_max_fold)
        self._stats = None
        self._gen = self._run()
        next(self._gen)
        self._send = self._gen.send

    def append(self, cell) -> None:
        self._send((cell,))

    def append_all(self, cells) -> None:
        """Append many cells: the per-cell loop runs over them without a call per cell."""
        self._send(cells)

    # --- the per-cell loop ------------------------------------------------------------------------

    def _run(self):
        block_size = self.family.block_size
        include_tags = self.include_tags
        include_mvcc = self.include_mvcc
        bloom = self._bloom
        rowcol = bloom is not None and bloom.bloom_type == "ROWCOL"
        df_bloom = self._df_bloom
        # The cells whose keys go into the blooms, handed over in bulk before each block
        # boundary (keys are added before the boundary check of the cell that opens a block).
        bloom_cells: list = []
        df_cells: list = []
        bloom_keep = bloom_cells.append if bloom is not None else None

        def feed_blooms():
            if bloom_cells:
                if rowcol:
                    keys = [rowcol_key(c[0], c[2]) for c in bloom_cells]
                else:
                    keys = list(map(_ROW, bloom_cells))
                bloom.add_many(keys, bloom_cells)
                bloom_cells.clear()
            if df_cells:
                df_bloom.add_many(list(map(_ROW, df_cells)), df_cells)
                df_cells.clear()
        finish_block = self._finish_block
        pack_head = _IIH.pack
        pack_tstype = _QB.pack
        pack_tags = _TTL_TAGS.pack
        small_vlong = _SMALL_VLONG
        vlong_len = _VLONG_LEN
        parts: list[bytes] = []
        extend = parts.extend
        block_bytes = 0
        first_in_block = None
        last = ()  # compares below every cell: the first needs no order check
        last_bloom_row = last_bloom_qual = last_df_row = None
        fam_obj = None
        fam_prefix = b""
        key_fixed = 0  # 12 + family length: the key bytes besides row and qualifier
        entries = total_key = total_value = tag_bytes = 0
        max_mvcc = max_tags_len = delete_family_count = 0
        min_ts, max_ts = LONG_MAX, -1  # TimeRangeTracker's initial range
        earliest_put = LATEST_TIMESTAMP
        tail = b""
        tail_len = 0
        vl = b""
        vl_len = 0
        while True:
            batch = yield
            if batch is None:
                break
            for cell in batch:
                row, fam, qual, nts, ntype, nseq, value, ttl = cell
                if cell < last:
                    raise ValueError(f"Added a key not lexically larger than previous. "
                                     f"Current cell = {cell!r}, lastCell = {last!r}")
                # StoreFileWriter.append: blooms first, then the HFile writer.
                if bloom_keep is not None:
                    if rowcol:
                        if row != last_bloom_row or qual != last_bloom_qual:
                            bloom_keep(cell)
                            last_bloom_row, last_bloom_qual = row, qual
                    elif row != last_bloom_row:
                        bloom_keep(cell)
                        last_bloom_row = row
                code = -ntype
                if code == 14 or code == 10:  # DeleteFamily, DeleteFamilyVersion
                    delete_family_count += 1
                    if df_bloom is not None and row != last_df_row:
                        df_cells.append(cell)
                        last_df_row = row
                # checkBlockBoundary, skipped when this cell's key equals the previous one
                if block_bytes >= block_size and not (
                        nts == last[3] and ntype == last[4] and qual == last[2]
                        and row == last[0] and fam == last[1]):
                    if bloom_cells or df_cells:
                        feed_blooms()
                    finish_block(parts, first_in_block, last)
                    parts = []
                    extend = parts.extend
                    block_bytes = 0
                    first_in_block = None
                if first_in_block is None:
                    first_in_block = cell
                if fam is not fam_obj:
                    if fam_obj is not None and fam != fam_obj:
                        raise ValueError(f"an HFile holds one family: {fam!r} after {fam_obj!r}")
                    fam_obj = fam
                    fam_prefix = bytes((len(fam),)) + fam
                    key_fixed = 12 + len(fam)
                # keylen:4 vallen:4 rowlen:2 row famlen:1 family qualifier ts:8 type:1 value
                #   [tagslen:2 tags] [mvcc vlong]
                rlen = len(row)
                vlen = len(value)
                klen = key_fixed + rlen + len(qual)
                if include_tags:
                    if ttl == NO_TTL:
                        tail = b"\x00\x00"
                        tail_len = 2
                    else:
                        tail = pack_tags(11, 9, TTL_TAG_TYPE, ttl)
                        tail_len = 13
                        tag_bytes += 13
                        max_tags_len = 11
                elif ttl != NO_TTL:
                    raise ValueError("a cell with a TTL tag needs a writer with include_tags=True")
                if include_mvcc:
                    seq = -nseq
                    if 0 <= seq < 128:
                        vl = small_vlong[seq]
                        vl_len = 1
                    elif seq > 0:
                        n = (seq.bit_length() + 7) >> 3
                        vl = vlong_len[n] + seq.to_bytes(n, "big")
                        vl_len = n + 1
                    else:
                        vl = blk.write_vlong(seq)
                        vl_len = len(vl)
                    if seq > max_mvcc:
                        max_mvcc = seq
                extend((pack_head(klen, vlen, rlen), row, fam_prefix, qual,
                        pack_tstype(-nts, code), value, tail, vl))
                block_bytes += 8 + klen + vlen + tail_len + vl_len
                entries += 1
                total_key += klen
                total_value += vlen
                ts = -nts
                if ts < min_ts:
                    min_ts = ts
                if ts > max_ts:
                    max_ts = ts
                if code == 4:
                    if ts < earliest_put:
                        earliest_put = ts
                elif (code == 12 or code == 14) and min_ts > 0:
                    min_ts = 0  # TimeRangeTracker: DeleteColumn/DeleteFamily cover [0, ts]
                last = cell
        if bloom_cells or df_cells:
            feed_blooms()
        if block_bytes:
            finish_block(parts, first_in_block, last)
        kv_bytes = 8 * entries + total_key + total_value + tag_bytes
        last = last or None
        self._stats = dict(
            entries=entries, total_key=total_key, total_value=total_value, kv_bytes=kv_bytes,
            max_mvcc=max_mvcc, max_tags_len=max_tags_len, min_ts=min_ts, max_ts=max_ts,
            earliest_put=earliest_put, delete_family_count=delete_family_count, last=last,
        )
        yield

    # --- blocks -----------------------------------------------------------------------------------

    def _write_block(self, magic: bytes, body: bytes) -> tuple[int, int]:
        """Append one block to the file; returns (offset, on-disk size with header)."""
        offset = self._pos
        data, _ = write_block(magic, body, self._compress, self._prev_offset.get(magic, -1),
                              self.config.bytes_per_checksum)
        self._parts.append(data)
        self._pos += len(data)
        self._prev_offset[magic] = offset
        self._total_uncompressed += HEADER_SIZE + len(body)
        return offset, len(data)

    def _finish_block(self, parts: list, first_cell, last_cell) -> None:
        offset, on_disk = self._write_block(blk.DATA, b"".join(parts))
        if self._first_data_offset < 0:
            self._first_data_offset = offset
        self._last_data_offset = offset
        if self.full_first_keys:
            key = first_cell[:5]
        else:
            key = get_midpoint(self._last_of_prev_block, first_cell)
        self._index.add_entry(key_bytes(key), offset, on_disk)
        self._last_of_prev_block = last_cell
        self._write_inline_blocks(False)

    def _write_inline_blocks(self, closing: bool) -> None:
        """HFileWriterImpl.writeInlineBlocks: the leaf index first, then bloom chunks."""
        index = self._index
        while index.should_write_leaf(closing):
            index.write_leaf(self._write_block)
        for bloom in (self._bloom, self._df_bloom):
            if bloom is None:
                continue
            for first_key, body in bloom.ready_chunks(closing):
                offset, on_disk = self._write_block(blk.BLOOM_CHUNK, body)
                bloom.chunk_written(first_key, offset, on_disk)

    # --- close ------------------------------------------------------------------------------------

    def finish(self, max_seq_id: int, major_compaction: bool, create_time: int) -> bytes:
        """Close the file (StoreFileWriter.appendMetadata + close) and return its bytes."""
        if self._stats is None:
            self._gen.send(None)
        s = self._stats
        self._write_inline_blocks(True)
        index = self._index
        root_offset = index.write_index_blocks(self._write_block)
        self._write_block(blk.ROOT_INDEX, b"")  # the meta-block index: no meta blocks
        info = {
            MAX_SEQ_ID_KEY: _Q.pack(max_seq_id),
            MAJOR_COMPACTION_KEY: b"\xff" if major_compaction else b"\x00",
            TIMERANGE: time_range_bytes(s["min_ts"], s["max_ts"]),
            EARLIEST_PUT_TS: _Q.pack(s["earliest_put"]),
            DELETE_FAMILY_COUNT: _Q.pack(s["delete_family_count"]),
            AVG_KEY_LEN: _I.pack(s["total_key"] // s["entries"] if s["entries"] else 0),
            AVG_VALUE_LEN: _I.pack(s["total_value"] // s["entries"] if s["entries"] else 0),
            CREATE_TIME_TS: _Q.pack(create_time),
            KEYVALUE_BYTES: _Q.pack(s["kv_bytes"]),
        }
        bloom = self._bloom
        if bloom is not None and bloom.key_count:
            info[BLOOM_FILTER_TYPE] = bloom.bloom_type.encode()
            last = s["last"]
            info[LAST_BLOOM_KEY] = (key_bytes((last[0], b"", last[2], _NEG_LATEST, -255))
                                    if bloom.bloom_type == "ROWCOL" else last[0])
        if self.include_mvcc:
            info[MAX_MEMSTORE_TS_KEY] = _Q.pack(s["max_mvcc"])
            info[KEY_VALUE_VERSION] = _I.pack(1)
        if s["last"] is not None:
            info[LASTKEY] = key_bytes(s["last"])
        if self.include_tags:
            info[MAX_TAGS_LEN] = _I.pack(s["max_tags_len"])
            info[TAGS_COMPRESSED] = b"\x00"
        file_info_offset, _ = self._write_block(blk.FILE_INFO, file_info_bytes(info))
        for b, magic in ((bloom, blk.GENERAL_BLOOM_META),
                         (self._df_bloom, blk.DELETE_FAMILY_BLOOM_META)):
            if b is not None and b.key_count:
                self._write_block(magic, b.meta_body()[0])
        trailer = FixedFileTrailer(
            file_info_offset=file_info_offset,
            load_on_open_data_offset=root_offset,
            uncompressed_data_index_size=index.uncompressed_size,
            total_uncompressed_bytes=self._total_uncompressed + TRAILER_SIZE,
            data_index_count=len(index.root),
            meta_index_count=0,
            entry_count=s["entries"],
            num_data_index_levels=index.levels,
            first_data_block_offset=self._first_data_offset,
            last_data_block_offset=self._last_data_offset,
            compression_codec=ALGORITHM_ORDINALS[self.family.compression],
        )
        self._parts.append(trailer.to_bytes())
        data = b"".join(self._parts)
        self._parts = [data]
        return data


# --- reading --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BlockRecord:
    """One block of a file as its header describes it (plus, for data blocks, its cells)."""

    offset: int
    block_type: str  # the magic, e.g. "DATABLK*"
    on_disk_size: int  # header + compressed body + checksums
    uncompressed_size: int  # body, uncompressed, without header
    first_cell: Cell | None = None
    cell_count: int = 0


class HFileReader:
    """Reads one HFile's bytes. The physical figures, all measured on the bytes:

    - `size`: the whole file; `data_size`: data blocks on disk (headers, compressed bodies,
      checksums); `uncompressed_data_size`: the same blocks uncompressed, with headers.
    - `index_size`: root + intermediate + leaf index blocks, uncompressed, with headers: the
      index HBase keeps in memory and reports (the trailer's uncompressedDataIndexSize plus
      headers), which compression does not shrink; `index_on_disk_size`: as stored.
    - `bloom_size`: the general bloom's chunks as HBase sizes them (folded) plus its meta.
    - `keyvalue_bytes`: the sum of the cells' KeyValue lengths.
    """

    def __init__(self, data: bytes, name: str, family: ColumnFamily, config: Config,
                 block_cache=None):
        self.data = data
        self.name = name
        self.family = family
        self.config = config
        self.size = len(data)
        self._cache = block_cache
        self._data_cache = block_cache if family.block_cache else None
        self._in_memory = family.in_memory
        t = self.trailer = FixedFileTrailer.from_file(data)
        self.compression = ALGORITHM_NAMES[t.compression_codec]
        self._decompress = decompressor(self.compression)
        self.entry_count = t.entry_count
        self.index_levels = t.num_data_index_levels
        self._walk_blocks()
        self._load_on_open()

    # --- load-on-open ---------------------------------------------------------------------------

    def _walk_blocks(self) -> None:
        """Read every block header once: where the data blocks are, and the size of each kind."""
        data = self.data
        end = len(data) - TRAILER_SIZE
        self._headers: list[tuple[int, bytes, int, int]] = []
        offsets, on_disk, uncompressed = [], [], []
        pos = 0
        while pos < end:
            magic, size, body, _prev = read_header(data, pos)
            self._headers.append((pos, magic, size, body))
            if magic == blk.DATA:
                offsets.append(pos)
                on_disk.append(size)
                uncompressed.append(body)
            pos += size
        self._offsets = offsets
        self._on_disk = on_disk
        self._uncompressed = uncompressed
        self._position = {off: i for i, off in enumerate(offsets)}
        self.data_block_count = len(offsets)
        self.data_size = sum(on_disk)
        self.uncompressed_data_size = sum(uncompressed) + HEADER_SIZE * len(offsets)
        index_magics = (blk.LEAF_INDEX, blk.INTERMEDIATE_INDEX)
        idx = [h for h in self._headers if h[1] in index_magics]
        # The root block is the first block of the load-on-open section.
        idx += [h for h in self._headers if h[0] == self.trailer.load_on_open_data_offset]
        self.index_size = sum(HEADER_SIZE + h[3] for h in idx)  # uncompressed, as HBase reports
        self.index_on_disk_size = sum(h[2] for h in idx)

    def _load_on_open(self) -> None:
        data, t = self.data, self.trailer
        blocks = {}
        for off, magic, _size, _body in self._headers:
            if off >= t.load_on_open_data_offset:
                blocks.setdefault(magic, off)
        _, root = read_block(data, t.load_on_open_data_offset, self._decompress)
        self._root_keys, self._root_offsets, self._root_sizes, pos = parse_root(
            root, t.data_index_count)
        self._mid_meta = parse_mid_key_metadata(root, pos) if self.index_levels > 1 else None
        _, info_body = read_block(data, t.file_info_offset, self._decompress)
        info = self.file_info = parse_file_info(info_body)
        q = _Q.unpack
        self.max_seq_id = q(info[MAX_SEQ_ID_KEY])[0] if MAX_SEQ_ID_KEY in info else 0
        self.is_major = info.get(MAJOR_COMPACTION_KEY, b"\x00") != b"\x00"
        self.create_time = q(info[CREATE_TIME_TS])[0] if CREATE_TIME_TS in info else 0
        self.earliest_put_ts = (q(info[EARLIEST_PUT_TS])[0] if EARLIEST_PUT_TS in info
                                else LATEST_TIMESTAMP)
        self.delete_family_count = (q(info[DELETE_FAMILY_COUNT])[0]
                                    if DELETE_FAMILY_COUNT in info else 0)
        self.min_timestamp, self.max_timestamp = (parse_time_range(info[TIMERANGE])
                                                  if TIMERANGE in info else (LONG_MAX, -1))
        self.include_tags = MAX_TAGS_LEN in info
        self.include_mvcc = _I.unpack(info.get(KEY_VALUE_VERSION, b"\0\0\0\0"))[0] == 1
        self.max_memstore_ts = q(info[MAX_MEMSTORE_TS_KEY])[0] if MAX_MEMSTORE_TS_KEY in info else 0
        self.keyvalue_bytes = q(info[KEYVALUE_BYTES])[0] if KEYVALUE_BYTES in info else 0
        self.avg_key_len = _I.unpack(info[AVG_KEY_LEN])[0] if AVG_KEY_LEN in info else 0
        self.avg_value_len = _I.unpack(info[AVG_VALUE_LEN])[0] if AVG_VALUE_LEN in info else 0
        self.first_key = key_to_cell(self._root_keys[0]) if self._root_keys else None
        self.last_key = key_to_cell(parse_key(info[LASTKEY])) if LASTKEY in info else None
        self.first_row = self.first_key[0] if self.first_key is not None else None
        self.last_row = self.last_key[0] if self.last_key is not None else None
        self.bloom_type = info.get(BLOOM_FILTER_TYPE, b"NONE").decode()
        self.bloom = self.delete_family_bloom = None
        if blk.GENERAL_BLOOM_META in blocks:
            _, body = read_block(data, blocks[blk.GENERAL_BLOOM_META], self._decompress)
            self.bloom = CompoundBloomMeta(body, self.bloom_type)
        if blk.DELETE_FAMILY_BLOOM_META in blocks:
            _, body = read_block(data, blocks[blk.DELETE_FAMILY_BLOOM_META], self._decompress)
            self.delete_family_bloom = CompoundBloomMeta(body, "ROW")
        self.bloom_size = (self.bloom.byte_size + self.bloom.meta_size) if self.bloom else 0

    # --- block fetches ------------------------------------------------------------------------

    def _data_block(self, i: int, io) -> list:
        cache = self._data_cache
        if cache is not None:
            key = (self.name, self._offsets[i])
            cells = cache.get(key)
            if cells is not None:
                io.cache_hits += 1
                return cells
            io.cache_misses += 1
        _, body = read_block(self.data, self._offsets[i], self._decompress)
        cells = decode_cells(body, self.include_tags, self.include_mvcc)
        io.blocks_read += 1
        io.bytes_read += self._on_disk[i]
        if cache is not None:
            cache.put(key, cells, HEADER_SIZE + self._uncompressed[i], self._in_memory)
        return cells

    def _cached_block(self, offset: int, io, decode):
        """An index or bloom block: always cached (when there is a cache), as HBase does."""
        cache = self._cache
        key = (self.name, offset)
        if cache is not None:
            value = cache.get(key)
            if value is not None:
                io.cache_hits += 1
                io.chunk_hits += 1
                return value
            io.cache_misses += 1
        magic, body = read_block(self.data, offset, self._decompress)
        value = decode(body)
        io.blocks_read += 1
        size = read_header(self.data, offset)[1]
        io.bytes_read += size
        if cache is not None:
            cache.put(key, value, HEADER_SIZE + len(body), self._in_memory)
        return value

    def _locate(self, key: tuple, io) -> int:
        """The data block that holds `key` (or would): root, then any lower index levels."""
        i = bisect_right(self._root_keys, key) - 1
        if i < 0:
            i = 0
        if self.index_levels == 1:
            return i
        offset = self._root_offsets[i]
        for _ in range(self.index_levels - 1):
            keys, offsets, _sizes = self._cached_block(offset, io, parse_non_root)
            j = bisect_right(keys, key) - 1
            offset = offsets[j if j > 0 else 0]
        return self._position[offset]

    # --- reads ------------------------------------------------------------------------------------

    def scan(self, start, io):
        """Every cell >= start (a Cell or a cell-prefix tuple such as (row,)), in order."""
        n = len(self._offsets)
        if not n:
            return
        block = self._data_block
        if start is None:
            i, pos = 0, 0
        else:
            i = self._locate(search_key(start), io)
            cells = block(i, io)
            pos = bisect_left(cells, start)
            if pos < len(cells):
                yield from (islice(cells, pos, None) if pos else cells)
            i += 1
        while i < n:
            yield from block(i, io)
            i += 1

    def seek_row(self, row: bytes, io):
        """All cells of `row`, in order. Like HBase's scanner, running off the end of a block
        loads the next one."""
        n = len(self._offsets)
        if not n:
            return
        key = first_on_row(row)
        i = self._locate(key, io)
        cells = self._data_block(i, io)
        pos = bisect_left(cells, key)
        while True:
            end = len(cells)
            while pos < end:
                c = cells[pos]
                if c[0] != row:
                    return
                yield c
                pos += 1
            i += 1
            if i >= n:
                return
            cells = self._data_block(i, io)
            pos = 0

    def scan_reversed_rows(self, start_row: bytes | None, stop_row: bytes | None, io):
        """(row, cells ascending) for rows in descending order, start_row inclusive, stop_row
        exclusive (None: from the last row / down to the first)."""
        n = len(self._offsets)
        if not n:
            return
        block = self._data_block
        if start_row is None:
            i = n - 1
            cells = block(i, io)
            pos = len(cells)
        else:
            key = first_on_row(start_row + b"\x00")  # the first key after start_row
            i = self._locate(key, io)
            cells = block(i, io)
            pos = bisect_left(cells, key)
        cur_row = None
        acc: list = []
        while True:
            while pos > 0:
                pos -= 1
                c = cells[pos]
                r = c[0]
                if r == cur_row:
                    acc.append(c)
                    continue
                if acc:
                    acc.reverse()
                    yield cur_row, acc
                if stop_row is not None and r <= stop_row:
                    return
                cur_row = r
                acc = [c]
            i -= 1
            if i < 0:
                break
            cells = block(i, io)
            pos = len(cells)
        if acc:
            acc.reverse()
            yield cur_row, acc

    def passes_bloom(self, row: bytes, qualifier: bytes | None, io) -> bool:
        """StoreFileReader.passesGeneralRowBloomFilter / passesGeneralRowColBloomFilter.

        A ROWCOL probe of one column also probes the row's empty qualifier (checkGeneralBloomFilter:
        a row delete is a DeleteFamily marker with an empty qualifier, which the (row, column)
        key would miss). Each probe looks in the chunk its own key falls in; probe keys and
        chunk keys are first-on-row-col keys with an empty family, as HBase builds them."""
        bloom = self.bloom
        if bloom is None:
            return True
        io.bloom_checks += 1
        if bloom.bloom_type == "ROWCOL":
            if qualifier is None:
                io.bloom_checks -= 1  # multi-column reads: HBase checks blooms at seek time
                return True
            if self._in_chunk(bloom, (row, b"", qualifier, _NEG_LATEST, -255),
                              rowcol_key(row, qualifier), io) or \
                    self._in_chunk(bloom, (row, b"", b"", _NEG_LATEST, -255),
                                   rowcol_key(row, b""), io):
                return True
        elif self._in_chunk(bloom, row, row, io):
            return True
        io.bloom_negatives += 1
        return False

    def _in_chunk(self, bloom: CompoundBloomMeta, chunk_key, hash_key: bytes, io) -> bool:
        """CompoundBloomFilter.contains: the chunk whose first key is the last <= chunk_key."""
        i = bisect_right(bloom.first_keys, chunk_key) - 1
        io.bloom_probes += 1
        return i >= 0 and hash_key in self._bloom_chunk(bloom, i, io)

    def passes_delete_family_bloom(self, row: bytes, io) -> bool:
        """StoreFileReader.passesDeleteFamilyBloomFilter: may `row` have a DeleteFamily here?
        HBase asks it in StoreFileScanner's lazy seeks, which hsim does not model: hsim's reads
        never need it (a ROW bloom holds the rows of the markers too; a ROWCOL probe asks for
        the row's empty qualifier). It answers for inspection and tests."""
        if self.delete_family_count == 0:
            return False
        bloom = self.delete_family_bloom
        if bloom is None:
            return True
        i = bisect_right(bloom.first_keys, row) - 1
        return i >= 0 and row in self._bloom_chunk(bloom, i, io)

    def _bloom_chunk(self, bloom: CompoundBloomMeta, i: int, io):
        return self._cached_block(bloom.offsets[i], io, lambda body: bloom.chunk_filter(i, body))

    def mid_key(self) -> Cell | None:
        """HFileBlockIndex midkey(): the middle root entry, or leaf entry (N-1)/2 of a
        multi-level index. A getMidpoint key, so its row may never have been written."""
        if not self._root_keys:
            return None
        if self._mid_meta is None:
            return key_to_cell(self._root_keys[len(self._root_keys) // 2])
        offset, _size, entry = self._mid_meta
        _, body = read_block(self.data, offset, self._decompress)
        return key_to_cell(parse_non_root(body)[0][entry])

    # --- inspection -------------------------------------------------------------------------------

    def cells(self):
        """Every cell of the file, block by block (no cache, no counters)."""
        for off in self._offsets:
            _, body = read_block(self.data, off, self._decompress)
            yield from decode_cells(body, self.include_tags, self.include_mvcc)

    def blocks(self) -> list[BlockRecord]:
        """The data blocks: offset, sizes, first cell and cell count."""
        out = []
        for off, size, body_size in zip(self._offsets, self._on_disk, self._uncompressed):
            _, body = read_block(self.data, off, self._decompress)
            cells = decode_cells(body, self.include_tags, self.include_mvcc)
            out.append(BlockRecord(off, blk.DATA.decode(), size, body_size,
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

    def __repr__(self) -> str:
        return (f"HFileReader({self.name}, {self.size} bytes, {self.entry_count} cells, "
                f"{self.data_block_count} blocks, index {self.index_levels} level(s))")
