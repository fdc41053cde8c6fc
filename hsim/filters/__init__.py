"""HBase's filters and filter language (org.apache.hadoop.hbase.filter), evaluated the way a
region server evaluates them. See docs/filters.md.

    from hsim.filters import parse_filter, SingleColumnValueFilter, BinaryComparator
    f = parse_filter("PrefixFilter('user') AND KeyOnlyFilter()")
    g = SingleColumnValueFilter(b"f", b"q", "=", BinaryComparator(b"v")) | PageFilter(10)
"""

from hsim.filters.apply import apply_to_row, fresh, next_row, scan_rows
from hsim.filters.base import Filter, ReturnCode
from hsim.filters.column_filters import (
    ColumnCountGetFilter,
    ColumnPaginationFilter,
    ColumnPrefixFilter,
    ColumnRangeFilter,
    MultipleColumnPrefixFilter,
    TimestampsFilter,
)
from hsim.filters.compare_filters import (
    CompareFilter,
    DependentColumnFilter,
    FamilyFilter,
    QualifierFilter,
    RowFilter,
    ValueFilter,
)
from hsim.filters.compare_op import CompareOperator
from hsim.filters.comparators import (
    BinaryComparator,
    BinaryPrefixComparator,
    ByteArrayComparable,
    RegexStringComparator,
    SubstringComparator,
)
from hsim.filters.filter_list import FilterList, Operator
from hsim.filters.parser import parse_filter, supported_filters
from hsim.filters.row_selection import (
    FirstKeyValueMatchingQualifiersFilter,
    FuzzyRowFilter,
    MultiRowRangeFilter,
    RandomRowFilter,
    RowRange,
)
from hsim.filters.row_filters import (
    FirstKeyOnlyFilter,
    InclusiveStopFilter,
    KeyOnlyFilter,
    PageFilter,
    PrefixFilter,
)
from hsim.filters.typed_comparators import (
    BigDecimalComparator,
    BinaryComponentComparator,
    BitComparator,
    BitwiseOp,
    LongComparator,
    NullComparator,
)
from hsim.filters.value_filters import (
    ColumnValueFilter,
    SingleColumnValueExcludeFilter,
    SingleColumnValueFilter,
)
from hsim.filters.wrappers import SkipFilter, WhileMatchFilter

__all__ = [
    "apply_to_row", "fresh", "next_row", "scan_rows", "parse_filter", "supported_filters",
    "Filter", "ReturnCode", "CompareOperator", "Operator", "FilterList",
    "ByteArrayComparable", "BinaryComparator", "BinaryPrefixComparator",
    "RegexStringComparator", "SubstringComparator",
    "CompareFilter", "RowFilter", "FamilyFilter", "QualifierFilter", "ValueFilter",
    "DependentColumnFilter", "SingleColumnValueFilter", "SingleColumnValueExcludeFilter",
    "ColumnValueFilter", "PrefixFilter", "InclusiveStopFilter", "PageFilter",
    "FirstKeyOnlyFilter", "KeyOnlyFilter", "ColumnPrefixFilter", "MultipleColumnPrefixFilter",
    "ColumnRangeFilter", "ColumnCountGetFilter", "ColumnPaginationFilter", "TimestampsFilter",
    "SkipFilter", "WhileMatchFilter",
    "FuzzyRowFilter", "MultiRowRangeFilter", "RowRange", "RandomRowFilter",
    "FirstKeyValueMatchingQualifiersFilter", "NullComparator", "LongComparator",
    "BitComparator", "BitwiseOp", "BigDecimalComparator", "BinaryComponentComparator",
]
