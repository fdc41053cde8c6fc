"""A disk that fails on cue: the test double of hsim.storage.fs's write seam.

Every `pwrite` (and `fsync`) hsim makes into a data directory is counted from `arm()` on; at
write number k the disk can fill up (that write is short: half of it lands, then every write
fails with ENOSPC until `free()`), give one short write and carry on, or fail one fsync with EIO.
"""

from __future__ import annotations

import errno
import os

from hsim.storage import fs


class FaultyDisk:
    def __init__(self, monkeypatch):
        self.writes = 0  # pwrite calls since arm()
        self.fsyncs = 0
        self.armed = False
        self.full_at: int | None = None  # the write at which the disk fills up
        self.short_at: int | None = None  # one short write, then normal
        self.eio_fsync_at: int | None = None
        self.full = False
        self.refused = 0  # writes refused while full
        monkeypatch.setattr(fs, "pwrite", self._pwrite)
        monkeypatch.setattr(fs, "fsync", self._fsync)

    def arm(self, full_at=None, short_at=None, eio_fsync_at=None) -> None:
        self.armed = True
        self.writes = self.fsyncs = self.refused = 0
        self.full = False
        self.full_at, self.short_at, self.eio_fsync_at = full_at, short_at, eio_fsync_at

    def free(self) -> None:
        """Space again (an operator deleted something): every write succeeds from now on."""
        self.full = False
        self.full_at = None

    def _pwrite(self, fd, data, offset):
        if not self.armed:
            return os.pwrite(fd, data, offset)
        k = self.writes
        self.writes += 1
        if self.full:
            self.refused += 1
            raise OSError(errno.ENOSPC, "No space left on device")
        if k == self.full_at or k == self.short_at:
            if k == self.full_at:
                self.full = True
            if len(data) < 2:
                raise OSError(errno.ENOSPC, "No space left on device")
            return os.pwrite(fd, bytes(data[:len(data) // 2]), offset)
        return os.pwrite(fd, data, offset)

    def _fsync(self, fd):
        if self.armed:
            k = self.fsyncs
            self.fsyncs += 1
            if k == self.eio_fsync_at:
                raise OSError(errno.EIO, "Input/output error")
        return os.fsync(fd)
