"""Recording a scenario's client calls (for `hsim run --target`): a native Table or Admin
wrapper that notes each data call (kind, table, args) before making it, so hsim/scenario/
target.py can replay the same calls on a real HBase."""

from __future__ import annotations


class RecordingTable:
    """A native Table that notes each data call (kind, table, args) before making it."""

    def __init__(self, table, log: list):
        self._table, self._log = table, log

    def __getattr__(self, name):
        return getattr(self._table, name)

    def _note(self, kind, args):
        self._log.append((kind, self._table.name, args))

    def put(self, row, data, timestamp=None, ttl_ms=None):
        self._note("put", {"row": row, "data": data, "timestamp": timestamp, "ttl_ms": ttl_ms})
        return self._table.put(row, data, timestamp=timestamp, ttl_ms=ttl_ms)

    def get(self, row, **kw):
        self._note("get", dict(kw, row=row))
        return self._table.get(row, **kw)

    def scan(self, **kw):
        self._note("scan", dict(kw))
        return self._table.scan(**kw)

    def delete_row(self, row, timestamp=None):
        self._note("delete_row", {"row": row, "timestamp": timestamp})
        return self._table.delete_row(row, timestamp=timestamp)


class RecordingAdmin:
    """The native Admin, noting the calls a Thrift-1 client can also make."""

    def __init__(self, admin, log: list):
        self._admin, self._log = admin, log

    def __getattr__(self, name):
        return getattr(self._admin, name)

    def create_table(self, name, families, split_keys=None, **kw):
        self._log.append(("create_table", name, {"families": families, "split_keys": split_keys,
                                                 "options": kw}))
        return self._admin.create_table(name, families, split_keys=split_keys, **kw)

    def flush(self, name, *a, **kw):
        self._log.append(("flush", name, {}))
        return self._admin.flush(name, *a, **kw)

    def compact(self, name, *a, **kw):
        self._log.append(("compact", name, {"major": False}))
        return self._admin.compact(name, *a, **kw)

    def major_compact(self, name, *a, **kw):
        self._log.append(("compact", name, {"major": True}))
        return self._admin.major_compact(name, *a, **kw)
