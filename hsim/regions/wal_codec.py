"""The WAL's bytes: a file header, and per entry a length, a check of the length and a CRC32C
of the entry, so a torn or corrupt entry is detected, never replayed (in the spirit of HBase's
ProtobufLogWriter framing and WALCellCodec). hsim's own compact encoding (big-endian):

    file   = magic "HWL2"  entry*
    entry  = length:u32  ~length:u32  crc32c(body):u32  body
    body   = region:16 bytes (the encoded name, as raw md5)  seq:i64  write_time:i64
             cells:u32  cell*
    cell   = row_len:u16 row  family_len:u8 family  qualifier_len:u32 qualifier  timestamp:i64
             type:u8  value_len:u32 value  ttl:i64

Reading stops at the first entry that does not check out and says why (`WALDamage`): *torn*
when the file ends inside the entry (a crash in the middle of a write; the entry was never
acknowledged, as ProtobufWALStreamReader's EOFException), *corrupt* when its length check,
checksum or layout is wrong (a flipped byte: ProtobufWALStreamReader's IOException; WALSplitter
moves such a file aside). Files written before the header existed (hsim's first WAL format:
`length:u32 body`, no checks) are still read, torn tails included (docs/durability.md).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from google_crc32c import value as crc32c

from hsim.cell import FAMILY, NEG_TS, NEG_TYPE, QUALIFIER, ROW, TTL, VALUE, Cell
from hsim.errors import CorruptWALError

MAGIC = b"HWL2"
_FRAME = struct.Struct(">III")  # length, length ^ 0xFFFFFFFF, crc32c of the body
_MASK = 0xFFFFFFFF
_BODY_HEAD = struct.Struct(">16sqqI")
_MID = struct.Struct(">qBI")
_I64, _U16, _U32 = struct.Struct(">q"), struct.Struct(">H"), struct.Struct(">I")


@dataclass
class WALDamage:
    """Where reading a WAL stopped, and what it left unread."""

    offset: int  # where the first bad entry starts
    kind: str  # "torn" (the bytes end inside it) or "corrupt" (its check or checksum fails)
    reason: str
    bytes_dropped: int  # from `offset` to the end
    entries_dropped: int = 0  # intact entries found after a corrupt one (not replayed)

    def __str__(self) -> str:
        tail = f", {self.entries_dropped} intact entries after it" if self.entries_dropped else ""
        return (f"{self.kind} entry at offset {self.offset}: {self.reason}; "
                f"{self.bytes_dropped} bytes not replayed{tail}")


# --- encoding ---------------------------------------------------------------------------------
def _one_cell_body(lengths: tuple) -> struct.Struct:
    """The body's head and a cell's fields up to its value length, for these row, family and
    qualifier lengths, as one Struct: a one-cell entry (most puts) packs in one call."""
    if len(_ONE_CELL_BODIES) >= 1024:
        _ONE_CELL_BODIES.clear()
    st = _ONE_CELL_BODIES[lengths] = struct.Struct(">16sqqIH%dsB%dsI%dsqBI" % lengths)
    return st


_ONE_CELL_BODIES: dict[tuple, struct.Struct] = {}


def encode_entry(region: str, seq: int, now: int, cells: list, raw: bytes | None = None) -> bytes:
    """One entry's bytes; `raw` is the region's encoded name as 16 bytes, when the caller has it."""
    buf = bytearray()
    write_entry(buf, raw or bytes.fromhex(region), seq, now, cells)
    return bytes(buf)


def write_entry(buf: bytearray, raw: bytes, seq: int, now: int, cells: list) -> None:
    """Append one entry's bytes to `buf` (the region's encoded name as 16 raw bytes): the WAL
    writes straight into its file's buffer."""
    if len(cells) == 1:
        c = cells[0]
        row, fam, q, value = c[ROW], c[FAMILY], c[QUALIFIER], c[VALUE]
        lengths = (len(row), len(fam), len(q))
        st = _ONE_CELL_BODIES.get(lengths) or _one_cell_body(lengths)
        body = b"".join((st.pack(raw, seq, now, 1, lengths[0], row, lengths[1], fam, lengths[2],
                                 q, -c[NEG_TS], -c[NEG_TYPE], len(value)), value,
                          _I64.pack(c[TTL])))
    else:
        parts = [_BODY_HEAD.pack(raw, seq, now, len(cells))]
        for c in cells:
            row, fam, q, value = c[ROW], c[FAMILY], c[QUALIFIER], c[VALUE]
            parts += (_U16.pack(len(row)), row, bytes((len(fam),)), fam, _U32.pack(len(q)), q,
                      _MID.pack(-c[NEG_TS], -c[NEG_TYPE], len(value)), value, _I64.pack(c[TTL]))
        body = b"".join(parts)
    n = len(body)
    buf += _FRAME.pack(n, n ^ _MASK, crc32c(body))
    buf += body


