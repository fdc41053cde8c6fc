"""The UI screenshot's caption names the command that made it (tools/ui_screenshot.py), so the
picture's figures (about 2 million writes) match what a reader running that command sees."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _screenshot_command() -> str:
    tree = ast.parse((ROOT / "tools" / "ui_screenshot.py").read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.List) and any(
                isinstance(e, ast.Constant) and e.value == "hotspotting" for e in node.elts):
            words = [e.value for e in node.elts if isinstance(e, ast.Constant)]
            start = words.index("run")
            kept = words[start:words.index("--no-progress")]
            kept[kept.index("--ui") + 1:kept.index("--ui") + 2] = []  # its port: "0" in the tool
            return "hsim " + " ".join(kept)
    raise AssertionError("tools/ui_screenshot.py runs no hotspotting command")


def test_the_caption_names_the_screenshot_command():
    command = _screenshot_command()
    assert command == "hsim run hotspotting --ui --variants timestamp_lead --ops 2000000"
    for page in (ROOT / "README.md", ROOT / "docs" / "ui.md"):
        captions = [line for line in page.read_text().splitlines()
                    if "ui-table-hotspotting.png" in line]
        assert captions and all(f"`{command}`" in c for c in captions), page.name
