"""The namespace, region, tools, procedures and security commands, with their exact output."""

from hsim.shell.commands_regions import (accept_region_for_locality, accept_server_name,
                                         regions_for_server, valid_locality_threshold)

from .conftest import TOOK, Session


def err(cmd: str, message: str) -> str:
    return f"\nERROR: {message}\n\nFor usage try 'help \"{cmd}\"'\n\n{TOOK}"


def test_namespaces(sh):
    assert sh("create_namespace 'ns1'") == TOOK
    assert sh("create 'ns1:t', 'f'") == "Created table ns1:t\n" + TOOK + \
        "=> Hbase::Table - ns1:t\n"
    assert sh("create 'ns2:t', 'f'") == err("create", "Unknown namespace ns2!")
    assert sh("list_namespace") == "NAMESPACE\ndefault\nhbase\nns1\n3 row(s)\n" + TOOK
    assert sh("list_namespace 'n.*'") == "NAMESPACE\nns1\n1 row(s)\n" + TOOK
    assert sh("describe_namespace 'ns1'") == \
        "DESCRIPTION\n{NAME => 'ns1'}\nQuota is disabled\n" + TOOK
    assert sh("list_namespace_tables 'ns1'") == "TABLE\nt\n1 row(s)\n" + TOOK + '=> ["t"]\n'
    assert sh("drop_namespace 'ns1'") == err(
        "drop_namespace", "org.apache.hadoop.hbase.constraint.ConstraintException: Only empty "
                          "namespaces can be removed. Namespace ns1 has 1 tables")
    assert sh("create_namespace 'ns1'") == err(
        "create_namespace", "org.apache.hadoop.hbase.NamespaceExistException: ns1")
    assert sh("create_namespace 'ns3', {'k' => 'v'}") == err(
        "create_namespace", 'hsim does not model namespace properties: {"k"=>"v"}')
    for cmd in ("drop_namespace", "describe_namespace", "list_namespace_tables"):
        assert sh(f"{cmd} 'nope'") == err(cmd, "Unknown namespace nope!")
    sh("disable 'ns1:t'\ndrop 'ns1:t'")
    assert sh("drop_namespace 'ns1'") == TOOK
    assert sh("drop_namespace 'default'") == err(
        "drop_namespace", "org.apache.hadoop.hbase.constraint.ConstraintException: Reserved "
                          "namespace default cannot be removed.")
    assert sh("list_namespace") == "NAMESPACE\ndefault\nhbase\n2 row(s)\n" + TOOK


# hbase-shell list_regions_test_no_cluster.rb, on the same helpers as ListRegions's
def test_valid_locality_values():
    for v in (0.999, 0.001, 1.0, 0.0):
        assert valid_locality_threshold(v)
    assert not valid_locality_threshold(2.0)
    assert not valid_locality_threshold(100.0)


def test_acceptable_server_names():
    for wanted in ("host.domain.com", "host.domain", "host.dom"):
        assert accept_server_name(wanted, "host.domain.com")
    assert accept_server_name("host1", "host1.domain.com")
    for wanted in ("host2", "host2.domain", "host1.niamod"):
        assert not accept_server_name(wanted, "host1.domain.com")


def test_valid_region_localities():
    for actual, threshold in ((0.5, 0.8), (0.8, 0.8), (0.0, 1.0), (1.0, 1.0)):
        assert accept_region_for_locality(actual, threshold)
    for actual, threshold in ((0.01, 0.001), (1.0, 0.8), (1.0, 0.999), (0.5, 0.3)):
        assert not accept_region_for_locality(actual, threshold)


def test_filter_nondesired_servers():
    class Loc:
        def __init__(self, name):
            self.server = type("S", (), {"name": name})()

    s1, s2, s3 = (Loc(f"server{i},16020,1234") for i in (1, 2, 3))
    assert regions_for_server([s1, s2, s3], "server2") == [s2]
    assert regions_for_server([s1, s2, s3], "server3") == [s3]
    assert regions_for_server([s1, s2, s3], "server5") == []


