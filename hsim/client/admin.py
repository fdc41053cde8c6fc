"""Admin: table and region administration (HBase's Admin interface)."""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field

from hsim.client import validation as v
from hsim.client.admin_lifecycle import AdminLifecycle
from hsim.errors import (ConstraintError, InvalidArgumentError, NamespaceExistError,
                         NamespaceNotFoundError, NoSuchColumnFamilyError)
from hsim.metrics import printable_keys
from hsim.regions import meta
from hsim.schema import ColumnFamily, TableDescriptor, validate_family_name

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from hsim.client.cluster import Cluster
    from hsim.durability import Durability
    from typing import Any


@dataclass
class StoreFileInfo:
    """One store file as the admin lists it: name, size, cells, reference or not, time range,
    max sequence id."""

    name: str
    size: int
    entries: int
    is_reference: bool
    min_timestamp: int
    max_timestamp: int
    max_seq_id: int


@dataclass
class RegionInfo:
    """What `admin.regions(table)` returns for one region."""

    name: str
    encoded_name: str
    table: str
    start_key: bytes
    end_key: bytes
    server: str
    region_id: int
    read_requests: int  # rows returned (RegionLoad.getReadRequestsCount)
    filtered_read_requests: int  # rows read, not returned (getFilteredReadRequestsCount)
    write_requests: int
    memstore_bytes: int
    store_files: dict = field(default_factory=dict)  # family -> [StoreFileInfo]

    @property
    def store_file_count(self) -> int:
        """Store files over all families."""
        return sum(len(v) for v in self.store_files.values())

    @property
    def size(self) -> int:
        """Bytes of store files over all families."""
        return sum(f.size for v in self.store_files.values() for f in v)

    def to_dict(self) -> dict:
        """JSON-ready: row keys in the shell's printable form (see hsim.metrics)."""
        return printable_keys(asdict(self))

    def to_json(self) -> str:
        """`to_dict()` as JSON text."""
        return json.dumps(self.to_dict(), indent=2)


def _family(name, options) -> tuple[bytes, ColumnFamily]:
    fam = validate_family_name(v.to_bytes(name, "family"))
    if isinstance(options, ColumnFamily):
        return fam, options
    if options is not None and not isinstance(options, dict):
        raise v.type_error("family options", "a ColumnFamily or a dict", options)
    return fam, ColumnFamily.from_options(options)


