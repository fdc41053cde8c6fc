"""HFile v3 writer: real bytes laid out as HBase lays them out (the reader is hfile_reader.py).

    scanned section      data blocks, with leaf-index and bloom-chunk blocks written inline
                         at data-block boundaries
    non-scanned section  intermediate index blocks
    load-on-open         root index (+ mid-key metadata), meta index, file info, bloom metas
    trailer              4096 bytes

The writer follows HFileWriterImpl + StoreFileWriter: a data block is closed when its
uncompressed cell bytes (or, in a data block encoding, its encoded bytes) reach BLOCKSIZE,
checked *before* each new cell unless that cell's key equals the previous one (so equal keys
never straddle blocks; HFileWriterImpl.checkBlockBoundary); each closed block gets an index
entry keyed by getMidpoint(previous block's last cell, its first cell); the bloom, time range,
earliest put and delete-family count are tracked per cell.

"""

from __future__ import annotations

from array import array
from operator import itemgetter

from hsim.cell import (
    DELETE_FAMILY, DELETE_FAMILY_VERSION, KV_HEAD, LATEST_TIMESTAMP, NO_TTL, PUT, QUALIFIER, ROW,
    TIMESTAMP_TYPE, TTL_TAG, TTL_TAG_TYPE,
)
from hsim.config import Config
from hsim.engine import block as blk
from hsim.engine.block import HEADER_SIZE, write_block
from hsim.engine.block_index import (
    BlockIndexWriter,
    get_midpoint,
    key_bytes,
)
from hsim.engine.bloom import CompoundBloomWriter, rowcol_key
from hsim.engine.murmur_hash import HASH_TYPES
from hsim.engine import file_info as fi
from hsim.engine.codecs import ALGORITHM_ORDINALS, compressor
from hsim.engine.encoding import ENCODERS
from hsim.engine.time_range_tracker import lowest_covered
from hsim.engine.trailer import (
    TRAILER_SIZE,
    FixedFileTrailer,
    file_info_bytes,
    time_range_bytes,
)
from hsim.schema import ColumnFamily, bloom_prefix_length

