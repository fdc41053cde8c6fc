"""`python -m hsim ...` is the `hsim` console script (for when pip's script directory is not on
PATH)."""

import sys

from hsim.cli import main

if __name__ == "__main__":  # not when a --jobs worker process imports it
    sys.exit(main())
