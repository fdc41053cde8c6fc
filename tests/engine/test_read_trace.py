"""What a traced Store read records (hsim/engine/read_trace.py), entry by entry: the named
steps `explain` reads, and the files' own counters summed into the read's."""

from collections import Counter

from hsim.cell import NO_TTL, PUT, fields
from hsim.config import Config
from hsim.engine.query_matcher import VERSIONS, ScanQuery
from hsim.engine.read_trace import CursorSeek, FileRead, MatchRun, MemStoreRead, ReadTrace
from hsim.engine.store import Store
from hsim.metrics import IOCounters
from hsim.schema import ColumnFamily

NOW = 10_000


def store() -> Store:
    s = Store(b"f", ColumnFamily(), Config(), owner="enc")
    s.memstore.add(fields(b"a", b"f", b"q", 1, PUT, b"old", 1, NO_TTL))
    s.flush(NOW, max_seq_id=1)
    s.memstore.add(fields(b"z", b"f", b"q", 1, PUT, b"v", 2, NO_TTL))
    s.flush(NOW, max_seq_id=2)
    s.memstore.add(fields(b"a", b"f", b"q", 2, PUT, b"new", 3, NO_TTL))
    return s


def test_a_traced_get_records_each_step():
    s = store()
    s.observer = ReadTrace()
    io = IOCounters()
    got = s.get(b"a", ScanQuery(), NOW, io)
    assert [c.value for c in got] == [b"new"]
    first, second = s.files
    kinds = [type(e) for e in s.observer.entries]
    assert kinds == [MemStoreRead, FileRead, FileRead, MatchRun]
    assert s.observer.entries[0] == MemStoreRead(b"f", 1)
    read, skipped = s.observer.entries[1], s.observer.entries[2]
    assert (read.name, skipped.name) == (first.name, second.name)
    # its bloom chunk and its data block; the other file is out of the row's key range
    assert (read.io.bloom_checks, read.io.blocks_read) == (1, 2)
    assert skipped.io.files_skipped_key_range == 1 and skipped.io.blocks_read == 0
    match = s.observer.entries[3]
    assert (match.cells_seen, [c.value for c in match.visible]) == (2, [b"new"])
    assert match.why == Counter({VERSIONS: 1})
    # the read's counters are the files' summed
    assert (io.blocks_read, io.files_skipped_key_range) == (2, 1)


def test_a_traced_scan_records_a_match_per_row():
    s = store()
    s.observer = ReadTrace()
    rows = list(s.scan(None, None, ScanQuery(), NOW, IOCounters()))
    assert [r for r, _ in rows] == [b"a", b"z"]
    assert s.observer.entries[0] == MemStoreRead(b"f", 0)
    matches = [e for e in s.observer.entries if type(e) is MatchRun]
    assert [(m.cells_seen, len(m.visible)) for m in matches] == [(2, 1), (1, 1)]


def test_a_get_of_explicit_columns_records_its_cursor_seeks():
    s = Store(b"f", ColumnFamily(block_size=1024), Config(), owner="enc")
    for i in range(60):
        s.memstore.add(fields(b"r", b"f", b"q%03d" % i, 1, PUT, b"x" * 60, i + 1, NO_TTL))
    s.flush(NOW, max_seq_id=60)
    s.observer = ReadTrace()
    got = s.get(b"r", ScanQuery(columns=frozenset({b"q000", b"q059"})), NOW, IOCounters())
    assert [c.qualifier for c in got] == [b"q000", b"q059"]
    seeks = [e for e in s.observer.entries if type(e) is CursorSeek]
    assert seeks and seeks[0].file == s.files[0].name and seeks[0].key[2] == b"q059"
    assert seeks[0].blocks_skipped >= 1


def test_an_untraced_read_records_nothing():
    s = store()
    assert s.observer is None
    s.get(b"a", ScanQuery(), NOW, IOCounters())
    assert s.observer is None
