"""`scan ..., {ALL_METRICS => true}` and `{METRICS => [...]}`: the scan's ScanMetrics after the
rows, as the HBase shell's Formatter#scan_metrics prints them (a blank line, METRIC / VALUE,
keys in order, not counted as rows)."""

TOOK = "Took 0.0000 seconds\n"


def test_scan_prints_the_metrics_it_was_asked_for(sh):
    sh("create 't', 'f'")
    sh("put 't', 'r1', 'f:a', 'v1'")
    sh("put 't', 'r2', 'f:a', 'v2'")
    out = sh("scan 't', {FILTER => \"ValueFilter(=, 'binary:v1')\", "
             "METRICS => ['ROWS_SCANNED', 'ROWS_FILTERED']}")
    assert out.endswith("1 row(s)\n\nMETRIC  VALUE\n ROWS_FILTERED 1\n ROWS_SCANNED 2\n" + TOOK)
    out = sh("scan 't', {ALL_METRICS => true}")
    lines = out.split("2 row(s)\n\nMETRIC  VALUE\n")[1].splitlines()[:-1]
    keys = [line.split()[0] for line in lines]
    assert keys == sorted(keys) and len(keys) == 12
    assert " RPC_CALLS 1" in lines and " REGIONS_SCANNED 1" in lines
    assert "METRIC" not in sh("scan 't'")


def test_status_detailed_shows_filtered_read_requests(sh):
    # ServerLoad / RegionMetrics toString: filteredReadRequestsCount after readRequestsCount
    sh("create 't', 'f'")
    for r in ("r1", "r2", "r3"):
        sh(f"put 't', '{r}', 'f:a', '{r}'")
    sh("scan 't', {FILTER => \"ValueFilter(=, 'binary:r2')\"}")
    detailed = sh("status 'detailed'")
    assert "readRequestsCount=1, filteredReadRequestsCount=2, writeRequestsCount=3, " in detailed
    assert "readRequestsCount=1, filteredReadRequestsCount=2, writeRequestsCount=3\n" in detailed
