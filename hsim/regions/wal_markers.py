"""WAL markers (WALEdit's meta cells): an entry whose one cell is in the family METAFAMILY
says something happened to the region's files rather than carrying an edit. hsim writes the
one HBase writes for a bulk load (WALEdit.createBulkLoadEvent): row = the region's start key
(b"\\x00" for the first region: getRowForRegion), family METAFAMILY, qualifier
HBASE::BULK_LOAD, a Put at the load's time, value = a BulkLoadDescriptor in protobuf bytes
(WAL.proto). Replay skips every METAFAMILY cell, as WALSplitter and
HRegion.replayRecoveredEdits do (WALEdit.isMetaEditFamily): the loaded files are in the
stores already.
"""

from __future__ import annotations

from hsim.cell import FAMILY, NO_TTL, PUT, fields
from hsim.protobuf import field_bytes, field_varint

METAFAMILY = b"METAFAMILY"  # WALEdit.METAFAMILY
BULK_LOAD = b"HBASE::BULK_LOAD"  # WALEdit.BULK_LOAD


def is_meta(cell) -> bool:
    """WALEdit.isMetaEditFamily: a marker, never an edit to replay."""
    return cell[FAMILY] == METAFAMILY


def bulk_load_descriptor(table: str, encoded_region: str, files: dict, seq: int) -> bytes:
    """WALProtos.BulkLoadDescriptor: table (TableName: namespace, qualifier), encoded region
    name, per family a StoreDescriptor (family, store home dir = the family's name, the files'
    names, their total size), the load's sequence id, replicate = true (ProtobufUtil
    .toBulkLoadDescriptor). `files`: family -> [(file name, size)]."""
    ns, _, qualifier = table.rpartition(":")
    table_name = field_bytes(1, (ns or "default").encode()) + field_bytes(2, qualifier.encode())
    out = field_bytes(1, table_name) + field_bytes(2, encoded_region.encode())
    for fam, named in files.items():
        store = field_bytes(1, fam) + field_bytes(2, fam)
        for name, _size in named:
            store += field_bytes(3, name.encode())
        store += field_varint(4, sum(size for _n, size in named))
        out += field_bytes(3, store)
    return out + field_varint(4, seq) + field_varint(6, 1)


def bulk_load_event(region, files: dict, load_seq: int, marker_seq: int, now: int):
    """WALEdit.createBulkLoadEvent: the marker cell (a cell tuple, hsim.cell.fields) of a load
    into `region` of `files` (family -> [(name, size)]) under sequence id `load_seq`; the
    entry itself takes `marker_seq` (HBase stamps a marker with a new sequence id)."""
    row = region.start_key or b"\x00"
    value = bulk_load_descriptor(region.table.name, region.encoded_name, files, load_seq)
    return fields(row, METAFAMILY, BULK_LOAD, now, PUT, value, marker_seq, NO_TTL)
