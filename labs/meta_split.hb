# hsim shell --servers 3
# Lab: reading hbase:meta, the region catalog, before and after a split and a move.

# 1. A table cut in two at 'm': two rows in hbase:meta, one per region. The row key is the
#    region's name: <table>,<start key>,<region id>.<encoded name>.
create 'users', 'f', SPLITS => ['m']
put 'users', 'alice', 'f:age', "\x00\x00\x00\x1e"
put 'users', 'bob', 'f:age', "\x00\x00\x00\x29"
put 'users', 'carol', 'f:age', "\x00\x00\x00\x22"
put 'users', 'zoe', 'f:age', "\x00\x00\x00\x13"
scan 'hbase:meta'

# 2. The ages are 4-byte ints: a converter shows them as numbers.
scan 'users', {COLUMNS => ['f:age:c(org.apache.hadoop.hbase.util.Bytes).toInt']}

# 3. Split the first region at 'bob': its row leaves the catalog, two daughters take its place,
#    with a newer region id and the split's time as their timestamps.
clock 'advance', '1m'
split 'users', 'bob'
scan 'hbase:meta', {COLUMNS => ['info:regioninfo', 'info:sn']}

# 4. Both daughters opened where their parent was; the balancer moves one to the idle third
#    server: its info:server, info:sn and their timestamps change.
clock 'advance', '1m'
balancer
scan 'hbase:meta', {COLUMNS => ['info:sn', 'info:state']}

# 5. Disabling the table closes its regions: info:state says so.
disable 'users'
scan 'hbase:meta', {COLUMNS => 'info:state'}
enable 'users'

# 6. How a client finds the region of row 'carol': a reversed scan of hbase:meta from
#    'users,carol,99999999999999', one row (ConnectionImplementation.locateRegionInMeta).
scan 'hbase:meta', {STARTROW => 'users,carol,99999999999999', REVERSED => true, LIMIT => 1, COLUMNS => ['info:regioninfo', 'info:server']}
count 'hbase:meta'
list_namespace_tables 'hbase'