_NEG_LATEST = -LATEST_TIMESTAMP
_ROW = itemgetter(0)


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
        self.encoder = ENCODERS[family.data_block_encoding]
        self._parts: list[bytes] = []  # the file so far, block by block
        self._pos = 0
        self._prev_offset: dict[bytes, int] = {}
        self._total_uncompressed = 0
        self._first_data_offset = -1
        self._last_data_offset = -1
        self._last_of_prev_block = None
        self._index = BlockIndexWriter(config.index_chunk_size, config.index_min_entries)
        bloom_type = family.bloom_filter
        hash_type = HASH_TYPES[config.hash_type]
        self._bloom = None if bloom_type == "NONE" else CompoundBloomWriter(
            bloom_type, config.bloom_error_rate, config.bloom_block_size, config.bloom_max_fold,
            hash_type, bloom_prefix_length(family))
        # StoreFileWriter: a delete-family bloom only when there is no ROWCOL bloom.
        self._df_bloom = None if bloom_type == "ROWCOL" else CompoundBloomWriter(
            "ROW", config.bloom_error_rate, config.bloom_block_size, config.bloom_max_fold,
            hash_type)
        self._stats = None
        # Where each cell starts in each data block (keyed by the block's file offset), for
        # the readers' Gets that binary-search a block (see hsim.engine.block_seek).
        self.cell_offsets: dict[int, array] = {}
        self._block_cell_offsets: list[int] = []
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
                    keys = [rowcol_key(c[ROW], c[QUALIFIER]) for c in bloom_cells]
                else:
                    keys = list(map(_ROW, bloom_cells))
                bloom.add_many(keys, bloom_cells)
                bloom_cells.clear()
            if df_cells:
                df_bloom.add_many(list(map(_ROW, df_cells)), df_cells)
                df_cells.clear()
        finish_block = self._finish_block
        pack_head = KV_HEAD.pack
        pack_tstype = TIMESTAMP_TYPE.pack
        pack_tags = TTL_TAG.pack
        small_vlong = _SMALL_VLONG
        vlong_len = _VLONG_LEN
        parts: list[bytes] = []
        extend = parts.extend
        cell_starts = self._block_cell_offsets
        mark = cell_starts.append
        # the data block encoding's writer of the block being written (None for NONE, whose
        # block is the KeyValues built here)
        new_block_writer = self.encoder.block_writer
        block_writer = new_block_writer(include_tags, include_mvcc)
        encode = None if block_writer is None else block_writer.add
        # what the boundary check compares with BLOCKSIZE: the block's KeyValue bytes, or (in
        # an encoding) the larger of those and its encoded bytes
        block_bytes = unencoded_bytes = encoded_bytes = 0
        first_in_block = None
        last = ()  # compares below every cell: the first needs no order check
        last_bloom_row = last_bloom_qual = last_df_row = None
        fam_obj = None
        fam_prefix = b""
        key_fixed = 0  # 12 + family length: the key bytes besides row and qualifier
        entries = total_key = total_value = tag_bytes = 0
        max_mvcc = max_tags_len = delete_family_count = 0
        min_ts, max_ts = fi.LONG_MAX, -1  # TimeRangeTracker's initial range
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
                if code == DELETE_FAMILY or code == DELETE_FAMILY_VERSION:
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
                    finish_block(parts, first_in_block, last, block_writer)
                    parts = []
                    extend = parts.extend
                    block_bytes = 0
                    first_in_block = None
                    if encode is not None:
                        block_writer = new_block_writer(include_tags, include_mvcc)
                        encode = block_writer.add
                        unencoded_bytes = encoded_bytes = 0
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
                if encode is None:
                    extend((pack_head(klen, vlen, rlen), row, fam_prefix, qual,
                            pack_tstype(-nts, code), value, tail, vl))
                    mark(block_bytes)
                    block_bytes += 8 + klen + vlen + tail_len + vl_len
                else:
                    unencoded_bytes += 8 + klen + vlen + tail_len + vl_len
                    encoded_bytes += encode(cell, tail, vl)
                    block_bytes = (unencoded_bytes if unencoded_bytes > encoded_bytes
                                   else encoded_bytes)
                entries += 1
                total_key += klen
                total_value += vlen
                ts = -nts
                if ts < min_ts:
                    min_ts = ts
                if ts > max_ts:
                    max_ts = ts
                if code == PUT:
                    if ts < earliest_put:
                        earliest_put = ts
                else:  # a marker: the time range it covers (time_range_tracker)
                    low = lowest_covered(code, ts)
                    if low < min_ts:
                        min_ts = low
                last = cell
        if bloom_cells or df_cells:
            feed_blooms()
        if block_bytes:
            finish_block(parts, first_in_block, last, block_writer)
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

    def _finish_block(self, parts: list, first_cell, last_cell, block_writer) -> None:
        if block_writer is None:
            offset, on_disk = self._write_block(blk.DATA, b"".join(parts))
            starts = self._block_cell_offsets
            self.cell_offsets[offset] = array("I", starts)
            starts.clear()
        else:  # HFileBlockDefaultEncodingContext: the encoding's id, then its body
            offset, on_disk = self._write_block(
                blk.ENCODED_DATA, self.encoder.id.to_bytes(2, "big") + block_writer.finish())
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

    def finish(self, max_seq_id: int, major_compaction: bool, create_time: int,
               extra_info: dict | None = None) -> bytes:
        """Close the file (StoreFileWriter.appendMetadata + close) and return its bytes.
        `extra_info`: file-info entries added last (StoreFileWriter.appendFileInfo), as
        HFileOutputFormat2 adds its bulk-load keys; they replace entries of the same key."""
        if self._stats is None:
            self._gen.send(None)
        s = self._stats
        self._write_inline_blocks(True)
        index = self._index
        # HFileWriterImpl.close: the intermediate and root index blocks are not counted in the
        # trailer's totalUncompressedBytes (leaf blocks, written inline, are).
        counted = self._total_uncompressed
        root_offset = index.write_index_blocks(self._write_block)
        self._total_uncompressed = counted
        self._write_block(blk.ROOT_INDEX, b"")  # the meta-block index: no meta blocks
        info = {
            fi.MAX_SEQ_ID_KEY: fi.long_bytes(max_seq_id),
            fi.MAJOR_COMPACTION_KEY: b"\xff" if major_compaction else b"\x00",
            fi.TIMERANGE: time_range_bytes(s["min_ts"], s["max_ts"]),
            fi.EARLIEST_PUT_TS: fi.long_bytes(s["earliest_put"]),
            fi.DELETE_FAMILY_COUNT: fi.long_bytes(s["delete_family_count"]),
            fi.AVG_KEY_LEN: fi.int_bytes(s["total_key"] // s["entries"] if s["entries"] else 0),
            fi.AVG_VALUE_LEN: fi.int_bytes(
                s["total_value"] // s["entries"] if s["entries"] else 0),
            fi.CREATE_TIME_TS: fi.long_bytes(create_time),
            fi.KEYVALUE_BYTES: fi.long_bytes(s["kv_bytes"]),
        }
        bloom = self._bloom
        if bloom is not None and bloom.key_count:
            info[fi.BLOOM_FILTER_TYPE] = bloom.bloom_type.encode()
            if bloom.prefix_length is not None:
                info[fi.BLOOM_FILTER_PARAM] = fi.int_bytes(bloom.prefix_length)
            last = s["last"]
            info[fi.LAST_BLOOM_KEY] = (key_bytes((last[0], b"", last[2], _NEG_LATEST, -255))
                                       if bloom.bloom_type == "ROWCOL" else bloom.last_key)
        if self.include_mvcc:
            info[fi.MAX_MEMSTORE_TS_KEY] = fi.long_bytes(s["max_mvcc"])
            info[fi.KEY_VALUE_VERSION] = fi.int_bytes(1)
        if s["last"] is not None:
            info[fi.LASTKEY] = key_bytes(s["last"])
        encoded = self.encoder.name != "NONE"
        if encoded:  # HFileDataBlockEncoderImpl.saveMetadata (NoOpDataBlockEncoder saves none)
            info[fi.DATA_BLOCK_ENCODING] = self.encoder.name.encode()
        if self.include_tags:
            info[fi.MAX_TAGS_LEN] = fi.int_bytes(s["max_tags_len"])
            # HFileWriterImpl.finishFileInfo: encoded and COMPRESS_TAGS (HBase's default)
            info[fi.TAGS_COMPRESSED] = b"\xff" if encoded else b"\x00"
        if extra_info:
            info.update(extra_info)
        file_info_offset, _ = self._write_block(blk.FILE_INFO, file_info_bytes(info))
        for b, magic in ((bloom, blk.GENERAL_BLOOM_META),
                         (self._df_bloom, blk.DELETE_FAMILY_BLOOM_META)):
            if b is not None and b.key_count:
                self._write_block(magic, b.meta_body())
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


# The reader, in its own module; importable from here as before.
from hsim.engine.hfile_reader import HFileReader  # noqa: E402,F401
