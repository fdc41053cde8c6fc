# hsim shell
# Lab: byte_patterns (HBase Reference Guide, "Try to minimize row and column sizes",
# Byte Patterns).
create 'counters', 'd'

# 1. A counter is an 8-byte long: incr writes it, and get shows its eight bytes, unreadable.
incr 'counters', 'page1', 'd:hits', 1
get 'counters', 'page1'
get_counter 'counters', 'page1', 'd:hits'

# 2. A converter reads the bytes as HBase's Bytes.toLong would.
get 'counters', 'page1', {COLUMN => ['d:hits:c(org.apache.hadoop.hbase.util.Bytes).toLong']}

# 3. The book's number 1234567890 as a string is readable, and 10 bytes instead of 8.
put 'counters', 'page2', 'd:hits', '1234567890'
put 'counters', 'page3', 'd:hits', "\x00\x00\x00\x00\x49\x96\x02\xD2"
scan 'counters'
