"""The CONFIGURATION keys hsim reads from a table or a column family, one line per key.

HBase lets a table descriptor and a family descriptor carry configuration entries
(`configuration=` here, the shell's CONFIGURATION => {...}); a store reads them through a
CompoundConfiguration that puts the family's entries over the table's over the cluster's
(HStore's constructor). hsim models only some keys: a key listed in KEYS is read; any other
key is refused with one line that lists the keys hsim reads, so a setting is never accepted
and ignored. To model a new key: add one `_key(...)` line here and read it with `lookup`.
"""

from __future__ import annotations

from dataclasses import dataclass

from hsim.errors import InvalidArgumentError

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from collections.abc import Callable, Mapping
    from typing import Any

TABLE, FAMILY = "table", "family"


@dataclass(frozen=True)
class Key:
    """One configuration key hsim reads: where it may be set, how its text is read, and what
    it sets in hsim (shown in the refusal and in docs)."""

    name: str
    scopes: tuple[str, ...]
    parse: Callable[[str], Any]
    what: str


KEYS: dict[str, Key] = {}


def _key(name: str, scopes: tuple[str, ...], parse: Callable[[str], Any], what: str) -> None:
    KEYS[name] = Key(name, scopes, parse, what)


def positive_int(text: str) -> int:
    """Integer.parseInt, then > 0."""
    try:
        value = int(text.strip())
    except ValueError:
        raise InvalidArgumentError(f"For input string: \"{text}\"") from None
    if value <= 0:
        raise InvalidArgumentError(f"must be positive, not {value}")
    return value


def non_empty(text: str) -> str:
    if not text:
        raise InvalidArgumentError("must not be empty")
    return text


# The split policies' keys (KeyPrefixRegionSplitPolicy, DelimitedKeyPrefixRegionSplitPolicy).
_key("KeyPrefixRegionSplitPolicy.prefix_length", (TABLE,), positive_int,
     "the row-key prefix length KeyPrefixRegionSplitPolicy keeps together")
_key("DelimitedKeyPrefixRegionSplitPolicy.delimiter", (TABLE,), non_empty,
     "the delimiter DelimitedKeyPrefixRegionSplitPolicy splits on")
# BloomFilterUtil.PREFIX_LENGTH_KEY; checked, as TableDescriptorChecker checks it, only for a
# ROWPREFIX_FIXED_LENGTH family (hsim.schema.bloom_prefix_length)
_key("RowPrefixBloomFilter.prefix_length", (FAMILY,), str,
     "the row prefix length of a ROWPREFIX_FIXED_LENGTH bloom")


def validate(entries: Mapping | None, scope: str) -> dict[str, str]:
    """The entries as HBase stores them (text to text), each key one hsim reads at `scope` and
    each value one its reader accepts; anything else is refused (InvalidArgumentError)."""
    if entries is None:
        return {}
    if not hasattr(entries, "items"):
        raise InvalidArgumentError(f"CONFIGURATION must be a map of key to value, not "
                                   f"{entries!r}")
    out = {}
    for k, v in entries.items():
        key = k.decode() if isinstance(k, bytes) else str(k)
        text = v.decode() if isinstance(v, bytes) else ("true" if v is True else "false"
                                                        if v is False else str(v))
        spec = KEYS.get(key)
        if spec is None or scope not in spec.scopes:
            readable = sorted(n for n, s in KEYS.items() if scope in s.scopes)
            raise InvalidArgumentError(
                f"{scope} CONFIGURATION key {key!r} is not modelled by hsim; hsim reads "
                + (", ".join(readable) if readable else "no key") + f" at the {scope} level")
        try:
            spec.parse(text)
        except InvalidArgumentError as e:
            raise InvalidArgumentError(f"CONFIGURATION {key} = {text!r}: {e}") from None
        out[key] = text
    return out


def lookup(key: str, *levels: Mapping | None, default: Any = None) -> Any:
    """The parsed value of `key` from the first level that sets it (pass the family's entries
    before the table's, as CompoundConfiguration orders them), else `default`."""
    spec = KEYS[key]
    for entries in levels:
        if entries and key in entries:
            return spec.parse(entries[key])
    return default
