"""hbase:meta, the region catalog, as a read-only view DERIVED from the master's live region map.

Every read builds the catalog afresh from the master's tables (one source of truth, nothing
copied that can go stale) into a throwaway region, so gets, scans, filters and counts of
hbase:meta run through the same read path as any table. One row per region, keyed as HBase keys
it (RegionInfo.createRegionName: `<table>,<start key>,<region id>.<encoded name>.`), family
`info` with the columns HBase 2.x writes (MetaTableAccessor / CatalogFamilyFormat,
RegionStateStore.updateRegionLocation).

What hsim does not keep: split parents (HBase keeps them, marked SPLIT, until the
CatalogJanitor deletes them; hsim retires them at once) and the `table:state` rows.
"""

from __future__ import annotations

import hashlib
import struct

from hsim.cell import NO_TTL
from hsim.errors import CatalogDisableError, CatalogError
from hsim.protobuf import field_bytes, field_varint, read_fields
from hsim.regions.region import Region
from hsim.regions.router import RegionLocator
from hsim.regions.table_state import TableState
from hsim.schema import ColumnFamily, TableDescriptor

META_TABLE = "hbase:meta"
SYSTEM_NAMESPACE = "hbase"
INFO = b"info"
_PUT = 4
_LONG = struct.Struct(">q")
_PB_MAGIC = b"PBUF"  # ProtobufMagic: what RegionInfo.toByteArray puts before the message

# HBase 2.x's meta `info` family (TableDescriptorBuilder's meta descriptor): 3 versions, in
# memory, 8 KB blocks, no bloom filter.
DESCRIPTOR = TableDescriptor(
    name=META_TABLE,
    families={INFO: ColumnFamily(max_versions=3, in_memory=True, block_size=8192,
                                 bloom_filter="NONE")},
    split_enabled=False,
)


def is_meta(name) -> bool:
    return (name.decode("utf-8", "replace") if isinstance(name, bytes) else name) == META_TABLE


def refuse(name, action: str = "modify") -> None:
    """Raise HBase's error if `name` is hbase:meta (before anything changes)."""
    if not is_meta(name):
        return
    if action == "disable":
        raise CatalogDisableError(f"Cannot disable {META_TABLE}")
    raise CatalogError("Can't modify catalog tables")


# --- HBase's value shapes -----------------------------------------------------------------------
def _field(number: int, value) -> bytes:
    """One protobuf field: varint (wire type 0) for ints and bools, else length-delimited."""
    if isinstance(value, (bool, int)):
        return field_varint(number, int(value))
    return field_bytes(number, value)


def region_info_bytes(region) -> bytes:
    """RegionInfo.toByteArray: PBUF + HBaseProtos.RegionInfo (region_id, table_name{namespace,
    qualifier}, start_key, end_key, offline, split, replica_id)."""
    ns, _, qualifier = region.table.name.rpartition(":")
    table = _field(1, (ns or "default").encode()) + _field(2, qualifier.encode())
    msg = (_field(1, region.region_id) + _field(2, table) + _field(3, region.start_key)
           + _field(4, region.end_key) + _field(5, False) + _field(6, False) + _field(7, 0))
    return _PB_MAGIC + msg


def parse_region_info(value: bytes) -> dict | None:
    """The fields of a RegionInfo value (RegionInfo.parseFromOrNull); None if it is not one."""
    if not value.startswith(_PB_MAGIC):
        return None
    try:
        return dict(read_fields(value, len(_PB_MAGIC), len(value)))
    except (IndexError, ValueError):
        return None


def region_row(region) -> bytes:
    """RegionInfo.getRegionName: the region's name as raw bytes, its meta row key."""
    return (f"{region.table.name},".encode() + region.start_key
            + f",{region.region_id}.{region.encoded_name}.".encode())


