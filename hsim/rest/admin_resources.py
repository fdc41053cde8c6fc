"""HBase REST's cluster and table resources: /version, /version/cluster, /status/cluster, the
table list (/), /<table>/schema, /<table>/regions and /namespaces, as VersionResource,
StorageClusterVersionResource, StorageClusterStatusResource, RootResource, SchemaResource,
RegionsResource and the Namespaces resources answer, in their models' JSON and XML (and
text/plain where HBase's resources produce it).

A schema PUT replaces (creates the table, or modifies it to the model's families: 201), a POST
updates (creates a missing table, 201; else adds or changes the model's families, 200), a
DELETE disables and deletes the table. Column family attributes are HBase's option names.
"""

from __future__ import annotations

import platform

from hsim.version import __version__
from hsim.errors import TableExistsError
from hsim.gateway.families import family_values
from hsim.rest import models as m
from hsim.rest.models import BadRequest, element, render

REST_VERSION = "0.0.3"  # RESTServlet.VERSION_STRING, what HBase 2's REST server reports
_INT_MAX = 2**31 - 1


def version(media):
    doc = {"REST": REST_VERSION, "JVM": f"Python {platform.python_version()}",
           "OS": f"{platform.system()} {platform.release()} {platform.machine()}",
           "Server": f"hsim {__version__}", "Jersey": "n/a"}
    text = (f"rest {doc['REST']} [JVM: {doc['JVM']}] [OS: {doc['OS']}] [Server: "
            f"{doc['Server']}] [Jersey: {doc['Jersey']}]\n")
    return render(media, doc, element("Version", doc), text)


def cluster_version(media, hbase_version: str):
    """StorageClusterVersionModel: a bare JSON string, <ClusterVersion Version=.../>."""
    return render(media, hbase_version, element("ClusterVersion", {"Version": hbase_version}),
                  hbase_version + "\n")


def table_list(media, names):
    doc = {"table": [{"name": n} for n in names]}
    return render(media, doc, element("TableList", None, [element("table", {"name": n})
                                                          for n in names]),
                  "".join(n + "\n" for n in names))


def _server_key(server: str) -> tuple[str, int]:
    host, port, start = (server.split(",") + ["0", "0"])[:3]
    return f"{host}:{port}", int(start or 0)


def cluster_status(media, admin):
    """StorageClusterStatusModel: live servers with their regions' loads."""
    nodes: dict = {}
    for table in sorted(admin.list_tables()):
        for r in admin.regions(table):
            nodes.setdefault(_server_key(r.server), []).append(r)
    live = []
    for (name, start), regions in sorted(nodes.items()):
        live.append({"name": name, "startCode": start,
                     "requests": sum(r.read_requests + r.write_requests for r in regions),
                     "heapSizeMB": 0, "maxHeapSizeMB": 0, "Region": [{
                         "name": m.b64(r.name.encode()), "stores": len(r.store_files),
                         "storefiles": sum(len(f) for f in r.store_files.values()),
                         "storefileSizeMB": sum(s.size for f in r.store_files.values()
                                                for s in f) // (1 << 20),
                         "memStoreSizeMB": r.memstore_bytes // (1 << 20),
                         "readRequestsCount": r.read_requests,
                         "writeRequestsCount": r.write_requests} for r in regions]})
    n_regions = sum(len(n["Region"]) for n in live)
    doc = {"regions": n_regions, "requests": sum(n["requests"] for n in live),
           "averageLoad": n_regions / len(live) if live else 0.0, "LiveNodes": live,
           "DeadNodes": []}
    xml = element("ClusterStatus", {k: doc[k] for k in ("regions", "requests", "averageLoad")},
                  [element("LiveNodes", None, [element("Node", {
                      k: v for k, v in n.items() if k != "Region"}, [
                      element("Region", r) for r in n["Region"]]) for n in live]),
                   element("DeadNodes")])
    text = f"{len(live)} live servers, 0 dead servers, {doc['averageLoad']:.4f} average load\n"
    return render(media, doc, xml, text)


def regions(media, table: str, admin):
    """TableInfoModel: each region's id, keys, name and server (host:port)."""
    rs = [{"id": r.region_id, "startKey": m.b64(r.start_key), "endKey": m.b64(r.end_key),
           "location": _server_key(r.server)[0], "name": r.name} for r in admin.regions(table)]
    doc = {"name": table, "Region": rs}
    return render(media, doc, element("TableInfo", {"name": table},
                                      [element("Region", r) for r in rs]))


