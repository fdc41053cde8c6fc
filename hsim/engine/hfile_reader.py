"""HFile v3 reader.

The reader follows HFileReaderImpl: load-on-open on construction (not counted as I/O), then
every data, leaf/intermediate index and bloom block is fetched through the block cache with key
(file name, offset): a miss decodes the block and counts blocks_read and bytes_read (on-disk
size), a hit counts cache_hits. What is cached for a data block is its decoded list of cells, or
an object that finds a row's cells in the block's bytes (its encoding's seeker), accounted at
its uncompressed size with header: in a data block encoding, the *encoded* size, as HBase's
cache holds encoded blocks. The reader also answers the blooms it loaded on open
(StoreFileReader.passesBloomFilter and its kinds), fetching their chunks the same way.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from itertools import islice
from os.path import commonprefix

from hsim.cell import LATEST_TIMESTAMP, ROW, Cell, from_fields
from hsim.config import Config
from hsim.engine import block as blk
from hsim.engine.block import HEADER_SIZE, read_block, read_header
from hsim.engine.block_seek import SeekableBlock
from hsim.engine.hfile_inspection import HFileInspection
from hsim.engine.block_index import (
    first_on_row,
    key_to_cell,
    parse_key,
    parse_mid_key_metadata,
    parse_non_root,
    parse_root,
    search_key,
)
from hsim.engine.bloom import CompoundBloomMeta, rowcol_key
from hsim.engine.codecs import ALGORITHM_NAMES, decompressor
from hsim.engine.encoding import ENCODERS
from hsim.engine import file_info as fi
from hsim.engine.trailer import (
    TRAILER_SIZE,
    FixedFileTrailer,
    parse_file_info,
    parse_time_range,
)
from hsim.schema import ColumnFamily

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from hsim.engine.block_cache import BlockCache

_NEG_LATEST = -LATEST_TIMESTAMP


class HFileReader(HFileInspection):
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
                 block_cache=None, cell_offsets: dict | None = None):
        self.data: bytes = data  # the whole file
        # The writer's per-block cell offsets (HFileWriter.cell_offsets), when this reader
        # opens a file just written: Gets then binary-search a block instead of decoding it.
        self._cell_offsets = cell_offsets or {}
        self.name = name
        self.family: ColumnFamily = family
        self.config: Config = config
        self.size = len(data)
        self.block_cache = block_cache
        self._in_memory = family.in_memory
        t = self.trailer = FixedFileTrailer.from_file(data)
        self.compression = ALGORITHM_NAMES[t.compression_codec]
        self._decompress = decompressor(self.compression)
        self.entry_count = t.entry_count
        self.index_levels = t.num_data_index_levels
        self._walk_blocks()
        self._load_on_open()

    # --- load-on-open ---------------------------------------------------------------------------

    @property
    def block_cache(self) -> BlockCache | None:
        """The block cache this file's blocks go to: its region's server's."""
        return self._cache

    @block_cache.setter
    def block_cache(self, cache) -> None:
        """The region opened on another server (a move, a recovery): read through its cache."""
        self._cache = cache
        self._data_cache = cache if self.family.block_cache else None

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
            if magic == blk.DATA or magic == blk.ENCODED_DATA:
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
        self.max_seq_id = fi.get_long(info, fi.MAX_SEQ_ID_KEY, 0)
        # HStoreFile.open: a bulk-loaded file (BULKLOAD_TIME_KEY in its file info, or a name
        # with SeqId_) takes the sequence id its load gave it, from its name.
        self.bulk_loaded = fi.BULKLOAD_TIME_KEY in info or "SeqId_" in self.name
        if self.bulk_loaded and fi.bulk_load_seq_id(self.name) is not None:
            self.max_seq_id = fi.bulk_load_seq_id(self.name)
        self._seq_reset = self.max_seq_id if self.bulk_loaded else 0
        # Bytes.toBoolean: HFileOutputFormat2's compaction.exclude (SortedCompactionPolicy)
        self.exclude_from_minor = info.get(fi.EXCLUDE_FROM_MINOR_COMPACTION_KEY,
                                           b"\x00")[:1] not in (b"", b"\x00")
        self.is_major = info.get(fi.MAJOR_COMPACTION_KEY, b"\x00") != b"\x00"
        self.create_time = fi.get_long(info, fi.CREATE_TIME_TS, 0)
        self.earliest_put_ts = fi.get_long(info, fi.EARLIEST_PUT_TS, LATEST_TIMESTAMP)
        self.delete_family_count = fi.get_long(info, fi.DELETE_FAMILY_COUNT, 0)
        self.min_timestamp, self.max_timestamp = (parse_time_range(info[fi.TIMERANGE])
                                                  if fi.TIMERANGE in info else (fi.LONG_MAX, -1))
        self.include_tags = fi.MAX_TAGS_LEN in info
        self.include_mvcc = fi.get_int(info, fi.KEY_VALUE_VERSION, 0) == 1
        self.max_memstore_ts = fi.get_long(info, fi.MAX_MEMSTORE_TS_KEY, 0)
        self.keyvalue_bytes = fi.get_long(info, fi.KEYVALUE_BYTES, 0)
        self.avg_key_len = fi.get_int(info, fi.AVG_KEY_LEN, 0)
        self.avg_value_len = fi.get_int(info, fi.AVG_VALUE_LEN, 0)
        self.first_key = key_to_cell(self._root_keys[0]) if self._root_keys else None
        self.last_key = key_to_cell(parse_key(info[fi.LASTKEY])) if fi.LASTKEY in info else None
        self.first_row = self.first_key[0] if self.first_key is not None else None
        self.last_row = self.last_key[0] if self.last_key is not None else None
        self.data_block_encoding = info.get(fi.DATA_BLOCK_ENCODING, b"NONE").decode("latin-1")
        self._encoder = ENCODERS.get(self.data_block_encoding)
        if self._encoder is None:
            raise ValueError(f"{self.name}: DATA_BLOCK_ENCODING {self.data_block_encoding} is "
                             f"not one hsim reads ({', '.join(ENCODERS)})")
        self.bloom_type = info.get(fi.BLOOM_FILTER_TYPE, b"NONE").decode()
        self.bloom_prefix_length = (fi.get_int(info, fi.BLOOM_FILTER_PARAM, 0)
                                    if self.bloom_type == "ROWPREFIX_FIXED_LENGTH" else None)
        # A bloom this reader cannot probe (CompoundBloomMeta.usable) is left unused.
        self.bloom = self.delete_family_bloom = None
        if blk.GENERAL_BLOOM_META in blocks:
            _, body = read_block(data, blocks[blk.GENERAL_BLOOM_META], self._decompress)
            meta = CompoundBloomMeta(body, self.bloom_type)
            self.bloom = meta if meta.usable else None
        if blk.DELETE_FAMILY_BLOOM_META in blocks:
            _, body = read_block(data, blocks[blk.DELETE_FAMILY_BLOOM_META], self._decompress)
            meta = CompoundBloomMeta(body, "ROW")
            self.delete_family_bloom = meta if meta.usable else None
        self.bloom_size = (self.bloom.byte_size + self.bloom.meta_size) if self.bloom else 0

    # --- block fetches ------------------------------------------------------------------------

    def _fetch_block(self, i: int, io):
        """Data block i through the cache: a decoded list of cells, or a SeekableBlock when
        the cells' offsets are known (decoded only when a scan needs them all)."""
        cache: BlockCache | None = self._data_cache
        io.block_bytes_scanned += self._uncompressed[i]
        if cache is not None:
            key = (self.name, self._offsets[i])
            value = cache.get(key)
            if value is not None:
                io.cache_hits += 1
                return value
            io.cache_misses += 1
        value = self._load_data(i)
        io.blocks_read += 1
        io.bytes_read += self._on_disk[i]
        if cache is not None and io.cache_blocks:  # Scan/Get.setCacheBlocks(false): not added
            cache.put(key, value, HEADER_SIZE + self._uncompressed[i], self._in_memory)
        return value

    def _load_data(self, i: int):
        """Data block i read from the file: its cells, or a SeekableBlock (an encoding's
        seeker). A bulk-loaded file's block is always its cells, each given the file's
        sequence id (StoreFileScanner's reset of a bulk-loaded file's cells)."""
        _, body = read_block(self.data, self._offsets[i], self._decompress)
        if self._seq_reset:
            return self._decode(body)
        offsets = self._cell_offsets.get(self._offsets[i])
        if offsets is not None:
            return SeekableBlock(body, offsets, self.include_tags, self.include_mvcc)
        encoder = self._encoder
        return encoder.block(encoder.payload(body), self.include_tags, self.include_mvcc)

    def warm(self, data: bool, index: bool, blooms: bool) -> None:
        """Put this file's blocks of the kinds asked for in the cache, counting no hit, miss or
        read: cache-on-write (HFileWriterImpl.doCacheOnWrite, as the writer finishes each
        block) and prefetch-on-open (HFilePreadReader's prefetch task, which reads with
        updateCacheMetrics off). Index means the leaf and intermediate blocks (the root is
        held by the reader); blooms, the general and delete-family bloom chunks."""
        cache: BlockCache | None = self._cache
        if cache is None:
            return
        if data:
            for i, off in enumerate(self._offsets):
                if (self.name, off) not in cache:
                    cache.put((self.name, off), self._load_data(i),
                              HEADER_SIZE + self._uncompressed[i], self._in_memory)
        if index:
            for off, magic, _size, _body in self._headers:
                if magic in (blk.LEAF_INDEX, blk.INTERMEDIATE_INDEX):
                    self._put_block(off, parse_non_root)
        if blooms:
            for bloom in (self.bloom, self.delete_family_bloom):
                for i in range(len(bloom.offsets) if bloom is not None else 0):
                    self._put_block(bloom.offsets[i], bloom.chunk_filter)

    def _put_block(self, offset: int, decode) -> None:
        """An index or bloom block into the cache, decoded as a read would (no counters)."""
        if (self.name, offset) not in self._cache:
            _, body = read_block(self.data, offset, self._decompress)
            self._cache.put((self.name, offset), decode(body), HEADER_SIZE + len(body),
                            self._in_memory)

    def data_block(self, i: int, io) -> list:
        """Data block i's cells, decoded whole (and cached so), through the cache."""
        value = self._fetch_block(i, io)
        if type(value) is not list:
            cells = value.cells()
            if self._data_cache is not None:
                self._data_cache.replace((self.name, self._offsets[i]), cells)
            return cells
        return value

    def _decode(self, body: bytes, plain: bool = False) -> list:
        encoder = self._encoder
        cells = encoder.decode(encoder.payload(body), self.include_tags, self.include_mvcc, plain)
        if self._seq_reset:  # a bulk-loaded file: every cell takes the file's sequence id
            neg_seq = -self._seq_reset
            cells = [c[:5] + (neg_seq,) + c[6:] for c in cells]
            if not plain:
                cells = list(map(from_fields, cells))
        return cells

    def _cached_block(self, offset: int, io, decode):
        """An index or bloom block: always cached (when there is a cache), as HBase does."""
        cache: BlockCache | None = self._cache
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

    def locate(self, key: tuple, io) -> int:
        """The data block that holds `key` (or would): root, then any lower index levels (also
        what the row cursors of hsim.engine.store_file_scanner seek with)."""
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

    def scan(self, start, io, cursor: list | None = None):
        """Every cell >= start (a Cell or a cell-prefix tuple such as (row,)), in order.

        `cursor` ([block number, its cells], updated as the scan moves) makes a later scan
        from a key ahead a *reseek* (HFileScannerImpl.reseekTo): a key inside the block the
        cursor holds is found there, with no index lookup and no block fetch."""
        n = len(self._offsets)
        if not n:
            return
        block = self.data_block
        if start is None:
            i = 0
        else:
            held = None if cursor is None else cursor[1]
            if held is not None and held[-1] >= start:
                i, cells = cursor[0], held
            else:
                i = self.locate(search_key(start), io)
                cells = block(i, io)
                if cursor is not None:
                    cursor[0], cursor[1] = i, cells
            pos = bisect_left(cells, start)
            if pos < len(cells):
                yield from (islice(cells, pos, None) if pos else cells)
            i += 1
        while i < n:
            cells = block(i, io)
            if cursor is not None:
                cursor[0], cursor[1] = i, cells
            yield from cells
            i += 1

    def seek_row(self, row: bytes, io):
        """All cells of `row`, in order. Like HBase's scanner, running off the end of a block
        loads the next one."""
        n = len(self._offsets)
        if not n:
            return
        key = first_on_row(row)
        i = self.locate(key, io)
        while True:
            block = self._fetch_block(i, io)
            if type(block) is not list:
                cells, to_end = block.row_cells(row)
                yield from cells
                if not to_end:
                    return
            else:
                pos = bisect_left(block, key)
                end = len(block)
                while pos < end:
                    c = block[pos]
                    if c[ROW] != row:
                        return
                    yield c
                    pos += 1
            i += 1
            if i >= n:
                return

    def row_part(self, row: bytes, i: int, key: tuple | None, io,
                 decoded: bool = False) -> tuple[list, bool]:
        """The cells of `row` in data block i (those at or after `key`, when given), and
        whether they run to the block's end (the row may go on in the next block).
        `decoded`: decode the block whole (and cache it so) rather than binary-search its
        bytes: for reads that seek in it more than once (explicit columns)."""
        block = self.data_block(i, io) if decoded else self._fetch_block(i, io)
        if type(block) is not list:
            cells, to_end = block.row_cells(row)
            if key is not None and cells and cells[0] < key:
                cells = cells[bisect_left(cells, key):]
            return cells, to_end
        pos = bisect_left(block, first_on_row(row) if key is None else key)
        end = len(block)
        j = pos
        while j < end and block[j][0] == row:
            j += 1
        return block[pos:j], j == end

    def may_hold_column(self, row: bytes, qualifier: bytes, io) -> bool:
        """A ROWCOL bloom's answer for one column of the row (StoreFileScanner.requestSeek
        checks it before a reseek to the column)."""
        return self._in_chunk(self.bloom, (row, b"", qualifier, _NEG_LATEST, -255),
                              rowcol_key(row, qualifier), io)

    def may_delete_family(self, row: bytes, io) -> bool:
        """StoreFileScanner.requestSeek of a Get's first key (the row's DeleteFamily, a lazy
        seek): may this file hold a family-wide marker (DeleteFamily or DeleteFamilyVersion,
        the empty qualifier) for `row`? A ROWCOL bloom is asked for the row's empty qualifier,
        else the DeleteFamily bloom (none written when the file holds no such marker). When
        not, the row's first block is not read for it."""
        bloom = self.bloom
        if bloom is not None and bloom.bloom_type == "ROWCOL":
            return self.may_hold_column(row, b"", io)
        return self.passes_delete_family_bloom(row, io)

    # --- bloom checks (StoreFileReader.passesBloomFilter and its kinds) ----------------------
    # A no lets a Get or a scan skip the file without reading a data block; the blooms loaded
    # on open fetch their chunks through the block cache.

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
            if (self._in_chunk(bloom, (row, b"", qualifier, _NEG_LATEST, -255),
                               rowcol_key(row, qualifier), io)
                    or self._in_chunk(bloom, (row, b"", b"", _NEG_LATEST, -255),
                                      rowcol_key(row, b""), io)):
                return True
        else:
            key = row if self.bloom_prefix_length is None else row[: self.bloom_prefix_length]
            if self._in_chunk(bloom, key, key, io):
                return True
        io.bloom_negatives += 1
        return False

    def passes_prefix_bloom(self, start_row: bytes | None, stop_row: bytes | None, io) -> bool:
        """StoreFileReader.passesGeneralRowPrefixBloomFilter for a scan: a ROWPREFIX_FIXED_LENGTH
        bloom is asked for the start row's prefix when the start and stop rows share at least
        the prefix length; any other scan (or bloom) passes."""
        p = self.bloom_prefix_length
        if p is None or self.bloom is None or not start_row or not stop_row:
            return True
        if len(commonprefix((start_row, stop_row))) < p:
            return True
        return self.passes_bloom(start_row[:p], None, io)

    def _in_chunk(self, bloom: CompoundBloomMeta, chunk_key, hash_key: bytes, io) -> bool:
        """CompoundBloomFilter.contains: the chunk whose first key is the last <= chunk_key."""
        i = bisect_right(bloom.first_keys, chunk_key) - 1
        io.bloom_probes += 1
        return i >= 0 and hash_key in self._bloom_chunk(bloom, i, io)

    def passes_delete_family_bloom(self, row: bytes, io) -> bool:
        """StoreFileReader.passesDeleteFamilyBloomFilter: may `row` have a DeleteFamily here?
        HBase asks it in StoreFileScanner's lazy seeks: an explicit-column Get reads the row's
        first block (its family markers) only when it answers yes (`may_delete_family`)."""
        if self.delete_family_count == 0:
            return False
        bloom = self.delete_family_bloom
        if bloom is None:
            return True
        i = bisect_right(bloom.first_keys, row) - 1
        return i >= 0 and row in self._bloom_chunk(bloom, i, io)

    def _bloom_chunk(self, bloom: CompoundBloomMeta, i: int, io):
        return self._cached_block(bloom.offsets[i], io, bloom.chunk_filter)

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

    def __repr__(self) -> str:
        return (f"HFileReader({self.name}, {self.size} bytes, {self.entry_count} cells, "
                f"{self.data_block_count} blocks, index {self.index_levels} level(s))")