class Admin(AdminLifecycle):
    """HBase's Admin: tables and column families, enable/disable, flush, compact, split, merge,
    move, balance, normalize."""

    def __init__(self, cluster: Cluster):
        self.cluster = cluster
        self.master = cluster.master

    # --- tables --------------------------------------------------------------------------------
    def create_table(self, name: str | bytes, families: list | dict,
                     split_keys: list[bytes | str] | None = None, presplit: Any = None,
                     start_key: bytes | str | None = None,
                     end_key: bytes | str | None = None, num_regions: int | None = None,
                     max_filesize: int | None = None,
                     memstore_flush_size: int | None = None, split_policy: str | None = None,
                     split_enabled: bool = True,
                     key_prefix_length: int | None = None,
                     key_prefix_delimiter: bytes | str | None = None,
                     durability: Durability | str | None = None,
                     values: dict | None = None, configuration: dict | None = None) -> None:
        """families: a list of names, or a dict name -> ColumnFamily | option dict | None.
        `values`: the descriptor's other attributes (OWNER, METADATA entries, ...), str -> str;
        `configuration`: CONFIGURATION entries hsim reads (hsim.configuration_keys).
        Pre-split with `split_keys`, `presplit=` an algorithm (HexStringSplit(n), ...), or
        `start_key=, end_key=, num_regions=` as Admin.createTable(desc, start, end, n)."""
        name = v.table_name(name)
        if isinstance(families, (str, bytes)):
            families = [families]
        if isinstance(families, dict):
            pairs = [_family(k, o) for k, o in families.items()]
        elif isinstance(families, (list, tuple, set, frozenset)):
            pairs = [_family(k, None) for k in families]
        else:
            raise v.type_error("families", "a list of names or a dict", families)
        v.unique_families([f for f, _ in pairs])
        attrs = v.table_attributes(dict(
            max_filesize=max_filesize, memstore_flush_size=memstore_flush_size,
            split_policy=split_policy, split_enabled=split_enabled,
            key_prefix_length=key_prefix_length, key_prefix_delimiter=key_prefix_delimiter,
            durability=durability, values={} if values is None else values,
            configuration={} if configuration is None else configuration))
        desc = TableDescriptor(name=name, families=dict(pairs), **attrs)
        keys = self._split_keys(split_keys, presplit, start_key, end_key, num_regions)
        with self.cluster.lock:
            v.creatable_table(name, self.master.namespaces)
            self.master.create_table(desc, keys)

    @staticmethod
    def _split_keys(split_keys, presplit, start_key, end_key, num_regions) -> list:
        """Explicit keys; or a RegionSplitter algorithm: `presplit=("HexStringSplit", 10)`,
        `presplit=(HexStringSplit, 10)` or `presplit=HexStringSplit(), num_regions=10`; or
        `start_key, end_key, num_regions` exactly as Admin.createTable(desc, start, end, n)."""
        if split_keys is not None:
            if presplit is not None or num_regions is not None:
                raise InvalidArgumentError("split_keys cannot be combined with other pre-splits")
            if isinstance(split_keys, (str, bytes)) or not hasattr(split_keys, "__iter__"):
                raise v.type_error("split_keys", "a list of row keys", split_keys)
            keys = [v.to_bytes(k, "split key") for k in split_keys]
            _region_count(len(keys) + 1)
            return keys
        if presplit is not None:
            from hsim import presplit as algos

            algo, n = presplit if isinstance(presplit, tuple) else (presplit, num_regions)
            if isinstance(algo, str):
                algo = getattr(algos, algo.rsplit(".", 1)[-1], None)
                if algo is None:
                    raise InvalidArgumentError(f"unknown split algorithm {presplit[0]!r}")
            if isinstance(algo, type):
                algo = algo()
            if not isinstance(n, int) or n < 1:
                raise InvalidArgumentError("a split algorithm needs num_regions >= 1")
            _region_count(n)
            return list(algo.split(n)) if n > 1 else []
        if num_regions is not None:
            if start_key is None or end_key is None:
                raise InvalidArgumentError("num_regions needs start_key and end_key")
            if isinstance(num_regions, int):
                _region_count(num_regions)
            from hsim.presplit import admin_split_keys

            return admin_split_keys(v.to_bytes(start_key, "start_key"),
                                    v.to_bytes(end_key, "end_key"), num_regions)
        return []

    def delete_table(self, name: str | bytes) -> None:
        """Drop a disabled table and its data (TableNotDisabledError if enabled)."""
        with self.cluster.lock:
            self.master.delete_table(_name(name))

    def disable_table(self, name: str | bytes) -> None:
        """Take a table offline: reads and writes fail until enabled."""
        with self.cluster.lock:
            self.master.disable_table(_name(name))

    def enable_table(self, name: str | bytes) -> None:
        """Bring a disabled table back online."""
        with self.cluster.lock:
            self.master.enable_table(_name(name))

    def is_table_enabled(self, name: str | bytes) -> bool:
        """Whether the table is enabled."""
        with self.cluster.lock:
            return self.master.table_state(_name(name)).enabled

    def is_table_disabled(self, name: str | bytes) -> bool:
        """Whether the table is disabled."""
        return not self.is_table_enabled(name)

    def table_exists(self, name: str | bytes) -> bool:
        """Whether a table of that name exists (hbase:meta included)."""
        return _name(name) in self.master.tables or meta.is_meta(_name(name))

    def list_tables(self) -> list[str]:
        """Every table's name, sorted."""
        return sorted(self.master.tables)

    def describe(self, name: str | bytes) -> TableDescriptor:
        """The table's descriptor: its column families and their settings."""
        with self.cluster.lock:
            return self.master.table_state(_name(name)).descriptor

    def truncate_table(self, name: str | bytes, preserve_splits: bool = True) -> None:
        """Empty a disabled table, keeping its region boundaries unless preserve_splits=False."""
        with self.cluster.lock:
            self.master.truncate_table(_name(name), preserve_splits)

    # --- namespaces (the master's namespace table) ---------------------------------------------
    def create_namespace(self, name: str | bytes) -> None:
        """Admin.createNamespace: NamespaceExistError if it exists."""
        name = v.namespace_name(name)
        with self.cluster.lock:
            if name in self.master.namespaces:
                raise NamespaceExistError(name)
            self.master.namespaces.add(name)

    def list_namespaces(self) -> list[str]:
        """Every namespace, `default` and `hbase` included, sorted."""
        return sorted(self.master.namespaces)

    def drop_namespace(self, name: str | bytes) -> None:
        """DeleteNamespaceProcedure: the reserved namespaces stay; only empty ones go."""
        name = v.namespace_name(name)
        with self.cluster.lock:
            if name in (v.DEFAULT_NAMESPACE, v.SYSTEM_NAMESPACE):
                raise ConstraintError(f"Reserved namespace {name} cannot be removed.")
            if name not in self.master.namespaces:
                raise NamespaceNotFoundError(name)
            tables = [t for t in self.master.tables if v.namespace_of(t) == name]
            if tables:
                raise ConstraintError(f"Only empty namespaces can be removed. Namespace {name} "
                                      f"has {len(tables)} tables")
            self.master.namespaces.discard(name)

    # --- families ------------------------------------------------------------------------------
    def add_family(self, name: str | bytes, family: bytes | str,
                   options: ColumnFamily | dict | None = None) -> None:
        """Add a column family (a ColumnFamily or a dict of HBase's option names)."""
        fam, cf = _family(family, options)
        with self.cluster.lock:
            self.master.add_family(_name(name), fam, cf)

    def alter_family(self, name: str | bytes, family: bytes | str,
                     options: ColumnFamily | dict | None = None, **changes: Any) -> None:
        """Change a family's options: a ColumnFamily, an option dict, or keyword changes. Reads
        see the change at once; stored data changes at the next major compaction."""
        fam = v.to_bytes(family, "family")
        if options is not None and not isinstance(options, (dict, ColumnFamily)):
            raise v.type_error("family options", "a ColumnFamily or a dict", options)
        with self.cluster.lock:
            current = self.master.table_state(_name(name)).descriptor.families.get(fam)
            if current is None:
                shown = fam.decode("utf-8", "replace")
                raise NoSuchColumnFamilyError(
                    f"Column family '{shown}' does not exist in table {_name(name)}")
            if isinstance(options, ColumnFamily):
                cf = options
            else:
                merged = dict(options or {})
                merged.update(changes)
                cf = ColumnFamily.from_options({**current.to_dict(), **_field_names(merged)})
            self.master.alter_family(_name(name), fam, cf)

    def delete_family(self, name: str | bytes, family: bytes | str) -> None:
        """Remove a column family and its data."""
        with self.cluster.lock:
            self.master.delete_family(_name(name), v.to_bytes(family, "family"))

    def alter_table(self, name: str | bytes, **attributes: Any) -> None:
        """Table attributes: max_filesize, memstore_flush_size, split_policy, split_enabled,
        durability, key_prefix_length, key_prefix_delimiter, values (replaces the values map),
        configuration (replaces the CONFIGURATION entries),
        normalization_enabled (the NORMALIZATION_ENABLED value the normalizer reads),
        merge_enabled (the MERGE_ENABLED value a merge reads)."""
        meta.refuse(_name(name))
        flags = {}  # values-map attributes set on their own: VALUE -> "true" | "false"
        for key, value_name in (("normalization_enabled", "NORMALIZATION_ENABLED"),
                                ("merge_enabled", "MERGE_ENABLED")):
            flag = attributes.pop(key, None)
            if flag is not None:
                flags[value_name] = "true" if v.boolean(flag, key) else "false"
        checked = v.table_attributes(attributes)  # all checked before any is set
        if "values" in checked:
            from hsim import descriptor_attributes

            for k, value in checked["values"].items():
                if descriptor_attributes.known(k, "table"):
                    descriptor_attributes.check(k, value, "table")
        with self.cluster.lock:
            desc = self.master.table_state(_name(name)).descriptor
            for k, value in checked.items():
                setattr(desc, k, value)
            desc.values.update(flags)

    # --- regions -------------------------------------------------------------------------------
    def _regions_of(self, target) -> list:
        """A table's regions, or the one region `target` names (a region name is no table
        name: it holds commas)."""
        raw = v.to_bytes(target, "table or region name").decode("utf-8", "replace")
        if "," in raw:
            return [self.master.region_by_name(raw)]
        name = _name(raw)
        if meta.is_meta(name):
            return []  # derived on each read: nothing to flush, compact or split
        if name in self.master.tables:
            return list(self.master.tables[name].locator.regions)
        return [self.master.region_by_name(name)]

    def flush(self, target: str | bytes) -> None:
        """Flush the memstores of a table's (or one region's) regions to new store files."""
        with self.cluster.lock:
            now = self.cluster.clock.now()
            for r in self._regions_of(target):
                if not r.closed:
                    r.flush(now, force_all=True)

    def compact(self, target: str | bytes, family: bytes | str | None = None) -> None:
        """Minor-compact a table or region now (files chosen by the compaction policy; one
        family if given)."""
        self._compact(target, family, major=False)

    def major_compact(self, target: str | bytes, family: bytes | str | None = None) -> None:
        """Major-compact a table or region: rewrite each store into one file, dropping deleted and
        expired cells."""
        self._compact(target, family, major=True)

    def _compact(self, target, family, major) -> None:
        with self.cluster.lock:
            now = self.cluster.clock.now()
            fam = None if family is None else v.to_bytes(family, "family")
            for r in self._regions_of(target):
                if not r.closed:
                    r.compact(now, major=major, family=fam)

    def split(self, target: str | bytes, split_point: bytes | str | None = None) -> bool:
        """Split a table's regions (or one region) at `split_point`, or at each region's own
        mid key. Returns whether any region split."""
        with self.cluster.lock:
            now = self.cluster.clock.now()
            done = False
            point = None if split_point is None else v.row(split_point, "split_point")
            for r in self._regions_of(target):
                if r.closed:
                    continue
                if point is not None:
                    if not r.contains(point):
                        continue
                    if not r.valid_split_row(point):
                        raise InvalidArgumentError(
                            f"Split row {point!r} is the start key of {r.name}")
                    _refuse_split(self.master, r)
                    r.flush(now, force_all=True)
                    if r.closed:
                        continue
                    if r.has_references():
                        raise InvalidArgumentError(f"Region {r.name} has references; compact first")
                    done |= self.master.split_region(r, point, now) is not None
                else:
                    _refuse_split(self.master, r)
                    r.flush(now, force_all=True)
                    if r.closed:
                        continue
                    p = r.split_point()
                    if p is not None and r.valid_split_row(p):
                        done |= self.master.split_region(r, p, now) is not None
            return done

    def bulk_load(self, name: str | bytes, directory: "str | os.PathLike") -> int:
        """completebulkload: move the HFiles under `directory`/<family>/ into the table's
        stores (split at region boundaries first; all or nothing). Returns the files loaded
        (docs/bulk-load.md)."""
        from hsim.client.bulk_load import bulk_load

        if not isinstance(directory, (str, bytes, os.PathLike)):
            raise v.type_error("directory", "a path", directory)
        with self.cluster.lock:
            return bulk_load(self.master, _name(name), os.fspath(directory),
                             self.cluster.clock.now())

    # --- snapshots (docs/bulk-load.md, "Snapshots") ---------------------------------------------
    def _snapshots(self):
        """hsim.regions.snapshot (with a data directory, hsim.storage writes them to
        .hbase-snapshot/ at the request's checkpoint)."""
        from hsim.regions import snapshot

        return snapshot

    def snapshot(self, name: str, table: str | bytes) -> None:
        """Take a snapshot of a table (flushed first): its files are held, none copied."""
        with self.cluster.lock:
            self._snapshots().take(self.master, _snapshot_name(name), _name(table),
                                   self.cluster.clock.now())

    def clone_snapshot(self, name: str, table: str | bytes) -> None:
        """Create `table` from a snapshot: its stores link to the snapshot's files."""
        with self.cluster.lock:
            table = _name(table)
            v.creatable_table(table, self.master.namespaces)
            self._snapshots().clone(self.master, _snapshot_name(name), table)

    def restore_snapshot(self, name: str) -> None:
        """Put a disabled table back as the snapshot holds it (it stays disabled)."""
        with self.cluster.lock:
            self._snapshots().restore(self.master, _snapshot_name(name))

    def list_snapshots(self) -> list:
        """The snapshots, oldest first (SnapshotDescription records)."""
        with self.cluster.lock:
            return sorted(self.master.snapshots.values(), key=lambda s: (s.creation_time,
                                                                         s.name))

    def delete_snapshot(self, name: str) -> None:
        """Forget a snapshot; files no table uses any more go with it."""
        with self.cluster.lock:
            self._snapshots().delete(self.master, _snapshot_name(name))

    def balance(self) -> list:
        """Run the balancer (Config.balancer: StochasticLoadBalancer by default) and carry out
        its plan; returns the moves (region, from server, to server), none while the balancer
        is switched off (balance_switch)."""
        with self.cluster.lock:
            return self.master.balance() if self.master.switch("balancer") else []

    def regions(self, name: str | bytes) -> list[RegionInfo]:
        """Every region of a table, in key order (RegionInfo records)."""
        with self.cluster.lock:
            st = self.master.table_state(_name(name))
            out = []
            for r in st.locator.regions:
                files = {
                    f.decode("utf-8", "replace"): [
                        StoreFileInfo(sf.name, sf.size, sf.entry_count, sf.is_reference,
                                      sf.min_timestamp, sf.max_timestamp, sf.max_seq_id)
                        for sf in s.files]
                    for f, s in r.stores.items()
                }
                out.append(RegionInfo(
                    name=r.name, encoded_name=r.encoded_name, table=r.table.name,
                    start_key=r.start_key, end_key=r.end_key,
                    server=r.server.name if r.server else "", region_id=r.region_id,
                    read_requests=r.read_requests, write_requests=r.write_requests,
                    memstore_bytes=r.memstore_heap, store_files=files,
                    filtered_read_requests=r.filtered_read_requests))
            return out


