"""`python -m hsim ...` is the `hsim` console script (for when pip's script directory is not on
PATH)."""

import sys

from hsim.cli import main

sys.exit(main())
