"""The data block encoder interface (HBase's DataBlockEncoder) and the helpers its encoders share.

An encoder turns the cells of one data block into the block's body and back, and seeks a row
in a body without decoding the whole of it. The HFile writer's loop walks the cells once and
hands each to the encoder's `BlockWriter` (HFileBlock.Writer.write -> DataBlockEncoder.encode);
NONE has no BlockWriter: its body is the KeyValues the loop writes itself (NoOpDataBlockEncoder).

An encoded block (BlockType.ENCODED_DATA, magic DATABLKE) starts with the encoding's 2-byte id
(HFileBlockDefaultEncodingContext.prepareEncoding); `decode` and `block` take the body after it.
"""

from __future__ import annotations

from hsim.protobuf import read_varint, varint

from bisect import bisect_left
from collections import OrderedDict

from hsim.cell import NO_TTL, TAG_LONG, TTL_TAG_TYPE

ID_SIZE = 2  # DataBlockEncoding.ID_SIZE


class BlockWriter:
    """One block being encoded: `add` each cell, then `finish` for the body after the id."""

    def add(self, cell, tail: bytes, vl: bytes) -> int:
        """Encode one cell (`tail`: its `[tagsLen:2][tags]` when the file includes tags,
        `vl`: its memstore timestamp as a vlong when it includes them); returns the encoded
        bytes written (EncodingState.encodedDataSizeWritten's step)."""
        raise NotImplementedError

    def finish(self) -> bytes:
        raise NotImplementedError


class DataBlockEncoder:
    """One of HBase's DataBlockEncoding values: its name, id, writer, decoder and seeker."""

    name = "NONE"
    id = 0

    def payload(self, body: bytes) -> bytes:
        """A data block's body past its encoding id (HFileBlock.getBufferWithoutHeader past
        DataBlockEncoding.ID_SIZE), the id checked against this, the file's, encoding."""
        if self.id == 0:
            return body
        block_id = body[0] << 8 | body[1]
        if block_id != self.id:
            raise ValueError(f"data block encoded with id {block_id} in a file whose "
                             f"DATA_BLOCK_ENCODING is {self.name} (id {self.id})")
        return body[ID_SIZE:]

    def block_writer(self, include_tags: bool, include_mvcc: bool) -> BlockWriter | None:
        """A writer for one new block, or None when the block is plain KeyValues (NONE)."""
        raise NotImplementedError

    def decode(self, body, include_tags: bool, include_mvcc: bool, plain: bool = False) -> list:
        """Every cell of a block body (after the id), in order; `plain`: as field tuples."""
        raise NotImplementedError

    def block(self, body, include_tags: bool, include_mvcc: bool):
        """What the block cache holds for a block: an object with `row_cells(row)` (the
        encoding's seeker) and `cells()` (the whole block)."""
        return DecodedOnDemand(self, body, include_tags, include_mvcc)


class DecodedOnDemand:
    """A cached encoded block read by its encoder's sequential seeker (BufferedEncodedSeeker:
    the keys of a prefix-encoded block can only be rebuilt in order, from the block's first).

    The first seek into the block walks it only as far as the row, as HBase's seeker does; a
    second seek means the block is hot, and it is then decoded once and kept decoded (its
    cache entry still counts the encoded size), so later Gets bisect instead of walking."""

    __slots__ = ("encoder", "body", "include_tags", "include_mvcc", "decoded")

    def __init__(self, encoder, body, include_tags: bool, include_mvcc: bool):
        self.encoder = encoder
        self.body = body
        self.include_tags = include_tags
        self.include_mvcc = include_mvcc
        self.decoded = None  # None: never sought; (): sought once; then the block's cells

    def row_cells(self, row: bytes) -> tuple[list, bool]:
        """The cells of `row`, and whether they run to the block's end."""
        cells = self.decoded
        if cells is None:
            self.decoded = ()
            return self.encoder.seek_row(self.body, row, self.include_tags, self.include_mvcc)
        if not cells:
            cells = self.decoded = self.cells()
        n = len(cells)
        i = j = bisect_left(cells, (row,))
        while j < n and cells[j][0] == row:
            j += 1
        return cells[i:j], j == n

    def cells(self) -> list:
        if self.decoded:
            return self.decoded
        return self.encoder.decode(self.body, self.include_tags, self.include_mvcc)


# --- ByteBufferUtils.putCompressedInt / readCompressedInt: 7 bits a byte, low bits first -----
# (for the non-negative ints the encoders write, protobuf's base-128 varint, hsim.protobuf)

_CINT = [bytes((i,)) for i in range(128)]


def compressed_int(value: int) -> bytes:
    return _CINT[value] if value < 128 else varint(value)


def read_compressed_int(buf, pos: int) -> tuple[int, int]:
    b = buf[pos]
    if b < 128:
        return b, pos + 1
    return read_varint(buf, pos)


