""""Did you mean": the nearest known names to a misspelt one (difflib), for the CLI's commands
and options, scenario names and the shell's commands.

`SuggestingParser` is argparse with a hint on unrecognized options (Python 3.11's argparse has
none); a subclass's `error()` still decides how the message is shown.
"""

from __future__ import annotations

import argparse
import difflib
from typing import Iterable


def close_matches(word: str, choices: Iterable[str], n: int = 3) -> list[str]:
    """The known names nearest to `word`, best first (empty when none is close)."""
    return difflib.get_close_matches(word, list(choices), n=n, cutoff=0.6)


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """" (did you mean 'x'?)" or " (did you mean 'x' or 'y'?)", or "" when nothing is close.
    Options are compared without their leading dashes (two shared dashes made `--opps` look
    close to `--no-plots`), and only names about as close as the best are offered."""
    choices = list(choices)
    bare = {c.lstrip("-") or c: c for c in choices}
    key = word.lstrip("-") or word
    ratio = {b: difflib.SequenceMatcher(None, key, b).ratio() for b in bare}
    found = close_matches(key, bare)
    matches = [bare[b] for b in found if ratio[b] >= ratio[found[0]] - 0.1]
    if not matches:
        return ""
    return " (did you mean " + " or ".join(repr(m) for m in matches) + "?)"


class SuggestingParser(argparse.ArgumentParser):
    """argparse.ArgumentParser whose "unrecognized arguments" names the nearest options."""

    def parse_args(self, args=None, namespace=None):
        ns, extras = self.parse_known_args(args, namespace)
        if extras:
            options = [o for a in self._actions for o in a.option_strings]
            hints = "".join(did_you_mean(x.split("=", 1)[0], options)
                            for x in extras if x.startswith("-"))
            self.error(f"unrecognized arguments: {' '.join(extras)}{hints}")
        return ns
