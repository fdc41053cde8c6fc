"""snapshot, clone_snapshot, restore_snapshot, list_snapshots, delete_snapshot
(hbase-shell shell/commands/*.rb over hbase/admin.rb): hsim.regions.snapshot."""

from __future__ import annotations

import datetime
import re

from hsim.shell.args import name_text
from hsim.shell.parser import to_text
from hsim.shell.registry import command


@command("snapshot", "snapshots", """
Takes a snapshot of a table (flushed first): the table's files are held, none copied.

  hbase> snapshot 'sourceTable', 'snapshotName'
""")
def snapshot(sh, table, name, *_options):
    sh.admin.snapshot(name_text(name), name_text(table))


@command("clone_snapshot", "snapshots", """
Creates a new table from a snapshot: its stores link to the snapshot's files (HFileLinks),
which no byte is copied from until a compaction rewrites them.

  hbase> clone_snapshot 'snapshotName', 'tableName'
""")
def clone_snapshot(sh, name, table, *_options):
    sh.admin.clone_snapshot(name_text(name), name_text(table))


@command("restore_snapshot", "snapshots", """
Puts a table back as a snapshot holds it: descriptor, regions and files. The table must be
disabled, and stays disabled.

  hbase> disable 'tableName'
  hbase> restore_snapshot 'snapshotName'
""")
def restore_snapshot(sh, name, *_options):
    sh.admin.restore_snapshot(name_text(name))


@command("delete_snapshot", "snapshots", """
Deletes a snapshot; the files no table still uses go with it.

  hbase> delete_snapshot 'snapshotName'
""")
def delete_snapshot(sh, name):
    sh.admin.delete_snapshot(name_text(name))


@command("list_snapshots", "snapshots", """
Lists the snapshots; an optional regular expression filters them by name.

  hbase> list_snapshots
  hbase> list_snapshots 'abc.*'
""")
def list_snapshots(sh, regex=".*"):
    pattern = re.compile(to_text(str(regex)))
    snaps = [s for s in sh.admin.list_snapshots() if pattern.fullmatch(s.name)]
    sh.fmt.header(["SNAPSHOT", "TABLE + CREATION TIME"])
    for s in snaps:
        sh.fmt.row([s.name, f"{s.table} ({_ruby_time(s.creation_time)})"])
    sh.fmt.footer(len(snaps))
    return [s.name for s in snaps]


def _ruby_time(ms: int) -> str:
    """Ruby's Time.at(ms / 1000).to_s on a UTC shell."""
    t = datetime.datetime.fromtimestamp(ms // 1000, datetime.timezone.utc)
    return t.strftime("%Y-%m-%d %H:%M:%S +0000")
