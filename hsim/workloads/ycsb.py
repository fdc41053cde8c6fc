"""YCSB's core workloads A-F as streams of plain operations.

Follows site.ycsb.workloads.CoreWorkload (brianfrankcooper/YCSB) and its workloads/workload[a-f]
property files: the operation mixes, the request distributions, records of `fieldcount` fields
of `fieldlength` bytes named field0..field9, row keys "user" + FNV hash of the record number
(insertorder=hashed), scan lengths uniform in [1, maxscanlength]. The draws happen in
CoreWorkload's order, from one seeded `random.Random` per phase, so a seed fixes every op.

The load phase (`load()`) inserts records 0..record_count-1; the transaction phase (`run()`)
yields `operation_count` ops. A scenario runner turns each `Op` into client calls.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from hsim.errors import InvalidArgumentError
from hsim.workloads.distributions import (
    Counter,
    Hotspot,
    ScrambledZipfian,
    Sequential,
    SkewedLatest,
    Uniform,
    Zipfian,
    fnv_hash64,
)

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from collections.abc import Iterator

READ, UPDATE, INSERT, SCAN, RMW = "read", "update", "insert", "scan", "rmw"


@dataclass(frozen=True, slots=True)
class Op:
    """One client operation. `columns`: "family:qualifier" names to read, None for the whole
    row (YCSB's readallfields=true). `values`: column -> value to write (insert, update and
    the write half of rmw). `scan_length`: rows a scan asks for, from `row` on."""

    kind: str
    row: bytes
    columns: tuple | None = None
    values: dict | None = None
    scan_length: int = 0


@dataclass(frozen=True)
class WorkloadSpec:
    """A YCSB property file's mix. Defaults are CoreWorkload's property defaults."""

    name: str
    description: str
    read: float = 0.95
    update: float = 0.05
    insert: float = 0.0
    scan: float = 0.0
    rmw: float = 0.0
    request_distribution: str = "uniform"
    max_scan_length: int = 1000
    scan_length_distribution: str = "uniform"


CORE_WORKLOADS = {
    "A": WorkloadSpec("A", "update heavy: 50% reads, 50% updates, zipfian",
                      read=0.5, update=0.5, request_distribution="zipfian"),
    "B": WorkloadSpec("B", "read mostly: 95% reads, 5% updates, zipfian",
                      read=0.95, update=0.05, request_distribution="zipfian"),
    "C": WorkloadSpec("C", "read only: 100% reads, zipfian",
                      read=1.0, update=0.0, request_distribution="zipfian"),
    "D": WorkloadSpec("D", "read latest: 95% reads, 5% inserts, latest",
                      read=0.95, update=0.0, insert=0.05, request_distribution="latest"),
    "E": WorkloadSpec("E", "short ranges: 95% scans of 1-100 rows, 5% inserts, zipfian",
                      read=0.0, update=0.0, insert=0.05, scan=0.95,
                      request_distribution="zipfian", max_scan_length=100),
    "F": WorkloadSpec("F", "read-modify-write: 50% reads, 50% read-modify-writes, zipfian",
                      read=0.5, update=0.0, rmw=0.5, request_distribution="zipfian"),
}

REQUEST_DISTRIBUTIONS = ("uniform", "zipfian", "latest", "hotspot", "sequential")

# RandomByteIterator fills each run of 6 bytes from one random int, byte i masked with
# 31, 63, 95, 31, 63, 95 and offset by ' ': printable, and compressible as YCSB's values are.
_VALUE_MASKS = (31, 63, 95)


class _ValueMaker:
    """Field values with RandomByteIterator's per-position byte distribution, made with one
    big-integer draw per call instead of a Python step per byte."""

    __slots__ = ("n", "mask", "space", "bits")

    def __init__(self, field_length: int, fields: int):
        pattern = bytes(_VALUE_MASKS[i % 3] for i in range(field_length)) * fields
        self.n = len(pattern)
        self.bits = 8 * self.n
        self.mask = int.from_bytes(pattern, "big")
        self.space = int.from_bytes(b" " * self.n, "big")

    def make(self, rng: random.Random) -> bytes:
        # each masked byte is <= 95, so adding ' ' (32) never carries into the next byte
        return ((rng.getrandbits(self.bits) & self.mask) + self.space).to_bytes(self.n, "big")


class CoreWorkload:
    """A YCSB core workload over `record_count` records, deterministic from `seed`.

    `workload` is "A".."F" or a WorkloadSpec; `request_distribution` and `max_scan_length`
    override the spec's."""

    def __init__(
        self,
        workload: str | WorkloadSpec = "A",
        record_count: int = 1000,
        operation_count: int = 1000,
        seed: int = 0,
        *,
        family: bytes = b"f",
        field_count: int = 10,
        field_length: int = 100,
        field_name_prefix: str = "field",
        insert_order: str = "hashed",
        zero_padding: int = 1,
        read_all_fields: bool = True,
        write_all_fields: bool = False,
        request_distribution: str | None = None,
        min_scan_length: int = 1,
        max_scan_length: int | None = None,
        hotspot_data_fraction: float = 0.2,
        hotspot_opn_fraction: float = 0.8,
    ):
        if isinstance(workload, str):
            try:
                workload = CORE_WORKLOADS[workload.upper()]
            except KeyError:
                raise InvalidArgumentError(
                    f"unknown YCSB workload {workload!r}; one of {', '.join(CORE_WORKLOADS)}"
                ) from None
        self.spec = workload
        self.request_distribution = request_distribution or workload.request_distribution
        if self.request_distribution not in REQUEST_DISTRIBUTIONS:
            raise InvalidArgumentError(
                f"unknown request distribution {self.request_distribution!r}; "
                f"one of {', '.join(REQUEST_DISTRIBUTIONS)}")
        if workload.scan_length_distribution not in ("uniform", "zipfian"):
            raise InvalidArgumentError(
                f"scan length distribution must be uniform or zipfian: "
                f"{workload.scan_length_distribution!r}")
        if insert_order not in ("hashed", "ordered"):
            raise InvalidArgumentError(f"insert order must be hashed or ordered: {insert_order!r}")
        weights = (workload.read, workload.update, workload.insert, workload.scan, workload.rmw)
        if min(weights) < 0 or sum(weights) <= 0:
            raise InvalidArgumentError(f"bad operation proportions in workload {workload.name}")
        self.max_scan_length = max_scan_length or workload.max_scan_length
        if record_count < 2 or operation_count < 0 or field_count < 1 or field_length < 1 \
                or not 1 <= min_scan_length <= self.max_scan_length:
            raise InvalidArgumentError("YCSB needs record_count >= 2, field_count and "
                                       "field_length >= 1, 1 <= min_scan_length <= max")
        self.record_count = record_count
        self.operation_count = operation_count
        self.seed = seed
        self.family = bytes(family)
        self.field_count = field_count
        self.field_length = field_length
        self.ordered_inserts = insert_order == "ordered"
        self.zero_padding = zero_padding
        self.read_all_fields = read_all_fields
        self.write_all_fields = write_all_fields
        self.min_scan_length = min_scan_length
        self.hotspot_data_fraction = hotspot_data_fraction
        self.hotspot_opn_fraction = hotspot_opn_fraction
        self.columns = tuple(
            self.family + b":" + f"{field_name_prefix}{i}".encode() for i in range(field_count))
        self._record = _ValueMaker(field_length, field_count)
        self._single = _ValueMaker(field_length, 1)
        # DiscreteGenerator: proportions in CoreWorkload's order, zeros left out
        total = sum(weights)
        self._mix = tuple((w / total, kind) for w, kind in
                          zip(weights, (READ, UPDATE, INSERT, SCAN, RMW)) if w > 0)

    def key_name(self, keynum: int) -> bytes:
        """CoreWorkload.buildKeyName: "user" + the FNV hash of the number (or the number
        itself with insertorder=ordered), zero-padded to `zero_padding` digits."""
        if not self.ordered_inserts:
            keynum = fnv_hash64(keynum)
        return b"user" + str(keynum).zfill(self.zero_padding).encode()

    def _values(self, rng: random.Random) -> dict:
        data = self._record.make(rng)
        n = self.field_length
        return {c: data[i * n:(i + 1) * n] for i, c in enumerate(self.columns)}

    def load(self) -> Iterator[Op]:
        """The load phase: one insert of a full record per record number, in order."""
        rng = random.Random(f"ycsb-load:{self.seed}")
        key_name, values = self.key_name, self._values
        for keynum in range(self.record_count):
            yield Op(INSERT, key_name(keynum), None, values(rng))

    def _key_chooser(self, rng: random.Random, inserted: Counter):
        d = self.request_distribution
        n = self.record_count
        if d == "uniform":
            return Uniform(0, n - 1, rng)
        if d == "zipfian":
            # room for the keys this run will insert, so inserts do not reshuffle popularity
            expected_new = int(self.operation_count * self.spec.insert * 2.0)
            return ScrambledZipfian(0, n + expected_new, rng)
        if d == "latest":
            return SkewedLatest(inserted, rng)
        if d == "hotspot":
            return Hotspot(0, n - 1, self.hotspot_data_fraction, self.hotspot_opn_fraction, rng)
        return Sequential(0, n - 1)

    def run(self) -> Iterator[Op]:
        """The transaction phase: `operation_count` ops in the spec's mix."""
        rng = random.Random(f"ycsb-run:{self.seed}")
        # AcknowledgedCounterGenerator(recordcount): the loaded records, newest record_count - 1
        inserted = Counter(self.record_count)
        chooser = self._key_chooser(rng, inserted)
        field = Uniform(0, self.field_count - 1, rng)
        if self.spec.scan_length_distribution == "uniform":
            scan_length = Uniform(self.min_scan_length, self.max_scan_length, rng)
        else:
            scan_length = Zipfian(self.min_scan_length, self.max_scan_length, rng)
        rand, mix = rng.random, self._mix
        key_name, columns = self.key_name, self.columns
        single = self._single

        def choose_kind():  # DiscreteGenerator.nextValue
            val = rand()
            for pw, kind in mix:
                if val < pw:
                    return kind
                val -= pw
            return kind

        def next_keynum():
            k = chooser.next()
            while k > inserted.last_value:  # not inserted yet: draw again, as YCSB does
                k = chooser.next()
            return k

        def one_column():
            return None if self.read_all_fields else (columns[field.next()],)

        def write_values():
            if self.write_all_fields:
                return self._values(rng)
            c = columns[field.next()]
            return {c: single.make(rng)}

        for _ in range(self.operation_count):
            kind = choose_kind()
            if kind == READ:
                row = key_name(next_keynum())
                yield Op(READ, row, one_column())
            elif kind == UPDATE:
                row = key_name(next_keynum())
                yield Op(UPDATE, row, None, write_values())
            elif kind == INSERT:
                row = key_name(inserted.next())
                yield Op(INSERT, row, None, self._values(rng))
            elif kind == SCAN:
                row = key_name(next_keynum())
                length = scan_length.next()
                yield Op(SCAN, row, one_column(), None, length)
            else:
                row = key_name(next_keynum())
                cols = one_column()
                yield Op(RMW, row, cols, write_values())

    def __repr__(self) -> str:
        return (f"CoreWorkload({self.spec.name!r}, record_count={self.record_count}, "
                f"operation_count={self.operation_count}, seed={self.seed}, "
                f"request_distribution={self.request_distribution!r})")
