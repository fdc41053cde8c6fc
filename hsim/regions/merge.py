"""Merging adjacent regions of a table into one (HBase 2.5's MergeTableRegionsProcedure).

The checks come first and change nothing (checkRegionsToMerge, prepareMergeRegion): the same
region twice, regions of two tables, regions that are not adjacent unless `forcible`, a region
not online (its table disabled), a region still holding merge qualifiers (a merged region whose
references are not yet compacted away), a region that is not mergeable (it holds split or merge
references). Then both regions close (flushing their MemStores), the merged region
[lower start, higher end) is made with one reference file to each of its parents' store files
(HRegionFileSystem.mergeStoreFile: a top reference from the parent's start key), opens on the
first region's server, and takes the parents' place in the region map; hbase:meta shows it
with `info:merge0000`, `info:merge0001` naming its parents until a compaction has rewritten
the references (the CatalogJanitor then drops them, and the parents' files).

A table whose MERGE_ENABLED is false fails the procedure ("... failed as region merge is
disabled for the table"); the master's MERGE switch is checked before it (master_lifecycle).

hsim's one departure: HBase 2 lets `forcible` merge regions that are not adjacent; the merged
region then spans both and every region between them, which stay open, so hbase:meta holds an
overlap in its region chain (hbck2's "overlap"; HBase's own MetaFixer uses forcible merges to
mend such overlaps). hsim's region map holds no overlaps, so such a merge is refused with a
line saying so and naming the regions in between; merging the whole run of adjacent regions
does what the user usually wants.
"""

from __future__ import annotations

from hsim.engine.store_file import StoreFile
from hsim.errors import HsimError, InvalidArgumentError, MergeRegionError


def check(master, regions: list, forcible: bool) -> list:
    """The regions in key order, or the refusal HBase gives (nothing changed)."""
    unique = list({id(r): r for r in regions}.values())
    if len(unique) != len(regions):
        raise MergeRegionError(
            "Duplicate regions specified; cannot merge a region to itself. Passed in "
            f"{len(regions)} but only {len(unique)} unique.")
    if len(regions) < 2:
        raise MergeRegionError("Need two Regions at least to run a Merge")
    chain = sorted(regions, key=lambda r: r.start_key)
    for a, b in zip(chain, chain[1:]):
        if a.table.name != b.table.name:
            raise MergeRegionError(f"Can't merge regions from different tables: {info(a)}, "
                                   f"{info(b)}")
        if a.end_key != b.start_key:
            if not forcible:
                raise MergeRegionError(
                    "Unable to merge non-adjacent or non-overlapping regions "
                    f"'{a.encoded_name}', '{b.encoded_name}' when force=false")
            raise InvalidArgumentError(_overlap(master, a, b))
    st = master.tables[chain[0].table.name]
    if any(r.closed or r.server is None or not st.enabled for r in chain):
        raise MergeRegionError("Unable to merge regions not online "
                               + ", ".join(_state(r, st) for r in chain))
    if st.descriptor.values.get("MERGE_ENABLED", "true").lower() != "true":
        # MergeTableRegionsProcedure.prepareMergeRegion: TableDescriptor.isMergeEnabled
        # (Boolean.valueOf of the MERGE_ENABLED value, true when unset) fails the procedure
        listed = ", ".join(info(r) for r in chain)
        raise HsimError(f"Merge of [{listed}] failed as region merge is disabled for the table")
    for r in chain:
        if getattr(r, "merged_from", None) and r.has_references():
            raise MergeRegionError(
                f"Skip merging regions {', '.join(x.encoded_name for x in chain)}, because a "
                f"parent, {r.encoded_name}, has a merge qualifier (if a 'merged' parent, it "
                "may be being cleaned up by the CatalogJanitor)")
    for r in chain:
        if r.has_references():  # HRegion.isMergeable: no reference files
            raise HsimError(f"{r.encoded_name} NOT mergeable")
    return chain


def merge(master, chain: list, now: int):
    """Close the regions of `chain` (checked, in key order), make and open the merged region
    on the first one's server; returns it."""
    from hsim.regions.region import Region

    for r in chain:
        r.flush(now, force_all=True)  # closing a region flushes its MemStore
    rid = max([now] + [r.region_id + 1 for r in chain])  # getMergedRegionIdTimestamp
    first = chain[0]
    m = Region(first.table, first.start_key, chain[-1].end_key, rid, master.config, None,
               max(r.seq_id for r in chain))
    for fam, store in m.stores.items():
        store.adopt_files([StoreFile(sf.reader, lo=p.start_key, hi=p.end_key or None,
                                     name=f"{sf.reader.name}.{p.encoded_name}")
                           for p in chain for sf in p.stores[fam].files])
    m.merged_from = tuple(chain)
    server = first.server
    for p in chain:
        if p.server is not server:  # the blocks it cached there are of no use on `server`
            for s in p.stores.values():
                for sf in s.files:
                    p.server.block_cache.evict_file(sf.reader.name)
        p.server.close_region(p, retire=True)
        p.closed = True
    server.open_region(m)
    return m


def info(r) -> str:
    """RegionInfo.toString, as a refusal quotes it."""
    from hsim.bytes import to_string_binary

    return (f"{{ENCODED => {r.encoded_name}, NAME => '{r.name}', STARTKEY => "
            f"'{to_string_binary(r.start_key)}', ENDKEY => '{to_string_binary(r.end_key)}'}}")


def _overlap(master, a, b) -> str:
    """Why a forcible merge of `a` and `b` (not adjacent, `a` first) is refused: HBase would
    make the merged region span both and every region between them, which stay open; hbase:meta
    would then hold an overlap, which hsim's region chain cannot."""
    from hsim.bytes import to_string_binary

    between = [r.encoded_name for r in master.tables[a.table.name].locator.regions
               if a.end_key <= r.start_key < b.start_key]
    return (f"Unable to merge non-adjacent regions '{a.encoded_name}', '{b.encoded_name}' "
            "with force=true: HBase would make the merged region "
            f"['{to_string_binary(a.start_key)}', '{to_string_binary(b.end_key)}') and leave "
            f"the {len(between)} region(s) between them ({', '.join(between)}) open inside "
            "it, an overlap in hbase:meta's region chain (as hbck2 reports it); hsim's region "
            "chain holds no overlaps. Merge the whole run of adjacent regions instead "
            "(merge_region with a list of them)")


def _state(r, st) -> str:
    """RegionState.toString's short form: the region, its state and server."""
    state = "OPEN" if st.enabled and r.server is not None and not r.closed else "CLOSED"
    where = r.server.name if r.server is not None else "null"
    return f"rit={state}, location={where}, region={r.encoded_name}"
