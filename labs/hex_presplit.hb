# hsim shell --servers 3
# Lab: the hex pre-split pitfall (HBase book, "Relationship Between RowKeys and Region Splits").
# The row keys are hex strings: the first 16 hex digits of MD5("user1"), MD5("user2"), ...

# 1. Ten regions cut by Bytes.split between '0000000000000000' and 'ffffffffffffffff', as
#    Admin.createTable(desc, startKey, endKey, 10) cuts them. (STARTKEY/ENDKEY is hsim's way
#    to call that from the shell.) The split keys are the seed's table: 0, 6, =, D, K, R, X, _, f.
create 'bytes_split', 'f', {STARTKEY => '0000000000000000', ENDKEY => 'ffffffffffffffff', NUMREGIONS => 10}
get_splits 'bytes_split'
put 'bytes_split', '24c9e15e52afc47c', 'f:name', 'user1'
put 'bytes_split', '7e58d63b60197ceb', 'f:name', 'user2'
put 'bytes_split', '92877af70a45fd6a', 'f:name', 'user3'
put 'bytes_split', '3f02ebe3d7929b09', 'f:name', 'user4'
put 'bytes_split', '0a791842f52a0acf', 'f:name', 'user5'
put 'bytes_split', 'affec3b64cf90492', 'f:name', 'user6'
put 'bytes_split', '3e0469fb134991f8', 'f:name', 'user7'
put 'bytes_split', '7668f673d5669995', 'f:name', 'user8'
put 'bytes_split', '8808a13b854c2563', 'f:name', 'user9'
put 'bytes_split', '990d67a9f94696b1', 'f:name', 'user10'
put 'bytes_split', '03aa1a0b0375b046', 'f:name', 'user11'
put 'bytes_split', 'd781eaae8248db6c', 'f:name', 'user12'
put 'bytes_split', 'd09979d794a6ee60', 'f:name', 'user13'
put 'bytes_split', 'ef06d5cbf35386ff', 'f:name', 'user14'
put 'bytes_split', '726dedc0d6788b05', 'f:name', 'user15'
put 'bytes_split', '8a62f0beaa5ae938', 'f:name', 'user16'
put 'bytes_split', '2b4233ebec7a45e1', 'f:name', 'user17'
put 'bytes_split', '7ac18a1893e1d2bd', 'f:name', 'user18'
put 'bytes_split', '2baab43f784b5b53', 'f:name', 'user19'
put 'bytes_split', '10880c7f4e4209ee', 'f:name', 'user20'
put 'bytes_split', '2e129db15b6d6db5', 'f:name', 'user21'
put 'bytes_split', '87dc1e131a1369fd', 'f:name', 'user22'
put 'bytes_split', '00a65dd47e842bcc', 'f:name', 'user23'
put 'bytes_split', '5e6c9b24829588e0', 'f:name', 'user24'
# Hex digits are the bytes '0'-'9' (48-57) and 'a'-'f' (97-102): nothing falls between ':' and
# '`', so the middle regions get no writes at all. Look at the WRITE REQUESTS column.
regions 'bytes_split'

# 2. The same ten regions cut by HexStringSplit, which splits the hex *number* space evenly.
create 'hex_split', 'f', {NUMREGIONS => 10, SPLITALGO => 'HexStringSplit'}
get_splits 'hex_split'
put 'hex_split', '24c9e15e52afc47c', 'f:name', 'user1'
put 'hex_split', '7e58d63b60197ceb', 'f:name', 'user2'
put 'hex_split', '92877af70a45fd6a', 'f:name', 'user3'
put 'hex_split', '3f02ebe3d7929b09', 'f:name', 'user4'
put 'hex_split', '0a791842f52a0acf', 'f:name', 'user5'
put 'hex_split', 'affec3b64cf90492', 'f:name', 'user6'
put 'hex_split', '3e0469fb134991f8', 'f:name', 'user7'
put 'hex_split', '7668f673d5669995', 'f:name', 'user8'
put 'hex_split', '8808a13b854c2563', 'f:name', 'user9'
put 'hex_split', '990d67a9f94696b1', 'f:name', 'user10'
put 'hex_split', '03aa1a0b0375b046', 'f:name', 'user11'
put 'hex_split', 'd781eaae8248db6c', 'f:name', 'user12'
put 'hex_split', 'd09979d794a6ee60', 'f:name', 'user13'
put 'hex_split', 'ef06d5cbf35386ff', 'f:name', 'user14'
put 'hex_split', '726dedc0d6788b05', 'f:name', 'user15'
put 'hex_split', '8a62f0beaa5ae938', 'f:name', 'user16'
put 'hex_split', '2b4233ebec7a45e1', 'f:name', 'user17'
put 'hex_split', '7ac18a1893e1d2bd', 'f:name', 'user18'
put 'hex_split', '2baab43f784b5b53', 'f:name', 'user19'
put 'hex_split', '10880c7f4e4209ee', 'f:name', 'user20'
put 'hex_split', '2e129db15b6d6db5', 'f:name', 'user21'
put 'hex_split', '87dc1e131a1369fd', 'f:name', 'user22'
put 'hex_split', '00a65dd47e842bcc', 'f:name', 'user23'
put 'hex_split', '5e6c9b24829588e0', 'f:name', 'user24'
regions 'hex_split'
count 'hex_split'
