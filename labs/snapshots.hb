# Lab: snapshots, clones and HFileLinks: a table copied without copying a byte
# (HBase book, "Snapshots"; HFiles never change once written).
create 't', {NAME => 'f', VERSIONS => 1}
put 't', 'r1', 'f:q', 'one', 1000
put 't', 'r2', 'f:q', 'two', 1000

# 1. A snapshot flushes the table, then holds its files: nothing is copied.
snapshot 't', 's1'
list_snapshots
store 't', 0, 'f'

# 2. A clone is a new table whose store holds links to the snapshot's files
#    (HFileLink names: <table>=<region>-<hfile>). Same file, same bytes, no copy.
clone_snapshot 's1', 't_copy'
store 't_copy', 0, 'f'
scan 't_copy'

# 3. The source moves on: an overwrite, a major compaction that replaces its files, a drop.
#    The snapshot still holds the old file, so the clone reads what it read.
put 't', 'r1', 'f:q', 'ONE', 2000
major_compact 't'
store 't', 0, 'f'
disable 't'
drop 't'
scan 't_copy'

# 4. The clone's first compaction writes a file of its own: only now are bytes copied.
put 't_copy', 'r3', 'f:q', 'three', 3000
flush 't_copy'
major_compact 't_copy'
store 't_copy', 0, 'f'

# 5. A restore puts a table back as the snapshot holds it (it must be disabled, and
#    stays disabled). Cloning again brings the dropped table back.
clone_snapshot 's1', 't'
put 't', 'r2', 'f:q', 'TWO', 4000
disable 't'
restore_snapshot 's1'
enable 't'
scan 't'
delete_snapshot 's1'
list_snapshots
