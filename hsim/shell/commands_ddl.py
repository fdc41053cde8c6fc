"""Data definition commands: create, alter, describe, list, exists, is_enabled, is_disabled,
enable, disable, drop, truncate (hbase-shell shell/commands/*.rb over hbase/admin.rb)."""

from __future__ import annotations

import re

from hsim.bytes import to_bytes_binary
from hsim.errors import DoNotRetryError, HsimError
from hsim.schema import ColumnFamily
from hsim.shell.values import flatten
from hsim.shell.args import (java_int, name_text, ruby_class)
from hsim.shell.parser import ruby_inspect, to_bytes, to_text
from hsim.shell.registry import ShellArgumentError, command
from hsim.shell.shell import TableRef
from hsim.shell.family_options import family_description, family_from_hash, option_name  # noqa: F401
from hsim.shell.table_attributes import TableAttributes, describe_attributes

def _split_algorithm(name: str):
    """RegionSplitter.newSplitAlgoInstance: the simple names of the built-in algorithms, or
    their class names."""
    from hsim import presplit

    simple = name.rsplit("$", 1)[-1].rsplit(".", 1)[-1]
    algo = {"HexStringSplit": presplit.HexStringSplit,
            "DecimalStringSplit": presplit.DecimalStringSplit,
            "UniformSplit": presplit.UniformSplit}.get(simple)
    if algo is None or (simple != name and not name.startswith(
            "org.apache.hadoop.hbase.util.RegionSplitter")):
        raise HsimError(f"Couldn't load split class {name}")
    return algo()


# --- create ---------------------------------------------------------------------------------------
@command("create", "ddl", """
Creates a table. Give the table name, then its column families: each a name, or a hash with
NAME and the family's options. A hash without NAME holds table options: splits and attributes.

  hbase> create 't1', 'f1', 'f2', 'f3'
  hbase> create 't1', {NAME => 'f1', VERSIONS => 5, TTL => 86400, BLOOMFILTER => 'ROWCOL'}
  hbase> create 't1', 'f1', SPLITS => ['10', '20', '30', '40']
  hbase> create 't1', 'f1', SPLITS_FILE => 'splits.txt'
  hbase> create 't1', 'f1', {NUMREGIONS => 15, SPLITALGO => 'HexStringSplit'}
  hbase> create 't1', 'f1', {MAX_FILESIZE => 1048576}
  hbase> create 't1', 'f1', {STARTKEY => '0000', ENDKEY => 'ffff', NUMREGIONS => 10}

The last form is hsim's: Admin.createTable(desc, startKey, endKey, numRegions), whose split
keys come from Bytes.split.

Family options: VERSIONS, MIN_VERSIONS, TTL (seconds or FOREVER), KEEP_DELETED_CELLS,
BLOOMFILTER (NONE, ROW, ROWCOL, ROWPREFIX_FIXED_LENGTH), BLOCKSIZE, COMPRESSION (NONE, SNAPPY, LZ4,
GZ, ZSTD), IN_MEMORY, BLOCKCACHE, DATA_BLOCK_ENCODING (NONE, PREFIX, DIFF, FAST_DIFF,
ROW_INDEX_V1). SPLITALGO is HexStringSplit, DecimalStringSplit or UniformSplit.
""")
def create(sh, table, *args):
    if not isinstance(table, str):
        raise ShellArgumentError("Table name must be of type String")
    name = to_text(table)
    families: dict[bytes, ColumnFamily] = {}
    split_keys = None
    attrs = TableAttributes()
    flat = []
    for a in args:
        flat.extend(x for x in flatten([a]) if x is not None)
    for arg in flat:
        if not isinstance(arg, (str, dict)):
            raise ShellArgumentError(
                f"{ruby_class(arg)} of {ruby_inspect(arg)} is not of Hash or String type")
        if isinstance(arg, str) or "NAME" in arg:
            if isinstance(arg, str):
                fam, cf = to_bytes(arg), ColumnFamily()
            else:
                fam, cf = family_from_hash(arg, None, sh.fmt)
            if fam in families:
                sh.fmt.line(f"Family '{fam.decode('utf-8', 'replace')}' already exists, "
                            "the old one will be replaced")
            families[fam] = cf
            continue
        arg = dict(arg)
        method = arg.pop("METHOD", None)
        if method is not None and method != "table_att":
            raise ShellArgumentError("table_att is currently the only supported method")
        if "SPLITS_FILE" in arg:
            path = to_text(arg.pop("SPLITS_FILE"))
            try:
                with open(path, encoding="utf-8", errors="surrogateescape") as f:
                    arg["SPLITS"] = [line.rstrip("\r\n") for line in f]
            except FileNotFoundError:
                raise ShellArgumentError(f"Splits file {path} doesn't exist") from None
        if "SPLITS" in arg:
            split_keys = [to_bytes_binary(str(s)) for s in arg.pop("SPLITS")]
        elif "STARTKEY" in arg and "ENDKEY" in arg and "NUMREGIONS" in arg:
            # hsim's extension: Admin.createTable(desc, startKey, endKey, numRegions), which
            # cuts the range with Bytes.split (the shell itself has no way to call it)
            from hsim.presplit import admin_split_keys

            split_keys = admin_split_keys(to_bytes_binary(str(arg.pop("STARTKEY"))),
                                          to_bytes_binary(str(arg.pop("ENDKEY"))),
                                          java_int(arg.pop("NUMREGIONS")))
        elif "NUMREGIONS" in arg or "SPLITALGO" in arg:
            if "NUMREGIONS" not in arg:
                raise ShellArgumentError("Number of regions must be specified")
            if "SPLITALGO" not in arg:
                raise ShellArgumentError("Split algorithm must be specified")
            n = arg.pop("NUMREGIONS")
            if not isinstance(n, int) or n <= 1:
                raise ShellArgumentError("Number of regions must be greater than 1")
            split_keys = _split_algorithm(to_text(arg.pop("SPLITALGO"))).split(n)
        attrs.take(arg, sh.fmt)
        for k in arg:
            sh.fmt.line(f"An argument ignored (unknown or overridden): {option_name(k)}")
    if not families:
        raise ShellArgumentError("Table must have at least one column family")
    sh.admin.create_table(name, families, split_keys=split_keys, **attrs.kwargs())
    sh.fmt.line(f"Created table {name}")
    return TableRef(name)




