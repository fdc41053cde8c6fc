"""An HFile laid open for a reader of the book: HBase's HFilePrettyPrinter as a value.

`describe(reader)` gathers what `hbase hfile -m -b -i [-v]` prints: the trailer, file info
(decoded as the pretty-printer decodes it), the mid-key, bloom meta, every block index entry
(level, offset, size, key), the block list, and on demand the cells. `str()` of the result reads
like the pretty-printer's output; in a notebook it renders as tables.
"""

from __future__ import annotations

import dataclasses
import html
import struct
from dataclasses import dataclass, field

from hsim.bytes import to_string_binary as tsb
from hsim.cell import LATEST_TIMESTAMP, Cell, type_of
from hsim.engine import file_info as hf
from hsim.engine.block_index import parse_key
from hsim.engine.murmur_hash import HASH_TYPES
from hsim.engine.trailer import parse_time_range

_HASH_NAMES = {v: k for k, v in HASH_TYPES.items()}


def key_string(key) -> str:
    """KeyValue.keyToString: row/family:qualifier/timestamp/Type, bytes as toStringBinary."""
    ts = -key[3]
    code = -key[4]
    ts_s = "LATEST_TIMESTAMP" if ts == LATEST_TIMESTAMP else str(ts)
    try:
        t = type_of(code).hbase_name
    except KeyError:
        t = f"UnknownCode:{code}"
    return f"{tsb(key[0])}/{tsb(key[1])}:{tsb(key[2])}/{ts_s}/{t}"


def cell_string(c: Cell) -> str:
    """KeyValue.toString: the key plus /vlen=N/seqid=S."""
    return f"{key_string(c)}/vlen={len(c[6])}/seqid={-c[5]}"


_LONGS = {hf.MAX_SEQ_ID_KEY, hf.EARLIEST_PUT_TS, hf.DELETE_FAMILY_COUNT, hf.MAX_MEMSTORE_TS_KEY,
          hf.CREATE_TIME_TS, hf.KEYVALUE_BYTES}
_INTS = {hf.AVG_KEY_LEN, hf.AVG_VALUE_LEN, hf.KEY_VALUE_VERSION, hf.MAX_TAGS_LEN,
         hf.BLOOM_FILTER_PARAM}
_BOOLS = {hf.MAJOR_COMPACTION_KEY, hf.TAGS_COMPRESSED}


def _file_info_value(name: bytes, value: bytes, bloom_type: str) -> str:
    if name in _LONGS:
        return str(struct.unpack(">q", value)[0])
    if name in _INTS:
        return str(struct.unpack(">i", value)[0])
    if name in _BOOLS:
        return "true" if value != b"\x00" else "false"
    if name == hf.TIMERANGE:
        lo, hi = parse_time_range(value)
        return f"{lo}....{hi}"
    if name == hf.LASTKEY or (name == hf.LAST_BLOOM_KEY and bloom_type == "ROWCOL"):
        return key_string(parse_key(value)) + "/vlen=0/mvcc=0"
    return tsb(value)


@dataclass
class BloomDescription:
    """A bloom filter's meta as HFilePrettyPrinter prints it (the -b option)."""

    bloom_type: str
    chunks: int
    byte_size: int  # the chunks' bytes as HBase stores them
    meta_size: int
    key_count: int
    max_keys: int
    hash_count: int
    hash_type: str  # hbase.hash.type's name: murmur or murmur3
    comparator: str | None

    @property
    def percentage_filled(self) -> float:
        return self.key_count / self.max_keys if self.max_keys else 0.0

    def lines(self) -> list[str]:
        return [
            f"BloomSize: {self.byte_size}",
            f"No of Keys in bloom: {self.key_count}",
            f"Max Keys for bloom: {self.max_keys}",
            f"Percentage filled: {self.percentage_filled:.0%}",
            f"Number of chunks: {self.chunks}",
            f"Hash count: {self.hash_count}",
            f"Hash type: {self.hash_type}",
            f"Comparator: {self.comparator or 'RawBytesComparator'}",
        ]


@dataclass
class IndexEntry:
    """One block index entry as HFilePrettyPrinter lists it: its level, the block it points to and
    its key."""

    level: int  # 1 = root, then intermediate levels, the last level is the leaf
    offset: int  # of the block the entry points to
    size: int  # on-disk size of that block
    key: str  # as HBase prints a KeyValue key


