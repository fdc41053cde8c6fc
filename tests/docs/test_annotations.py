"""Every public callable of the documented packages has annotated parameters and a return
type: the API reference (mkdocstrings) shows them as the signature's types, so a missing one
is an untyped hole in the reference. Names come from tools/docs_site.py, as the site's."""

import inspect

import pytest
from docs_site import REFERENCE, public_names

MODULES = [m for m, _ in REFERENCE]


def _callables(module):
    for name, obj in public_names(module).items():
        if inspect.isclass(obj):
            for member, attr in vars(obj).items():
                func = attr.fget if isinstance(attr, property) else getattr(attr, "__func__", attr)
                if (member == "__init__" or not member.startswith("_")) \
                        and inspect.isfunction(func) and func.__module__.startswith("hsim"):
                    yield f"{name}.{member}", func
        elif inspect.isroutine(obj):
            yield name, obj


def _untyped(func) -> list[str]:
    sig = inspect.signature(func)
    missing = [p for p, param in sig.parameters.items()
               if p not in ("self", "cls") and param.annotation is inspect.Parameter.empty]
    if func.__name__ != "__init__" and sig.return_annotation is inspect.Signature.empty:
        missing.append("return")
    return missing


def test_the_required_packages_are_checked():
    assert {"hsim", "hsim.filters", "hsim.scenario"} <= set(MODULES)


@pytest.mark.parametrize("module", MODULES)
def test_every_public_callable_is_annotated(module):
    found = list(_callables(module))
    assert found, f"{module} has no public callables"
    untyped = {name: m for name, func in found if (m := _untyped(func))}
    assert not untyped, f"{module}: unannotated {untyped}"
