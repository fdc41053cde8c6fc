import os


def crash(cluster) -> None:
    """What SIGKILL leaves: no close(), no flush; the process's open WAL files just close and
    the kernel drops its lock on the directory."""
    for st in cluster.data_dir._wals.values():
        os.close(st[0])
    cluster.data_dir._wals = {}
    cluster.data_dir.lock.release()


def snapshot(root) -> dict:
    """Every file under root -> its bytes."""
    out = {}
    for d, _dirs, files in os.walk(root):
        for f in files:
            p = os.path.join(d, f)
            with open(p, "rb") as fh:
                out[os.path.relpath(p, root)] = fh.read()
    return out
