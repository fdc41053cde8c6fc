"""ScanMetrics: what one scan examined and cost, by the key strings of HBase's
client.metrics.ScanMetrics and ServerSideScanMetrics (`Scan.setScanMetricsEnabled(true)`, then
`ResultScanner.getScanMetrics().getMetricsMap()`).

One record carries both halves, as HBase's ScanMetrics extends ServerSideScanMetrics. The
server-side counts are made where the rows are read: a scan batch passes the record down to
`region_rows` (regions/region_scanner.py), which counts each row it examined (ROWS_SCANNED)
and each one it did not return (ROWS_FILTERED, the region's filteredReadRequestsCount), as
RegionScannerImpl does; the region
server adds the data-block bytes the batch touched (BLOCK_BYTES_SCANNED). The client scanner
counts the rest (client/client_scanner.py). docs/metrics.md says what each one counts in hsim.
"""

from __future__ import annotations

# attribute -> HBase's key string, in the order getMetricsMap's keys are documented
KEYS = {
    "rpc_calls": "RPC_CALLS",
    "remote_rpc_calls": "REMOTE_RPC_CALLS",
    "millis_between_nexts": "MILLIS_BETWEEN_NEXTS",
    "not_serving_region_exception": "NOT_SERVING_REGION_EXCEPTION",
    "bytes_in_results": "BYTES_IN_RESULTS",
    "bytes_in_remote_results": "BYTES_IN_REMOTE_RESULTS",
    "regions_scanned": "REGIONS_SCANNED",
    "rpc_retries": "RPC_RETRIES",
    "remote_rpc_retries": "REMOTE_RPC_RETRIES",
    "rows_scanned": "ROWS_SCANNED",
    "rows_filtered": "ROWS_FILTERED",
    "block_bytes_scanned": "BLOCK_BYTES_SCANNED",
}


class ScanMetrics:
    """The counters of one scan (or of one scan batch, on the server), all starting at 0."""

    __slots__ = tuple(KEYS)

    def __init__(self):
        for name in self.__slots__:
            setattr(self, name, 0)

    def add(self, other: ScanMetrics) -> None:
        """Add another record's counts into this one (a batch's into its scan's)."""
        for name in self.__slots__:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def to_dict(self) -> dict[str, int]:
        """HBase's getMetricsMap: every counter by its key string."""
        return {key: getattr(self, name) for name, key in KEYS.items()}

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v}" for k, v in self.to_dict().items() if v)
        return f"ScanMetrics({inner})"
