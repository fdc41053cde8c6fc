"""Turning checked client arguments into what regions take: per-family ScanQuery objects and
a row prefix's stop row. The checks themselves are hsim.client.validation's."""

from __future__ import annotations

from hsim.client import validation as v
from hsim.engine.query_matcher import ScanQuery


def queries(families: dict, columns, max_versions, tr, raw: bool, has_filter: bool,
            cache_blocks: bool = True) -> dict:
    """family -> ScanQuery for every family the request reads, in family order, after the
    request's read checks (validation.query). `cache_blocks`: Scan/Get.setCacheBlocks
    (False: the data blocks read are not cached)."""
    cols, max_versions = v.query(columns, max_versions, raw, cache_blocks)
    return build(families, cols, max_versions, tr, raw, has_filter, cache_blocks)


def build(families: dict, cols: list, max_versions: int, tr, raw: bool, has_filter: bool,
          cache_blocks: bool = True) -> dict:
    """The queries of checked arguments (`cols`: validation.read_columns); a family the table
    lacks is refused here, the one check that needs the table."""
    wanted: dict[bytes, set | None] = {}
    if cols:
        for fam, q in cols:
            v.known_family(families, fam)
            # Get/Scan.addFamily replaces the family's columns with "all"; a later addColumn
            # narrows it to a column set again (the order matters, as in HBase).
            if q is None:
                wanted[fam] = None
            elif wanted.get(fam) is None:
                wanted[fam] = {q}
            else:
                wanted[fam].add(q)
    else:
        wanted = {f: None for f in families}
    out = {}
    for fam in sorted(wanted):
        qs = wanted[fam]
        out[fam] = ScanQuery(time_range=tr, max_versions=max_versions,
                             columns=None if qs is None else frozenset(qs), raw=raw,
                             has_filter=has_filter, cache_blocks=cache_blocks)
    return out


def prefix_stop(prefix: bytes) -> bytes | None:
    """Scan.setRowPrefixFilter's stop row: the closest row after every row with the prefix."""
    p = bytearray(prefix)
    while p and p[-1] == 0xFF:
        p.pop()
    if not p:
        return None
    p[-1] += 1
    return bytes(p)
