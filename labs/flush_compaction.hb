# Lab: flushes and compactions, watched through `store` and `hfile`
# (HBase book, "MemStore", "Compaction"; the storage engine's physics).
create 't', {NAME => 'f', VERSIONS => 1}

# 1. Writes go to the MemStore first.
put 't', 'r1', 'f:q', 'one', 1000
put 't', 'r2', 'f:q', 'two', 1000
put 't', 'r3', 'f:q', 'three', 1000
store 't', 0, 'f'
regions 't'

# 2. A flush writes the MemStore out as an HFile: data block, index, bloom, file info, trailer.
flush 't'
store 't', 0, 'f'
hfile 't', 0, 'f', 0, CELLS => true

# 3. Overwrites and deletes do not change old files: they go to new ones.
put 't', 'r1', 'f:q', 'ONE', 2000
delete 't', 'r2', 'f:q'
flush 't'
store 't', 0, 'f'
scan 't', {RAW => true, VERSIONS => 5}
get 't', 'r1'

# 4. The third flush gives the store three files, the compaction policy's minimum: a
#    compaction runs by itself. It took every file, so it also dropped the deleted cell, the
#    marker and the version beyond VERSIONS.
put 't', 'r4', 'f:q', 'four', 3000
flush 't'
store 't', 0, 'f'
scan 't', {RAW => true, VERSIONS => 5}

# 5. A major compaction rewrites every file into one, whenever asked.
put 't', 'r5', 'f:q', 'five', 4000
deleteall 't', 'r4'
flush 't'
store 't', 0, 'f'
major_compact 't'
store 't', 0, 'f'
hfile 't', 0, 'f', 0, CELLS => true
