import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The site's hooks (tools/docs_site.py) define what the API reference documents.
sys.path.insert(0, str(ROOT / "tools"))
