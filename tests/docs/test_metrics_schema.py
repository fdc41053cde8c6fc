"""One metrics schema: every metric field of a record carries its unit and description, and
docs/metrics.md is generated from them."""

import re
from dataclasses import fields
from pathlib import Path

import pytest

from hsim.metrics import (RegionMetrics, ServerMetrics, StoreMetrics, describe, schema,
                          schema_markdown)

DOC = Path(__file__).resolve().parents[2] / "docs" / "metrics.md"
IDENTITY = {"name", "family", "table", "start_key", "end_key", "server", "stores"}


@pytest.mark.parametrize("record", [ServerMetrics, RegionMetrics, StoreMetrics])
def test_every_metric_field_has_a_schema(record):
    described = {m.name for m in schema(record)}
    counts = {f.name for f in fields(record)} - IDENTITY
    assert counts == described
    for m in schema(record):
        assert m.unit in {"count", "bytes", "files", "requests", "blocks", "cells", "ms"}, m
        assert set(m.levels) <= set("SRF"), m
        assert m.description, m


def test_describe_finds_a_metric_and_refuses_an_unknown_one():
    assert describe("write_requests").hbase == "writeRequestCount"
    assert describe("bloom_bytes").unit == "bytes"
    with pytest.raises(KeyError):
        describe("no_such_metric")


def test_docs_metrics_page_is_generated_from_the_schema():
    text = DOC.read_text()
    block = re.search(r"<!-- hsim:metrics -->\n(.*)<!-- /hsim:metrics -->", text, re.S)
    assert block, "docs/metrics.md lost its generated block"
    assert block.group(1) == schema_markdown(), (
        "docs/metrics.md is stale: regenerate the block from hsim.metrics.schema_markdown()")
