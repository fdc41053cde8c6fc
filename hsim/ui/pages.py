"""What each page shows, as plain dicts for the templates: read under the cluster's lock so a
page is one consistent moment of the cluster."""

from __future__ import annotations

from hsim.bytes import to_string_binary
from hsim.errors import InvalidArgumentError, TableNotFoundError, UnknownRegionError


def _key(k: bytes) -> str:
    return to_string_binary(k)


def master_status(cluster) -> dict:
    m = cluster.metrics()
    tables = {}
    for r in m.regions:
        t = tables.setdefault(r.table, {"name": r.table, "regions": 0, "requests": 0})
        t["regions"] += 1
        t["requests"] += r.read_requests + r.write_requests
    snapshots = [{"name": sn.name, "table": sn.table, "created": sn.creation_time,
                  "type": sn.type, "size": sn.size}
                 for sn in sorted(cluster.master.snapshots.values(), key=lambda x: x.name)]
    master = cluster.master
    balancer = {"stochastic": "StochasticLoadBalancer", "simple": "SimpleLoadBalancer"}
    return {"servers": m.servers, "tables": sorted(tables.values(), key=lambda t: t["name"]),
            "now": cluster.clock.now(), "total_requests": m.total_requests,
            "lifecycle": {"balancer": balancer[cluster.config.balancer],
                          "balancer_on": master.switches["balancer"],
                          "normalizer_on": master.switches["normalizer"],
                          "split_on": master.switches["SPLIT"],
                          "merge_on": master.switches["MERGE"],
                          "splits": master.splits, "merges": master.merges,
                          "moves": master.moves},
            "snapshots": snapshots}


def snapshot(cluster, name: str) -> dict:
    """snapshot.jsp: the snapshot's files, and which of them a live table still uses (the
    others HBase would keep in archive/ for the snapshot alone)."""
    from hsim.regions.snapshot import get

    with cluster.lock:
        snap = get(cluster.master, name)
        live = {id(sf.reader) for st in cluster.master.tables.values()
                for r in st.locator.regions for s in r.stores.values() for sf in s.files}
        files = [{"region": encoded, "family": _key(fam), "name": sf.name, "size": sf.size,
                  "cells": sf.entry_count, "shared": id(sf.reader) in live}
                 for _s, _e, encoded, fams in snap.regions for fam, sfs in fams.items()
                 for sf in sfs]
        return {"name": snap.name, "table": snap.table, "created": snap.creation_time,
                "type": snap.type, "files": files, "size": snap.size,
                "shared": sum(f["size"] for f in files if f["shared"]),
                "table_exists": snap.table in cluster.master.tables}


def table(cluster, name: str) -> dict:
    with cluster.lock:
        if name not in cluster.master.tables:
            raise TableNotFoundError(name)
        m = cluster.metrics()
        regions = sorted((r for r in m.regions if r.table == name), key=lambda r: r.start_key)
        rows = []
        for r in regions:
            rows.append({"name": r.name, "encoded": r.name.rstrip(".").rsplit(".", 1)[-1],
                         "start": _key(r.start_key), "end": _key(r.end_key), "server": r.server,
                         "reads": r.read_requests, "writes": r.write_requests,
                         "store_files": r.store_files, "size": r.store_file_bytes,
                         "memstore": r.memstore_heap_bytes})
        top = max([x["reads"] + x["writes"] for x in rows] or [0]) or 1
        for x in rows:
            x["bar"] = round(100 * (x["reads"] + x["writes"]) / top)
        return {"name": name, "regions": rows}


def find_region(cluster, encoded: str):
    for st in cluster.master.tables.values():
        for r in st.locator.regions:
            if r.encoded_name == encoded:
                return r
    raise UnknownRegionError(encoded)


def region(cluster, encoded: str) -> dict:
    with cluster.lock:
        r = find_region(cluster, encoded)
        rm = next(x for x in cluster.metrics().regions if x.name == r.name)
        by_family = {sm.family: sm for sm in rm.stores}
        stores = []
        for fam, s in r.stores.items():
            files = [{"name": sf.name, "size": sf.size, "cells": sf.entry_count}
                     for sf in s.files]
            stores.append({"family": _key(fam), "files": files,
                           "m": by_family[fam.decode("utf-8", "replace")]})
        return {"name": r.name, "encoded": r.encoded_name, "table": r.table.name,
                "start": _key(r.start_key), "end": _key(r.end_key),
                "server": r.server.name if r.server else "",
                "reads": r.read_requests, "writes": r.write_requests,
                "memstore": r.memstore_heap, "stores": stores,
                "merged_from": [p.encoded_name for p in getattr(r, "merged_from", ())
                                if r.has_references() and hasattr(p, "encoded_name")]}


def store_file(cluster, name: str) -> dict:
    """/storeFile.jsp?name=: the store file's trailer, block index and bloom (the hfile view)."""
    from hsim.inspect.hfile import hfile

    with cluster.lock:
        for st in cluster.master.tables.values():
            for r in st.locator.regions:
                for fam, s in r.stores.items():
                    for n, sf in enumerate(s.files):
                        if sf.name == name:
                            view = hfile(cluster, r.table.name, r.encoded_name, fam, n)
                            return {"name": name, "region": r.encoded_name,
                                    "table": r.table.name, "family": _key(fam),
                                    "view_html": view._repr_html_()}
    raise InvalidArgumentError(f"no store file {name!r} is open on any region")


def explain(cluster, table_name: str, row: str, column: str) -> dict:
    """The `explain get` form's answer: which files the Get read or skipped, and why. The Get
    runs for real, as the shell's `explain get` does, so it counts as one read request."""
    from hsim.inspect.explain import explain_get

    ctx = {"table": table_name, "row": row, "column": column, "tables": sorted(
        cluster.master.tables), "result_html": None}
    if table_name and row:
        columns = [column.encode()] if column else None
        ctx["result_html"] = explain_get(cluster, table_name, row.encode(),
                                         columns=columns)._repr_html_()
    return ctx
