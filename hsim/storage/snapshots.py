"""Snapshots in a data directory, laid out as HBase lays them out (SnapshotDescriptionUtils,
SnapshotManifest):

    .hbase-snapshot/<name>/.snapshotinfo   the SnapshotDescription: name, table, creation
                                           time, type, layout version (2, SnapshotManifestV2)
    .hbase-snapshot/<name>/data.manifest   the table descriptor and, per region, its info and
                                           per family its store files
    .hbase-snapshot/.tmp/<name>/           a snapshot being written (its working directory)

A snapshot is written in its working directory and renamed into place in one step
(SnapshotDescriptionUtils.completeSnapshot), so a crash leaves it whole or absent. The two
files are hsim's JSON, not HBase's protobuf messages: the same fields, plus each store file's
home (hsim.storage.archive), so it is read back without walking HFileLink's search order.
The files a snapshot holds stay under data/ while a table has them, then under archive/.
"""

from __future__ import annotations

import os
import shutil

from hsim.errors import DeserializationError
from hsim.storage import layout
from hsim.storage.archive import home_of
from hsim.storage.disk_files import read_file
from hsim.storage.layout import family_dir_name, write_atomic

SNAPSHOT_DIR = ".hbase-snapshot"  # HConstants.SNAPSHOT_DIR_NAME
SNAPSHOTINFO_FILE = ".snapshotinfo"  # SnapshotDescriptionUtils.SNAPSHOTINFO_FILE
DATA_MANIFEST_NAME = "data.manifest"  # SnapshotManifest.DATA_MANIFEST_NAME
SNAPSHOT_TMP_DIR_NAME = ".tmp"  # SnapshotDescriptionUtils.SNAPSHOT_TMP_DIR_NAME
LAYOUT_VERSION = 2  # SnapshotManifestV2.DESCRIPTOR_VERSION


def snapshot_dir(root: str, name: str) -> str:
    return os.path.join(root, SNAPSHOT_DIR, name)


def working_dir(root: str) -> str:
    return os.path.join(root, SNAPSHOT_DIR, SNAPSHOT_TMP_DIR_NAME)


def write(root: str, snap, homes: dict) -> None:
    """Write `snap` in its working directory, then rename it into place. `homes`: HFile
    reader -> home (hsim.storage.archive.Archive.homes)."""
    work = os.path.join(working_dir(root), snap.name)
    shutil.rmtree(work, ignore_errors=True)
    tmp = os.path.join(root, ".tmp")  # the data directory's own (emptied at each open)
    info = {"name": snap.name, "table": snap.table, "creation_time": snap.creation_time,
            "type": snap.type, "version": LAYOUT_VERSION}
    regions = []
    for start, end, encoded, fams in snap.regions:
        families = []
        for fam, files in fams.items():
            # a file not yet known to the directory is where its region writes it
            families.append([fam.hex(), [
                {"name": sf.name, "lo": _hex(sf.lo), "hi": _hex(sf.hi),
                 "home": homes.get(sf.reader) or home_of(snap.table, encoded,
                                                         family_dir_name(fam), sf.reader.name)}
                for sf in files]])
        regions.append(layout.encode_json({"start_key": start, "end_key": end,
                                           "encoded_name": encoded,
                                           "families": families}).decode())
    desc = layout.encode_descriptor(snap.descriptor, True, 0, []).decode()
    write_atomic(os.path.join(work, SNAPSHOTINFO_FILE), layout.encode_json(info), tmp)
    write_atomic(os.path.join(work, DATA_MANIFEST_NAME),
                 layout.encode_json({"table_schema": desc, "regions": regions}), tmp)
    final = snapshot_dir(root, snap.name)
    if os.path.isdir(final):
        remove(root, snap.name)
    os.rename(work, final)


def remove(root: str, name: str) -> None:
    from hsim.storage.procedures import remove_dir

    remove_dir(root, snapshot_dir(root, name))


def load(root: str, archive, config) -> dict:
    """Every completed snapshot (name -> SnapshotDescription, its files opened through
    `archive`); a working directory a crash left is ignored (the open removes it once it has
    succeeded)."""
    from hsim.engine.store_file import StoreFile
    from hsim.regions.snapshot import SnapshotDescription

    top = os.path.join(root, SNAPSHOT_DIR)
    out = {}
    for name in sorted(os.listdir(top)) if os.path.isdir(top) else []:
        if name == SNAPSHOT_TMP_DIR_NAME:
            continue
        d = os.path.join(top, name)
        try:
            info = layout.decode_json(read_file(os.path.join(d, SNAPSHOTINFO_FILE)))
            manifest = layout.decode_json(read_file(os.path.join(d, DATA_MANIFEST_NAME)))
            desc = layout.decode_descriptor(manifest["table_schema"].encode())[0]
            regions = []
            for text in manifest["regions"]:
                ri = layout.decode_json(text.encode())
                fams = {}
                for fam_hex, files in ri["families"]:
                    fam = bytes.fromhex(fam_hex)
                    fams[fam] = [
                        StoreFile(archive.open(f["home"], desc.families[fam], config),
                                  lo=_unhex(f["lo"]), hi=_unhex(f["hi"]),
                                  name=f["name"])
                        for f in files]
                regions.append((ri["start_key"], ri["end_key"], ri["encoded_name"], fams))
        except (OSError, ValueError, KeyError, TypeError, UnicodeDecodeError) as e:
            raise DeserializationError(f"snapshot {d} is unreadable: {e}") from None
        out[name] = SnapshotDescription(info["name"], info["table"], info["creation_time"],
                                        info["type"], desc, regions)
    return out


def _hex(key: bytes | None) -> str | None:
    return None if key is None else key.hex()


def _unhex(text: str | None) -> bytes | None:
    return None if text is None else bytes.fromhex(text)
