# Lab: TTL and MIN_VERSIONS as the clock moves
# (HBase book, "Time To Live (TTL)", "Minimum Number of Versions").
# The shell's clock starts at 2026-01-01T00:00 (UTC) and moves 1 ms per request, as a
# cluster's does; `clock 'advance'` jumps it by minutes or hours.
clock
create 'sessions', {NAME => 'f', TTL => 3600}
create 'keep', {NAME => 'f', TTL => 3600, MIN_VERSIONS => 1, VERSIONS => 3}
describe 'sessions'

# 1. A family TTL (seconds) expires cells by their timestamps.
put 'sessions', 'u1', 'f:token', 'abc'
put 'sessions', 'u2', 'f:token', 'def', {TTL => 60000}
clock 'advance', '30m'
scan 'sessions'
# 2. A cell TTL (the put's TTL, in ms) can only shorten the family's.
clock 'advance', '10m'
scan 'sessions'
clock 'advance', '25m'
scan 'sessions'
explain get 'sessions', 'u1'
# ...and never lengthen it: u5 asks for three hours, the family's hour still expires it.
put 'sessions', 'u5', 'f:token', 'mno', {TTL => 10800000}
clock 'advance', '61m'
get 'sessions', 'u5'
explain get 'sessions', 'u5'

# 3. MIN_VERSIONS keeps the newest versions even past the TTL.
put 'keep', 'u1', 'f:token', 'old'
clock 'advance', '1m'
put 'keep', 'u1', 'f:token', 'new'
clock 'advance', '2h'
get 'keep', 'u1', {COLUMN => 'f:token', VERSIONS => 3}

# 4. A flush does not write what has already expired: u1 and u2 never reach a file.
flush 'sessions'
store 'sessions', 0, 'f'
# A file whose newest cell is past the TTL is skipped by reads without being opened.
put 'sessions', 'u3', 'f:token', 'ghi'
flush 'sessions'
clock 'advance', '30m'
put 'sessions', 'u4', 'f:token', 'jkl'
flush 'sessions'
store 'sessions', 0, 'f'
clock 'advance', '2h'
explain get 'sessions', 'u3'
# A compaction drops expired files whole, without reading them, but never the newest file of
# the store (DefaultStoreFileManager.getUnneededFiles)...
compact 'sessions'
store 'sessions', 0, 'f'
# ...which a major compaction rewrites into an empty file (no cell left).
major_compact 'sessions'
store 'sessions', 0, 'f'
