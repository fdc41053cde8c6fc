"""The write-ahead log and region-server failure in the shell: `wal` shows every live server's
WAL files, `abort_server` kills one (MiniHBaseCluster.abortRegionServer) and reports what the
crash recovery replayed and lost, `start_server` starts a new one."""

from __future__ import annotations

from hsim import inspect as views
from hsim.shell.args import java_int
from hsim.shell.registry import command


@command("wal", "hsim", """
Shows each live region server's WAL files (the current one last): bytes, bytes not yet synced,
the regions with edits in it; then each server's syncs, rolls, archived files and the flushes
hbase.regionserver.maxlogs forced.

  hbase> wal
""")
def wal(sh):
    for line in str(views.wal(sh.cluster)).split("\n"):
        sh.fmt.line(line)


@command("abort_server", "hsim", """
Kills live region server INDEX (0 = the first in `status 'simple'`): its MemStores and block
cache are lost, its WALs are split and its regions reopened on the live servers with their
edits replayed. Prints what was replayed and what was lost (SKIP_WAL edits, ASYNC_WAL edits
not yet synced), in cells.

  hbase> abort_server 0
""")
def abort_server(sh, index):
    r = sh.cluster.abort_region_server(java_int(index, "index"))
    sh.fmt.line(f"Aborted {r.server}: {len(r.regions)} region(s) reassigned, "
                f"{r.wal_files_split} WAL file(s) ({r.wal_bytes_split} bytes) split")
    sh.fmt.line(f"Replayed {r.edits_replayed} cell(s); lost {r.lost_skip_wal} SKIP_WAL and "
                f"{r.lost_async_wal} unsynced ASYNC_WAL cell(s)")


@command("start_server", "hsim", """
Starts a new, empty region server (MiniHBaseCluster.startRegionServer); `balancer` gives it
regions.

  hbase> start_server
""")
def start_server(sh):
    sh.fmt.line(f"Started {sh.cluster.start_region_server().name}")
