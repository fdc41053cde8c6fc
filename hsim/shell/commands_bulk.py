"""completebulkload: hsim's shell form of `hbase completebulkload DIR TABLE`
(BulkLoadHFilesTool), which HBase runs from the command line, not from its shell."""

from __future__ import annotations

from hsim.shell.args import name_text
from hsim.shell.registry import command


@command("completebulkload", "hsim", """
Moves the HFiles under DIR/<family>/ (as hsim.bulk.write_hfiles or HFileOutputFormat2 write
them) into a table's stores: no MemStore, no WAL. A file that spans a region boundary is split
first; a file hsim cannot read is refused and nothing is loaded. The same as
`hsim bulkload DIR TABLE` and Admin.bulk_load (docs/bulk-load.md).

  hbase> completebulkload '/tmp/hfiles', 't1'
""")
def completebulkload(sh, directory, table):
    n = sh.admin.bulk_load(name_text(table), name_text(directory))
    sh.fmt.line(f"Loaded {n} HFile{'s' if n != 1 else ''} into {name_text(table)}")
