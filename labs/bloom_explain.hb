# Lab: bloom filters, time ranges and the block cache, seen through `explain`
# (HBase book, "Bloom Filters"; best-practice notes on blooms).
# Each table gets two store files whose key ranges overlap, so only a bloom filter can tell
# that a row is not in a file.
create 'nobloom', {NAME => 'f', BLOOMFILTER => 'NONE'}
create 'rowbloom', {NAME => 'f', BLOOMFILTER => 'ROW'}
create 'rowcol', {NAME => 'f', BLOOMFILTER => 'ROWCOL'}
put 'nobloom', 'apple', 'f:a', '1', 1000
put 'nobloom', 'zebra', 'f:a', '1', 1000
flush 'nobloom'
put 'nobloom', 'mango', 'f:a', '2', 2000
put 'nobloom', 'yak', 'f:b', '2', 2000
flush 'nobloom'
put 'rowbloom', 'apple', 'f:a', '1', 1000
put 'rowbloom', 'zebra', 'f:a', '1', 1000
flush 'rowbloom'
put 'rowbloom', 'mango', 'f:a', '2', 2000
put 'rowbloom', 'yak', 'f:b', '2', 2000
flush 'rowbloom'
put 'rowcol', 'apple', 'f:a', '1', 1000
put 'rowcol', 'zebra', 'f:a', '1', 1000
flush 'rowcol'
put 'rowcol', 'mango', 'f:a', '2', 2000
put 'rowcol', 'yak', 'f:b', '2', 2000
flush 'rowcol'
store 'rowbloom', 0, 'f'

# 1. Without a bloom filter a Get reads a block of every file whose key range holds the row.
explain get 'nobloom', 'mango'
# 2. A ROW bloom answers "is this row in the file?" and the first file is skipped.
explain get 'rowbloom', 'mango'
# 3. Asking again: the blocks come from the block cache, not from disk.
explain get 'rowbloom', 'mango'
# 4. A ROWCOL bloom knows row *and* column: it helps a Get of one column...
explain get 'rowcol', 'yak', 'f:a'
# ...and cannot help a Get of a whole row (every file is read).
explain get 'rowcol', 'yak'
# 5. A time range skips files by their timestamps, bloom or not.
explain get 'nobloom', 'mango', {TIMERANGE => [0, 1500]}
# 6. Scans do not use blooms; key ranges and time ranges still skip files.
explain scan 'rowbloom', {STARTROW => 'a', STOPROW => 'b'}
explain scan 'rowbloom', {TIMERANGE => [1500, 2500]}
