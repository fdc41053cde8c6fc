"""Region start keys as axis tick labels: printable, short, and telling regions apart.

A report holds start keys in HBase's Bytes.toStringBinary form (printable ASCII as is, other
bytes as \\xHH). On an axis that is not enough: a key of spaces draws as a blank tick, and
keys that share a long prefix (timestamps, \\x00\\x00\\x01...) all cut to the same text. So a
space is written \\x20, a prefix every key shares is dropped (shown as "…") when the keys are
too long for a tick, and a label is cut only between escapes, never inside one, and only so
short as still tells the regions apart (up to MAX_WIDTH).
"""

from __future__ import annotations

from hsim.bytes import to_bytes_binary, to_string_binary

WIDTH = 12  # characters of a tick label, escapes counted as they print
MAX_WIDTH = 28  # a label grows to this to tell two regions apart
FIRST = "(first)"  # the first region's start key, the empty key


def key_ticks(start_keys: list[str]) -> list[str]:
    """Tick labels for regions' start keys (toStringBinary text, as a report holds them)."""
    keys = [[_byte(b) for b in to_bytes_binary(k)] for k in start_keys]
    rest = [k for k in keys if k]
    cut = 0
    if rest and any(len("".join(k)) > WIDTH for k in rest):
        shortest = min(len(k) for k in rest)
        while cut < shortest - 1 and all(k[cut] == rest[0][cut] for k in rest):
            cut += 1
    shown = [(["…"] if cut else []) + k[cut:] if k else [] for k in keys]
    for width in range(WIDTH, MAX_WIDTH + 1):
        labels = [_fit(k, width) if k else FIRST for k in shown]
        if len(set(labels)) == len(labels):
            break
    return labels


def _byte(b: int) -> str:
    """One byte as toStringBinary prints it, but a space as \\x20: a tick must never be blank."""
    return "\\x20" if b == 0x20 else to_string_binary(bytes((b,)))


def _fit(tokens: list[str], width: int) -> str:
    out, n = [], 0
    for t in tokens:
        if n + len(t) > width and out:
            return "".join(out) + "…"
        out.append(t)
        n += len(t)
    return "".join(out)
