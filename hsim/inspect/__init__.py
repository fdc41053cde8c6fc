"""Views inside the engine, as Python values for notebooks and for the shell's `regions`,
`store`, `hfile` and `explain` commands. Each returns a dataclass whose `str()` reads as a
report and which renders as tables in a notebook (`_repr_html_`).

    from hsim.inspect import regions, store, hfile, explain_get, explain_scan
    regions(cluster, "t")                     # key ranges, servers, memstores, files, requests
    store(cluster, "t", 0, "f")               # region 0's store f: memstore cells, store files
    hfile(cluster, "t", 0, "f", 0, cells=True)  # its oldest file, HFile pretty-printer style
    explain_get(cluster, "t", b"row")         # which files were read or skipped, and why
    wal(cluster)                              # each live server's WAL files and sizes
"""

from hsim.inspect.explain import Explain, SourceRead, explain_get, explain_scan
from hsim.inspect.hfile import HFileView, hfile
from hsim.inspect.regions import RegionRow, RegionsView, find_region, regions
from hsim.inspect.store import StoreFileRow, StoreView, store
from hsim.inspect.wal import WALFileRow, WALView, wal

__all__ = [
    "regions", "store", "hfile", "explain_get", "explain_scan", "find_region", "wal", "WALView",
    "WALFileRow",
    "RegionsView", "RegionRow", "StoreView", "StoreFileRow", "HFileView", "Explain", "SourceRead",
]
