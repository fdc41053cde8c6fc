"""Sequences the model-based machines once failed on, replayed step by step (a derandomized
run finds them again only while the strategies draw the same way)."""

from hbase_model import Schema
from hsim.cell import DELETE_FAMILY, NEG_TYPE, ROW
from test_model_based import Wide

CHECKS = ("books_balance", "reversed_scans_mirror_forward_scans", "same_answers",
          "same_physical_layout", "same_single_column_gets", "balance")


class _First:
    """`data.draw` answering the first choice (the merge of the first two regions)."""

    def draw(self, strategy):
        return 0


def test_a_merged_store_orders_its_files_by_each_parents_sequence_ids():
    """A merged region's store sorts the parents' files by sequence id, and each region counts
    its own: here the bulk-loaded file of the first parent (its sequence id 3) is newer than
    the second parent's DeleteFamily file (2), so removeUnneededFiles keeps it though its put
    expired, and the major compaction keeps the marker (KEEP_DELETED_CELLS true, not older than
    the earliest put). The model once numbered sequence ids across the table and dropped both."""
    state = Wide()

    def check():
        for name in CHECKS:
            getattr(state, name)()

    state.setup(drawn=[Schema(versions=1, min_versions=0, ttl=None, kdc=False)] * 2,
                flush_size=2048, bloom="ROWCOL", encoding="NONE")
    check()
    for step in (
        lambda: state.put(fam=b"f", quals=[b"q1"], row=b"a", ts=None, ttl=None),
        lambda: state.alter_family(fam=b"g", schema=Schema(versions=1, min_versions=0, ttl=1,
                                                           kdc=True)),
        lambda: state.split(point=b"p"),
        lambda: state.delete_family_version(fam=b"f", row=b"a", ts=-8),
        lambda: state.delete_row(row=b"t", ts=None),
        lambda: state.advance(ms=1),
        lambda: state.bulk_load(cells=[(b"a", b"f", b"q2", None), (b"a", b"f", b"q1", -5),
                                       (b"t", b"f", b"q1", None), (b"a", b"g", b"q1", -7)]),
        lambda: state.merge(data=_First()),
    ):
        step()
        check()
    (region,) = state._regions()
    kept = [(c[ROW], -c[NEG_TYPE]) for c in region.stores[b"g"].files[0].all_cells()]
    assert kept == [(b"t", DELETE_FAMILY)]  # the marker, alone
    state.teardown()
