"""Every public name of the documented packages has its own docstring: the API reference is
generated from them (tools/docs_site.py), so a missing one is a hole in the reference.
Names come from each package's __all__, so new public names are checked without edits here."""

import inspect

import pytest
from docs_site import REFERENCE, public_names

MODULES = [m for m, _ in REFERENCE]


def _own_doc(obj) -> str:
    if inspect.isclass(obj):
        doc = vars(obj).get("__doc__") or ""
        # A dataclass without a docstring gets its signature as __doc__: not a description.
        return "" if doc.startswith(obj.__name__ + "(") else doc
    return obj.__doc__ or ""


def test_the_required_packages_are_documented():
    assert {"hsim", "hsim.filters", "hsim.scenario"} <= set(MODULES)


@pytest.mark.parametrize("module", MODULES)
def test_every_public_name_has_a_docstring(module):
    names = public_names(module)
    assert names, f"{module} has no public names"
    missing = [name for name, obj in names.items()
               if (inspect.isclass(obj) or inspect.isroutine(obj)) and not _own_doc(obj).strip()]
    assert not missing, f"{module}: no docstring for {', '.join(missing)}"


def _public_members(cls):
    for name, attr in vars(cls).items():
        func = attr.fget if isinstance(attr, property) else getattr(attr, "__func__", attr)
        if not name.startswith("_") and inspect.isfunction(func):
            yield name


@pytest.mark.parametrize("module", MODULES)
def test_every_public_method_has_a_docstring(module):
    """Methods and properties a class defines; an override inherits its base's docstring."""
    missing = [f"{name}.{member}" for name, cls in public_names(module).items()
               if inspect.isclass(cls) for member in _public_members(cls)
               if not (inspect.getdoc(getattr(cls, member)) or "").strip()]
    assert not missing, f"{module}: no docstring for {', '.join(missing)}"
