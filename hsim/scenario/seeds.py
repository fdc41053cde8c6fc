"""The texts a scenario's claims quote. A claim names one by its number; reports cite it by
title and section, with a link to the public page where one exists."""

from __future__ import annotations

BOOK = "https://hbase.apache.org/book.html#schema"
SEED_DOCUMENTS = {
    "000": ("HBase Reference Guide, HBase and Schema Design", BOOK),
    "001": ("HBase Reference Guide, HBase and Schema Design (an earlier edition)", BOOK),
    "002": ("HBase Data Model (a data-modelling chapter)", ""),
    "003": ("HBase Best Practices (practitioner notes)", ""),
    "004": ("HBase Table Design (practitioner notes)", ""),
}


def seed_document(number: str) -> tuple[str, str]:
    """(title, public link or "") of seed text `number` ("000" ... "004")."""
    from hsim.scenario.errors import ScenarioError

    try:
        return SEED_DOCUMENTS[number]
    except KeyError:
        raise ScenarioError(
            f"unknown seed document {number!r}; one of {', '.join(SEED_DOCUMENTS)}") from None
