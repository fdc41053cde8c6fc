"""hbase:meta as clients see it: the catalog table's name and the region rows it holds
(MetaTableAccessor, RegionInfo's text forms). The shell and the protocol front-ends read the
catalog through this module, never hsim.regions, as HBase's tools go through its client."""

from __future__ import annotations

from hsim.regions.meta import (  # noqa: F401 (the catalog's client-side names)
    META_TABLE,
    is_meta,
    parse_region_info,
    region_info_bytes,
    region_info_text,
    region_row,
)
