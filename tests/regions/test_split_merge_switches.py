"""The master's SPLIT and MERGE switches (Admin.splitSwitch / mergeSwitch, the shell's
splitormerge_switch) and the tables' SPLIT_ENABLED and MERGE_ENABLED, read where HBase 2.5
reads them: HMaster.splitRegion / mergeRegions refuse a requested split or merge while the
switch is off, AssignmentManager turns down a region server's own split, the normalizer plans
none of a switched-off kind (SimpleRegionNormalizer.proceedWith*Planning), and the procedures
fail for a table that disables it (SplitTableRegionProcedure / MergeTableRegionsProcedure
.prepare)."""

from __future__ import annotations

import pytest

import hsim
from hsim.errors import DoNotRetryError, HsimError
from hsim.regions.merge import info

T0 = 1_767_225_600_000
ROWS = [b"%c%03d" % (c, i) for c in b"abcd" for i in range(50)]


def _cluster(**config) -> hsim.Cluster:
    return hsim.Cluster(region_servers=2, clock=hsim.ManualClock(T0),
                        config=hsim.Config(**config))


def _loaded(c, **table) -> hsim.Cluster:
    c.admin.create_table("t", ["f"], split_keys=[b"b", b"c", b"d"], **table)
    t = c.table("t")
    for row in ROWS:
        t.put(row, {b"f:q": b"v" * 100})
    return c


def _state(c) -> list:
    return [(r.name, r.server, r.store_file_count, r.memstore_bytes)
            for r in c.admin.regions("t")]


def test_the_switches_start_on_and_return_their_previous_state():
    c = _cluster()
    assert c.admin.split_enabled() is True and c.admin.merge_enabled() is True
    assert c.admin.split_switch(False) is True
    assert c.admin.split_switch(False) is False
    assert c.admin.merge_switch(False) is True
    assert (c.admin.split_enabled(), c.admin.merge_enabled()) == (False, False)
    with pytest.raises(TypeError, match="on must be a bool"):
        c.admin.merge_switch("no")
    assert c.admin.merge_enabled() is False


def test_the_shell_switch_is_the_masters():
    from tests.shell.conftest import TOOK, Session

    s = Session()
    assert s("splitormerge_switch 'MERGE', false") == "true\n" + TOOK + "=> true\n"
    assert s.shell.admin.merge_enabled() is False
    assert s("splitormerge_enabled 'MERGE'") == "false\n" + TOOK + "=> false\n"
    s.shell.admin.split_switch(False)
    assert s("splitormerge_enabled 'SPLIT'") == "false\n" + TOOK + "=> false\n"


def _refused_merge(c, error) -> tuple:
    """Merge the second and the first region (in that order): refused with `error`, changing
    nothing. Returns the error and the two regions."""
    a, b = c.admin.regions("t")[:2]
    before = _state(c)
    with pytest.raises(error) as e:
        c.admin.merge_regions(b.encoded_name, a.encoded_name)
    assert _state(c) == before
    return e.value, c.master.region_by_name(a.name), c.master.region_by_name(b.name)


def _merge_first_two(c) -> None:
    a, b = c.admin.regions("t")[:2]
    c.admin.merge_regions(b.encoded_name, a.encoded_name)
    assert len(c.admin.regions("t")) == 3
    c.check_invariants()


def test_a_merge_while_the_merge_switch_is_off_is_refused_and_changes_nothing():
    c = _loaded(_cluster())
    c.admin.merge_switch(False)
    e, a, b = _refused_merge(c, DoNotRetryError)
    # Arrays.deepToString of the regions as passed (HMaster.mergeRegions)
    assert e.message == f"Merge of [{info(b)}, {info(a)}] failed because merge switch is off"
    assert "DoNotRetryIOException" in str(e)
    c.admin.merge_switch(True)
    _merge_first_two(c)


def test_a_table_with_merge_enabled_false_refuses_a_merge():
    c = _loaded(_cluster())
    with pytest.raises(TypeError, match="merge_enabled must be a bool"):
        c.admin.alter_table("t", normalization_enabled=True, merge_enabled="no")
    assert c.admin.describe("t").values == {}  # checked before anything is set
    c.admin.alter_table("t", merge_enabled=False)
    assert c.admin.describe("t").values["MERGE_ENABLED"] == "false"
    e, a, b = _refused_merge(c, HsimError)
    # the procedure's regions are sorted (MergeTableRegionsProcedure's constructor)
    assert e.message == f"Merge of [{info(a)}, {info(b)}] failed as region merge is disabled " \
                        "for the table"
    assert type(e) is HsimError  # a procedure failure: java.io.IOException
    c.admin.alter_table("t", merge_enabled=True)
    _merge_first_two(c)


