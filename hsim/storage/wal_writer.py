"""WALWriter: a region server's WAL files in the data directory, written sync by sync (the
writer behind HBase's FSHLog/ProtobufLogWriter). It is the WAL's `sink`: each sync's bytes go to
their offset in their file before the sync counts, through hsim.storage.fs (short writes
completed, failures raised), so a sync the disk refuses fails the mutation it was for. Also
the WAL files' ends: whether a dead server's files must stay (`replay_unflushed`), and the move
of a server's WAL directory to oldWALs/ (`archive_wal_dir`)."""

from __future__ import annotations

import os

from hsim.storage import fs


class WALWriter:
    """The WAL's sink with a data directory: writes each sync's bytes to its WAL file on disk."""

    __slots__ = ("directory", "files")

    def __init__(self, directory: str, files: dict):
        self.directory = directory  # WALs/<server name>
        self.files = files  # (server name, file name) -> [fd, WALFile], shared by the servers

    def __call__(self, f, start: int, fsync: bool) -> None:
        """Write f.buf[start:] at `start` of f's file (made, header and all, on its first
        write), fsync if asked. On failure the file is cut back to `start` (a new one removed)
        and OSError raised: a later write at that offset overwrites whatever was left."""
        key = (os.path.basename(self.directory), f.name)
        st = self.files.get(key)
        new = st is None
        if new:
            path = os.path.join(self.directory, f.name)
            os.makedirs(self.directory, exist_ok=True)
            st = self.files[key] = [fs.open_file(path, os.O_WRONLY | os.O_CREAT), f]
            start = 0
        try:
            fs.write_at(st[0], f.buf[start:], start)
            if fsync:
                fs.fsync(st[0])
        except OSError:
            if new:  # leave no file: the next sync makes it again
                os.close(self.files.pop(key)[0])
                os.remove(path)
            else:
                fs.truncate(st[0], start)
            raise


def replay_unflushed(master, wal) -> bool:
    """Whether an aborted server's WAL still holds edits its regions' new servers have not
    flushed (a replay whose flush the disk refused): then its files stay until they are."""
    regions = {r.encoded_name: r for st in master.tables.values() for r in st.locator.regions}

    def lowest(encoded: str) -> int:
        r = regions.get(encoded)
        return r.lowest_unflushed_seq() if r is not None else 1 << 63

    return any(not wal.archivable(f, lowest) for f in wal.files)


def archive_wal_dir(root: str, d: str, corrupt: set = frozenset()) -> None:
    """Move a server's WAL files to oldWALs/, the `corrupt` ones to corrupt/ (WALSplitter's
    archiveLogs), and remove its directory."""
    if not os.path.isdir(d):
        return
    for name in os.listdir(d):
        src = os.path.join(d, name)
        dest = os.path.join(root, "corrupt" if src in corrupt else "oldWALs")
        os.makedirs(dest, exist_ok=True)
        os.replace(src, os.path.join(dest, name))
    os.rmdir(d)
