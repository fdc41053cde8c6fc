"""The shell's output formats: layouts, timestamps, PrettyPrinter sizes and TTLs."""

import io

from hsim.cell import Cell, CellType
from hsim.shell.formatter import (Formatter, cell_text, format_timestamp, human_bytes,
                                  human_ttl, parse_timestamp, took)

T0 = 1767225600000  # 2026-01-01T00:00Z


def test_iso_timestamps_follow_local_date_time_to_string():
    assert format_timestamp(T0) == "2026-01-01T00:00"
    assert format_timestamp(T0 + 5000) == "2026-01-01T00:00:05"
    assert format_timestamp(T0 + 5250) == "2026-01-01T00:00:05.250"
    assert format_timestamp(T0 + 1) == "2026-01-01T00:00:00.001"
    assert format_timestamp(0) == "1970-01-01T00:00"
    assert format_timestamp(T0, "epoch") == "1767225600000"
    assert format_timestamp((1 << 63) - 1) == str((1 << 63) - 1)


def test_parse_timestamp_inverts_it():
    assert parse_timestamp("2026-01-01T00:00") == T0
    assert parse_timestamp("2026-01-01T01:00:00Z") == T0 + 3_600_000
    assert parse_timestamp("12345") == 12345


def test_cell_text_shows_values_binary_and_markers_by_type():
    put = Cell(b"r", b"f", b"q", T0, CellType.PUT, b"\x00\x14ok")
    assert cell_text(put) == "timestamp=2026-01-01T00:00, value=\\x00\\x14ok"
    assert cell_text(put, "epoch") == "timestamp=1767225600000, value=\\x00\\x14ok"
    for t, name in ((CellType.DELETE, "Delete"), (CellType.DELETE_COLUMN, "DeleteColumn"),
                    (CellType.DELETE_FAMILY, "DeleteFamily"),
                    (CellType.DELETE_FAMILY_VERSION, "DeleteFamilyVersion")):
        marker = Cell(b"r", b"f", b"q", T0, t)
        assert cell_text(marker) == f"timestamp=2026-01-01T00:00, type={name}"


def test_took_line():
    assert took(0.01234) == "Took 0.0123 seconds"


def test_pretty_printer_sizes_and_ttls():
    assert human_bytes(65536) == "65536 B (64KB)"
    assert human_bytes(134217728) == "134217728 B (128MB)"
    assert human_bytes(10763632640) == "10763632640 B (10GB 25MB)"
    assert human_bytes(1000) == "1000 B"
    assert human_bytes(1025) == "1025 B (1KB 1B)"
    assert human_ttl(None) == "FOREVER"
    assert human_ttl(2**31 - 1) == "FOREVER"
    assert human_ttl(1) == "1 SECOND"
    assert human_ttl(30) == "30 SECONDS"
    assert human_ttl(86400) == "86400 SECONDS (1 DAY)"
    assert human_ttl(90061) == "90061 SECONDS (1 DAY 1 HOUR 1 MINUTE 1 SECOND)"
    # HBase pluralises the seconds by the minutes count
    assert human_ttl(3725) == "3725 SECONDS (1 HOUR 2 MINUTES 5 SECONDS)"
    assert human_ttl(3665) == "3665 SECONDS (1 HOUR 1 MINUTE 5 SECOND)"


def test_unpadded_layout_without_a_terminal():
    out = io.StringIO()
    f = Formatter(out, 0)
    f.header(["ROW", "COLUMN+CELL"])
    f.row(["r1", "column=f:q, timestamp=1, value=v"])
    f.footer()
    assert out.getvalue() == "ROW  COLUMN+CELL\n r1 column=f:q, timestamp=1, value=v\n1 row(s)\n"


def test_terminal_layout_pads_a_quarter_and_wraps():
    out = io.StringIO()
    f = Formatter(out, 40)
    f.header(["ROW", "COLUMN+CELL"])
    f.row(["row-with-a-long-key", "column=f:q, timestamp=1, value=v"])
    lines = out.getvalue().split("\n")
    assert lines[0] == "ROW" + " " * 7 + "  " + "COLUMN+CELL".ljust(28)
    # col1 = 40 // 4 = 10 chars, col2 = 40 - 10 - 2 = 28 chars; both wrap
    assert lines[1] == " row-with-a column=f:q, timestamp=1, val"
    assert lines[2] == " -long-key  " + "ue=v".ljust(28)
    assert lines[3:] == [""]


def test_one_column_rows_and_footer_count():
    out = io.StringIO()
    f = Formatter(out, 0)
    f.header(["TABLE"])
    f.row(["t1"])
    f.row(["t2"])
    f.footer()
    assert out.getvalue() == "TABLE\nt1\nt2\n2 row(s)\n"
