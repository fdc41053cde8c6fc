"""The engine's part of a bulk load: HFiles written for a load (HFileOutputFormat2's file
info), and a file cut in two at a row (LoadIncrementalHFiles.splitStoreFile / copyHFileHalf).

Which rows go to which region, and which store takes which file, is decided above (hsim.bulk,
hsim.regions.bulk_load); here are only the bytes.
"""

from __future__ import annotations

from hsim.cell import NO_TTL, ROW, TTL
from hsim.engine import file_info as fi
from hsim.engine.gc_pause import gc_paused
from hsim.engine.hfile import HFileWriter

# HFileInfo's reserved keys start with this; copyHFileHalf leaves them to the new writer.
_RESERVED_PREFIX = b"hfile."
_DATA_BLOCK_ENCODING = b"DATA_BLOCK_ENCODING"


def bulk_file_info(now: int, task: str, exclude_from_minor: bool) -> dict:
    """HFileOutputFormat2's close: the load's time and task, MAJOR_COMPACTION_KEY true, and
    EXCLUDE_FROM_MINOR_COMPACTION (hbase.mapreduce.hfileoutputformat.compaction.exclude)."""
    return {
        fi.BULKLOAD_TIME_KEY: fi.long_bytes(now),
        fi.BULKLOAD_TASK_KEY: task.encode("utf-8"),
        fi.MAJOR_COMPACTION_KEY: b"\xff",
        fi.EXCLUDE_FROM_MINOR_COMPACTION_KEY: b"\xff" if exclude_from_minor else b"\x00",
    }


def write_hfile(family, config, cells: list, now: int, extra_info: dict) -> bytes:
    """One HFile of `cells` (plain field tuples, sorted, one family), written as a flush
    writes one (the family's block size, compression and bloom), with `extra_info` added."""
    include_tags = any(c[TTL] != NO_TTL for c in cells)
    writer = HFileWriter(family, config, include_tags=include_tags)
    with gc_paused():
        writer.append_all(cells)
        return writer.finish(max_seq_id=0, major_compaction=False, create_time=now,
                             extra_info=extra_info)


def split_hfile(reader, split_row: bytes, family, config, now: int) -> tuple[bytes, bytes]:
    """LoadIncrementalHFiles.splitStoreFile: the rows below `split_row` and the rows from it
    on, each copied into a new file with the target family's settings; the source's file info
    is copied over, but for HFileInfo's reserved keys and the data block encoding
    (copyHFileHalf, shouldCopyHFileMetaKey)."""
    copied = {k: v for k, v in reader.file_info.items()
              if not k.startswith(_RESERVED_PREFIX) and k != _DATA_BLOCK_ENCODING}
    bottom, top = [], []
    for cell in reader.cells(plain=True):
        (bottom if cell[ROW] < split_row else top).append(cell)
    return (write_hfile(family, config, bottom, now, copied),
            write_hfile(family, config, top, now, copied))