def read_lengths(buf, pos: int, flag: int, same_key: int, same_value: int,
                 state: dict) -> tuple[int, int, int, int]:
    """DIFF's and FAST_DIFF's cell head after the flag byte: the key and value lengths (or the
    previous cell's, when the flag says they are the same), then the common prefix length.
    Returns (key length, value length, common prefix, position after them)."""
    if flag & same_key:
        klen = state["klen"]
    else:
        klen, pos = read_compressed_int(buf, pos)
    if flag & same_value:
        vlen = state["vlen"]
    else:
        vlen, pos = read_compressed_int(buf, pos)
    common, pos = read_compressed_int(buf, pos)
    return klen, vlen, common, pos


def common_prefix(a: bytes, b: bytes) -> int:
    """Bytes.findCommonPrefix: how many leading bytes a and b share."""
    n = min(len(a), len(b))
    if a[:n] == b[:n]:
        return n
    i = 0
    while a[i] == b[i]:
        i += 1
    return i


def flat_key_common_prefix(row, qual, ts_type: bytes, prev_row, prev_qual, prev_ts_type: bytes,
                           family_length: int, with_ts_type: bool) -> int:
    """PrivateCellUtil.findCommonPrefixInFlatKey(cell, prev, bypassFamilyCheck=true, withTsType)
    over the flat keys `rowLen:2 row famLen:1 family qualifier ts:8 type:1`: stops inside the
    row length, the row or the qualifier at the first difference; a qualifier that is a prefix
    of the other ends it there; only `with_ts_type` goes on into the timestamp and type."""
    rlen = len(row)
    if rlen != len(prev_row):
        return 1 if rlen >> 8 == len(prev_row) >> 8 else 0
    rc = common_prefix(row, prev_row)
    if rc != rlen:
        return 2 + rc
    qc = common_prefix(qual, prev_qual)
    common = 3 + rlen + family_length + qc
    if not with_ts_type or max(len(qual), len(prev_qual)) != qc:
        return common
    tc = common_prefix(ts_type[:8], prev_ts_type[:8])
    if tc != 8:
        return common + tc
    return common + 9 if ts_type[8] == prev_ts_type[8] else common + 8


# --- tags: TagCompressionContext over an LRUDictionary (HBase's COMPRESS_TAGS, default true) ------

_NOT_IN_DICTIONARY = b"\xff"  # Dictionary.NOT_IN_DICTIONARY, -1
_TAG_DICTIONARY_SIZE = 127  # Byte.MAX_VALUE


class TagDictionary:
    """LRUDictionary as TagCompressionContext uses it, one per block (cleared at each
    startBlockEncoding): entries take indexes 0..126 in order; when full, a new entry takes
    the index of the least recently used one; a hit (written or read) makes an entry the most
    recently used."""

    def __init__(self):
        self._index: OrderedDict[bytes, int] = OrderedDict()  # least recently used first
        self._by_index: list[bytes] = []

    def find(self, entry: bytes) -> int:
        """findEntry: the entry's index (used now), or -1 after adding it."""
        i = self._index.get(entry)
        if i is not None:
            self._index.move_to_end(entry)
            return i
        self.add(entry)
        return -1

    def add(self, entry: bytes) -> None:
        if len(self._by_index) < _TAG_DICTIONARY_SIZE:
            i = len(self._by_index)
            self._by_index.append(entry)
        else:
            old, i = self._index.popitem(last=False)
            self._by_index[i] = entry
        self._index[entry] = i

    def get(self, i: int) -> bytes:
        entry = self._by_index[i]
        self._index.move_to_end(entry)
        return entry


def compress_tags(tags: bytes, dictionary: TagDictionary) -> bytes:
    """TagCompressionContext.compressTags: each tag `[len:2][type+value]` becomes
    Dictionary.write of its type+value: a 2-byte index, or 0xFF, a varint length, the bytes."""
    out = []
    pos = 0
    end = len(tags)
    while pos < end:
        n = tags[pos] << 8 | tags[pos + 1]
        body = tags[pos + 2: pos + 2 + n]
        i = dictionary.find(body)
        out.append(_NOT_IN_DICTIONARY + compressed_int(n) + body if i < 0
                   else i.to_bytes(2, "big"))
        pos += 2 + n
    return b"".join(out)


def uncompress_tags(buf, pos: int, length: int, dictionary: TagDictionary) -> tuple[int, int]:
    """TagCompressionContext.uncompressTags of `length` tag bytes at pos; returns (the TTL tag's
    value or NO_TTL, position after them)."""
    ttl = NO_TTL
    done = 0
    while done < length:
        if buf[pos] == 0xFF:
            n, pos = read_compressed_int(buf, pos + 1)
            body = bytes(buf[pos: pos + n])
            pos += n
            dictionary.add(body)
        else:
            body = dictionary.get(buf[pos] << 8 | buf[pos + 1])
            pos += 2
        if body[0] == TTL_TAG_TYPE:
            ttl = TAG_LONG.unpack_from(body, 1)[0]
        done += 2 + len(body)
    return ttl, pos
