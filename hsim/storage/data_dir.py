"""DataDir: keeps a cluster's state in a data directory and rebuilds a cluster from one.

Opening takes the directory's lock (hsim.storage.dir_lock), finishes or undoes the procedures
its journal shows unfinished (hsim.storage.procedures), then reads and checks everything --
the version file, every descriptor, .regioninfo, region chain, store file and WAL -- and only
then changes anything, so a directory that fails to open is left byte for byte as it was.
Store files are read into memory at open and served by the HFile
reader from there (the simulator's reads never touch the disk after open).

While the cluster runs, each WAL sync writes its bytes as it happens (the WAL's `sink`:
SYNC_WAL written to the OS before the mutation reaches the MemStore; FSYNC_WAL also fsynced;
ASYNC_WAL when the syncer runs; SKIP_WAL nothing), and each flush or compaction writes its new
file before the store takes it in (`write_store_file`). A write the disk refuses fails the
mutation (DamagedWALError) or leaves the store as it was (DroppedSnapshotError), see
hsim.storage.fs. `checkpoint()` runs at the end of every request, before its reply: region and
table metadata and split references (the DDL and splits the request did first, each as a
journalled procedure, hsim.storage.procedures), then deletes what compaction, splits and
drops removed,
and last moves WAL files whose edits are all in store files to oldWALs -- in that order, so at
every instant the WALs on disk hold every acknowledged edit the store files on disk lack.

Opening is all or nothing: if the disk refuses a write while the old WALs are replayed and
flushed, everything the open created is removed and DiskIOError raised.
"""

from __future__ import annotations

import logging
import os
import shutil

from hsim.errors import (
    DiskIOError,
    FileSystemVersionError,
    TableInfoMissingError,
)
from hsim.regions.wal_codec import MAGIC, read_wal_file
from hsim.storage import fs, layout, procedures, region_chain, snapshots
from hsim.storage.archive import Archive, is_hfile_name
from hsim.engine.store_file import StoreFile
from hsim.storage.disk_files import (TableOnDisk, merge_parents, read_file, regioninfo,
                                     wal_order)
from hsim.storage.dir_lock import LOCK_FILE, DirLock
from hsim.storage.procedure_store import ProcedureStore
from hsim.storage.layout import desc_token, family_dir_name, table_dir, wal_dir, write_atomic
from hsim.storage.wal_writer import WALWriter, archive_wal_dir, replay_unflushed


log = logging.getLogger("hsim.storage")


