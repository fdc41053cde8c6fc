"""How a table is pre-split: RegionSplitter's split algorithms and Admin.createTable's split
keys. They live in hsim.bytes beside Bytes.split, which they are built on; this module names
them for code that imports them from here."""

from hsim.bytes import (DecimalStringSplit, HexStringSplit, NumberStringSplit, UniformSplit,
                        admin_split_keys)

__all__ = ["HexStringSplit", "DecimalStringSplit", "UniformSplit", "NumberStringSplit",
           "admin_split_keys"]