def region_info_text(value: bytes, row: bytes | None = None) -> str:
    """RegionInfo.toString, as the shell prints info:regioninfo."""
    from hsim.bytes import to_string_binary

    f = parse_region_info(value)
    if f is None:
        return ""
    table = parse_region_info(_PB_MAGIC + f.get(2, b"")) or {}
    ns, q = table.get(1, b"default"), table.get(2, b"")
    table_name = (q if ns == b"default" else ns + b":" + q).decode("utf-8", "replace")
    start = f.get(3, b"")
    raw = f"{table_name},".encode() + start + f",{f.get(1, 0)}".encode()
    encoded = hashlib.md5(raw).hexdigest()  # RegionInfo.encodeRegionName
    full = raw + f".{encoded}.".encode()
    text = (f"{{ENCODED => {encoded}, NAME => '{to_string_binary(full)}', "
            f"STARTKEY => '{to_string_binary(f.get(3, b''))}', "
            f"ENDKEY => '{to_string_binary(f.get(4, b''))}'")
    if f.get(5):
        text += ", OFFLINE => true"
    if f.get(6):
        text += ", SPLIT => true"
    return text + "}"


# --- the view ------------------------------------------------------------------------------------
def catalog_entries(region, state_time: int, enabled: bool) -> list:
    """The info cells of one region's row, as RegionStateStore leaves them: location columns
    stamped with the region's open time; regioninfo, sn and state with the last state change
    (the open, or the table's disable)."""
    server = region.server
    opened = region.opened_at
    changed = opened if enabled else max(opened, state_time)
    out = [(INFO, b"regioninfo", changed, _PUT, region_info_bytes(region), NO_TTL)]
    if server is not None:
        out += [
            (INFO, b"seqnumDuringOpen", opened, _PUT,
             _LONG.pack(region.open_seq_num), NO_TTL),
            (INFO, b"server", opened, _PUT, f"{server.hostname}:{server.port}".encode(), NO_TTL),
            (INFO, b"serverstartcode", opened, _PUT, _LONG.pack(server.start_code), NO_TTL),
            (INFO, b"sn", changed, _PUT, server.name.encode(), NO_TTL),
        ]
    out.append((INFO, b"state", changed, _PUT, b"OPEN" if enabled else b"CLOSED", NO_TTL))
    parents = getattr(region, "merged_from", None)
    if parents and region.has_references():  # MetaTableAccessor.addMergeRegions, until the
        # CatalogJanitor finds the parents' files unreferenced
        out += [(INFO, b"merge%04d" % i, opened, _PUT, region_info_bytes(p), NO_TTL)
                for i, p in enumerate(parents)]
    return out


class CatalogServer:
    """Where hbase:meta's reads run: the RegionServer request calls, counting nothing. The
    catalog is derived on every read, so reading it must leave no trace in any server's books
    (MemStore, WAL, request metrics) -- a real meta read changes no user region's server."""

    def __init__(self, host):
        self.name, self.hostname, self.port = host.name, host.hostname, host.port

    def get(self, region, row, queries, now, io=None, filt=None, max_versions=1, limits=None):
        return region.get(row, queries, now, io, filt, max_versions, limits)

    def open_scanner(self, region, *args, **options):
        from hsim.regions.region_scanner import RegionScanner

        return RegionScanner(region, *args, **options)

    def scan(self, scanner, want: int, metrics=None) -> list:
        return scanner.next_rows(want, metrics)

    def mutate(self, region, row, entries, now, durability=0):
        refuse(META_TABLE)

    def increment(self, region, *args, **kwargs):
        refuse(META_TABLE)

    append = check_and_mutate = increment  # every write to the catalog is refused alike


class CatalogRegion(Region):
    """hbase:meta's single region, filled from the region map when built (straight into its
    MemStore: no WAL, no server, no flush). Its server, a CatalogServer, refuses every write
    before the region sees it."""

    def __init__(self, master):
        super().__init__(DESCRIPTOR, b"", b"", 1, master.config)
        self.encoded_name = "1588230740"  # the fixed encoded name of hbase:meta,,1
        self.name = f"{META_TABLE},,1.{self.encoded_name}."
        store = self.stores[INFO]
        for name in sorted(master.tables):
            st = master.tables[name]
            for r in st.locator.regions:
                for c in self.cells_of(region_row(r), catalog_entries(r, st.state_time,
                                                                      st.enabled), 0, 1):
                    self.memstore_heap += store.memstore.add(c)
        # the live server that carries hbase:meta, as a stand-in that keeps no books
        self.server = CatalogServer(master.servers[0])


def state(master):
    """A TableState for hbase:meta built now from the live region map."""
    return TableState(DESCRIPTOR, True, RegionLocator([CatalogRegion(master)]), [])
