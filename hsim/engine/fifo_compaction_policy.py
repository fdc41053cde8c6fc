"""FIFO compaction (HBase's FIFOCompactionPolicy): for raw, TTL'd data that is rolled up and then
thrown away. A compaction takes only store files whose every cell has expired, so they are
dropped whole and no cell is ever rewritten; after a split it falls back to the default policy
to clear the daughters' references.

A record needs `.max_timestamp`, `.entry_count` (a file with no cells is "expired" too: a
compaction of only expired files leaves one empty file, whose max timestamp never expires,
HBASE-21504) and `.is_reference`. The family must have a TTL, MIN_VERSIONS 0 and at least 1,000
blocking store files, as TableDescriptorChecker.checkCompactionPolicy refuses otherwise
(`check_family`).
"""

from __future__ import annotations

from hsim.engine.compaction_policy import FOREVER, CompactionSelection, ExploringCompactionPolicy
from hsim.errors import DoNotRetryError, InvalidArgumentError

#: TableDescriptorChecker: "is below recommended minimum of 1000"
MIN_BLOCKING_STORE_FILES = 1000


def check_family(family_name: str, ttl_ms: int | None, min_versions: int,
                 blocking_store_files: int) -> None:
    """TableDescriptorChecker.checkCompactionPolicy's FIFO rules, in its order."""
    if ttl_ms is None or ttl_ms >= FOREVER:
        raise DoNotRetryError("Default TTL is not supported for FIFO compaction")
    if min_versions > 0:
        raise DoNotRetryError("MIN_VERSION > 0 is not supported for FIFO compaction")
    if blocking_store_files < MIN_BLOCKING_STORE_FILES:
        raise DoNotRetryError(
            f"Blocking file count 'hbase.hstore.blockingStoreFiles' {blocking_store_files} is "
            f"below recommended minimum of {MIN_BLOCKING_STORE_FILES} for column family "
            f"{family_name}")


class FIFOCompactionPolicy(ExploringCompactionPolicy):
    """FIFOCompactionPolicy: `select` returns the expired files (a major compaction is never
    tried: a forced one is ignored, as HBase only logs a warning), or the exploring policy's
    choice while references remain."""

    def select(self, files, force_major: bool = False, off_peak: bool = False, *,
               files_compacting=(), user_requested: bool = False, now: int | None = None,
               ttl_ms: int | None = None, min_versions: int = 0) -> CompactionSelection:
        files = list(files)
        if any(f.is_reference for f in files):  # after a split: the default policy
            return super().select(files, force_major, off_peak, files_compacting=files_compacting,
                                  user_requested=user_requested, now=now, ttl_ms=ttl_ms,
                                  min_versions=min_versions)
        if now is None:
            raise InvalidArgumentError("a FIFO selection needs now (the cluster clock, ms)")
        expired = self.expired_files(files, now, ttl_ms, min_versions, files_compacting)
        return CompactionSelection(files=tuple(expired))

    def should_perform_major_compaction(self, files, now, ttl_ms=None, min_versions=0) -> bool:
        files = list(files)
        if any(f.is_reference for f in files):
            return super().should_perform_major_compaction(files, now, ttl_ms, min_versions)
        return False

    def needs_compaction(self, files, files_compacting=(), now: int | None = None,
                         ttl_ms: int | None = None, min_versions: int = 0) -> bool:
        files = list(files)
        if any(f.is_reference for f in files):
            return super().needs_compaction(files, files_compacting)
        return bool(now is not None and self.expired_files(files, now, ttl_ms, min_versions))

    @staticmethod
    def expired_files(files, now: int, ttl_ms: int | None, min_versions: int = 0,
                      files_compacting=()) -> list:
        """getExpiredStores: empty files, and files whose newest cell is past the TTL (the
        store-file TTL: none with MIN_VERSIONS > 0), not already compacting."""
        ttl = FOREVER if ttl_ms is None or min_versions > 0 else ttl_ms
        compacting = list(files_compacting)
        out = []
        for f in files:
            if f in compacting:
                continue
            if f.entry_count == 0 or (ttl != FOREVER and now - ttl >= f.max_timestamp):
                out.append(f)
        return out
