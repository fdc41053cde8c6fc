"""The shell's tokens: Ruby's strings (with their escapes), numbers, names and operators.

Strings are Ruby byte strings. A `\\xHH` escape is one byte, so strings are returned as `str`
with bytes 0x80..0xFF held as lone surrogates (Python's 'surrogateescape'); `to_bytes` gives the
exact bytes and plain text stays plain text.
"""

from __future__ import annotations

import re


class ShellSyntaxError(Exception):
    """What IRB reports as a SyntaxError: the statement did not parse."""


class Incomplete(ShellSyntaxError):
    """The statement is not finished (open bracket or string, trailing comma): read more."""


def to_bytes(s) -> bytes:
    """A parsed Ruby string as the bytes `String#to_java_bytes` gives."""
    if isinstance(s, bytes):
        return s
    return str(s).encode("utf-8", "surrogateescape")


def to_text(s) -> str:
    """A parsed string as readable text (escaped bytes shown as U+FFFD)."""
    if isinstance(s, str):
        return s.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return str(s)


_TOKEN = re.compile(
    r"""
    (?P<ws>[ \t\r]+|\\\n)
  | (?P<comment>\#[^\n]*)
  | (?P<newline>\n|;)
  | (?P<number>0[xX][0-9a-fA-F_]+|\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?)
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*[?!]?)
  | (?P<arrow>=>)
  | (?P<cmp>==|!=|<=|>=|<|>)
  | (?P<symkey>:[A-Za-z_][A-Za-z0-9_]*)
  | (?P<op>[\[\]{}(),+\-*/%:=.|])
  | (?P<squote>')
  | (?P<dquote>")
    """,
    re.VERBOSE,
)

_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "s": " ", "e": "\x1b",
                   "a": "\a", "b": "\b", "f": "\f", "v": "\v"}


def _byte_char(n: int) -> str:
    """One byte as the str char that `to_bytes` turns back into that byte."""
    return chr(n) if n < 0x80 else chr(0xDC00 + n)


def _read_string(text: str, i: int, quote: str) -> tuple[str | list, int]:
    """Read a quoted string starting after the opening quote; returns (value, index after).
    A double-quoted string with `#{...}` is a list of parts: text, and ("code", source)."""
    out = []
    parts: list = []
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == quote:
            break
        if ch == "\\" and i + 1 < n:
            nxt = text[i + 1]
            if quote == "'":
                # Single quotes: only \\ and \' are escapes.
                out.append(nxt if nxt in "\\'" else "\\" + nxt)
                i += 2
                continue
            if nxt == "x":
                m = re.match(r"[0-9a-fA-F]{1,2}", text[i + 2:])
                if not m:
                    raise ShellSyntaxError("invalid hex escape")
                out.append(_byte_char(int(m.group(), 16)))
                i += 2 + len(m.group())
                continue
            if nxt == "u":
                m = re.match(r"\{([0-9a-fA-F ]+)\}|([0-9a-fA-F]{4})", text[i + 2:])
                if not m:
                    raise ShellSyntaxError("invalid Unicode escape")
                for code in (int(c, 16) for c in (m.group(1) or m.group(2)).split()):
                    if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:  # Ruby's lexer refuses
                        big = " (too large)" if code > 0x10FFFF else ""
                        raise ShellSyntaxError(f"invalid Unicode codepoint{big}")
                    out.append(chr(code))
                i += 2 + len(m.group())
                continue
            m = re.match(r"[0-7]{1,3}", text[i + 1:])
            if m and not (nxt == "0" and len(m.group()) == 1):
                out.append(_byte_char(int(m.group(), 8) & 0xFF))
                i += 1 + len(m.group())
                continue
            out.append(_SIMPLE_ESCAPES.get(nxt, nxt))
            i += 2
            continue
        if quote == '"' and ch == "#" and text[i + 1:i + 2] == "{":
            end = _interpolation_end(text, i + 2)
            parts += ["".join(out), ("code", text[i + 2:end])]
            out = []
            i = end + 1
            continue
        out.append(ch)
        i += 1
    else:
        raise Incomplete("unterminated string meets end of file")
    return (parts + ["".join(out)] if parts else "".join(out)), i + 1


def _interpolation_end(text: str, i: int) -> int:
    """The index of the `}` that closes the `#{` whose code starts at `i`."""
    depth, quote = 0, None
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "{":
            depth += 1
        elif ch == "}":
            if depth == 0:
                return i
            depth -= 1
        i += 1
    raise Incomplete("unterminated string meets end of file")


def tokenize(text: str) -> list[tuple[str, object]]:
    return _tokens(text)[0]


def _tokens(text: str) -> tuple[list, list]:
    """The tokens, and for each whether white space precedes it (`f [1]` passes an array
    to f, `a[1]` indexes a; `f -1` passes -1, `a - 1` subtracts)."""
    toks = []
    spaced = []
    space = True
    i, n = 0, len(text)
    while i < n:
        m = _TOKEN.match(text, i)
        if not m:
            raise ShellSyntaxError(f"unexpected character {text[i]!r}")
        kind = m.lastgroup
        i = m.end()
        if kind in ("ws", "comment"):
            space = True
            continue
        spaced.append(space)
        space = kind == "newline"
        if kind in ("squote", "dquote"):
            value, i = _read_string(text, i, "'" if kind == "squote" else '"')
            toks.append(("istring" if isinstance(value, list) else "string", value))
        elif kind == "number":
            raw = m.group().replace("_", "")
            if raw[:2] in ("0x", "0X"):
                toks.append(("number", int(raw, 16)))
            elif any(c in raw for c in ".eE"):
                toks.append(("number", float(raw)))
            else:
                toks.append(("number", int(raw)))
        else:
            toks.append((kind, m.group()))
    return toks, spaced
