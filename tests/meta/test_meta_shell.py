"""The shell on hbase:meta and the converter form c(<class>).<method>."""

import io

import pytest

from hsim.shell import Shell

BYTES = "c(org.apache.hadoop.hbase.util.Bytes)"


def run(script: str) -> str:
    out = io.StringIO()
    Shell(out=out, timer=lambda: 0.0, width=0).run_script(script)
    return out.getvalue()


@pytest.mark.parametrize("method,stored,shown", [
    ("toInt", r"\x00\x00\x00\x2a", "42"),
    ("toLong", r"\x00\x00\x00\x00\x00\x00\x00\x07", "7"),
    ("toShort", r"\xff\xfe", "-2"),
    ("toDouble", r"\x3f\xf8\x00\x00\x00\x00\x00\x00", "1.5"),
    ("toFloat", r"\x3f\xc0\x00\x00", "1.5"),
    ("toBoolean", r"\x01", "true"),
    ("toString", "abc", "abc"),
    ("toStringBinary", r"a\x01", r"a\x01"),
    ("toHex", r"\x0a\xff", "0aff"),
])
def test_converter_form_in_get_and_scan(method, stored, shown):
    conv = f"f:q:{BYTES}.{method}"
    text = run(f"""create 't', 'f'
put 't', 'r', 'f:q', "{stored}"
get 't', 'r', '{conv}'
get 't', 'r', {{COLUMN => '{conv}'}}
get 't', 'r', {{COLUMNS => ['{conv}']}}
scan 't', {{COLUMNS => '{conv}'}}
scan 't', {{COLUMNS => ['{conv}']}}
""")
    assert "ERROR" not in text
    assert text.count(f", value={shown}\n") == 5


def test_meta_in_the_shell_before_and_after_a_split():
    text = run("""create 't1', 'f', SPLITS => ['m']
put 't1', 'a', 'f:q', 'v'
put 't1', 'c', 'f:q', 'v'
scan 'hbase:meta', {COLUMNS => 'info:regioninfo'}
split 't1', 'b'
scan 'hbase:meta', {COLUMNS => ['info:regioninfo', 'info:state']}
count 'hbase:meta'
scan 'hbase:meta', {FILTER => "PrefixFilter('t1,b')", COLUMNS => 'info:serverstartcode'}
describe 'hbase:meta'
list
list_namespace_tables 'hbase'
list_namespace_tables 'default'
""")
    first, rest = text.split("split 't1', 'b'")
    assert first.count("STARTKEY => '', ENDKEY => 'm'}") == 1
    assert rest.count("STARTKEY => '', ENDKEY => 'b'}") == 1
    assert rest.count("STARTKEY => 'b', ENDKEY => 'm'}") == 1
    assert rest.count("column=info:state, timestamp=") == 3
    assert "\n3 row(s)\n" in rest
    assert "column=info:serverstartcode, timestamp=" in rest and "value=1767225600000\n" in rest
    assert "Table hbase:meta is ENABLED" in rest and "{NAME => 'info'" in rest
    assert 'TABLE\nt1\n1 row(s)' in rest
    assert 'TABLE\nmeta\n1 row(s)' in rest
    assert "ERROR" not in text


def test_shell_refusals_are_error_lines_and_change_nothing():
    text = run("""create 't1', 'f'
put 'hbase:meta', 'x', 'info:a', 'v'
deleteall 'hbase:meta', 'x'
disable 'hbase:meta'
drop 'hbase:meta'
truncate 'hbase:meta'
alter 'hbase:meta', NAME => 'info', VERSIONS => 5
list_namespace_tables 'nope'
count 'hbase:meta'
""")
    assert text.count("ERROR: java.io.IOException: Can't modify catalog tables") == 3
    assert text.count("ERROR: org.apache.hadoop.hbase.constraint.ConstraintException: "
                      "Cannot disable hbase:meta") == 2
    assert "ERROR: Table hbase:meta is enabled. Disable it first." in text
    assert "ERROR: Unknown namespace nope!" in text
    assert text.rstrip().endswith("=> 1") and "Traceback" not in text
