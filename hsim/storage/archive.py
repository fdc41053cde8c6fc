"""Where a store file lives on disk, and when it goes: HFileArchiver, HFileLink and
HFileCleaner (with SnapshotHFileCleaner) for a data directory.

A store file's bytes have one home, `<ns>/<table>/<region>/<family>/<hfile>`: under data/
while its region holds it, under archive/data/ once the region lets it go while a snapshot, a
clone's HFileLink or a split daughter's reference still reads it (HFileArchiver moves a
compacted or dropped region's files there). An HFileLink is an empty file named
`[<ns>=]<table>=<region>-<hfile>` in the linking store's directory (HFileLink
.createHFileLinkName), read from data/ first and archive/ second, as HFileLink does. The
cleaner deletes an archived file no store and no snapshot reads any more; HBase's cleaner
also waits hbase.master.hfilecleaner.ttl (5 minutes) first, hsim deletes at the next
checkpoint. hsim keeps no `.links-<hfile>` back-reference files: the cleaner knows every
reader from the stores and the snapshots in memory.
"""

from __future__ import annotations

import os
import re

from hsim.engine.store_file import StoreFile
from hsim.errors import DeserializationError
from hsim.storage import layout
from hsim.storage.disk_files import open_hfile, read_file

ARCHIVE_DIR = "archive"  # HConstants.HFILE_ARCHIVE_DIRECTORY
# HFileLink.REF_OR_HFILE_LINK_PATTERN: [namespace=]table=region-hfile
_LINK = re.compile(r"^(?:(\w+)=)?(\w[\w.-]*)=([a-f0-9]+)-(.+)$")


def is_hfile_name(name: str) -> bool:
    """A real HFile (not a link, not a split or merge reference): `<hex>[_SeqId_<n>_]`."""
    return "=" not in name and "." not in name


def link_home(name: str, family: str) -> str | None:
    """The home (see the module docstring) an HFileLink named `name` in a `family` directory
    reads, or None when the name is not a link's."""
    m = _LINK.match(name)
    if m is None:
        return None
    ns, table, region, hfile = m.groups()
    return "/".join((ns or "default", table, region, family, hfile))


def home_of(table: str, region: str, family: str, hfile: str) -> str:
    ns, _, name = table.rpartition(":")
    return "/".join((ns or "default", name, region, family, hfile))


def archive_files(root: str, path: str, keep=None) -> None:
    """HFileArchiver.archiveRegion(s): move the HFiles under `path` (a region's or a table's
    directory) that `keep(home)` wants kept (all of them when `keep` is None) to archive/;
    the rest go with the directory."""
    data = os.path.join(root, "data")
    for d, dirs, files in os.walk(path):
        dirs[:] = [x for x in dirs if not x.startswith(".")]
        for name in files:
            if not is_hfile_name(name):
                continue
            src = os.path.join(d, name)
            home = os.path.relpath(src, data).replace(os.sep, "/")
            if home.count("/") == 4 and (keep is None or keep(home)):
                dest = os.path.join(root, ARCHIVE_DIR, "data", home)
                os.makedirs(os.path.dirname(dest), exist_ok=True)
                os.replace(src, dest)


