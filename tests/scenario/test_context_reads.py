"""A scenario's context reads what a read examined: rows returned (read_requests) and rows
read and not returned (filtered_read_requests), as HBase's readRequestCount and
filteredReadRequestCount; Admin.regions has both per region (RegionLoad)."""

from hsim.filters import BinaryComparator, SingleColumnValueFilter


def test_scenario_context_and_admin_read_both_counts():
    from hsim.scenario.context import Run
    from hsim.scenario.model import Scenario

    scenario = Scenario("probe", "reads", sizes={"small": 1, "default": 1})
    scenario.variant("only", "the one variant")
    ctx = Run(scenario, scenario.variants[0], ops=1, seed=1, scale=1 / 256, servers=1,
              params={})
    assert ctx.reads() == {"read_requests": 0, "filtered_read_requests": 0, "read_rpcs": 0}
    ctx.admin.create_table("t", ["f"])
    t = ctx.table("t")
    for i in range(10):
        t.put(b"r%d" % i, {b"f:q": b"keep" if i < 3 else b"drop"})
    before = ctx.reads()
    assert len(list(t.scan(filter=SingleColumnValueFilter(b"f", b"q", "=",
                                                          BinaryComparator(b"keep"))))) == 3
    assert ctx.reads(since=before) == {"read_requests": 3, "filtered_read_requests": 7,
                                       "read_rpcs": 1}
    (region,) = ctx.admin.regions("t")
    assert (region.read_requests, region.filtered_read_requests) == (3, 7)
