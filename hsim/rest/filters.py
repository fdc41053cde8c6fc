"""A scanner's filter as HBase REST's ScannerModel.FilterModel writes it in JSON, turned into
the filter language hsim parses (ParseFilter's grammar): {"type": "RowFilter", "op": "EQUAL",
"comparator": {"type": "RegexStringComparator", "value": "^row"}} -> RowFilter(=,
'regexstring:^row').

Byte values (BinaryComparator's, PrefixFilter's, families, qualifiers) are base64, a regex or
substring comparator's value is plain text, as FilterModel writes them. A filter or comparator
the language cannot express (BitComparator, NullComparator, ...) is refused with 400.
"""

from __future__ import annotations

import json

from hsim.rest.models import BadRequest, unb64

_OPS = {"LESS": b"<", "LESS_OR_EQUAL": b"<=", "EQUAL": b"=", "NOT_EQUAL": b"!=",
        "GREATER_OR_EQUAL": b">=", "GREATER": b">"}
_COMPARATORS = {"BinaryComparator": b"binary", "BinaryPrefixComparator": b"binaryprefix",
                "RegexStringComparator": b"regexstring", "SubstringComparator": b"substring"}
_COMPARE = ("RowFilter", "FamilyFilter", "QualifierFilter", "ValueFilter")
_NO_ARGS = ("FirstKeyOnlyFilter", "KeyOnlyFilter")
_ONE_BYTES = ("PrefixFilter", "ColumnPrefixFilter", "InclusiveStopFilter")


def _quote(b: bytes) -> bytes:
    return b"'" + b.replace(b"'", b"''") + b"'"


def _op(model) -> bytes:
    op = _OPS.get(model.get("op"))
    if op is None:
        raise BadRequest(f"unknown compare op {model.get('op')!r}")
    return op


def _comparator(c) -> bytes:
    if not isinstance(c, dict) or c.get("type") not in _COMPARATORS:
        raise BadRequest(f"hsim's REST filters take {', '.join(_COMPARATORS)}, not "
                         f"{c.get('type') if isinstance(c, dict) else c!r}")
    value = c.get("value", "")
    raw = unb64(value, "comparator value") if c["type"].startswith("Binary") else \
        str(value).encode("utf-8")
    return _quote(_COMPARATORS[c["type"]] + b":" + raw)


def _bool(v) -> bytes:
    return b"true" if v in (True, "true") else b"false"


def _int(v) -> bytes:
    try:
        return str(int(v)).encode()
    except (TypeError, ValueError):
        raise BadRequest(f"not a number: {v!r}") from None


def language(model) -> bytes:
    """The filter-language string of one FilterModel (a dict)."""
    if not isinstance(model, dict):
        raise BadRequest("a filter is a JSON object")
    kind = model.get("type")
    if kind == "FilterList":
        joiner = b" AND " if model.get("op", "MUST_PASS_ALL") == "MUST_PASS_ALL" else b" OR "
        parts = [b"(" + language(f) + b")" for f in model.get("filters") or []]
        if not parts:
            raise BadRequest("a FilterList needs filters")
        return joiner.join(parts)
    if kind in ("SkipFilter", "WhileMatchFilter"):
        inner = (model.get("filters") or [None])[0]
        return (b"SKIP " if kind == "SkipFilter" else b"WHILE ") + language(inner)
    if kind in _NO_ARGS:
        return kind.encode() + b"()"
    if kind in _ONE_BYTES:
        return kind.encode() + b"(" + _quote(unb64(model.get("value", ""), "value")) + b")"
    if kind in _COMPARE:
        return kind.encode() + b"(" + _op(model) + b", " + _comparator(model.get("comparator")) \
            + b")"
    if kind in ("PageFilter", "ColumnCountGetFilter"):
        return kind.encode() + b"(" + _int(model.get("value", model.get("limit"))) + b")"
    if kind == "ColumnPaginationFilter":
        return b"ColumnPaginationFilter(" + _int(model.get("limit")) + b", " + \
            _int(model.get("offset")) + b")"
    if kind == "MultipleColumnPrefixFilter":
        prefixes = [_quote(unb64(p, "prefix")) for p in model.get("prefixes") or []]
        return b"MultipleColumnPrefixFilter(" + b", ".join(prefixes) + b")"
    if kind == "TimestampsFilter":
        return b"TimestampsFilter(" + b", ".join(_int(t) for t in model.get("timestamps") or []) \
            + b")"
    if kind == "ColumnRangeFilter":
        return b"ColumnRangeFilter(" + b", ".join((
            _quote(unb64(model.get("minColumn", ""), "minColumn")),
            _bool(model.get("minColumnInclusive")),
            _quote(unb64(model.get("maxColumn", ""), "maxColumn")),
            _bool(model.get("maxColumnInclusive")))) + b")"
    if kind in ("SingleColumnValueFilter", "SingleColumnValueExcludeFilter"):
        return kind.encode() + b"(" + b", ".join((
            _quote(unb64(model.get("family", ""), "family")),
            _quote(unb64(model.get("qualifier", ""), "qualifier")), _op(model),
            _comparator(model.get("comparator")), _bool(model.get("ifMissing")),
            _bool(model.get("latestVersion", True)))) + b")"
    if kind == "DependentColumnFilter":
        return b"DependentColumnFilter(" + b", ".join((
            _quote(unb64(model.get("family", ""), "family")),
            _quote(unb64(model.get("qualifier", ""), "qualifier")),
            _bool(model.get("dropDependentColumn")), _op(model),
            _comparator(model.get("comparator")))) + b")"
    raise BadRequest(f"hsim's REST gateway does not take the filter {kind!r}")


def filter_string(text: str) -> bytes:
    """ScannerModel.filter: FilterModel JSON -> the filter language."""
    try:
        model = json.loads(text)
    except ValueError as e:
        raise BadRequest(f"the scanner's filter is not JSON: {e}") from None
    return language(model)