def _field_names(options: dict) -> dict:
    """Option dicts may use the shell's names (VERSIONS, TTL, ...) or hsim's."""
    from hsim.schema import _SHELL_NAMES

    out = {}
    for k, value in options.items():
        key = _SHELL_NAMES.get(str(k).upper(), str(k).lower())
        if key != "name":
            out[key] = value
    return out


def _name(name) -> str:
    return v.table_name(name)


def _snapshot_name(name) -> str:
    return v.to_bytes(name, "snapshot name").decode("utf-8", "replace")


#: The most regions a table may be created with (an hsim limit: each region is a live object
#: with its stores, so a pre-split of 10^9 regions would only hang; HBase has no such cap).
MAX_PRESPLIT_REGIONS = 10_000


def _region_count(n: int) -> None:
    if n > MAX_PRESPLIT_REGIONS:
        raise InvalidArgumentError(
            f"Cannot create a table with {n} regions: hsim pre-splits a table into at most "
            f"{MAX_PRESPLIT_REGIONS} regions")


def _refuse_split(master, region) -> None:
    """Raise what HBase answers a requested split that the SPLIT switch or the table's
    SPLIT_ENABLED forbids (Master.split_refusal); nothing is flushed or split."""
    refused = master.split_refusal(region)
    if refused is not None:
        raise refused