class DataDir:
    """One cluster's data directory: `load` (lock, repair, check), `restore` into a master,
    then `checkpoint` after every request and `close` at a clean shutdown."""

    def __init__(self, root: str):
        self.root = os.path.abspath(root)
        self.tables: list[TableOnDisk] = []
        self.wal_cells: dict[str, list] = {}  # encoded region -> cells from old WALs
        self.old_wal_dirs: list[str] = []
        # (path, WALDamage) of each old WAL read only up to a bad entry (docs/durability.md)
        self.wal_damage: list = []
        self.write_failures = 0  # checkpoints the disk refused (retried at the next one)
        self.max_time = 0
        self._files: dict[str, object] = {}  # path of a store or reference file -> StoreFile
        self._regions: dict[str, str] = {}  # region dir -> "live" or "split"
        self._tables: dict[str, tuple] = {}  # table dir -> descriptor token written
        self._wals: dict[tuple, list] = {}  # (server, file) -> [fd, WALFile]
        self._servers: dict[str, object] = {}  # server name -> its WAL
        self._archived: dict[str, int] = {}  # server name -> archived names moved so far
        self.closed = False
        self.procedures = ProcedureStore(self.root)
        self.repaired: list[str] = []  # what opening did to finish or undo procedures
        self.lock: DirLock | None = None
        self.namespaces: set = set()
        self._fingerprint: list | None = None
        self.archive = Archive(self.root)  # every store file's home; archive/ and its cleaner
        self.snapshots: dict = {}  # name -> SnapshotDescription, read at open
        self._snapshots: dict = {}  # name -> the SnapshotDescription written to disk
        self._held: set | None = None  # readers a store or snapshot holds (one checkpoint)

    # --- open ----------------------------------------------------------------------------------
    def load(self, config) -> None:
        """Take the directory's lock, then read and check the whole directory; a directory that
        fails to open is left as it was, lock file included (FSUtils.checkVersion first)."""
        os.makedirs(self.root, exist_ok=True)
        self.lock = DirLock(self.root)
        self.lock.acquire()
        try:
            self._load(config)
        except BaseException:
            self.lock.release(remove=True)
            raise

    def _load(self, config) -> None:
        root = self.root
        entries = [e for e in os.listdir(root) if e != LOCK_FILE]
        vfile = os.path.join(root, layout.VERSION_FILE)
        if not entries:
            return
        if not os.path.isfile(vfile):
            raise FileSystemVersionError(
                f"{root} is not empty and has no {layout.VERSION_FILE}: not an hsim data directory")
        found = read_file(vfile).decode("utf-8", "replace").strip()
        if found != layout.FORMAT_VERSION:
            raise FileSystemVersionError(
                f"data directory {root} has format version {found!r}; this hsim reads "
                f"{layout.FORMAT_VERSION!r}")
        # a crash mid-DDL or mid-split: finish or undo it before any table is read
        self.repaired = procedures.recover(root, self.procedures.load())
        data = os.path.join(root, "data")
        self.archive.scan()
        for ns in sorted(os.listdir(data)) if os.path.isdir(data) else []:
            self.namespaces.add(ns)  # a namespace is its directory (even with no table)
            for name in sorted(os.listdir(os.path.join(data, ns))):
                self.tables.append(self._load_table(os.path.join(data, ns, name), config))
        self.snapshots = snapshots.load(root, self.archive, config)
        self.max_time = max(self.max_time, self.archive.max_time)
        wals = os.path.join(root, "WALs")
        for server in sorted(os.listdir(wals)) if os.path.isdir(wals) else []:
            d = os.path.join(wals, server)
            self.old_wal_dirs.append(d)
            start_code = server.rsplit(",", 1)[-1]
            if start_code.isdigit():  # the new servers' names must differ from the dead ones'
                self.max_time = max(self.max_time, int(start_code))
            for name in sorted(os.listdir(d), key=wal_order):
                self._load_wal(os.path.join(d, name))

    def _load_wal(self, path: str) -> None:
        """One old WAL's edits, up to its first bad entry (ProtobufWALStreamReader: a torn tail
        is the end of the file; WALSplitter with skip.errors: a corrupt entry ends the file's
        replay, and the file is moved aside to corrupt/)."""
        entries, damage, first_format = read_wal_file(read_file(path))
        for region, _seq, when, cells in entries:
            self.wal_cells.setdefault(region, []).extend(cells)
            self.max_time = max(self.max_time, when)
        if first_format:
            log.info("WAL %s is in hsim's first WAL format (no checksums): read %d entries",
                     path, len(entries))
        if damage is not None:
            self.wal_damage.append((path, damage))
            (log.info if damage.kind == "torn" else log.warning)(
                "WAL %s: replayed %d entries, then a %s", path, len(entries), damage)

    def _load_table(self, tdir: str, config) -> TableOnDisk:
        info = os.path.join(tdir, ".tabledesc", layout.TABLEINFO)
        try:
            t = TableOnDisk(*layout.decode_descriptor(read_file(info)))
        except FileNotFoundError:
            raise TableInfoMissingError(f"no table descriptor at {info}") from None
        except (ValueError, KeyError, TypeError, UnicodeDecodeError) as e:
            raise TableInfoMissingError(f"unreadable table descriptor {info}: {e}") from None
        self.max_time = max(self.max_time, t.state_time)
        self._tables[tdir] = None
        pointers = []  # (files of a region's family, path): links and references, read last
        for enc in sorted(os.listdir(tdir)):
            if enc.startswith("."):
                continue
            rdir = os.path.join(tdir, enc)
            ri = regioninfo(rdir)
            self._regions[rdir] = "split" if ri.get("split") else "live"
            if ri.get("split"):
                continue  # a retired parent: its files are read when a reference reads them
            files = {}
            for fam, cf in t.desc.families.items():
                fdir = os.path.join(rdir, family_dir_name(fam))
                files[fam] = []
                for name in sorted(os.listdir(fdir)) if os.path.isdir(fdir) else []:
                    path = os.path.join(fdir, name)
                    if is_hfile_name(name):
                        home = self._home(path)
                        files[fam].append(StoreFile(self.archive.open(home, cf, config)))
                        self._files[path] = files[fam][-1]
                    else:
                        pointers.append((files[fam], path, cf))
            t.regions.append(({**ri, "dir": enc}, files))
        region_chain.check(t.desc.name, [ri for ri, _ in t.regions])
        for sfs, path, cf in pointers:
            sfs.append(self.archive.pointer(path, t.desc.name, cf, config))
            self._files[path] = sfs[-1]
        t.regions.sort(key=lambda x: x[0]["start_key"])
        return t

    def _home(self, path: str) -> str:
        return os.path.relpath(path, os.path.join(self.root, "data")).replace(os.sep, "/")

    def restore(self, master) -> None:
        """Put the loaded tables into `master`, replay the old WALs' edits newer than each
        store's files, and flush them; then the old WALs go to oldWALs (a corrupt one to
        corrupt/). If the disk refuses a write on the way, every path the open created is
        removed and DiskIOError raised: the directory is as it was, its WALs still to replay."""
        before = fs.paths_under(self.root)
        try:
            self._restore(master)
        except (OSError, DiskIOError) as e:
            self._close_wal_files()
            fs.remove_new(self.root, before)
            if self.lock is not None:  # the directory as it was, lock file included
                self.lock.release(remove=True)
            why = e.message if isinstance(e, DiskIOError) else str(e)
            raise DiskIOError(f"cannot open data directory {self.root}: a write failed, nothing "
                              f"was changed: {why}") from None
        corrupt = {p for p, d in self.wal_damage if d.kind == "corrupt"}
        try:
            for d in self.old_wal_dirs:
                archive_wal_dir(self.root, d, corrupt)
        except OSError as e:  # their edits are in store files now: replaying again is harmless
            log.warning("old WALs of %s not all archived, the next open replays them again: %s",
                        self.root, e)
        self.old_wal_dirs = []
        old = os.path.join(self.root, "oldWALs")
        master.log_cleaner.adopt(sorted(os.listdir(old)) if os.path.isdir(old) else [],
                                 master.clock.now())
        shutil.rmtree(os.path.join(self.root, ".tmp"), ignore_errors=True)
        shutil.rmtree(snapshots.working_dir(self.root), ignore_errors=True)  # a crash's

    def _restore(self, master) -> None:
        from hsim.regions.master import TableState
        from hsim.regions.recovery import replay
        from hsim.regions.region import Region
        from hsim.regions.router import RegionLocator

        now = master.clock.now()
        master.namespaces.update(self.namespaces)
        for srv in master.servers:
            self._track(srv)  # before the replay: its flushes write through the servers
        for t in self.tables:
            regions = []
            for ri, files in t.regions:
                seq = max((sf.max_seq_id for sfs in files.values() for sf in sfs), default=0)
                r = Region(t.desc, ri["start_key"], ri["end_key"], ri["region_id"], master.config,
                           seq_id=seq)
                server = master._assign(r)
                for fam, sfs in files.items():
                    store = r.stores[fam]
                    store.adopt_files(list(sfs))
                    # new files' names must not meet loaded ones: each session numbers its
                    # files from its own start time (later than every earlier session's), with
                    # room for 2**20 files per store in between
                    store._file_counter = now << 20
                r.set_block_cache(server.block_cache)
                if ri.get("merged_from"):
                    r.merged_from = merge_parents(t.desc, ri["merged_from"])
                regions.append(r)
                master.note_region_id(t.desc.name, r.region_id)
            master.tables[t.desc.name] = TableState(t.desc, t.enabled, RegionLocator(regions),
                                                    t.split_keys, t.state_time)
            self._tables[table_dir(self.root, t.desc.name)] = desc_token(
                master.tables[t.desc.name])
            for r in regions:
                cells = self.wal_cells.get(r.encoded_name)
                if cells:
                    replay(r, cells, now)
        master.snapshots.update(self.snapshots)
        self._snapshots = dict(self.snapshots)
        self.tables, self.wal_cells, self.snapshots = [], {}, {}
        os.makedirs(os.path.join(self.root, "data"), exist_ok=True)
        vfile = os.path.join(self.root, layout.VERSION_FILE)
        if not os.path.exists(vfile):
            write_atomic(vfile, (layout.FORMAT_VERSION + "\n").encode(),
                         os.path.join(self.root, ".tmp"))
        master.procedures = []  # from now on, DDL and splits are journalled
        self._checkpoint(master)  # the replayed edits' files, before the old WALs go
        self.procedures.clear()  # what the journal held is done (load finished it)

    # --- while running ---------------------------------------------------------------------------
    def _track(self, srv) -> None:
        """Write `srv`'s WAL syncs and its regions' new files through this directory."""
        wal = srv.wal
        self._servers[srv.name] = wal
        self._archived[srv.name] = len(wal.archived)
        wal.sink = WALWriter(wal_dir(self.root, srv.name), self._wals)
        os.makedirs(wal_dir(self.root, srv.name), exist_ok=True)  # as the server starts
        srv.store_file_sink = self.write_store_file
        for r in list(srv.regions.values()):
            r.set_block_cache(r.block_cache)  # its stores write through the sink from now on
        for f in wal.files:  # what was synced before the sink was set
            if f.size > len(MAGIC) and (f is not wal.current or wal.synced > len(MAGIC)):
                wal.sink(f, 0, False)

    def write_store_file(self, region, family: bytes, sf) -> None:
        """A flush's or compaction's new file, written (fsynced, renamed into place) before
        its store takes it in; OSError if the disk refuses, with nothing left behind."""
        tdir = table_dir(self.root, region.table.name)
        rdir = os.path.join(tdir, region.encoded_name)
        if rdir not in self._regions:
            # A region the journal has not recorded yet (a split's daughter compacting in the
            # request that split it): its procedure writes it, files and all, at this request's
            # checkpoint; a directory made here first would be a region no journal knows of.
            return
        path = os.path.join(rdir, family_dir_name(family), sf.reader.name)
        fs.write_file(path, sf.reader.data, os.path.join(tdir, ".tmp"))
        self.placed(path, sf)

    def placed(self, path: str, sf) -> None:
        """`sf` is on disk at `path` (its bytes, a link or a reference)."""
        self._files[path] = sf
        if not sf.is_reference and os.path.basename(path) == sf.reader.name:
            self.archive.place(path, sf.reader)

    def held(self) -> set:
        """The HFile readers some store or snapshot reads (HFileCleaner's question), this
        checkpoint."""
        if self._held is None:
            master, held = self._master, set()
            for st in master.tables.values():
                for r in st.locator.regions:
                    for s in r.stores.values():
                        held.update(sf.reader for sf in s.files)
            for snap in master.snapshots.values():
                for _s, _e, _n, fams in snap.regions:
                    for sfs in fams.values():
                        held.update(sf.reader for sf in sfs)
            self._held = held
        return self._held

    def retire_dir(self, path: str) -> None:
        """Remove a region's or a table's directory, its files someone reads archived first."""
        self.archive.archive_dir(path, self.held())
        procedures.remove_dir(self.root, path)

    def checkpoint(self, master) -> None:
        """Bring the directory up to the cluster's state (see the module docstring's order).
        A write the disk refuses here is logged and retried at the next checkpoint: the
        request's edits are already in the WAL on disk, and no WAL is archived before the
        files holding its edits are written."""
        if self.closed:
            return
        try:
            self._checkpoint(master)
        except OSError as e:
            self.write_failures += 1
            self._fingerprint = None  # everything is compared again next time
            log.warning("data directory %s: a write failed, retried at the next request: %s",
                        self.root, e)

    def _checkpoint(self, master) -> None:
        for srv in master.servers:
            if srv.name not in self._servers:
                self._track(srv)
        self._master, self._held = master, None
        for name, snap in master.snapshots.items():  # before any file it holds may go
            if self._snapshots.get(name) is not snap:
                snapshots.write(self.root, snap, self.archive.homes)
                self._snapshots[name] = snap
        if master.procedures:
            procedures.run(self, master)
        self._sync_stores(master)
        live = {srv.name for srv in master.servers}
        for name in list(self._servers):
            if name not in live:  # aborted: its WALs were split and their edits flushed
                if not replay_unflushed(master, self._servers[name]):
                    self._move_archived(name, everything=True)
            else:
                self._move_archived(name)
        for name in master.log_cleaner.take_deleted():  # past hbase.master.logcleaner.ttl
            try:
                os.remove(os.path.join(self.root, "oldWALs", name))
            except FileNotFoundError:
                pass

    def _move_archived(self, server: str, everything: bool = False) -> None:
        wal = self._servers[server]
        done = self._archived[server]
        if len(wal.archived) == done and not everything:
            return
        for name in wal.archived[done:]:
            self._archive_wal(server, name)
        self._archived[server] = len(wal.archived)
        if everything:
            for (srv, name) in [k for k in self._wals if k[0] == server]:
                self._archive_wal(srv, name)
            archive_wal_dir(self.root, wal_dir(self.root, server))
            del self._servers[server], self._archived[server]

    def _archive_wal(self, server: str, name: str) -> None:
        st = self._wals.pop((server, name), None)
        if st is not None:
            os.close(st[0])
        src = os.path.join(wal_dir(self.root, server), name)
        if os.path.exists(src):
            os.makedirs(os.path.join(self.root, "oldWALs"), exist_ok=True)
            os.replace(src, os.path.join(self.root, "oldWALs", name))

    def _sync_stores(self, master) -> None:
        # Most requests change no file: compare a cheap fingerprint (a flush appends to a
        # store's file list, a compaction or split replaces it; holding the lists compares
        # them by content when replaced) before any path work.
        fp = [(desc_token(st), [(s.files, len(s.files)) for r in st.locator.regions
                                 for s in r.stores.values()]) for st in master.tables.values()]
        fp.append(frozenset(master.namespaces))
        fp.append([(name, id(snap)) for name, snap in master.snapshots.items()])
        if fp == self._fingerprint:
            return
        data = os.path.join(self.root, "data")
        for ns in master.namespaces - {"hbase"} - self.namespaces:
            os.makedirs(os.path.join(data, ns), exist_ok=True)
        for ns in self.namespaces - master.namespaces:
            shutil.rmtree(os.path.join(data, ns), ignore_errors=True)  # a dropped namespace
        self.namespaces = set(master.namespaces) - {"hbase"}
        wanted: dict[str, object] = {}
        regions: dict[str, object] = {}
        tables: dict[str, object] = {}
        keep_parents: set = set()
        for st in master.tables.values():
            tdir = table_dir(self.root, st.descriptor.name)
            tables[tdir] = st
            for r in st.locator.regions:
                rdir = os.path.join(tdir, r.encoded_name)
                regions[rdir] = r
                for fam, s in r.stores.items():
                    fdir = os.path.join(rdir, family_dir_name(fam))
                    for sf in s.files:
                        if sf.is_reference:
                            parent = sf.name.rsplit(".", 1)[1]
                            keep_parents.add(os.path.join(tdir, parent))
                        wanted[os.path.join(fdir, sf.name)] = sf  # an HFile, link or reference
        for tdir, st in tables.items():
            token = desc_token(st)
            if self._tables.get(tdir) != token:
                write_atomic(os.path.join(tdir, ".tabledesc", layout.TABLEINFO),
                             layout.encode_descriptor(st.descriptor, st.enabled, st.state_time,
                                                      st.split_keys))
                self._tables[tdir] = token
        for rdir, r in regions.items():
            if self._regions.get(rdir) != "live":
                write_atomic(os.path.join(rdir, ".regioninfo"), layout.encode_regioninfo(r))
                self._regions[rdir] = "live"
        files = self._files
        for path, sf in wanted.items():
            if files.get(path) is not sf:
                if path not in files:
                    write_atomic(path, layout.store_file_bytes(sf, self.archive.homes))
                self.placed(path, sf)
        for path in [p for p in files if p not in wanted]:
            rdir = os.path.dirname(os.path.dirname(path))
            if rdir in keep_parents:
                continue
            self.archive.retire(path, files[path], self.held())  # compacted away
            del files[path]  # only once it is gone: a refused removal is tried again
        for rdir in [d for d in self._regions if d not in regions]:
            if rdir in keep_parents:
                if self._regions[rdir] != "split":  # RegionInfo's split flag: offline parent
                    path = os.path.join(rdir, ".regioninfo")
                    ri = layout.decode_json(read_file(path))
                    write_atomic(path, layout.encode_json({**ri, "split": True}))
                    self._regions[rdir] = "split"
                continue
            del self._regions[rdir]
            self.retire_dir(rdir)  # CatalogJanitor: a parent no one refers to
        for tdir in [d for d in self._tables if d not in tables]:
            del self._tables[tdir]
            self.retire_dir(tdir)  # a deleted table
        for name in [n for n in self._snapshots if n not in master.snapshots]:
            snapshots.remove(self.root, name)  # deleted: its files go with the cleaner
            del self._snapshots[name]
        self.archive.clean(self.held())
        self._fingerprint = fp  # only once all of it is on disk

    # --- close ---------------------------------------------------------------------------------
    def close(self, master) -> None:
        """A clean shutdown: every region flushed (HRegion.close), then the WALs archived. If
        the disk refuses a write (a flush's file, metadata) this raises and archives nothing:
        the WALs stay for a later close or the next open's replay."""
        now = master.clock.now()
        try:
            for st in master.tables.values():
                for r in st.locator.regions:
                    if not r.closed:
                        r.flush(now, force_all=True)
            for srv in master.servers:
                srv.wal.sync(now)
            self._checkpoint(master)
        except (OSError, DiskIOError) as e:
            self._fingerprint = None
            why = e.message if isinstance(e, DiskIOError) else str(e)
            raise DiskIOError(f"cannot close data directory {self.root}, its WALs are kept for "
                              f"the next open to replay: {why}") from None
        for name in list(self._servers):
            self._move_archived(name, everything=True)
        self._close_wal_files()
        self.closed = True
        self.lock.release()

    def abandon(self) -> None:
        """Let the directory go as a process exit would, after a close() the disk refused: the
        WAL files close (their edits stay for the next open to replay) and the lock is freed."""
        self._close_wal_files()
        self.closed = True
        if self.lock is not None:
            self.lock.release()

    def _close_wal_files(self) -> None:
        for st in self._wals.values():
            os.close(st[0])
        self._wals = {}

