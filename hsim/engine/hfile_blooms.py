"""An HFile reader's bloom checks (StoreFileReader.passesBloomFilter and its kinds): may this
file hold a row, a row and column, a row prefix, a DeleteFamily of a row? A no lets a Get or a
scan skip the file without reading a data block. A mixin of HFileReader, which holds the
blooms it loaded on open and fetches their chunks through the block cache."""

from __future__ import annotations

from bisect import bisect_right
from os.path import commonprefix

from hsim.cell import LATEST_TIMESTAMP
from hsim.engine.bloom import CompoundBloomMeta, rowcol_key

_NEG_LATEST = -LATEST_TIMESTAMP


class BloomChecks:
    """The bloom probes of HFileReader (it provides bloom, delete_family_bloom,
    bloom_prefix_length, delete_family_count and _cached_block)."""

    def passes_bloom(self, row: bytes, qualifier: bytes | None, io) -> bool:
        """StoreFileReader.passesGeneralRowBloomFilter / passesGeneralRowColBloomFilter.

        A ROWCOL probe of one column also probes the row's empty qualifier (checkGeneralBloomFilter:
        a row delete is a DeleteFamily marker with an empty qualifier, which the (row, column)
        key would miss). Each probe looks in the chunk its own key falls in; probe keys and
        chunk keys are first-on-row-col keys with an empty family, as HBase builds them."""
        bloom = self.bloom
        if bloom is None:
            return True
        io.bloom_checks += 1
        if bloom.bloom_type == "ROWCOL":
            if qualifier is None:
                io.bloom_checks -= 1  # multi-column reads: HBase checks blooms at seek time
                return True
            if (self._in_chunk(bloom, (row, b"", qualifier, _NEG_LATEST, -255),
                               rowcol_key(row, qualifier), io)
                    or self._in_chunk(bloom, (row, b"", b"", _NEG_LATEST, -255),
                                      rowcol_key(row, b""), io)):
                return True
        else:
            key = row if self.bloom_prefix_length is None else row[: self.bloom_prefix_length]
            if self._in_chunk(bloom, key, key, io):
                return True
        io.bloom_negatives += 1
        return False

    def passes_prefix_bloom(self, start_row: bytes | None, stop_row: bytes | None, io) -> bool:
        """StoreFileReader.passesGeneralRowPrefixBloomFilter for a scan: a ROWPREFIX_FIXED_LENGTH
        bloom is asked for the start row's prefix when the start and stop rows share at least
        the prefix length; any other scan (or bloom) passes."""
        p = self.bloom_prefix_length
        if p is None or self.bloom is None or not start_row or not stop_row:
            return True
        if len(commonprefix((start_row, stop_row))) < p:
            return True
        return self.passes_bloom(start_row[:p], None, io)

    def _in_chunk(self, bloom: CompoundBloomMeta, chunk_key, hash_key: bytes, io) -> bool:
        """CompoundBloomFilter.contains: the chunk whose first key is the last <= chunk_key."""
        i = bisect_right(bloom.first_keys, chunk_key) - 1
        io.bloom_probes += 1
        return i >= 0 and hash_key in self._bloom_chunk(bloom, i, io)

    def passes_delete_family_bloom(self, row: bytes, io) -> bool:
        """StoreFileReader.passesDeleteFamilyBloomFilter: may `row` have a DeleteFamily here?
        HBase asks it in StoreFileScanner's lazy seeks: an explicit-column Get reads the row's
        first block (its family markers) only when it answers yes (`may_delete_family`)."""
        if self.delete_family_count == 0:
            return False
        bloom = self.delete_family_bloom
        if bloom is None:
            return True
        i = bisect_right(bloom.first_keys, row) - 1
        return i >= 0 and row in self._bloom_chunk(bloom, i, io)

    def _bloom_chunk(self, bloom: CompoundBloomMeta, i: int, io):
        return self._cached_block(bloom.offsets[i], io, bloom.chunk_filter)
