"""Where things live in a data directory (modelled on HBase's root directory) and how the
small metadata files are encoded.

    hbase.version                                  the hsim data-directory format version
    data/<namespace>/<table>/.tabledesc/.tableinfo.0000000001   the table descriptor (JSON)
    data/<namespace>/<table>/<encoded region>/.regioninfo       the region's boundaries (JSON)
    data/<namespace>/<table>/<encoded region>/<family>/<hfile>  a store file: real HFile bytes
    data/.../<family>/<hfile>.<parent encoded region>           a split daughter's Reference
    data/.../<family>/[<ns>=]<table>=<region>-<hfile>           an HFileLink (a clone's)
    archive/data/<namespace>/<table>/<region>/<family>/<hfile>  a file a snapshot, link or
                                                   reference still reads (hsim.storage.archive)
    .hbase-snapshot/<name>/.snapshotinfo, data.manifest         a snapshot (storage.snapshots)
    WALs/<server name>/<wal file>                  a live server's WAL files
    oldWALs/<wal file>                             WAL files no longer needed (archived)

Files are written to a .tmp directory and renamed into place (HRegionFileSystem.commitStoreFile,
FSTableDescriptors), so a crash leaves either the old file or the new one.
"""

from __future__ import annotations

import json
import os

from hsim.storage import fs

FORMAT_VERSION = "hsim-data-dir 1"  # what hbase.version holds (HConstants.FILE_SYSTEM_VERSION)
VERSION_FILE = "hbase.version"
TABLEINFO = ".tableinfo.0000000001"


def table_dir(root: str, table: str) -> str:
    ns, _, name = table.rpartition(":")
    return os.path.join(root, "data", ns or "default", name)


def family_dir_name(family: bytes) -> str:
    return family.decode("utf-8", "surrogateescape")


def wal_dir(root: str, server_name: str) -> str:
    return os.path.join(root, "WALs", server_name)


def write_atomic(path: str, data: bytes, tmp_dir: str | None = None) -> None:
    """Write `data` to a .tmp directory next to `path`'s directory (or `tmp_dir`), fsync it,
    then rename it into place; every write checked, nothing left behind on failure (fs)."""
    fs.write_file(path, data, tmp_dir or os.path.join(os.path.dirname(os.path.dirname(path)),
                                                      ".tmp"))


def _plain(v):
    if isinstance(v, bytes):
        return {"hex": v.hex()}
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    return v


def _bytes(v):
    if isinstance(v, dict) and set(v) == {"hex"}:
        return bytes.fromhex(v["hex"])
    return v


def encode_json(obj: dict) -> bytes:
    return json.dumps(_plain(obj), sort_keys=True, indent=1).encode()


def decode_json(data: bytes) -> dict:
    obj = json.loads(data.decode())
    if not isinstance(obj, dict):
        raise ValueError("not a JSON object")
    return {k: _bytes(v) for k, v in obj.items()}


def encode_descriptor(desc, enabled: bool, state_time: int, split_keys: list) -> bytes:
    """A TableDescriptor with its families and the table's state."""
    attrs = {k: v for k, v in vars(desc).items() if k not in ("name", "families")}
    return encode_json({
        "name": desc.name, "enabled": enabled, "state_time": state_time,
        "split_keys": [k.hex() for k in split_keys], "attributes": attrs,
        "families": [[f.hex(), cf.to_dict()] for f, cf in desc.families.items()],
    })


def decode_descriptor(data: bytes):
    """(TableDescriptor, enabled, state_time, split_keys) from a .tableinfo file's bytes."""
    from hsim.schema import ColumnFamily, TableDescriptor

    d = decode_json(data)
    fams = {bytes.fromhex(f): ColumnFamily(**opts) for f, opts in d["families"]}
    attrs = {k: _bytes(v) for k, v in d["attributes"].items()}
    desc = TableDescriptor(d["name"], fams, **attrs)
    return desc, bool(d["enabled"]), int(d["state_time"]), \
        [bytes.fromhex(k) for k in d["split_keys"]]


def encode_regioninfo(region) -> bytes:
    """RegionInfo: table, boundaries, region id; `split` (set later) marks a retired split
    or merge parent; `merged_from`, a merged region's parents."""
    info = {"table": region.table.name, "start_key": region.start_key,
            "end_key": region.end_key, "region_id": region.region_id,
            "encoded_name": region.encoded_name, "split": False}
    parents = getattr(region, "merged_from", None)
    if parents:  # a merged region's parents, for hbase:meta's info:merge000N (hex keys)
        info["merged_from"] = [[p.start_key.hex(), p.end_key.hex(), p.region_id]
                               for p in parents]
    return encode_json(info)


def encode_reference(sf, parent: str, home: str | None = None) -> bytes:
    """Reference (a split daughter's half of its parent's file): the file, and its row range;
    `home`, where the file's bytes live (hsim.storage.archive) when known."""
    ref = {"parent": parent, "file": sf.reader.name, "lo": sf.lo, "hi": sf.hi}
    if home is not None:
        ref["home"] = home
    return encode_json(ref)


def store_file_bytes(sf, homes: dict) -> bytes:
    """What a store's directory holds for `sf`: an HFile's bytes, a Reference, or nothing
    at all for an HFileLink (its name says what it reads)."""
    if sf.is_reference:
        return encode_reference(sf, sf.name.rsplit(".", 1)[1], homes.get(sf.reader))
    if sf.name != sf.reader.name:
        return b""
    return sf.reader.data


def desc_token(st) -> tuple:
    d = st.descriptor
    return (st.enabled, st.state_time, tuple(d.families.items()),
            tuple(v for k, v in vars(d).items() if k != "families"))
