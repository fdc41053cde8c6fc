"""The data directory: a cluster's tables, store files and WALs on disk, laid out as HBase lays
out its root directory, so a cluster survives close() and a crash. Open one with
`hsim.Cluster(data_dir=PATH)`."""
