"""LogCleaner with its TimeToLiveLogCleaner delegate: archived WAL files (oldWALs) are deleted
once they are older than hbase.master.logcleaner.ttl (10 minutes by default), on cluster time.

A WAL file is archived when every edit in it is flushed (WAL.clean_old_logs) or when its server
died and was recovered. HBase's master runs the cleaner chore every
hbase.master.cleaner.interval and its TTL delegate lets a file go once `now - its time > ttl`
(strictly older). hsim runs the chore whenever a log rolls or a server is recovered, and keeps
oldWALs as a listing: a file's name and when it was archived. No archived file's bytes stay in
the process: without a data directory they go at archiving (nothing here reads an archived log),
and with one they are in oldWALs/ on disk, which the data directory empties of the files this
cleaner deleted (`take_deleted`).
"""

from __future__ import annotations


class LogCleaner:
    """The master's oldWALs chore: archived WAL files and their archive times, deleted once past
    hbase.master.logcleaner.ttl of cluster time."""

    def __init__(self, ttl_ms: int):
        self.ttl_ms = ttl_ms
        self.old_wals: dict[str, int] = {}  # file name -> archive time, oldest first
        self.deleted = 0  # files deleted so far
        self._gone: list[str] = []  # deleted since the data directory last looked
        self._seen: dict[str, int] = {}  # a WAL's prefix -> how many of its archived names listed

    def collect(self, wal, now: int) -> None:
        """List the files `wal` archived since the last look, as archived at `now`; then run
        the chore."""
        seen = self._seen.get(wal.prefix, 0)
        for name in wal.archived[seen:]:
            self.old_wals[name] = now
        self._seen[wal.prefix] = len(wal.archived)
        self.chore(now)

    def adopt(self, names, now: int) -> None:
        """Files already in oldWALs when a data directory is opened: their clock starts now."""
        for name in names:
            self.old_wals.setdefault(name, now)

    def chore(self, now: int) -> list[str]:
        """Delete every listed file older than the TTL (TimeToLiveLogCleaner.isFileDeletable);
        returns their names."""
        expired = []
        for name, archived in self.old_wals.items():
            if now - archived <= self.ttl_ms:
                break  # listed in archive order: the rest are younger
            expired.append(name)
        for name in expired:
            del self.old_wals[name]
        self.deleted += len(expired)
        self._gone += expired
        return expired

    def take_deleted(self) -> list[str]:
        """The files deleted since the last call (the data directory removes them from disk)."""
        gone, self._gone = self._gone, []
        return gone