# --- alter ----------------------------------------------------------------------------------------
@command("alter", "ddl", """
Alters a table online: adds or changes column families (a name or a hash with NAME), deletes
them (METHOD => 'delete'), and sets or unsets table attributes.

  hbase> alter 't1', NAME => 'f1', VERSIONS => 5
  hbase> alter 't1', 'f1', {NAME => 'f2', IN_MEMORY => true}, {NAME => 'f3', VERSIONS => 5}
  hbase> alter 't1', NAME => 'f1', METHOD => 'delete'
  hbase> alter 't1', 'delete' => 'f1'
  hbase> alter 't1', MAX_FILESIZE => '134217728'
  hbase> alter 't1', METHOD => 'table_att_unset', NAME => 'MAX_FILESIZE'
  hbase> alter 't1', {SPLIT_ENABLED => false}
""")
def alter(sh, table, *args):
    alter_table(sh, table, args, wait=True)


def alter_table(sh, table, args, wait: bool) -> None:
    """Admin#alter: `wait` prints the progress lines alter prints (alter_async does not)."""
    if not isinstance(table, str):
        raise ShellArgumentError("Table name must be of type String")
    name = to_text(table)
    if not sh.admin.table_exists(name):
        raise ShellArgumentError(f"Can't find a table: {name}")
    if not args:
        raise ShellArgumentError("There should be at least one argument but the table name")
    desc = sh.admin.describe(name)
    families = dict(desc.families)
    attrs = TableAttributes(desc)
    updated = False
    for arg in args:
        if isinstance(arg, str):
            arg = {"NAME": arg}
        arg = dict(arg)
        if arg.get("delete"):
            arg = {"METHOD": "delete", "NAME": arg["delete"]}
        method = arg.pop("METHOD", None)
        if method is None and "NAME" in arg:
            fam, cf = family_from_hash(arg, families.get(to_bytes(name_text(arg["NAME"]))),
                                       sh.fmt)
            families[fam] = cf
            updated = True
            continue
        target = arg.pop("NAME", None)
        if method is not None and method != "table_att":
            if method == "delete":
                if not target:
                    raise ShellArgumentError("NAME parameter missing for delete method")
                families.pop(to_bytes(name_text(target)), None)
            elif method == "table_att_unset":
                if not target:
                    raise ShellArgumentError("NAME parameter missing for table_att_unset method")
                for key in target if isinstance(target, list) else [target]:
                    attrs.unset(key)
            elif method == "table_conf_unset":
                if not target:
                    raise ShellArgumentError("NAME parameter missing for table_conf_unset method")
                for key in target if isinstance(target, list) else [target]:
                    attrs.unset_configuration(key)
            else:
                raise ShellArgumentError(f"Unknown method: {method}")
            updated = True
            for k in arg:
                sh.fmt.line(f"Unknown argument ignored: {option_name(k)}")
            continue
        attrs.take(arg, sh.fmt)
        updated = True
        for k in arg:
            sh.fmt.line(f"Unknown argument ignored: {option_name(k)}")
    if not updated:
        return
    if not families:
        raise DoNotRetryError("Table should have at least one column family.")
    _apply_alter(sh.admin, name, desc, families, attrs.kwargs())
    if wait:
        n = len(sh.admin.regions(name))
        sh.fmt.line("Updating all regions with the new schema...")
        sh.fmt.line(f"{n}/{n} regions updated.")
        sh.fmt.line("Done.")


def _apply_alter(admin, name: str, desc, families: dict, attrs: dict) -> None:
    """Admin.modifyTable, as the native API's family and attribute calls."""
    for fam in [f for f in desc.families if f not in families]:
        admin.delete_family(name, fam)
    for fam, cf in families.items():
        if fam not in desc.families:
            admin.add_family(name, fam, cf)
        elif desc.families[fam] != cf:
            admin.alter_family(name, fam, cf)
    changed = {k: v for k, v in attrs.items() if getattr(desc, k) != v}
    if changed:
        admin.alter_table(name, **changed)


