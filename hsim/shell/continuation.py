"""How a line of shell input is left open, for the REPL's continuation prompt (IRB's
`hbase:001:1>` with the nesting level, or a quote it is inside). Read from the text alone, so the
prompt is right even where the parser cannot yet say what the statement is."""

from __future__ import annotations


def open_state(text: str) -> tuple[int, str | None]:
    """How `text` is left open, for the continuation prompt: (depth of brackets and
    `do ... end` blocks, quote or None)."""
    depth = 0
    quote = None
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if not quote and (ch.isalpha() or ch == "_"):
            j = i
            while j < n and (text[j].isalnum() or text[j] in "_?!"):
                j += 1
            word = text[i:j]
            depth += (word == "do") - (word == "end" and depth > 0)
            i = j
            continue
        if quote:
            if ch == "\\":
                i += 2
                continue
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#":
            while i < n and text[i] != "\n":
                i += 1
            continue
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth = max(0, depth - 1)
        i += 1
    return depth, quote
