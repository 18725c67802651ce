"""The README is what a newcomer reads first: short, with the two commands CI and people run, and
links that work on GitHub, where the docs site's build (which checks the pages under docs/) does
not look. Read from the file, so the test needs no Blender."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
MAX_LINES = 250
LINK = re.compile(r"\]\(([^)\s]+)\)")


def _relative_targets(text: str) -> list[str]:
    """The file part of every link that is not a web address or an anchor of the README."""
    targets = (match.group(1).split("#")[0] for match in LINK.finditer(text))
    return [t for t in targets if t and not re.match(r"[a-z]+:", t)]


def test_the_readme_is_short() -> None:
    assert len(README.read_text(encoding="utf-8").splitlines()) <= MAX_LINES


def test_the_readme_gives_the_demo_and_the_test_command() -> None:
    blocks = re.findall(r"```sh\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    commands = {line.strip() for block in blocks for line in block.splitlines()}
    assert {"bash scripts/demo.sh", "bash scripts/test.sh"} <= commands
    assert (ROOT / "scripts" / "demo.sh").is_file() and (ROOT / "scripts" / "test.sh").is_file()


def test_every_relative_link_of_the_readme_exists() -> None:
    targets = _relative_targets(README.read_text(encoding="utf-8"))
    assert targets, "the README links to its docs pages"
    missing = [t for t in targets if not (ROOT / t).exists()]
    assert missing == []


def test_a_link_to_a_missing_page_is_caught() -> None:
    text = "[a](docs/no-such-page.md) [b](https://example.org/x.md) [c](#anchor) [d](docs/)"
    targets = _relative_targets(text)
    assert targets == ["docs/no-such-page.md", "docs/"]
    assert [t for t in targets if not (ROOT / t).exists()] == ["docs/no-such-page.md"]