# --- describe, list, exists, state ----------------------------------------------------------------
@command("describe", "ddl", """
Describes the named table: its state, table attributes and column families.

  hbase> describe 't1'
  hbase> desc 't1'
""", aliases=("desc",))
def describe(sh, table):
    name = name_text(table)
    _check_exists(sh, name)
    desc = sh.admin.describe(name)
    f = sh.fmt
    f.header([f"Table {name} is " + ("ENABLED" if sh.admin.is_table_enabled(name) else "DISABLED")])
    f.row([name + describe_attributes(desc)], True)
    f.header(["COLUMN FAMILIES DESCRIPTION"])
    for fam, cf in desc.families.items():
        f.row([family_description(fam, cf)], True)
        f.line()
    f.footer()
    f.line("Quota is disabled")


def _check_exists(sh, name: str) -> None:
    """Admin#tableExists: `Table t1 does not exist.` (an ArgumentError)."""
    if not sh.admin.table_exists(name):
        raise ShellArgumentError(f"Table {name} does not exist.")


@command("list", "ddl", """
Lists the tables; an optional regular expression filters them.

  hbase> list
  hbase> list 'abc.*'
""")
def list_tables(sh, regex=".*"):
    pattern = re.compile(to_text(str(regex)))
    return sh.fmt.column("TABLE", [t for t in sh.admin.list_tables() if pattern.fullmatch(t)])


@command("get_table", "ddl", """
Gets a reference to a table, on which the table commands can be called without its name.

  hbase> t1 = get_table 't1'
  hbase> t1.scan
  hbase> t1.put 'r1', 'f1:c1', 'v'
""")
def get_table(sh, table, *args):
    if not isinstance(table, str):
        raise ShellArgumentError(f"no implicit conversion of {ruby_class(table)} into String")
    return TableRef(to_text(table))


@command("get_splits", "dml", """
Prints a table's split keys (the start keys of all its regions but the first).

  hbase> get_splits 't1'
""")
def get_splits(sh, table):
    from hsim.bytes import to_string_binary

    name = name_text(table)
    keys = [to_string_binary(r.start_key) for r in sh.admin.regions(name) if r.start_key]
    sh.fmt.line(f"Total number of splits = {len(keys) + 1}")
    for k in keys:
        sh.fmt.line(k)
    return keys


@command("exists", "ddl", """
Does the named table exist?

  hbase> exists 't1'
""")
def exists(sh, table):
    name = name_text(table)
    found = sh.admin.table_exists(name)
    sh.fmt.row([f"Table {name} " + ("does exist" if found else "does not exist")])
    return found


@command("is_enabled", "ddl", """
Is the named table enabled?

  hbase> is_enabled 't1'
""")
def is_enabled(sh, table):
    enabled = sh.admin.is_table_enabled(name_text(table))
    sh.fmt.row(["true" if enabled else "false"])
    return enabled


@command("is_disabled", "ddl", """
Is the named table disabled?

  hbase> is_disabled 't1'
""")
def is_disabled(sh, table):
    disabled = not sh.admin.is_table_enabled(name_text(table))
    sh.fmt.row(["true" if disabled else "false"])
    return disabled


@command("enable", "ddl", """
Enables the named table.

  hbase> enable 't1'
""")
def enable(sh, table):
    name = name_text(table)
    _check_exists(sh, name)
    if not sh.admin.is_table_enabled(name):
        sh.admin.enable_table(name)


@command("disable", "ddl", """
Disables the named table (its regions flush their memstores as they close).

  hbase> disable 't1'
""")
def disable(sh, table):
    name = name_text(table)
    _check_exists(sh, name)
    if sh.admin.is_table_enabled(name):
        sh.admin.disable_table(name)


@command("drop", "ddl", """
Drops the named table. The table must be disabled first.

  hbase> drop 't1'
""")
def drop(sh, table):
    name = name_text(table)
    _check_exists(sh, name)
    if sh.admin.is_table_enabled(name):
        raise ShellArgumentError(f"Table {name} is enabled. Disable it first.")
    sh.admin.delete_table(name)


def _truncate(sh, table, preserve: bool) -> None:
    name = name_text(table)
    sh.fmt.line(f"Truncating '{name}' table (it may take a while):")
    if sh.admin.is_table_enabled(name):
        sh.fmt.line("Disabling table...")
        sh.admin.disable_table(name)
    sh.fmt.line("Truncating table...")
    sh.admin.truncate_table(name, preserve_splits=preserve)
    if not sh.admin.is_table_enabled(name):
        sh.admin.enable_table(name)


@command("truncate", "dml", """
Disables, drops and recreates the named table, without its region boundaries.

  hbase> truncate 't1'
""")
def truncate(sh, table):
    _truncate(sh, table, preserve=False)


@command("truncate_preserve", "dml", """
Disables, drops and recreates the named table, keeping its region boundaries.

  hbase> truncate_preserve 't1'
""")
def truncate_preserve(sh, table):
    _truncate(sh, table, preserve=True)
