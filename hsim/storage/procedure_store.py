"""ProcedureStore: the master's procedure journal (HBase's WALProcedureStore, MasterProcWALs/).

A DDL operation or a split changes several files of the data directory; a crash between two
of them must not leave a directory that does not open or that serves overlapping regions. So
each procedure records its state here, durably (written and fsynced), before it takes the step
that state names, and a reopened directory finishes or undoes every procedure the journal
shows unfinished before it reads a table (hsim.storage.procedures).

One journal file, MasterProcWALs/pv2-<first procedure id>.log, of records
`[length: 4 bytes][CRC32 of the body: 4 bytes][body: JSON]`. A procedure's first record holds
everything its steps need (`data`); the later ones only its id and new state. A record cut
short by a crash (the journal's last) is what a crash mid-append leaves, and is ignored: its
step had not started. When every procedure is finished the journal file is deleted (as
WALProcedureStore removes logs that hold no live procedure).
"""

from __future__ import annotations

import json
import os
import struct
import zlib

from hsim.errors import CorruptProcedureStoreError
from hsim.storage import layout

DIR = "MasterProcWALs"
_HEAD = struct.Struct(">II")


class Procedure:
    """One journalled procedure: its id, type (CreateTable, ...), data and last state."""

    __slots__ = ("proc_id", "type", "data", "state")

    def __init__(self, proc_id: int, type_: str, data: dict, state: str):
        self.proc_id, self.type, self.data, self.state = proc_id, type_, data, state


class ProcedureStore:
    """The procedure journal in MasterProcWALs/: appends procedures and their states, reads them
    back at open so an unfinished DDL or split is rolled back or forward."""

    def __init__(self, root: str):
        self.dir = os.path.join(root, DIR)
        self.next_id = 1
        self.path: str | None = None  # the journal file being written

    # --- reading (at open) ---------------------------------------------------------------------
    def load(self) -> list:
        """Every procedure the journal holds, in id order, each with its last recorded state."""
        procs: dict[int, Procedure] = {}
        names = sorted(os.listdir(self.dir)) if os.path.isdir(self.dir) else []
        for name in names:
            path = os.path.join(self.dir, name)
            with open(path, "rb") as f:
                buf = f.read()
            for rec in _records(buf, path):
                pid = rec["proc_id"]
                if "data" in rec:
                    procs[pid] = Procedure(pid, rec["type"], rec["data"], rec["state"])
                elif pid in procs:
                    procs[pid].state = rec["state"]
                else:
                    raise CorruptProcedureStoreError(
                        f"{path}: a state for procedure {pid}, which the journal never started")
        if procs:
            self.next_id = max(procs) + 1
        return [procs[k] for k in sorted(procs)]

    # --- writing -------------------------------------------------------------------------------
    def start(self, type_: str, state: str, data: dict) -> Procedure:
        """Journal a new procedure in its first state (with everything its steps need)."""
        proc = Procedure(self.next_id, type_, data, state)
        self.next_id += 1
        self._append({"proc_id": proc.proc_id, "type": type_, "state": state, "data": data})
        return proc

    def update(self, proc: Procedure, state: str) -> None:
        """Record that `proc` now takes the step `state` names (durable before the step)."""
        proc.state = state
        self._append({"proc_id": proc.proc_id, "state": state})

    def clear(self) -> None:
        """Every procedure is finished: the journal's files go."""
        for name in sorted(os.listdir(self.dir)) if os.path.isdir(self.dir) else []:
            os.remove(os.path.join(self.dir, name))
        self.path = None

    def _append(self, record: dict) -> None:
        body = layout.encode_json(record)
        if self.path is None:
            os.makedirs(self.dir, exist_ok=True)
            self.path = os.path.join(self.dir, f"pv2-{self.next_id - 1:020d}.log")
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            os.write(fd, _HEAD.pack(len(body), zlib.crc32(body)) + body)
            os.fsync(fd)
        finally:
            os.close(fd)


def _records(buf: bytes, path: str):
    """The journal's whole records; a torn last record ends it, a bad one before that is
    corruption."""
    pos = 0
    while pos < len(buf):
        if pos + _HEAD.size > len(buf):
            return  # torn head
        n, crc = _HEAD.unpack_from(buf, pos)
        body = buf[pos + _HEAD.size:pos + _HEAD.size + n]
        end = pos + _HEAD.size + n
        if len(body) < n:
            return  # torn body: the crash came mid-append
        if zlib.crc32(body) != crc:
            if end == len(buf):
                return  # a last record whose bytes did not all reach the disk
            raise CorruptProcedureStoreError(f"{path}: record at byte {pos} fails its CRC")
        try:
            rec = layout.decode_json(body)
            rec["proc_id"], rec["state"]
        except (ValueError, KeyError, UnicodeDecodeError, json.JSONDecodeError) as e:
            raise CorruptProcedureStoreError(f"{path}: record at byte {pos}: {e}") from None
        yield rec
        pos = end
