"""Counters and metric records. Every layer counts what it does; nothing is sampled.

`IOCounters` is the read-path tally that HFile readers, the block cache and stores add to.
A caller passes one in; `explain` passes a fresh one to see what a single request did.
"""

from __future__ import annotations


class IOCounters:
    """What reads did: blocks fetched from "disk" or the cache, bloom checks, files skipped."""

    __slots__ = (
        "blocks_read",  # data/index/bloom blocks fetched from the file ("disk")
        "bytes_read",  # on-disk bytes of those blocks
        "cache_hits",
        "cache_misses",
        "bloom_checks",
        "bloom_negatives",
        "files_skipped_time_range",
        "files_skipped_key_range",
        "files_skipped_bloom",
        "cells_scanned",  # cells the merge handed to the query matcher
    )

    def __init__(self):
        for name in self.__slots__:
            setattr(self, name, 0)

    def add(self, other: "IOCounters") -> None:
        for name in self.__slots__:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def to_dict(self) -> dict:
        return {name: getattr(self, name) for name in self.__slots__}

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v}" for k, v in self.to_dict().items() if v)
        return f"IOCounters({inner})"
