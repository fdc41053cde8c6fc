"""`hsim rest` and `hsim thrift` refuse an out-of-range number flag with argparse's usage line
and exit 2 (hsim.gateway.flags.int_in), before any server starts."""

import pytest

from hsim.gateway.flags import int_in
from hsim.rest import cli as rest_cli
from hsim.thrift import serve as thrift_serve


def test_int_in_takes_the_bounds_and_refuses_the_rest():
    port = int_in(0, 65535)
    assert port("0") == 0 and port("65535") == 65535
    for bad, why in (("65536", "between 0 and 65535"), ("-1", "between 0 and 65535"),
                     ("x", "invalid int value")):
        with pytest.raises(Exception, match=why):
            port(bad)
    with pytest.raises(Exception, match="at least 1024"):
        int_in(1024)("1023")


@pytest.mark.parametrize("main,argv,message", [
    (rest_cli.main, ["--port", "70000"], "--port: must be between 0 and 65535, not 70000"),
    (rest_cli.main, ["--servers", "0"], "--servers: must be between 1 and 1000, not 0"),
    (rest_cli.main, ["--max-body-size", "0"], "--max-body-size: must be at least 1, not 0"),
    (thrift_serve.main, ["--rest-port", "0", "--max-body-size", "0"], "must be at least 1, not 0"),
    (thrift_serve.main, ["--port", "x"], "--port: invalid int value: 'x'"),
    (thrift_serve.main, ["--max-frame-size", "10"], "must be at least 1024, not 10"),
])
def test_gateway_flags_out_of_range_exit_2_with_the_usage_line(main, argv, message, capsys):
    with pytest.raises(SystemExit) as e:
        main(argv)
    err = capsys.readouterr().err
    assert e.value.code == 2 and message in err and "usage:" in err
    assert "Traceback" not in err