@dataclass
class HFileDescription:
    """Everything `hsim hfile` prints of one file (HFilePrettyPrinter's -m, -b, -i, -h output),
    gathered once so the text and JSON views agree."""

    name: str
    size: int
    compression: str
    entries: int
    first_key: str | None
    last_key: str | None
    mid_key: str | None
    trailer: dict
    file_info: dict[str, str]
    index_levels: int
    index_size: int
    data_size: int
    bloom: BloomDescription | None
    delete_family_bloom: BloomDescription | None
    index: list[IndexEntry]
    blocks: list  # hfile.BlockRecord, every block in file order
    cells: list[Cell] | None = field(default=None)
    data_block_encoding: str = "NONE"  # the file info's DATA_BLOCK_ENCODING

    def __str__(self) -> str:
        out = self.meta_lines() + self.index_lines() + self.header_lines()
        if self.cells is not None:
            out.append("Cells:")
            out += [f"K: {cell_string(c)} V: {tsb(c[6])}" for c in self.cells]
        return "\n".join(out)

    def meta_lines(self) -> list[str]:
        """HFilePrettyPrinter -m: the reader line, trailer, file info, mid-key, blooms."""
        out = [
            f"reader={self.name}, compression={self.compression.lower()}, "
            f"firstKey={self.first_key}, lastKey={self.last_key}, "
            f"avgKeyLen={self.file_info.get('hfile.AVG_KEY_LEN')}, "
            f"avgValueLen={self.file_info.get('hfile.AVG_VALUE_LEN')}, "
            f"entries={self.entries}, length={self.size}",
            "Trailer:",
            "    " + ", ".join(f"{k}={v}" for k, v in self.trailer.items()),
            "Fileinfo:",
        ]
        out += [f"    {k} = {v}" for k, v in self.file_info.items()]
        out.append(f"Mid-key: {self.mid_key}")
        for title, bloom in (("Bloom filter:", self.bloom),
                             ("Delete Family Bloom filter:", self.delete_family_bloom)):
            out.append(title)
            out += ["    " + line for line in bloom.lines()] if bloom else ["    Not present"]
        return out

    def index_lines(self) -> list[str]:
        """HFilePrettyPrinter -b: the block index."""
        out = [f"Block Index: {self.index_levels} level(s), {len(self.index)} entries, "
               f"{self.index_size} bytes"]
        out += [f"    level={e.level} offset={e.offset}, dataSize={e.size}, key={e.key}"
                for e in self.index]
        return out

    def header_lines(self) -> list[str]:
        """HFilePrettyPrinter -h: every block's header."""
        out = [f"Block Headers: {len(self.blocks)} blocks"]
        out += [f"    [blockType={b.block_type}, offset={b.offset}, "
                f"onDiskSizeWithHeader={b.on_disk_size}, "
                f"uncompressedSizeWithoutHeader={b.uncompressed_size}]" for b in self.blocks]
        return out

    def _repr_html_(self) -> str:
        def table(title, header, rows):
            head = "".join(f"<th>{html.escape(str(h))}</th>" for h in header)
            body = "".join(
                "<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in row) + "</tr>"
                for row in rows
            )
            return f"<h4>{html.escape(title)}</h4><table><tr>{head}</tr>{body}</table>"

        summary = [("name", self.name), ("length", self.size), ("entries", self.entries),
                   ("compression", self.compression),
                   ("data block encoding", self.data_block_encoding),
                   ("firstKey", self.first_key),
                   ("lastKey", self.last_key), ("midKey", self.mid_key),
                   ("index levels", self.index_levels), ("index bytes", self.index_size),
                   ("data bytes", self.data_size)]
        parts = [
            table("HFile", ("", ""), summary),
            table("Trailer", ("field", "value"), self.trailer.items()),
            table("File info", ("key", "value"), self.file_info.items()),
        ]
        for title, bloom in (("Bloom filter", self.bloom),
                             ("Delete family bloom filter", self.delete_family_bloom)):
            if bloom is not None:
                parts.append(table(title, ("field", "value"),
                                   dataclasses.asdict(bloom).items()))
        parts.append(table("Block index", ("level", "offset", "size", "key"),
                           [(e.level, e.offset, e.size, e.key) for e in self.index]))
        parts.append(table("Blocks", ("type", "offset", "on disk", "uncompressed"),
                           [(b.block_type, b.offset, b.on_disk_size, b.uncompressed_size)
                            for b in self.blocks]))
        if self.cells is not None:
            parts.append(table("Cells", ("key", "value"),
                               [(cell_string(c), tsb(c[6])) for c in self.cells]))
        return "".join(parts)


def _bloom(meta) -> BloomDescription | None:
    if meta is None:
        return None
    return BloomDescription(meta.bloom_type, meta.num_chunks, meta.byte_size, meta.meta_size,
                            meta.key_count, meta.max_keys, meta.hash_count,
                            _HASH_NAMES.get(meta.hash_type, str(meta.hash_type)), meta.comparator)


def describe(reader, cells: bool = False) -> HFileDescription:
    """Everything HFilePrettyPrinter -m -b -i (and -v with `cells=True`) shows for a file."""
    t = reader.trailer
    trailer = {
        "fileinfoOffset": t.file_info_offset,
        "loadOnOpenDataOffset": t.load_on_open_data_offset,
        "dataIndexCount": t.data_index_count,
        "metaIndexCount": t.meta_index_count,
        "totalUncomressedBytes": t.total_uncompressed_bytes,  # sic, as HBase prints it
        "entryCount": t.entry_count,
        "compressionCodec": reader.compression,
        "uncompressedDataIndexSize": t.uncompressed_data_index_size,
        "numDataIndexLevels": t.num_data_index_levels,
        "firstDataBlockOffset": t.first_data_block_offset,
        "lastDataBlockOffset": t.last_data_block_offset,
        "comparatorClassName": t.comparator_class_name,
        "encryptionKey": "NONE",
        "majorVersion": t.major_version,
        "minorVersion": t.minor_version,
    }
    info = {k.decode("latin-1"): _file_info_value(k, v, reader.bloom_type)
            for k, v in sorted(reader.file_info.items())}
    mid = reader.mid_key()
    return HFileDescription(
        name=reader.name,
        size=reader.size,
        compression=reader.compression,
        entries=reader.entry_count,
        first_key=key_string(reader.first_key) if reader.first_key is not None else None,
        last_key=key_string(reader.last_key) if reader.last_key is not None else None,
        mid_key=key_string(mid) if mid is not None else None,
        trailer=trailer,
        file_info=info,
        index_levels=reader.index_levels,
        index_size=reader.index_size,
        data_size=reader.data_size,
        bloom=_bloom(reader.bloom),
        delete_family_bloom=_bloom(reader.delete_family_bloom),
        index=[IndexEntry(level, off, size, key_string(key))
               for level, off, size, key in reader.index_entries()],
        blocks=reader.all_blocks(),
        cells=list(reader.cells()) if cells else None,
        data_block_encoding=reader.data_block_encoding,
    )
