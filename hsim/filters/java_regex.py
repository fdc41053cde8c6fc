"""Java's regular expressions (java.util.regex.Pattern, the engine of HBase's
RegexStringComparator) run by the `regex` package.

`regex` in its VERSION1 mode reads character classes as Java 9+ does: nested classes are a
union (`[a-c[x-z]]`), `&&` intersects with the lowest precedence (`[a-z&&[^aeiou]]`), and a
leading `^` negates the whole class, intersections included. The rest of Java's syntax that
`regex` spells differently is rewritten here, once, before compiling:

* `\\w`, `\\d`, `\\s`, `\\b` and their negations are ASCII in Java (without
  UNICODE_CHARACTER_CLASS), Unicode in `regex`: written out as ASCII classes;
* named groups `(?<name>...)` and `\\k<name>`; `\\Q...\\E` quoting; `\\z` and `\\Z`;
* octal `\\0ooo` and `\\x{h...h}` escapes;
* POSIX classes `\\p{Alpha}`, `\\p{Digit}`, ... (ASCII in Java, Unicode in `regex`);
* inline flags `(?imsx-imsx)` anywhere: Java applies them to the rest of the enclosing group,
  across its alternatives, so `a(?i)b|c` runs as `a(?i:b)|(?i:c)`;
* `||`, `~~` and `--` inside a class, set operators in `regex` but literals (or a range to
  `-`) in Java, are escaped.

Refused with FilterParseError: the inline flags `d`, `u`, `U`, `c`, which `regex` cannot
honour the same way. Read differently: `.` and `$` without DOTALL know only `\\n` as a line
terminator (Java also `\\r`, `\\u0085`, `\\u2028`, `\\u2029`), and case-insensitive
matching folds non-ASCII letters too (Java only with UNICODE_CASE).
"""

from __future__ import annotations

import re

import regex

from hsim.errors import FilterParseError

_POSIX = {
    "Lower": "a-z",
    "Upper": "A-Z",
    "ASCII": "\\x00-\\x7F",
    "Alpha": "a-zA-Z",
    "Digit": "0-9",
    "Alnum": "a-zA-Z0-9",
    "Punct": "!-/:-@\\[-`{-~",
    "Graph": "!-~",
    "Print": " -~",
    "Blank": " \\t",
    "Cntrl": "\\x00-\\x1F\\x7F",
    "XDigit": "0-9a-fA-F",
    "Space": " \\t\\n\\x0B\\f\\r",
}

_INLINE_FLAGS = re.compile(r"\(\?([a-zA-Z]*)(?:-([a-zA-Z]*))?\)")
_OCTAL = re.compile(r"\\0([0-3][0-7]{2}|[0-7]{1,2})")
_HEX = re.compile(r"\\x\{([0-9a-fA-F]+)\}")

_WORD = "a-zA-Z_0-9"
_SHORTHAND = {"w": _WORD, "d": "0-9", "s": " \\t\\n\\x0B\\f\\r"}
_BOUNDARY = f"(?:(?<=[{_WORD}])(?![{_WORD}])|(?<![{_WORD}])(?=[{_WORD}]))"



