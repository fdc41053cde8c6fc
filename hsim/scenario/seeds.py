"""The seed documents a scenario's claims quote (the texts hsim was created from). A claim names
one by its number; reports print the file and what it is."""

from __future__ import annotations

SEED_DOCUMENTS = {
    "000": ("000_9607e60d89c16ae9.txt",
            "HBase reference guide, chapter 'HBase and Schema Design'"),
    "001": ("001_dd5574bf32b89af3.txt",
            "HBase reference guide, 'HBase and Schema Design' (earlier copy)"),
    "002": ("002_46782ffc3dc2a29d.txt", "data-modelling chapter 'HBase Data Model'"),
    "003": ("003_e03db1312486be55.txt", "best-practice notes 'Best Practices'"),
    "004": ("004_dc27af7cae4f0bbc.txt", "table-design notes 'HBase Table Design'"),
}


def seed_document(number: str) -> tuple[str, str]:
    """(file name, description) of seed document `number` ("000" ... "004")."""
    from hsim.scenario.errors import ScenarioError

    try:
        return SEED_DOCUMENTS[number]
    except KeyError:
        raise ScenarioError(
            f"unknown seed document {number!r}; one of {', '.join(SEED_DOCUMENTS)}") from None
