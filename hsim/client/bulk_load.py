"""BulkLoadHFilesTool (LoadIncrementalHFiles, `completebulkload`): load a directory of HFiles,
`DIR/<family>/<file>`, into a table's regions.

Every file is read whole first (a file hsim cannot read is refused with one line, before
anything changes); each goes to the region holding its first row, and a file reaching past
that region's end is cut in two at the end key, the upper half grouped again
(groupOrSplit / splitStoreFile). Only then are the regions loaded (hsim.regions.bulk_load),
all of them prepared before any store takes a file: a load is all or nothing.
"""

from __future__ import annotations

import logging
import os
import re

from hsim.engine.bulk_load import split_hfile
from hsim.engine.hfile_reader import HFileReader
from hsim.errors import InvalidArgumentError, NoSuchColumnFamilyError
from hsim.regions import bulk_load as region_bulk_load
from hsim.storage.disk_files import open_hfile

log = logging.getLogger("hsim.client")

# StoreFileInfo.REF_NAME_PATTERN: a split's reference file, `<hfile>.<parent region>`.
_REFERENCE = re.compile(r"^[0-9a-f]+(?:_SeqId_[0-9]+_)?\.(.+)$")


def family_files(directory: str, desc, config) -> list:
    """(family, reader) for each HFile under `directory`/<family>/ (visitBulkHFiles: names
    starting with '_' or '.' are skipped, and split references with a warning)."""
    if not os.path.isdir(directory):
        raise InvalidArgumentError(f"Bulk load directory {directory} does not exist")
    found, unmatched = [], []
    for fam_name in sorted(os.listdir(directory)):
        fdir = os.path.join(directory, fam_name)
        if not os.path.isdir(fdir) or fam_name.startswith(("_", ".")):
            continue
        fam = fam_name.encode("utf-8")
        if fam not in desc.families:
            unmatched.append(fam_name)
            continue
        for name in sorted(os.listdir(fdir)):
            path = os.path.join(fdir, name)
            if name.startswith(("_", ".")) or not os.path.isfile(path):
                continue
            if _REFERENCE.match(name):
                log.warning("Skipping reference %s", path)
                continue
            found.append((fam, open_hfile(path, desc.families[fam], config).reader))
    if unmatched:
        raise NoSuchColumnFamilyError(
            f"Unmatched family names found: unmatched family names in HFiles to be bulkloaded: "
            f"{unmatched}; valid family names of table {desc.name} are: "
            f"{sorted(f.decode('utf-8', 'replace') for f in desc.families)}")
    return found


def group_or_split(locator, files: list, desc, config, now: int) -> dict:
    """{region: [(family, reader)]}: each file with the region of its first row; one reaching
    past that region's end key is split there and both halves grouped again."""
    groups: dict = {}
    queue = list(files)
    while queue:
        fam, reader = queue.pop(0)
        first = reader.first_row
        if first is None:
            continue  # an empty file
        region = locator.locate(first)
        if region.end_key and reader.last_row >= region.end_key:
            cf = desc.families[fam]
            bottom, top = split_hfile(reader, region.end_key, cf, config, now)
            for half, data in (("bottom", bottom), ("top", top)):
                queue.append((fam, HFileReader(data, f"{reader.name}.{half}", cf, config)))
            continue
        groups.setdefault(region, []).append((fam, reader))
    return groups


def bulk_load(master, table: str, directory: str, now: int) -> int:
    """Load `directory` into `table`; returns the number of files the stores took."""
    st = master.enabled_table(table)
    files = family_files(directory, st.descriptor, master.config)
    groups = group_or_split(st.locator, files, st.descriptor, master.config, now)
    for region, group in groups.items():
        region_bulk_load.check(region, group)
    prepared = [region_bulk_load.prepare(region, group, now) for region, group in groups.items()]
    for region, pairs in zip(groups, prepared):
        region_bulk_load.commit(region, pairs, now)
    return sum(len(p) for p in prepared)