def test_list_regions_and_locate_region(sh):
    sh("create 't', 'f', SPLITS => ['m']\nput 't', 'a', 'f:q', 'v'")
    rs = "rs1.hsim,16020,1767225600000"
    r0 = "t,,1767225600000.1cc99389c5eedc8b4850b2251a56893e."
    r1 = "t,m,1767225600000.ea71f93a3596c4746ae84cb074177449."
    assert sh("list_regions 't'") == (
        "                  SERVER_NAME |                                         REGION_NAME |"
        "  START_KEY |    END_KEY |  SIZE |   REQ |   LOCALITY |\n"
        " ---------------------------- | --------------------------------------------------- |"
        " ---------- | ---------- | ----- | ----- | ---------- |\n"
        f" {rs} |  {r0} |            |          m |     0 |     1 |        1.0 |\n"
        f" {rs} | {r1} |          m |            |     0 |     0 |        1.0 |\n"
        " 2 rows\n" + TOOK)
    assert sh("list_regions 't', '', ['SERVER_NAME', 'start_key']") == (
        "                  SERVER_NAME |  START_KEY |\n"
        " ---------------------------- | ---------- |\n"
        f" {rs} |            |\n {rs} |          m |\n 2 rows\n" + TOOK)
    assert sh("list_regions 't', {SERVER_NAME => 'rs9'}").endswith(" 0 rows\n" + TOOK)
    assert sh("list_regions 't', {LOCALITY_THRESHOLD => 1}") == err(
        "list_regions", "LOCALITY_THRESHOLD must be a float value")
    assert sh("list_regions 't', {}, ['nope']") == err(
        "list_regions", "nope is not a valid column. Possible values are SERVER_NAME, "
                        "REGION_NAME, START_KEY, END_KEY, SIZE, REQ, LOCALITY.")
    assert sh("locate_region 't', 'x'") == (
        "HOST  REGION\n rs1.hsim:16020 {ENCODED => ea71f93a3596c4746ae84cb074177449, "
        f"NAME => '{r1}', STARTKEY => 'm', ENDKEY => ''}}\n1 row(s)\n" + TOOK
        + f"=> #<Java::OrgApacheHadoopHbase::HRegionLocation region={r1}, hostname={rs}, "
          "seqNum=1>\n")
    sh("disable 't'")
    assert sh("list_regions 't'") == err("list_regions", "Table t must be enabled.")


def test_show_filters_and_procedures_and_security(sh):
    out = sh("show_filters")
    assert out.startswith("ColumnCountGetFilter\n") and "\nValueFilter\n" + TOOK in out
    assert sh("list_procedures") == " PID Name State Submitted Last_Update Parameters\n" \
        "0 row(s)\n" + TOOK
    assert sh("list_locks") == TOOK + "=> []\n"
    assert sh("list_security_capabilities") == \
        "SIMPLE_AUTHENTICATION\n" + TOOK + '=> ["SIMPLE_AUTHENTICATION"]\n'


def test_not_modelled_commands_say_so_and_change_nothing(sh):
    sh("create 't', 'f'")
    assert sh("assign 'abc'") == err(
        "assign", "assign: hsim does not model assigning and closing regions by hand (`move` "
                  "moves one)")
    assert sh("delete_table_snapshots 't'") == err(
        "delete_table_snapshots", "delete_table_snapshots: hsim does not model these snapshot "
        "commands (snapshot, clone, restore, list and delete work)")
    assert sh("t = get_table 't'\nt.snapshot 's1'").endswith(TOOK)  # Table#snapshot works
    assert '=> ["s1"]' in sh("list_snapshots")
    assert sh("add_peer '1', CLUSTER_KEY => 'zk:2181:/hbase'") == err(
        "add_peer", "add_peer: hsim does not model replication (hsim runs one cluster)")
    assert sh("help 'set_quota'") == "Throttle and space quotas.\n\n" \
        "Not modelled by hsim: quotas.\n"


def test_balancer_switch_is_modelled():
    s = Session(servers=2)
    s("create 't', 'f', SPLITS => ['b', 'c', 'd']")
    assert s("balance_switch false") == "Previous balancer state : true\n" + TOOK + \
        "=> true\n"
    s.shell.cluster.start_region_server()
    assert s("balancer") == "false\n" + TOOK + "=> false\n"
    assert all(len(x.regions) == 0 for x in s.shell.cluster.master.servers[2:])
    s("balance_switch true")
    assert s("balancer") == "true\n" + TOOK + "=> true\n"
    assert len(s.shell.cluster.master.servers[2].regions) == 1


def test_switch_argument_types(sh):
    assert sh("catalogjanitor_switch 'TRUE'") == "true\n" + TOOK + "=> true\n"
    assert sh("catalogjanitor_enabled") == "true\n" + TOOK + "=> true\n"
    assert sh("catalogjanitor_switch 1") == err(
        "catalogjanitor_switch", "no method 'valueOf' for arguments (org.jruby.RubyFixnum) on "
                                 "Java::JavaLang::Boolean")
    assert sh("splitormerge_switch 'SPLITS', true") == err(
        "splitormerge_switch", "No enum constant "
                               "org.apache.hadoop.hbase.client.MasterSwitchType.SPLITS")
    assert sh("catalogjanitor_run") == TOOK + "=> 0\n"
    assert sh("cleaner_chore_run") == TOOK + "=> true\n"
    assert sh("normalize") == "true\n" + TOOK + "=> true\n"  # the normalizer is on


