"""A store's compactions (HStore.requestCompaction, compact, removeUnneededFiles): the policy
selects files, the Compactor rewrites them, the new files replace the old ones only once all
are on disk. A mixin of Store, which owns the files, the counters and the policy."""

from __future__ import annotations

from hsim.engine import store_cache
from hsim.engine.compactor import Compactor
from hsim.engine.gc_pause import gc_paused
from hsim.errors import DiskIOError

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from hsim.engine.store_file import StoreFile


class StoreCompaction:
    """Store's compaction methods (it provides files, family, config, policy, off_peak,
    counters, persist, owner, name, _open, _evict, _add_file and _tally_dropped)."""

    def needs_compaction(self, now: int | None = None) -> bool:
        return self.policy.needs_compaction(self.files, now=now, ttl_ms=self.family.ttl_ms,
                                            min_versions=self.family.min_versions)

    def compaction_pressure(self) -> float:
        """HStore.getCompactionPressure: 0 up to compaction.min files, 1.0 at the blocking
        file count, more past it."""
        config = self.config
        low = config.compaction_min_files
        if len(self.files) <= low:
            return 0.0
        return (len(self.files) - low) / max(1, config.blocking_store_files - low)

    def compact_priority(self) -> int:
        """HStore.getCompactPriority (DefaultStoreFileManager.getStoreCompactionPriority): the
        blocking file count less the files held, lower first in the compaction queues; 1 is
        kept for user requests (Store.PRIORITY_USER), so a store at 1 gets 2."""
        priority = self.config.blocking_store_files - len(self.files)
        return priority + 1 if priority == 1 else priority

    def select_compaction(self, now: int, major: bool = False, user_requested: bool = False,
                          files_compacting=()):
        """HStore.requestCompaction: files wholly past the TTL dropped, then the policy's
        selection among the files not already compacting (a forced major only when none is);
        None when it selects nothing."""
        self._drop_expired_files(now, files_compacting)
        if not self.files:
            return None
        sel = self.policy.select(
            self.files, force_major=major and not files_compacting,
            off_peak=self.off_peak.is_off_peak_at(now), files_compacting=files_compacting,
            user_requested=user_requested, now=now, ttl_ms=self.family.ttl_ms,
            min_versions=self.family.min_versions,
        )
        return sel if sel.files else None

    def compact(self, now: int, major: bool = False, user_requested: bool = False):
        """Select and run one compaction (HStore.requestCompaction + compact). Returns the
        CompactionSelection that ran, or None."""
        sel = self.select_compaction(now, major, user_requested)
        if sel is not None:
            self.run_compaction(sel.files, now, is_major=sel.is_major, boundaries=sel.boundaries)
        return sel

    def run_compaction(self, selected: list, now: int, is_major: bool = False,
                       boundaries: tuple | None = None) -> StoreFile | None:
        """Rewrite `selected` into one file. A compaction of every file drops deletes
        (Compactor: request.isAllFiles() -> COMPACT_DROP_DELETES). The collector stays paused
        until the compaction's cells not kept (StoreFile.cells) are freed: resumed earlier, it
        would first walk all of them."""
        with gc_paused():
            return self._run_compaction(selected, now, is_major, boundaries)

    def _run_compaction(self, selected: list, now: int, is_major: bool,
                        boundaries: tuple | None) -> StoreFile | None:
        all_files = len(selected) == len(self.files)
        result = Compactor(self.family, self.config).compact(
            selected, now, drop_deletes=all_files, boundaries=boundaries
        )
        written = []  # one file, or one per date-tiered window; all on disk before any counts
        staying = len(self.files) - len(selected)
        for part in result.outputs():
            written.append(self._open(part.data, part.cells, part.cell_offsets,
                                      others=staying + len(written)))
            if self.persist is not None:
                try:
                    self.persist(written[-1])
                except OSError as e:  # the inputs stay; the next compaction check retries
                    for sf in written:
                        self._evict(sf)
                    self.counters.compaction_failures += 1
                    raise DiskIOError(
                        f"compaction of {self.owner}/{self.name.decode('utf-8', 'replace')} "
                        f"could not write its file, the store is unchanged: {e}") from None
        c = self.counters
        if all_files or is_major:
            c.major_compactions += 1
        else:
            c.minor_compactions += 1
        c.compaction_files_read += len(selected)
        c.compaction_bytes_read += sum(sf.size for sf in selected)
        c.compaction_kv_bytes_read += result.kv_bytes_read
        self._tally_dropped(result.dropped)
        chosen = set(id(sf) for sf in selected)
        self.files = [sf for sf in self.files if id(sf) not in chosen]
        for sf in selected:
            self._evict(sf)
        for sf in written:
            c.compaction_bytes_written += sf.size
            self._add_file(sf)
            store_cache.written(self, sf, now, compaction=True)
        return written[-1] if written else None

    def _drop_expired_files(self, now: int, files_compacting=()) -> None:
        """HStore.removeUnneededFiles: whole files past the TTL go without being read."""
        expired = self.policy.select_expired_files(
            self.files, now, self.family.ttl_ms, self.family.min_versions, files_compacting
        )
        if expired:
            gone = set(id(sf) for sf in expired)
            self.files = [sf for sf in self.files if id(sf) not in gone]
            for sf in expired:
                self._evict(sf)
            self.counters.expired_files_dropped += len(expired)