def test_merge_enabled_in_the_shell():
    from tests.shell.conftest import Session

    s = Session(servers=2)
    s("create 't', 'f', SPLITS => ['b', 'c'], MERGE_ENABLED => false")
    a, b, _ = s.shell.admin.regions("t")
    out = s(f"merge_region '{a.encoded_name}', '{b.encoded_name}'")
    assert "ERROR: java.io.IOException: Merge of [" in out
    assert "failed as region merge is disabled for the table" in out
    assert len(s.shell.admin.regions("t")) == 3
    s("alter 't', MERGE_ENABLED => true")
    s(f"merge_region '{a.encoded_name}', '{b.encoded_name}'")
    assert len(s.shell.admin.regions("t")) == 2


def test_a_requested_split_while_the_split_switch_is_off_is_refused_and_changes_nothing():
    c = _loaded(_cluster())
    c.admin.split_switch(False)
    before = _state(c)
    region = c.admin.regions("t")[1]
    with pytest.raises(DoNotRetryError) as e:
        c.admin.split("t", b"b025")
    assert e.value.message == f"Split region {region.name} failed due to split switch off"
    with pytest.raises(DoNotRetryError, match="split switch off"):
        c.admin.split(region.name)  # at its own mid key
    assert _state(c) == before  # not even flushed
    with pytest.raises(TypeError, match="on must be a bool"):
        c.admin.split_switch(1)
    assert c.admin.split_enabled() is False
    c.admin.split_switch(True)
    assert c.admin.split("t", b"b025") is True
    assert len(c.admin.regions("t")) == 5


def test_a_table_with_split_enabled_false_refuses_a_requested_split():
    c = _loaded(_cluster(), split_enabled=False)
    before = _state(c)
    region = c.admin.regions("t")[1]
    with pytest.raises(HsimError) as e:
        c.admin.split("t", b"b025")
    assert e.value.message == (f"Split region {region.name} failed as region split is "
                               "disabled for the table")
    assert type(e.value) is HsimError
    assert _state(c) == before


def test_a_regions_own_split_waits_for_the_split_switch():
    # a region over its MAX_FILESIZE asks the master to split it (HRegionServer
    # .requestRegionSplit); with the switch off the master turns it down (AssignmentManager)
    c = _cluster()
    c.admin.create_table("t", {"f": {"BLOCKSIZE": 1024}}, max_filesize=16 << 10,
                         split_policy="ConstantSizeRegionSplitPolicy")
    c.admin.split_switch(False)
    t = c.table("t")
    for row in ROWS:
        t.put(row, {b"f:q": b"v" * 200})
    c.admin.flush("t")
    assert len(c.admin.regions("t")) == 1
    c.admin.split_switch(True)
    t.put(b"e", {b"f:q": b"v"})
    c.admin.flush("t")  # the next flush asks again (HRegion.checkSplit after it)
    assert len(c.admin.regions("t")) > 1
    assert sum(1 for _ in t.scan()) == len(ROWS) + 1
    c.check_invariants()


def _normalizable(c, **table) -> hsim.Cluster:
    c.admin.create_table("t", ["f"], split_keys=[b"%02d" % i for i in range(1, 6)], **table)
    c.admin.alter_table("t", normalization_enabled=True)
    c.table("t").put(b"00", {b"f:q": b"v"})
    c.clock.advance(1)
    return c


_MERGE_ANY = dict(normalizer_merge_min_region_size_mb=0, normalizer_merge_min_region_age_days=0)


def test_the_normalizer_plans_no_merge_while_the_merge_switch_is_off():
    c = _normalizable(_cluster(**_MERGE_ANY))
    c.admin.merge_switch(False)
    assert c.admin.normalize("t") is True
    assert len(c.admin.regions("t")) == 6
    c.admin.merge_switch(True)
    c.admin.normalize("t")
    assert len(c.admin.regions("t")) == 1  # every region 0 MB: one merge of them all


def test_the_normalizers_merge_of_a_merge_disabled_table_fails_alone():
    c = _normalizable(_cluster(**_MERGE_ANY), values={"MERGE_ENABLED": "false"})
    assert c.admin.normalize("t") is True  # planned, submitted, failed in the procedure
    assert len(c.admin.regions("t")) == 6
    c.check_invariants()


def _big_middle(c) -> hsim.Cluster:
    t = c.table("t")
    for i in range(1200):  # ~5 MB into region [01, 02): over twice the table's average
        t.put(b"01-%05d" % i, {b"f:q": b"x" * 4096})
    c.admin.flush("t")
    return c


def test_the_normalizer_plans_no_split_while_the_split_switch_is_off():
    c = _big_middle(_normalizable(_cluster(normalizer_merge_enabled=False)))
    c.admin.split_switch(False)
    c.admin.normalize("t")
    assert len(c.admin.regions("t")) == 6
    c.admin.split_switch(True)
    c.admin.normalize("t")
    assert len(c.admin.regions("t")) == 7


def test_the_normalizers_split_of_a_split_disabled_table_fails_alone():
    c = _big_middle(_normalizable(_cluster(normalizer_merge_enabled=False),
                                  split_enabled=False))
    assert c.admin.normalize("t") is True
    assert len(c.admin.regions("t")) == 6
