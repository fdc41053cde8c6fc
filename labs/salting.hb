# hsim shell --servers 4
# Lab: salting (HBase book, "Rowkey Design", the salting example).
# The table is split so that each leading letter a..f has its own region; four region servers
# host the seven regions round-robin.
create 'events', 'd', SPLITS => ['b', 'c', 'd', 'e', 'f', 'g']
create 'salted', 'd', SPLITS => ['b', 'c', 'd', 'e', 'f', 'g']

# 1. Without salt: foo0001..foo0004 all start with 'f', so every write goes to region [f, g),
#    on one region server, however many servers the cluster has.
put 'events', 'foo0001', 'd:v', '1'
put 'events', 'foo0002', 'd:v', '2'
put 'events', 'foo0003', 'd:v', '3'
put 'events', 'foo0004', 'd:v', '4'
regions 'events'

# 2. With a salt: a prefix a, b, c or d assigned to each row spreads the same writes over four
#    regions on four servers. A fifth row gets a salt too and lands near an existing one.
put 'salted', 'a-foo0003', 'd:v', '3'
put 'salted', 'b-foo0001', 'd:v', '1'
put 'salted', 'c-foo0004', 'd:v', '4'
put 'salted', 'd-foo0002', 'd:v', '2'
put 'salted', 'c-foo0003', 'd:v', '3 again'
regions 'salted'

# 3. The cost is paid on reads. A scan returns rows in salted order, not foo0001, foo0002, ...
scan 'salted'
# A Get needs the full key, salt included; without it nothing is found:
get 'salted', 'foo0003'
get 'salted', 'a-foo0003'
# Finding every foo0003 without knowing its salts means reading every region:
explain scan 'salted', {FILTER => "RowFilter(=, 'substring:foo0003')"}
# ...or one prefix scan per salt, merged by the client:
scan 'salted', {ROWPREFIXFILTER => 'a-foo'}
scan 'salted', {ROWPREFIXFILTER => 'c-foo'}