def test_server_tools_and_dead_servers():
    s = Session(servers=2)
    s("create 't', 'f', SPLITS => ['m']\nput 't', 'a', 'f:q', 'v'\nget 't', 'a'")
    rs1 = "rs1.hsim,16020,1767225600000"
    wal = s.shell.cluster.master.servers[0].wal
    rolls = wal.rolls
    assert s(f"wal_roll '{rs1}'") == TOOK
    assert wal.rolls == rolls + 1
    assert s("wal_roll 'nope'") == err(
        "wal_roll", "nope is not a live region server (see status 'simple')")
    assert s(f"flush '{rs1}'") == TOOK
    assert s("compaction_state 't'") == TOOK + '=> "NONE"\n'
    assert s(f"compact_rs '{rs1}', true") == TOOK
    assert s("clear_block_cache 't'").startswith("CacheEvictionStats{evictedBlocks=")
    assert s("list_deadservers") == "SERVERNAME\n0 row(s)\n" + TOOK
    s("abort_server 1")
    dead = s.shell.cluster.master.dead_servers[0]
    assert s("list_deadservers") == f"SERVERNAME\n{dead}\n1 row(s)\n" + TOOK
    assert s("clear_deadservers 'x,1,2'") == (
        "Some dead server clear failed\nSERVERNAME\nx,1,2\n1 row(s)\n" + TOOK
        + '=> ["x,1,2"]\n')
    assert s(f"clear_deadservers '{dead}'") == "true\n" + TOOK + "=> []\n"
    assert s("list_deadservers") == "SERVERNAME\n0 row(s)\n" + TOOK
    assert s("rit") == "0 row(s)\n" + TOOK
    assert s("is_in_maintenance_mode") == "false\n" + TOOK + "=> false\n"
    assert s("regioninfo '1cc99389c5eedc8b4850b2251a56893e'") == (
        "{ENCODED => 1cc99389c5eedc8b4850b2251a56893e, NAME => "
        "'t,,1767225600000.1cc99389c5eedc8b4850b2251a56893e.', STARTKEY => '', ENDKEY => 'm'}\n"
        + TOOK)


def test_schema_companions(sh):
    sh("create 't', 'f', SPLITS => ['m']")
    assert sh("alter_async 't', NAME => 'f', VERSIONS => 3") == TOOK
    assert "VERSIONS => '3'" in sh("describe 't'")
    assert sh("alter_status 't'") == "2/2 regions updated.\nDone.\n" + TOOK
    assert sh("clone_table_schema 't', 'u'") == TOOK
    assert sh("describe 'u'").replace("u", "t") == sh("describe 't'").replace("u", "t")
    assert sh("get_splits 'u'").startswith("Total number of splits = 2\nm\n")
    assert sh("clone_table_schema 't', 'v', false") == TOOK
    assert sh("get_splits 'v'").startswith("Total number of splits = 1\n")
    assert sh("clone_table_schema 't', 'u'") == err("clone_table_schema",
                                                    "Table already exists: t!")
    assert sh("table_help").startswith("Help for table-reference commands.\n")


def test_bulk_commands_ask_and_read_the_answer(sh):
    sh("create 't1', 'f'\ncreate 't11', 'f'\ncreate 'u', 'f'")
    assert sh("disable_all 't1.*'\ny") == (
        "t1\nt11\n\nDisable the above 2 tables (y/n)?\n2 tables successfully disabled\n" + TOOK)
    assert sh("enable_all 't1.*'\nno") == "t1\nt11\n\nEnable the above 2 tables (y/n)?\n" + TOOK
    assert sh("is_disabled 't1'") == "true\n" + TOOK + "=> true\n"
    assert sh("drop_all '.*'\nYes") == (
        "t1\nt11\nu\n\nDrop the above 3 tables (y/n)?\n2 tables successfully dropped\n"
        "1 tables not dropped due to an exception: u\n" + TOOK)
    assert sh("enable_all 'zz'") == "No tables matched the regex zz\n" + TOOK
    assert sh("list") == 'TABLE\nu\n1 row(s)\n' + TOOK + '=> ["u"]\n'
    # in a script, the answer is echoed as typed
    assert sh("disable_all 'u'\ny", echo=True) == (
        "hbase:010:0> disable_all 'u'\nu\n\nDisable the above 1 tables (y/n)?\ny\n"
        "1 tables successfully disabled\n" + TOOK)
