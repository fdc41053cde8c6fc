"""Output in the HBase shell's format (hbase-shell shell/formatter.rb, hbase/table.rb).

Two-column rows (`ROW  COLUMN+CELL`, `COLUMN  CELL`) are laid out as Shell::Formatter::Base
lays them out: with no terminal width (output is not a TTY) there is no padding, the header is
not inset and every data row is inset by one space; with a terminal width, the first column
gets a quarter of it and long values wrap inside their column. Keys and values are printed with
Bytes.toStringBinary; timestamps as Java's LocalDateTime.toString (HBASE-23930, 2.3+, in UTC
here so runs are reproducible) or as epoch milliseconds (the format before 2.3).
"""

from __future__ import annotations

import datetime as _dt

from hsim.bytes import to_string_binary
from hsim.inspect.render import local_date_time

_EPOCH = _dt.datetime(1970, 1, 1)


class Formatter:
    """Shell::Formatter::Console: header, rows, footer, on an output stream."""

    def __init__(self, out, width: int = 0):
        self.out = out
        self.width = width  # 0: no padding (output is not a terminal)
        self.row_count = 0

    def header(self, args=(), widths=()) -> None:
        if args:
            self.row(args, inset=False, widths=widths)
        self.row_count = 0

    def row(self, args, inset: bool = True, widths=()) -> int:
        """One row: a string, a one-element list (padded to the width) or two columns."""
        if not args:
            return self.row_count
        w = self.out.write
        if isinstance(args, str):
            self.output(self.width, args)
            w("\n")
            return self.row_count
        if len(args) == 1:
            for piece in _split(self.width, str(args[0])):
                self.output(self.width, piece)
                w("\n")
        elif len(args) == 2:
            if self.width == 0:
                c1 = c2 = 0
            else:
                c1 = self.width // 4 if not widths else self.width * widths[0] // 100
                c2 = self.width - c1 - 2 if len(widths) < 2 else self.width * widths[1] // 100 - 2
            s1, s2 = _split(c1, str(args[0])), _split(c2, str(args[1]))
            for i in range(max(len(s1), len(s2))):
                if inset:
                    w(" ")
                self.output(c1, s1[i] if i < len(s1) else "")
                if not inset:
                    w(" ")
                w(" ")
                self.output(c2, s2[i] if i < len(s2) else "")
                w("\n")
        else:
            w(" " + " ".join(str(a) for a in args) + "\n")
        self.row_count += 1
        return self.row_count

    def output(self, width: int, s: str) -> None:
        if not width or width == len(s):
            self.out.write(s)
        else:
            self.out.write(s.ljust(width))

    def footer(self, row_count: int | None = None) -> None:
        n = self.row_count if row_count is None else row_count
        self.out.write(f"{n} row(s)\n")

    def column(self, header: str, values: list) -> list:
        """A one-column listing (`TABLE`, `NAMESPACE`): header, a row each, `N row(s)`."""
        self.header([header])
        for v in values:
            self.row([v])
        self.footer(len(values))
        return values

    def line(self, s: str = "") -> None:
        """Ruby's `puts`."""
        self.out.write(s + "\n")


def _split(width: int, s: str) -> list[str]:
    if width == 0:
        return [s]
    return [s[i:i + width] for i in range(0, len(s), width)] or [""]


def format_timestamp(ms: int, mode: str = "iso") -> str:
    """Table#toLocalDateTime: epoch ms, or LocalDateTime.toString of the instant (UTC here)."""
    return str(ms) if mode == "epoch" else local_date_time(ms)


def parse_timestamp(text: str) -> int:
    """The inverse, for the `clock` command: an ISO date-time (UTC) or epoch milliseconds."""
    text = text.strip()
    if text.lstrip("-").isdigit():
        return int(text)
    t = _dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    if t.tzinfo is not None:
        t = t.astimezone(_dt.timezone.utc).replace(tzinfo=None)
    return (t - _EPOCH) // _dt.timedelta(milliseconds=1)


def cell_text(cell, mode: str = "iso") -> str:
    """Table#to_string: `timestamp=..., value=...`, or `timestamp=..., type=DeleteColumn` for a
    delete marker (shown by RAW scans)."""
    ts = format_timestamp(cell.timestamp, mode)
    if cell.is_delete:
        return f"timestamp={ts}, type={cell.type.hbase_name}"
    return f"timestamp={ts}, value={to_string_binary(cell.value)}"


def column_text(cell) -> str:
    return f"{to_string_binary(cell.family)}:{to_string_binary(cell.qualifier)}"


def took(seconds: float) -> str:
    return f"Took {seconds:.4f} seconds"


def human_bytes(size: int) -> str:
    """PrettyPrinter.humanReadableByte: `65536 B (64KB)`, `134217728 B (128MB)`."""
    if size < 1024:
        return f"{size} B"
    parts = []
    rest = size
    for unit, n in (("TB", 1 << 40), ("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        q, rest = divmod(rest, n)
        if q:
            parts.append(f"{q}{unit}")
    if rest:
        parts.append(f"{rest}B")
    return f"{size} B ({' '.join(parts)})"


def human_ttl(seconds: int | None) -> str:
    """PrettyPrinter.humanReadableTTL: `FOREVER`, `30 SECONDS`, `86400 SECONDS (1 DAY)`.
    HBase pluralises the seconds part by the *minutes* count; that quirk is kept."""
    if seconds is None or seconds == 2**31 - 1:
        return "FOREVER"
    if seconds < 60:
        return f"{seconds} SECOND" + ("" if seconds == 1 else "S")
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    parts = []
    if days:
        parts.append(f"{days} DAY" + ("" if days == 1 else "S"))
    if hours:
        parts.append(f"{hours} HOUR" + ("" if hours == 1 else "S"))
    if minutes:
        parts.append(f"{minutes} MINUTE" + ("" if minutes == 1 else "S"))
    if secs:
        parts.append(f"{secs} SECOND" + ("" if minutes == 1 else "S"))
    return f"{seconds} SECONDS ({' '.join(parts)})"
