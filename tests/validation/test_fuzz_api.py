"""Random bytes, ints, None and strings thrown at every public Table and Admin method: only hsim
errors or TypeError come out, and a call that fails leaves the contents and schema as they
were."""

import inspect
import types

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hsim
from hsim.client.admin import Admin
from hsim.client.table import Table

ARG = st.one_of(
    st.none(), st.binary(max_size=12), st.text(max_size=12),
    st.integers(min_value=-(1 << 70), max_value=1 << 70), st.booleans(), st.floats(),
    st.sampled_from([b"t", "t", b"f", "f:a", b"f:a", b"r1", "default:t", "hbase:meta", 0, -1]),
    st.dictionaries(st.sampled_from([b"f:a", "g:b", b"x:y", b"f", 3]), st.binary(max_size=4),
                    max_size=2),
    st.lists(st.sampled_from([b"f", b"f:a", b"x", 3, None]), max_size=3),
)


def _methods(cls):
    out = []
    for name, fn in sorted(vars(cls).items()):
        if name.startswith("_") or not callable(fn) or name == "batch":
            continue
        params = [p for p in list(inspect.signature(fn).parameters.values())[1:]
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        out.append((cls.__name__, name, len(params)))
    return out


METHODS = _methods(Table) + _methods(Admin)


def _state(c):
    t = c.table("t")
    return ([tuple(cell) for row in t.scan(raw=True, max_versions=10) for cell in row],
            sorted(c.admin.list_tables()), c.admin.list_namespaces(), c.admin.describe("t"))


def _cluster():
    c = hsim.Cluster(clock=hsim.ManualClock(1_000))
    c.admin.create_table("t", {"f": None, "g": None})
    c.table("t").put(b"r1", {b"f:a": b"1", b"g:b": b"2"})
    return c


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(method=st.sampled_from(METHODS), data=st.data())
def test_public_methods_take_any_junk(method, data):
    kind, name, arity = method
    n = data.draw(st.integers(min_value=0, max_value=arity), label="args")
    args = [data.draw(ARG, label=f"arg{i}") for i in range(n)]
    c = _cluster()
    before = _state(c)
    target = c.table("t") if kind == "Table" else c.admin
    try:
        result = getattr(target, name)(*args)
        if isinstance(result, types.GeneratorType):
            list(result)
    except (hsim.HsimError, TypeError):
        assert _state(c) == before
