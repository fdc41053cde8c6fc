"""The region chain check a data directory passes before any region of it is served.

A table's live regions must tile its key space: the first starts at the empty row, each ends
where the next starts, the last ends at the empty row, and none is empty or inverted. hbck
reports a break as HOLE_IN_REGION_CHAIN or OVERLAP_IN_REGION_CHAIN; a directory whose procedure
journal could not explain a break is refused, never opened (an inverted region would scan
forever, overlapping ones would answer a Get from one and a Scan from both). A .regioninfo
whose boundaries or id do not give its region's encoded name (RegionInfo.encodeRegionName)
was changed after the region was made, and is refused too.
"""

from __future__ import annotations

from hsim.bytes import to_string_binary
from hsim.errors import RegionChainError
from hsim.regions.region import encode_region_name


def check(table: str, infos: list) -> None:
    """Raise RegionChainError unless `infos` (.regioninfo dicts, with `dir`: the region
    directory's name) tile `table`'s key space."""
    for ri in infos:
        want = encode_region_name(table, ri["start_key"], ri["region_id"])
        if ri["table"] != table or ri["encoded_name"] != want or ri.get("dir", want) != want:
            raise RegionChainError(
                f"table {table}: region directory {ri.get('dir')}'s .regioninfo (table "
                f"{ri['table']}, start key '{to_string_binary(ri['start_key'])}', id "
                f"{ri['region_id']}) does not name that region: it was changed after the "
                f"region was made")
    chain = sorted(infos, key=lambda ri: ri["start_key"])
    edge = b""
    for i, ri in enumerate(chain):
        start, end = ri["start_key"], ri["end_key"]
        if start != edge:
            what = "a hole" if start > edge else "an overlap"
            raise RegionChainError(
                f"table {table}: {what} in the region chain at '{to_string_binary(edge)}' "
                f"(region {ri['encoded_name']} starts at '{to_string_binary(start)}')")
        if end and end <= start:
            raise RegionChainError(
                f"table {table}: region {ri['encoded_name']} ends at "
                f"'{to_string_binary(end)}', not after its start '{to_string_binary(start)}'")
        if not end and i != len(chain) - 1:
            raise RegionChainError(
                f"table {table}: an overlap in the region chain: region {ri['encoded_name']} "
                f"runs to the last row but is not the last region")
        edge = end
    if not chain or edge:
        raise RegionChainError(
            f"table {table}: a hole in the region chain after '{to_string_binary(edge)}'")