# --- decoding ---------------------------------------------------------------------------------
def decode_entries(buf, start: int = 0, stop: int | None = None) -> list:
    """[(encoded region, seq, write time, [Cell])] from entry bytes (no file header) that must
    all check out: a WAL held in memory; anything else is a CorruptWALError."""
    entries, damage = read_entries(buf, start, len(buf) if stop is None else stop)
    if damage is not None:
        raise CorruptWALError(f"WAL {damage}")
    return entries


def read_wal_file(data: bytes) -> tuple[list, WALDamage | None, bool]:
    """A WAL file's entries up to the first bad one, what was left unread (or None), and
    whether the file is in the first format (no header, no checks)."""
    if data[:len(MAGIC)] == MAGIC:
        entries, damage = read_entries(data, len(MAGIC), len(data))
        return entries, damage, False
    if len(data) < len(MAGIC) and MAGIC.startswith(data):  # the crash came as it was created
        return [], (WALDamage(0, "torn", "the file ends inside its header", len(data))
                    if data else None), False
    entries, damage = _read_first_format(data)
    return entries, damage, True


def read_entries(buf, pos: int, end: int) -> tuple[list, WALDamage | None]:
    """Entries from `pos` to `end`, stopping at the first that does not check out."""
    out = []
    unpack = _FRAME.unpack_from
    while pos < end:
        if end - pos < _FRAME.size:
            return out, WALDamage(pos, "torn", "the bytes end inside its header", end - pos)
        n, check, crc = unpack(buf, pos)
        if n ^ check != _MASK:
            return out, WALDamage(pos, "corrupt", "its length check does not match", end - pos,
                                  _intact_after_bad_length(buf, pos, n, check, crc, end))
        stop = pos + _FRAME.size + n
        if stop > end:
            return out, WALDamage(pos, "torn", f"the bytes end {end - pos - _FRAME.size} bytes "
                                  f"into its {n}", end - pos)
        body = bytes(buf[pos + _FRAME.size:stop])
        if crc32c(body) != crc:
            return out, WALDamage(pos, "corrupt", "checksum mismatch", end - pos,
                                  _intact_after(buf, stop, end))
        entry = _parse_body(body)
        if entry is None:
            return out, WALDamage(pos, "corrupt", "malformed cells", end - pos,
                                  _intact_after(buf, stop, end))
        out.append(entry)
        pos = stop
    return out, None


def _intact_after_bad_length(buf, pos: int, n: int, check: int, crc: int, end: int) -> int:
    """After an entry whose length or length check was hit: the intact entries following it,
    found from whichever of the two its checksum confirms (0 if neither)."""
    for length in (n, check ^ _MASK):
        stop = pos + _FRAME.size + length
        if stop <= end and crc32c(bytes(buf[pos + _FRAME.size:stop])) == crc:
            return _intact_after(buf, stop, end)
    return 0


def _intact_after(buf, pos: int, end: int) -> int:
    """How many whole entries with good checksums follow a corrupt one (reported as dropped)."""
    count = 0
    while end - pos >= _FRAME.size:
        n, check, crc = _FRAME.unpack_from(buf, pos)
        stop = pos + _FRAME.size + n
        if n ^ check != _MASK or stop > end or crc32c(bytes(buf[pos + _FRAME.size:stop])) != crc:
            break
        count += 1
        pos = stop
    return count


def _read_first_format(buf) -> tuple[list, WALDamage | None]:
    """hsim's first WAL format: `length:u32 body` per entry, no header, no checks."""
    out = []
    pos, end = 0, len(buf)
    while pos < end:
        if end - pos < 4:
            return out, WALDamage(pos, "torn", "the bytes end inside its length", end - pos)
        (n,) = _U32.unpack_from(buf, pos)
        if pos + 4 + n > end:
            return out, WALDamage(pos, "torn", f"the bytes end inside its {n}", end - pos)
        entry = _parse_body(bytes(buf[pos + 4:pos + 4 + n]))
        if entry is None:
            return out, WALDamage(pos, "corrupt", "malformed cells", end - pos)
        out.append(entry)
        pos += 4 + n
    return out, None


def _parse_body(body: bytes):
    """(encoded region, seq, write time, [Cell]) from one entry's body; None if it does not
    parse to exactly its length."""
    try:
        region, seq, when, n = _BODY_HEAD.unpack_from(body, 0)
        pos = _BODY_HEAD.size
        unpack_from = struct.unpack_from
        cells = []
        for _ in range(n):
            (rl,) = unpack_from(">H", body, pos)
            row = body[pos + 2:pos + 2 + rl]
            pos += 2 + rl
            fl = body[pos]
            fam = body[pos + 1:pos + 1 + fl]
            pos += 1 + fl
            (ql,) = unpack_from(">I", body, pos)
            q = body[pos + 4:pos + 4 + ql]
            pos += 4 + ql
            ts, code, vl = unpack_from(">qBI", body, pos)
            pos += 13
            value = body[pos:pos + vl]
            pos += vl
            (ttl,) = unpack_from(">q", body, pos)
            pos += 8
            cells.append(Cell.make(row, fam, q, ts, code, value, seq, ttl))
    except (struct.error, IndexError, ValueError):
        return None
    if pos != len(body):
        return None
    return region.hex(), seq, when, cells
