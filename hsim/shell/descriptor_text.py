"""How ColumnFamilyDescriptor#toString orders what it prints past the fixed defaults.

The descriptor's values live in a java.util.HashMap keyed by Bytes: `describe` prints them in
that map's iteration order, bucket by bucket. The twelve default values make a 32-bucket
table (HashMap sized for them), and a family's few extra values do not grow it, so a key's
place is its bucket, `spread(Bytes.hashCode) & 31`, with the defaults before the extras in a
shared bucket. Values outside the reserved keys (the cache settings, for one) print under
METADATA, and the family's configuration after them as CONFIGURATION (in its own HashMap's
order, keyed by String).
"""

from __future__ import annotations


def _java_hash(data: bytes, start: int) -> int:
    """Bytes.hashCode (start 1, signed bytes) or String.hashCode (start 0, chars)."""
    h = start
    for b in data:
        h = (31 * h + (b - 256 if b > 127 and start else b)) & 0xFFFFFFFF
    return h


def _bucket(h: int, buckets: int) -> int:
    return (h ^ (h >> 16)) & (buckets - 1)  # HashMap.hash, then the table index


def hashmap_order(keys: list[str], *, bytes_keys: bool, buckets: int) -> list[str]:
    """`keys` (in insertion order) as a HashMap of that many buckets iterates them."""
    start = 1 if bytes_keys else 0
    place = {k: _bucket(_java_hash(k.encode("utf-8"), start), buckets) for k in keys}
    return sorted(keys, key=lambda k: place[k])  # stable: insertion order within a bucket


def family_text(defaults: list[tuple[str, object]], metadata: dict, configuration: dict,
                name: str) -> str:
    """`{NAME => 'f', KEY => 'value', ..., METADATA => {...}, CONFIGURATION => {...}}`."""
    values = dict(defaults)
    order = hashmap_order([*values, *metadata], bytes_keys=True, buckets=32)
    body = ", ".join(f"{k} => '{values[k]}'" for k in order if k in values)
    extra = [f"'{k}' => '{metadata[k]}'" for k in order if k in metadata]
    if extra:
        body += f", METADATA => {{{', '.join(extra)}}}"
    if configuration:
        buckets = 16  # HashMap's default, doubled past 0.75 full
        while len(configuration) > buckets * 3 // 4:
            buckets *= 2
        keys = hashmap_order(list(configuration), bytes_keys=False, buckets=buckets)
        body += ", CONFIGURATION => {" + ", ".join(
            f"'{k}' => '{configuration[k]}'" for k in keys) + "}"
    return f"{{NAME => '{name}', {body}}}"
