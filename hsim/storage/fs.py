"""The file-writing layer: every byte hsim writes into a data directory goes through here, and
every write is checked.

`os.pwrite` may write fewer bytes than asked (a short write, as when a disk fills up in the
middle of a call): the rest is written by the next call, and a call that writes nothing or
raises (ENOSPC, EIO) is an error for the caller, never ignored. A file written whole
(`write_file`) goes to a .tmp directory, is fsynced and renamed into place, and on any failure
its .tmp file is removed, so a full disk leaves no half file behind
(HRegionFileSystem.commitStoreFile).

`pwrite`, `fsync` and `open_file` are looked up here at every call: tests replace them to
inject a full disk or a short write at any chosen write (tests/storage/faults.py).
"""

from __future__ import annotations

import errno
import os
import shutil

pwrite = os.pwrite
fsync = os.fsync


def open_file(path: str, flags: int) -> int:
    return os.open(path, flags, 0o644)


def write_at(fd: int, data, offset: int) -> None:
    """Write all of `data` at `offset`, retrying short writes; OSError if the disk refuses."""
    view = memoryview(data)
    try:
        done, total = 0, len(view)
        while done < total:
            n = pwrite(fd, view[done:], offset + done)
            if n <= 0:
                raise OSError(errno.EIO, f"write of {total - done} bytes wrote nothing")
            done += n
    finally:
        view.release()


def write_file(path: str, data: bytes, tmp_dir: str) -> None:
    """Write `data` to `tmp_dir`, fsync it, then rename it to `path` (whose directory is made
    if missing). On failure nothing is left: not the .tmp file, not a directory this call
    made (a region directory without its .regioninfo would not open), and `path` untouched."""
    made = _makedirs(os.path.dirname(path)) + _makedirs(tmp_dir)
    tmp = os.path.join(tmp_dir, os.path.basename(path))
    try:
        fd = open_file(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        try:
            write_at(fd, data, 0)
            fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError:
        _remove(tmp)
        for d in sorted(made, key=len, reverse=True):
            try:
                os.rmdir(d)  # only if empty
            except OSError:
                pass
        raise


def _makedirs(d: str) -> list:
    """os.makedirs, returning the directories it made."""
    missing = []
    while d and not os.path.isdir(d):
        missing.append(d)
        d = os.path.dirname(d)
    for m in reversed(missing):
        os.makedirs(m, exist_ok=True)
    return missing


def truncate(fd: int, size: int) -> None:
    """Cut a file back to `size` after a failed write (best effort: a later write at that
    offset overwrites what is left, and a reader stops at a torn entry anyway)."""
    try:
        os.ftruncate(fd, size)
    except OSError:
        pass


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except OSError:
        pass


def paths_under(root: str) -> set:
    """Every file and directory under `root` (and `root`), to undo a failed open."""
    out = {root} if os.path.isdir(root) else set()
    for d, dirs, files in os.walk(root):
        out.update(os.path.join(d, n) for n in dirs + files)
    return out


def remove_new(root: str, before: set) -> None:
    """Remove what is under `root` now and was not in `before` (deepest first)."""
    for d, dirs, files in os.walk(root, topdown=False):
        for n in files:
            p = os.path.join(d, n)
            if p not in before:
                os.remove(p)
        for n in dirs:
            p = os.path.join(d, n)
            if p not in before:
                shutil.rmtree(p, ignore_errors=True)
    if root not in before:
        shutil.rmtree(root, ignore_errors=True)
