# Lab: versions, deletes and KEEP_DELETED_CELLS point-in-time queries (HBase book, "Versions",
# "Keeping Deleted Cells"). Timestamps are given explicitly: 1000, 2000, 3000, 4000 ms.
create 'plain', {NAME => 'f', VERSIONS => 3}
create 'kdc', {NAME => 'f', VERSIONS => 3, KEEP_DELETED_CELLS => true}

# 1. Four versions into a family that keeps three.
put 'plain', 'r1', 'f:c', 'v1', 1000
put 'plain', 'r1', 'f:c', 'v2', 2000
put 'plain', 'r1', 'f:c', 'v3', 3000
put 'plain', 'r1', 'f:c', 'v4', 4000
get 'plain', 'r1', {COLUMN => 'f:c', VERSIONS => 5}
# A get returns one version unless asked for more; TIMESTAMP and TIMERANGE pick older ones.
get 'plain', 'r1', 'f:c'
get 'plain', 'r1', {COLUMN => 'f:c', TIMESTAMP => 2000}
get 'plain', 'r1', {COLUMN => 'f:c', TIMERANGE => [0, 3500], VERSIONS => 3}
explain get 'plain', 'r1', {COLUMN => 'f:c', VERSIONS => 5}

# 2. In HBase 2.x `delete` removes one version (the latest, or the one at a timestamp);
#    `deleteall` on a column removes every version at or before its timestamp.
delete 'plain', 'r1', 'f:c'
# v1 is back: the MemStore still held it, hidden only by VERSIONS => 3. (After a flush it
# would have been gone: flushes drop the versions a family does not keep.)
get 'plain', 'r1', {COLUMN => 'f:c', VERSIONS => 5}
deleteall 'plain', 'r1', 'f:c'
get 'plain', 'r1', {COLUMN => 'f:c', VERSIONS => 5}
# The puts are still there, masked by markers: a RAW scan shows both.
scan 'plain', {RAW => true, VERSIONS => 10}

# 3. Point in time. The same writes and the same delete on both tables...
put 'kdc', 'r1', 'f:c', 'v1', 1000
put 'kdc', 'r1', 'f:c', 'v2', 2000
put 'kdc', 'r1', 'f:c', 'v3', 3000
put 'plain', 'r2', 'f:c', 'v1', 1000
put 'plain', 'r2', 'f:c', 'v2', 2000
put 'plain', 'r2', 'f:c', 'v3', 3000
deleteall 'kdc', 'r1', 'f:c'
deleteall 'plain', 'r2', 'f:c'
# ...then ask "what did the row hold at time 2500?". Without KEEP_DELETED_CELLS the marker
# (timestamped now, 2026) masks everything older, whatever the time range asked for:
get 'plain', 'r2', {COLUMN => 'f:c', TIMERANGE => [0, 2500], VERSIONS => 3}
explain get 'plain', 'r2', {COLUMN => 'f:c', TIMERANGE => [0, 2500], VERSIONS => 3}
# With KEEP_DELETED_CELLS a marker only masks reads whose time range includes it:
get 'kdc', 'r1', {COLUMN => 'f:c', TIMERANGE => [0, 2500], VERSIONS => 3}
get 'kdc', 'r1', {COLUMN => 'f:c', VERSIONS => 3}

# 4. Major compactions purge deleted cells, except where KEEP_DELETED_CELLS keeps them.
flush 'plain'
flush 'kdc'
major_compact 'plain'
major_compact 'kdc'
scan 'plain', {RAW => true, VERSIONS => 10}
scan 'kdc', {RAW => true, VERSIONS => 10}
get 'kdc', 'r1', {COLUMN => 'f:c', TIMERANGE => [0, 2500], VERSIONS => 3}
