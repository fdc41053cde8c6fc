"""DirLock: one live process per data directory.

Two processes writing one directory would each take the other's live WALs for a dead server's
and archive them (losing acknowledged writes), so opening a directory first takes an exclusive
flock on its lock file, which names the holder's pid. The kernel drops the lock when its
process dies, however it dies: a lock file left by a dead process is stale, and the next open
takes it over and writes its own pid. A second live process is refused with DataDirLockedError.
"""

from __future__ import annotations

import fcntl
import os

from hsim.errors import DataDirLockedError

LOCK_FILE = "hsim.lock"


class DirLock:
    """The held lock of one directory (`acquire`), released by `release` or the process's end."""

    def __init__(self, root: str):
        self.path = os.path.join(root, LOCK_FILE)
        self.fd: int | None = None
        self.created = False  # the lock file did not exist before (a failed open removes it)

    def acquire(self) -> None:
        self.created = not os.path.exists(self.path)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.pread(fd, 64, 0).decode("ascii", "replace").strip() or "unknown"
            os.close(fd)
            raise DataDirLockedError(
                f"data directory {os.path.dirname(self.path)} is in use by another live process "
                f"(pid {holder}); one process per directory") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self.fd = fd

    def release(self, remove: bool = False) -> None:
        """Drop the lock; `remove` also deletes a lock file this open created (a directory
        that failed to open is left as it was)."""
        if self.fd is None:
            return
        if remove and self.created:
            os.remove(self.path)
        os.close(self.fd)
        self.fd = None
