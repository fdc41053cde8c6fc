"""A compaction simulator: feed a sequence of flushes to a compaction policy and watch the file
list and the bytes compactions rewrite, without an engine (in the spirit of mini-lsm's
compaction simulator). Files are sizes only; a compaction's output is the sum of its inputs
(no deletes or versions dropped), so write amplification is the policy's alone.

The store follows HBase's rhythm: after each flush the region asks for a compaction
(HRegion.flush -> requestCompaction), expired files are dropped first
(HStore.removeUnneededFiles), and the compaction finishes before the next flush.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hsim.metrics import write_amplification


@dataclass(frozen=True)
class SimStoreFile:
    """What the policy reads from a store file."""

    name: str
    size: int
    create_time: int
    min_timestamp: int
    max_timestamp: int
    is_major: bool = False
    is_reference: bool = False


@dataclass(frozen=True)
class SimStep:
    """One flush and what followed it."""

    step: int
    now: int
    flushed: int  # bytes of the flushed file
    compactions: tuple  # the CompactionSelections that ran
    expired: tuple  # files dropped whole by the TTL
    bytes_rewritten: int  # bytes written by this step's compactions
    files: tuple  # the store's files afterwards, oldest first

    @property
    def sizes(self) -> list[int]:
        return [f.size for f in self.files]


@dataclass(frozen=True)
class SimResult:
    """What a simulated run did, one step per flush: the figures (bytes flushed and rewritten,
    write amplification, file counts) are derived from the steps, so they cannot disagree."""

    steps: tuple = field(default_factory=tuple)

    @property
    def bytes_flushed(self) -> int:
        return sum(s.flushed for s in self.steps)

    @property
    def bytes_rewritten(self) -> int:
        return sum(s.bytes_rewritten for s in self.steps)

    @property
    def write_amplification(self) -> float:
        """Bytes written to store files (flushes and compactions) per byte flushed."""
        return write_amplification(self.bytes_flushed, self.bytes_rewritten)

    @property
    def compactions(self) -> int:
        return sum(len(s.compactions) for s in self.steps)

    @property
    def max_files(self) -> int:
        return max((len(s.files) for s in self.steps), default=0)


def simulate(policy, flush_sizes, *, interval_ms: int = 60_000, start_ms: int = 1,
             major_steps=(), ttl_ms: int | None = None, min_versions: int = 0,
             off_peak=None) -> SimResult:
    """Flush a file of each size in `flush_sizes`, one every `interval_ms` of the cluster clock
    (the file holds cells stamped over that interval), and after each flush run the policy's
    selection once, as HBase does, rewriting the selected files into one.

    `major_steps`: steps at which a user asks for a major compaction (Admin.majorCompact);
    `ttl_ms`, `min_versions`: the family's, for the TTL file drop and the periodic major
    compaction; `off_peak`: a predicate on the step number for off-peak hours.
    """
    files: list[SimStoreFile] = []
    steps = []
    majors = set(major_steps)
    for step, size in enumerate(flush_sizes):
        now = start_ms + step * interval_ms
        files.append(SimStoreFile(f"flush-{step}", size, now, now - interval_ms + 1, now))
        expired = policy.select_expired_files(files, now, ttl_ms, min_versions)
        if expired:
            files = [f for f in files if f not in expired]
        forced = step in majors
        sel = policy.select(files, force_major=forced, user_requested=forced,
                            off_peak=bool(off_peak and off_peak(step)), now=now,
                            ttl_ms=ttl_ms, min_versions=min_versions)
        compactions, rewritten = (), 0
        if sel.files:
            files = _replace(files, sel, now, step)
            compactions, rewritten = (sel,), sel.size
        steps.append(SimStep(step, now, size, compactions, tuple(expired), rewritten,
                             tuple(files)))
    return SimResult(tuple(steps))


def _replace(files: list, sel, now: int, step: int) -> list:
    """The selection is a contiguous run; its output takes its place, since the output carries
    the run's highest sequence id (DefaultStoreFileManager orders files by it)."""
    first = files.index(sel.files[0])
    out = SimStoreFile(
        name=f"compact-{step}",
        size=sel.size,
        create_time=now,
        min_timestamp=min(f.min_timestamp for f in sel.files),
        max_timestamp=max(f.max_timestamp for f in sel.files),
        is_major=sel.is_major,
    )
    return files[:first] + [out] + files[first + len(sel.files):]