# --- schema -------------------------------------------------------------------------------------
def schema(media, desc):
    """TableSchemaModel: the table's attributes and a ColumnSchema per family."""
    families = [{"name": f.decode("utf-8", "replace"), **family_values(cf)}
                for f, cf in sorted(desc.families.items())]
    attrs = {"IS_META": "false", **{str(k): str(v) for k, v in desc.values.items()}}
    doc = {"name": desc.name, **attrs, "ColumnSchema": families}
    xml = element("TableSchema", {"name": desc.name, **attrs},
                  [element("ColumnSchema", f) for f in families])
    return render(media, doc, xml)


_FAMILY_OPTIONS = ("VERSIONS", "MIN_VERSIONS", "TTL", "BLOCKSIZE", "IN_MEMORY", "BLOCKCACHE",
                   "BLOOMFILTER", "COMPRESSION", "KEEP_DELETED_CELLS", "DATA_BLOCK_ENCODING",
                   "CACHE_DATA_ON_WRITE", "CACHE_INDEX_ON_WRITE", "CACHE_BLOOMS_ON_WRITE",
                   "PREFETCH_BLOCKS_ON_OPEN", "EVICT_BLOCKS_ON_CLOSE")
_BOOLS = ("IN_MEMORY", "BLOCKCACHE", "CACHE_DATA_ON_WRITE", "CACHE_INDEX_ON_WRITE",
          "CACHE_BLOOMS_ON_WRITE", "PREFETCH_BLOCKS_ON_OPEN", "EVICT_BLOCKS_ON_CLOSE")
_DEFAULTS = {"INDEX_BLOCK_ENCODING": "NONE", "REPLICATION_SCOPE": "0"}


def _family_options(attrs: dict) -> dict:
    """ColumnSchemaModel attributes -> hsim's option dict; unmodelled settings refused."""
    out = {}
    for k, v in attrs.items():
        key, value = str(k).upper(), str(v)
        if key in _FAMILY_OPTIONS:
            if key in ("VERSIONS", "MIN_VERSIONS", "TTL", "BLOCKSIZE"):
                try:
                    out[key] = int(value)
                except ValueError:
                    raise BadRequest(f"{key} must be a number, not {value!r}") from None
                if key == "TTL" and out[key] == _INT_MAX:
                    out[key] = None
            elif key in _BOOLS:
                out[key] = value.lower() == "true"
            elif key == "DATA_BLOCK_ENCODING":
                out[key] = value  # DataBlockEncoding.valueOf: the exact name
            else:
                out[key] = value.upper()
        elif _DEFAULTS.get(key) != value.upper():
            raise BadRequest(f"hsim does not model the column family setting {key} => "
                             f"'{value}'")
    return out


def schema_from(body: bytes, media: str) -> dict:
    """A TableSchemaModel body -> {family: option dict} (its table attributes: IS_META and
    the like are read-only and ignored, as HBase ignores them)."""
    doc = m.parse_document(body, media)
    if media == m.JSON:
        if not isinstance(doc, dict):
            raise BadRequest("a table schema is a JSON object")
        columns = doc.get("ColumnSchema") or []
        if isinstance(columns, dict):
            columns = [columns]
        specs = [c for c in columns if isinstance(c, dict)]
    else:
        specs = [dict(c.attrib) for c in doc.iter("ColumnSchema")]
    families = {}
    for spec in specs:
        name = spec.pop("name", None)
        if not name:
            raise BadRequest("a ColumnSchema needs a name")
        families[name.encode("utf-8")] = _family_options(spec)
    return families


def put_schema(admin, table: str, families: dict, replace: bool) -> int:
    """SchemaResource.replace / update; returns the HTTP status."""
    if not admin.table_exists(table):
        if not families:
            raise BadRequest("a table needs at least one column family")
        try:
            admin.create_table(table, families)
        except TableExistsError:
            return 304
        return 201
    current = list(admin.describe(table).families)
    for fam, opts in families.items():
        if fam in current:
            admin.alter_family(table, fam, opts)
        else:
            admin.add_family(table, fam, opts)
    if replace:
        for fam in current:
            if fam not in families:
                admin.delete_family(table, fam)
        return 201
    return 200


# --- namespaces ---------------------------------------------------------------------------------
def namespaces(media, names):
    return render(media, {"Namespace": names},
                  element("Namespaces", None, [_text_element("Namespace", n) for n in names]),
                  "".join(n + "\n" for n in names))


def _text_element(tag, text):
    e = element(tag)
    e.text = text
    return e


def namespace(media, admin, name: str):
    """NamespacesInstanceModel: the namespace's properties (hsim keeps none)."""
    return render(media, {}, element("NamespaceProperties"), "")
