"""Plain-text and HTML tables for the views: the text for the shell and `repr`, the HTML for
notebooks (`_repr_html_`)."""

from __future__ import annotations

import datetime as _dt
import html

_EPOCH = _dt.datetime(1970, 1, 1)


def text_table(headers, rows, indent: str = "  ") -> list[str]:
    """Columns left-aligned to their widest cell, two spaces apart."""
    rows = [[str(v) for v in r] for r in rows]
    widths = [len(h) for h in headers]
    for r in rows:
        for i, v in enumerate(r):
            widths[i] = max(widths[i], len(v))

    def line(cells):
        return (indent + "  ".join(v.ljust(w) for v, w in zip(cells, widths))).rstrip()

    return [line(headers)] + [line(r) for r in rows]


def html_table(headers, rows, title: str | None = None) -> str:
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in r) + "</tr>"
                   for r in rows)
    caption = f"<h4>{html.escape(title)}</h4>" if title else ""
    return f"{caption}<table><tr>{head}</tr>{body}</table>"


def html_lines(lines) -> str:
    return "<pre>" + html.escape("\n".join(lines)) + "</pre>"


def key_text(key: bytes, empty: str) -> str:
    from hsim.bytes import to_string_binary

    return to_string_binary(key) if key else empty


def time_text(ms: int, mode: str) -> str:
    from hsim.cell import LATEST_TIMESTAMP

    if ms >= LATEST_TIMESTAMP or ms < 0:
        return "-" if ms < 0 else "LATEST"
    return str(ms) if mode == "epoch" else local_date_time(ms)


def local_date_time(ms: int) -> str:
    """Java's LocalDateTime.toString of an epoch-ms instant, in UTC: `2026-01-01T00:00`,
    `2026-01-01T00:00:05`, `2026-01-01T00:00:05.250` (seconds and millis only when not 0)."""
    try:
        t = _EPOCH + _dt.timedelta(milliseconds=ms)
    except OverflowError:
        return str(ms)  # beyond what datetime holds (e.g. LATEST_TIMESTAMP)
    s = f"{t.year:04d}-{t.month:02d}-{t.day:02d}T{t.hour:02d}:{t.minute:02d}"
    millis = t.microsecond // 1000
    if t.second or millis:
        s += f":{t.second:02d}"
        if millis:
            s += f".{millis:03d}"
    return s