class Archive:
    """Every HFile reader the directory knows, by home, and which homes are archived."""

    def __init__(self, root: str):
        self.root = root
        self.homes: dict = {}  # HFileReader -> its home
        self.readers: dict[str, object] = {}  # home -> HFileReader (opened or written)
        self.archived: set[str] = set()  # homes under archive/
        self.max_time = 0

    def path(self, home: str, archived: bool = False) -> str:
        parts = ([ARCHIVE_DIR] if archived else []) + ["data"] + home.split("/")
        return os.path.join(self.root, *parts)

    def scan(self) -> None:
        """At open: the archived files (read only when something reads them)."""
        top = os.path.join(self.root, ARCHIVE_DIR, "data")
        for d, dirs, files in os.walk(top):
            dirs[:] = [x for x in dirs if not x.startswith(".")]
            for name in files:
                home = os.path.relpath(os.path.join(d, name), top).replace(os.sep, "/")
                if home.count("/") == 4:
                    self.archived.add(home)

    def place(self, path: str, reader) -> None:
        """`reader`'s bytes are at `path` under data/ (just written, or read at open)."""
        home = os.path.relpath(path, os.path.join(self.root, "data")).replace(os.sep, "/")
        self.homes[reader] = home
        self.readers[home] = reader

    def open(self, home: str, family, config):
        """The reader of `home`: one already known, else read from data/, then archive/
        (HFileLink's order); DeserializationError when it is in neither."""
        reader = self.readers.get(home)
        if reader is not None:
            return reader
        path = self.path(home)
        if not os.path.isfile(path):
            path = self.path(home, archived=True)
            if not os.path.isfile(path):
                raise DeserializationError(
                    f"store file {home} is neither under data/ nor under {ARCHIVE_DIR}/data/")
        reader = open_hfile(path, family, config).reader
        self.homes[reader] = home
        self.readers[home] = reader
        self.max_time = max(self.max_time, reader.create_time)
        return reader

    def pointer(self, path: str, table: str, family, config) -> StoreFile:
        """The StoreFile of an HFileLink (an empty file named for what it reads) or of a
        Reference (a split or merge daughter's half of a file: JSON with its row range)."""
        name, fam = os.path.basename(path), os.path.basename(os.path.dirname(path))
        try:
            data = read_file(path)
            if not data:
                home = link_home(name, fam)
                if home is None:
                    raise ValueError("an empty file that is not an HFileLink")
                return StoreFile(self.open(home, family, config), name=name)
            ref = layout.decode_json(data)
            home = ref.get("home") or home_of(table, ref["parent"], fam, ref["file"])
            return StoreFile(self.open(home, family, config), lo=ref["lo"], hi=ref["hi"],
                             name=name)
        except (ValueError, KeyError, TypeError, UnicodeDecodeError,
                DeserializationError) as e:
            raise DeserializationError(f"reference or link {path} is unreadable or its file "
                                       f"is gone: {e}") from None

    def retire(self, path: str, sf, held: set) -> None:
        """A store file its store no longer has: a real HFile someone still reads goes to
        archive/ (HFileArchiver.archiveStoreFiles), anything else is deleted."""
        reader = sf.reader
        home = self.homes.get(reader)
        if home is not None and reader in held and os.path.basename(path) == reader.name \
                and not sf.is_reference:
            self._move(path, home)
            return
        if os.path.exists(path):
            os.remove(path)
        if home is not None and self.path(home) == path:
            self.forget(home)

    def archive_dir(self, path: str, held: set) -> None:
        """A region's or table's directory is about to go: keep what `held` readers read."""
        archive_files(self.root, path, lambda home: self.readers.get(home) in held)
        data = os.path.join(self.root, "data")
        prefix = os.path.relpath(path, data).replace(os.sep, "/") + "/"
        for home in [h for h in self.readers if h.startswith(prefix) and h not in self.archived]:
            if self.readers[home] in held:
                self.archived.add(home)
            else:
                self.forget(home)

    def _move(self, path: str, home: str) -> None:
        dest = self.path(home, archived=True)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        os.replace(path, dest)
        self.archived.add(home)

    def clean(self, held: set) -> None:
        """HFileCleaner with SnapshotHFileCleaner and HFileLinkCleaner: delete every archived
        file no store and no snapshot reads, and the directories it leaves empty."""
        for home in sorted(self.archived):
            if self.readers.get(home) in held:
                continue
            path = self.path(home, archived=True)
            if os.path.exists(path):
                os.remove(path)
            self.forget(home)
            try:
                os.removedirs(os.path.dirname(path))  # up to the first non-empty directory
            except OSError:
                pass

    def forget(self, home: str) -> None:
        reader = self.readers.pop(home, None)
        if reader is not None and self.homes.get(reader) == home:
            del self.homes[reader]
        self.archived.discard(home)
