# Lab: what a region-server crash costs under each durability
# (HBase book, "Durability"; ServerCrashProcedure). Three tables, one per durability, get the
# same writes; then the server dies before any flush.
create 'sync', 'f'
create 'async', 'f', {DURABILITY => 'ASYNC_WAL'}
create 'skip', 'f', {DURABILITY => 'SKIP_WAL'}
describe 'async'

# 1. The same writes in each. SYNC_WAL syncs every one; ASYNC_WAL leaves them to the syncer, which runs
#    every second of cluster time (hbase.regionserver.optionallogflushinterval); SKIP_WAL
#    writes no WAL at all.
put 'sync', 'r0', 'f:q', 'v'
put 'async', 'r0', 'f:q', 'v'
put 'skip', 'r0', 'f:q', 'v'
clock 'advance', '2s'
put 'sync', 'r1', 'f:q', 'v'
put 'async', 'r1', 'f:q', 'v'
put 'skip', 'r1', 'f:q', 'v'
put 'async', 'r2', 'f:q', 'v'
put 'async', 'r3', 'f:q', 'v'
wal

# 2. A second server starts, and the first one dies with its MemStores.
start_server
abort_server 0

# 3. What came back: every SYNC_WAL write, the ASYNC_WAL write the syncer reached, no SKIP_WAL one.
count 'sync'
count 'async'
count 'skip'
wal