def _escape(expr: str, i: int, in_class: bool) -> tuple[str, int] | None:
    """The rewrite of the escape at expr[i] (a backslash) and where it ends, or None to keep
    the two characters as they are."""
    nxt = expr[i + 1]
    if nxt == "Q":  # \Q...\E: a literal run
        end = expr.find("\\E", i + 2)
        lit = expr[i + 2 :] if end < 0 else expr[i + 2 : end]
        return regex.escape(lit, special_only=False), len(expr) if end < 0 else end + 2
    if nxt == "k" and expr.startswith("<", i + 2):  # \k<name>: named back-reference
        close = expr.find(">", i + 3)
        if close > 0:
            return "(?P=" + expr[i + 3 : close] + ")", close + 1
    if nxt.lower() in _SHORTHAND:  # Java's are ASCII; a negated one nests in a class (V1)
        body = _SHORTHAND[nxt.lower()]
        if nxt.islower():
            return (body if in_class else f"[{body}]"), i + 2
        return f"[^{body}]", i + 2
    if nxt in "bB" and not in_class:
        return (_BOUNDARY if nxt == "b" else f"(?!{_BOUNDARY})"), i + 2
    if nxt == "z":
        return "\\Z", i + 2
    if nxt == "Z":  # end of input but for a final line terminator
        return "(?=\\n?\\Z)", i + 2
    for pattern in (_OCTAL, _HEX):
        m = pattern.match(expr, i)
        if m:
            code = int(m.group(1), 8 if pattern is _OCTAL else 16)
            return f"\\U{code:08x}", m.end()
    if nxt in "pP" and i + 2 < len(expr) and expr[i + 2] == "{":
        close = expr.find("}", i + 3)
        body = _POSIX.get(expr[i + 3 : close]) if close > 0 else None
        if body is not None:
            negated = nxt == "P"
            if in_class and not negated:
                return body, close + 1
            return ("[^" if negated else "[") + body + "]", close + 1
    return None


def java_regex_to_python(expr: str) -> str:
    """Rewrite the Java-only constructs listed in the module docstring; leave the rest;
    refuse, with FilterParseError, what `regex` cannot run the same way."""
    return translate(expr)[0]


def translate(expr: str) -> tuple[str, bool]:
    """The rewritten pattern, and whether it uses set operations, which only `regex`'s
    VERSION1 runs (hsim.filters.regex_budget.Matcher chooses the engine)."""
    sets = False
    out = []
    i, n = 0, len(expr)
    classes = 0  # open character classes, nested ones included
    depth = 0  # open groups
    scoped: list[tuple[int, str]] = []  # inline flag groups opened: (depth, their opening)
    while i < n:
        ch = expr[i]
        if ch == "\\" and i + 1 < n:
            done = _escape(expr, i, classes > 0)
            if done is None:
                out.append(expr[i : i + 2])
                i += 2
            else:
                out.append(done[0])
                i = done[1]
                sets = sets or (classes > 0 and done[0].startswith("[^"))  # a nested class
            continue
        if ch == "[":  # a class, or a class nested in one (a union member in Java)
            sets = sets or classes > 0
            classes += 1
            out.append(ch)
            i += 1
            # a ']' or '^]' right after '[' is a literal, not the end of the class
            if i < n and expr[i] == "^":
                out.append("^")
                i += 1
            if i < n and expr[i] == "]":
                out.append("\\]")
                i += 1
            continue
        if classes:
            if ch == "]":
                classes -= 1
            elif ch == "&" and expr.startswith("&&", i):
                sets = True
            elif ch in "|~-" and i + 1 < n and expr[i + 1] == ch:
                # regex's set operators: a Java literal pair; `[+--]` is a range to '-'
                out.append(ch + "\\" + ch)
                i += 2
                continue
            out.append(ch)
            i += 1
            continue
        m = _INLINE_FLAGS.match(expr, i)
        if m:  # Java: flags from here to the end of the group (all its alternatives)
            on, off = m.group(1), m.group(2) or ""
            bad = set(on + off) - set("imsx")
            if bad:
                raise FilterParseError(f"Regular expression {expr!r}: inline flag(s) "
                                       f"{''.join(sorted(bad))} have no Python equivalent")
            opening = "(?" + on + ("-" + off if off else "") + ":"
            out.append(opening)
            scoped.append((depth, opening))
            i = m.end()
            continue
        if ch == "(":
            depth += 1
        elif ch in ")|":
            reopen = [o for d, o in scoped if d == depth] if ch == "|" else []
            while scoped and scoped[-1][0] == depth:
                out.append(")")
                scoped.pop()
            if ch == ")":
                depth -= 1
            else:
                out.append("|")
                out.extend(reopen)
                scoped.extend((depth, o) for o in reopen)
                i += 1
                continue
        if expr.startswith("(?<", i) and i + 3 < n and expr[i + 3] not in "=!":
            out.append("(?P<")
            i += 3
            continue
        out.append(ch)
        i += 1
    out.append(")" * len(scoped))
    return "".join(out), sets
