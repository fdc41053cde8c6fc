"""Reading a data directory's files at open: .regioninfo, HFiles (every block decoded, so a
corrupt one is refused before anything changes), split references and the order of WAL files.
hsim.storage.data_dir checks and assembles what these return."""

from __future__ import annotations

import os

from hsim.engine.hfile_reader import HFileReader
from hsim.engine.store_file import StoreFile
from hsim.errors import CorruptHFileError, DeserializationError
from hsim.storage import layout


def read_file(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


class TableOnDisk:
    """One table as read from the data directory at open: its descriptor, state, split keys and
    its regions' files, before the master takes them."""

    __slots__ = ("desc", "enabled", "state_time", "split_keys", "regions")

    def __init__(self, desc, enabled, state_time, split_keys):
        self.desc, self.enabled, self.state_time = desc, enabled, state_time
        self.split_keys = split_keys
        self.regions: list = []  # (regioninfo dict, {family: [StoreFile]})


def regioninfo(rdir: str) -> dict:
    path = os.path.join(rdir, ".regioninfo")
    try:
        ri = layout.decode_json(read_file(path))
        for key in ("table", "start_key", "end_key", "region_id", "encoded_name"):
            ri[key]
        return ri
    except FileNotFoundError:
        raise DeserializationError(f"no .regioninfo in {rdir}") from None
    except (ValueError, KeyError, TypeError, UnicodeDecodeError) as e:
        raise DeserializationError(f"unreadable {path}: {e}") from None


def open_hfile(path: str, family, config) -> StoreFile:
    data = read_file(path)
    try:
        reader = HFileReader(data, os.path.basename(path), family, config)
        for _ in reader.cells():  # every block decodes (HBase checks each block's checksum)
            pass
        return StoreFile(reader)
    except Exception as e:  # whatever the reader trips on, the file is not an HFile
        raise CorruptHFileError(
            f"Problem reading HFile {path} ({len(data)} bytes): {type(e).__name__}: {e}"
        ) from None


def wal_order(name: str):
    """WAL files in the order they were written: <prefix>.<time>.<n>."""
    parts = name.rsplit(".", 2)
    try:
        return (int(parts[-2]), int(parts[-1]))
    except (ValueError, IndexError):
        return (0, 0)


def merge_parents(desc, saved: list) -> tuple:
    """A merged region's parents as its .regioninfo keeps them: what hbase:meta's
    info:merge000N columns show (their RegionInfo), no more."""
    from types import SimpleNamespace

    return tuple(SimpleNamespace(table=desc, start_key=bytes.fromhex(a),
                                 end_key=bytes.fromhex(b), region_id=rid)
                 for a, b, rid in saved)
