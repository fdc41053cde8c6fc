"""What must hold of a cluster between any two requests (Cluster.check_invariants): the
model-based tests check it after every step, so a flush, compaction, split or move that
breaks the books is caught where it happens, not by a wrong answer later."""

from __future__ import annotations

from hsim.cell import ROW
from hsim.rowrange import RowRange


def problems(master) -> list[str]:
    """Every broken invariant, as one sentence each (empty when all hold)."""
    out: list[str] = []
    hosted = {}
    for srv in master.servers:
        out += srv.block_cache.problems()
        for r in srv.regions.values():
            if r.server is not srv:
                out.append(f"{r.name} is listed by {srv.name} but names another server")
            hosted[id(r)] = srv
        heap = sum(r.memstore_heap for r in srv.regions.values())
        if heap != srv.memstore_heap:
            out.append(f"{srv.name}: memstore {srv.memstore_heap} != its regions' {heap}")
    out += _metrics(master)
    for name, st in master.tables.items():
        regions = st.locator.regions
        out += _tiling(name, regions)
        for r in regions:
            if st.enabled and id(r) not in hosted:
                out.append(f"{r.name} is in {name}'s locator but on no server")
            out += _region(r)
    return out


def _tiling(table: str, regions: list) -> list[str]:
    """The regions tile the table's key space: from the first row to the last, no gap or
    overlap."""
    if not regions:
        return [f"{table} has no region"]
    out = []
    if regions[0].start_key != b"":
        out.append(f"{table}: the first region starts at {regions[0].start_key!r}")
    if regions[-1].end_key != b"":
        out.append(f"{table}: the last region ends at {regions[-1].end_key!r}")
    for a, b in zip(regions, regions[1:]):
        if a.end_key != b.start_key:
            out.append(f"{table}: gap or overlap between {a.end_key!r} and {b.start_key!r}")
    return out


def _region(r) -> list[str]:
    out = []
    keys = RowRange.half_open(r.start_key, r.end_key)
    heap = 0
    for fam, s in r.stores.items():
        ms = s.memstore
        heap += ms.heap_size + ms.snapshot_heap_size
        out += [f"{r.name}/{fam!r}: {p}" for p in ms.problems()]
        for c in ms.active:
            if not keys.contains(c[ROW]):
                out.append(f"{r.name}/{fam!r}: memstore row {c[ROW]!r} outside the region")
                break
        for sf in s.files:
            lo = sf.first_row
            hi = sf.reader.last_row if not sf.is_reference else None
            if lo is not None and not keys.contains(lo):
                out.append(f"{r.name}/{fam!r}: file {sf.name} starts at {lo!r}, outside")
            if hi is not None and not keys.contains(hi):
                out.append(f"{r.name}/{fam!r}: file {sf.name} ends at {hi!r}, outside")
            if sf.is_reference and _reaches_outside(r, sf):
                out.append(f"{r.name}/{fam!r}: reference {sf.name} reaches outside")
        if s.files != sorted(s.files, key=lambda f: f.max_seq_id):
            out.append(f"{r.name}/{fam!r}: files not in sequence-id order")
    if heap != r.memstore_heap:
        out.append(f"{r.name}: memstore {r.memstore_heap} != its stores' {heap}")
    return out


def _reaches_outside(r, sf) -> bool:
    """Whether a reference can give rows outside its region: a side it leaves open (as
    HBase's Reference does: only the split key and top or bottom) reaches to the file's own
    first or last row, which a daughter whose compaction is still queued may hold a while."""
    lo = sf.lo if sf.lo is not None else sf.reader.first_row
    if r.start_key and lo is not None and lo < r.start_key:
        return True
    if not r.end_key:
        return False
    return sf.hi > r.end_key if sf.hi is not None else (sf.reader.last_row is not None
                                                         and sf.reader.last_row >= r.end_key)


def _metrics(master) -> list[str]:
    """The metrics report what the servers hold: regions, store files and bytes, memstore,
    block cache."""
    out = []
    for srv, m in zip(master.servers, master.metrics().servers):
        regions = list(srv.regions.values())
        stores = [s for r in regions for s in r.stores.values()]
        held = (len(regions), sum(len(s.files) for s in stores), sum(s.size for s in stores),
                srv.memstore_heap, srv.block_cache.size)
        told = (m.regions, m.store_files, m.store_file_bytes, m.memstore_heap_bytes,
                m.block_cache_size)
        if held != told:
            out.append(f"{srv.name}: metrics say {told} (regions, files, bytes, memstore, "
                       f"cache), the server holds {held}")
    return out
