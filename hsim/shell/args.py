"""Turning the shell's Ruby values into what the native API takes, with the shell's own checks
and messages (hbase-shell hbase/admin.rb `hcd`, hbase/table.rb `parse_column_name`)."""

from __future__ import annotations

import re

from hsim.shell.parser import FOREVER, to_bytes, to_text
from hsim.shell.registry import ShellArgumentError
from hsim.shell.values import ruby_class, ruby_to_s  # noqa: F401 - the commands' names


def data_bytes(v) -> bytes:
    """`x.to_s.to_java_bytes`: rows, values, start and stop rows."""
    return to_bytes(ruby_to_s(v))


def name_text(v) -> str:
    return to_text(ruby_to_s(v))


def parse_column(column) -> tuple[bytes, bytes | None]:
    """CellUtil.parseColumn: `f:q` -> (f, q); `f` -> (f, None); `f:` -> (f, b"")."""
    raw = data_bytes(column)
    fam, sep, q = raw.partition(b":")
    return fam, (q if sep else None)


def column_spec(column) -> tuple[bytes, bytes | None, str | None]:
    """A get/scan column `FAMILY[:QUALIFIER[:CONVERTER]]` (Table#parse_column_format_spec)."""
    fam, q = parse_column(column)
    conv = None
    if q is not None and b":" in q:
        q, _, c = q.partition(b":")
        conv = c.decode("utf-8", "replace")
    return fam, q, conv


def java_int(v, what: str = "value") -> int:
    """JInteger.valueOf / JLong.valueOf: an Integer or a numeric String."""
    if isinstance(v, bool):
        raise ShellArgumentError(f"no implicit conversion of {ruby_class(v)} into Integer")
    if isinstance(v, int):
        return v
    if isinstance(v, float):
        return int(v)
    if isinstance(v, str) and re.fullmatch(r"[+-]?\d+", v.strip()):
        return int(v.strip())
    raise ShellArgumentError(f'For input string: "{to_text(v)}"' if isinstance(v, str)
                             else f"no implicit conversion of {ruby_class(v)} into Integer")


def java_bool(v) -> bool:
    """JBoolean.valueOf: true for `true` or the string "true" (any case), false otherwise."""
    if isinstance(v, bool):
        return v
    return isinstance(v, str) and v.lower() == "true"


_INTERVAL = re.compile(
    r"((\d+)\s*SECONDS?\s*\()?\s*((\d+)\s*DAYS?)?\s*((\d+)\s*HOURS?)?\s*"
    r"((\d+)\s*MINUTES?)?\s*((\d+)\s*SECONDS?)?\s*\)?", re.IGNORECASE)


def ttl_seconds(v) -> int | None:
    """ColumnFamilyDescriptorBuilder.setTimeToLive: seconds, FOREVER, or a human-readable
    interval such as '1 DAY 2 HOURS' (PrettyPrinter.humanReadableIntervalToSec). None = FOREVER."""
    if isinstance(v, str):
        s = v.strip()
        if s.upper() == "FOREVER":
            return None
        if re.fullmatch(r"[+-]?\d+", s):
            v = int(s)
        else:
            m = _INTERVAL.fullmatch(s)
            if not m or not any(m.group(i) for i in (4, 6, 8, 10)):
                raise ShellArgumentError(f"Malformed TTL string: {s}")
            total = (int(m.group(4) or 0) * 86400 + int(m.group(6) or 0) * 3600
                     + int(m.group(8) or 0) * 60 + int(m.group(10) or 0))
            if m.group(2) and int(m.group(2)) != total:
                raise ShellArgumentError("Malformed TTL string: TTL values in seconds and human "
                                         "readableformat do not match")
            v = total
    v = java_int(v)
    return None if v == FOREVER else v


_DURATION = re.compile(r"(\d+)\s*(ms|s|m|h|d)?", re.IGNORECASE)
_UNIT_MS = {None: 1, "ms": 1, "s": 1000, "m": 60_000, "h": 3_600_000, "d": 86_400_000}


def duration_ms(v) -> int:
    """hsim's durations for `clock`: milliseconds, or '90s', '5m', '2h', '7d', '250ms'."""
    if isinstance(v, int) and not isinstance(v, bool):
        return v
    if isinstance(v, str):
        total = 0
        pos = 0
        s = v.strip().replace(" ", "")
        for m in _DURATION.finditer(s):
            if m.start() != pos:
                break
            total += int(m.group(1)) * _UNIT_MS[m.group(2) and m.group(2).lower()]
            pos = m.end()
        if pos == len(s) and s:
            return total
    raise ShellArgumentError(f"not a duration: {to_text(ruby_to_s(v))} (use ms, or e.g. '90s', "
                             "'5m', '2h', '7d')")
