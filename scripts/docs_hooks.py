"""MkDocs hooks: the pages made from the code, and the checks that keep the written ones true.

``mkdocs build --strict`` (``mkdocs.yml``; run by ``scripts/test.sh`` on the latest line, where
``bpy`` and ``mkdocs`` are installed) then fails on:

- a link to a page or a heading anchor that does not exist: ``reference/checks.md`` has one
  section per registered check, anchored by its id (``docs_checks``), so a renamed check breaks
  every link to it;
- an ``--option`` that the program it is written with does not take (``docs_cli``): the
  command-line reference is made from ``ik-doctor``'s argument parser;
- a line ``<!-- measured: NAME -->`` without a ``docs/measured/NAME.md``: the line is replaced
  by that file, which the benchmark that measured it wrote (``benchmarks/measured.py``).
"""

from __future__ import annotations

import logging
import re
import sys
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import docs_checks  # noqa: E402  (beside this file: MkDocs puts its folder on sys.path)
import docs_cli  # noqa: E402

import ik_doctor  # noqa: E402, F401  (hands the registry its checks)
from ik_doctor.cli import build_parser  # noqa: E402

log = logging.getLogger("mkdocs.plugins.ik_doctor")

MADE_BY = re.compile(r"<!-- made by: (.+?) \((.+)\) -->")
MEASURED_MARKER = re.compile(r"^[ \t]*<!--[ \t]*measured:[ \t]*([\w.-]+)[ \t]*-->[ \t]*$", re.M)


_known: docs_cli.KnownOptions | None = None


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    global _known
    _known = docs_cli.known_options(build_parser(), ROOT)
    return config


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add the generated pages, in place of any file of the same name under ``docs/``."""
    pages = {
        "reference/checks.md": docs_checks.checks_page(),
        "reference/cli.md": docs_cli.cli_page(build_parser()),
    }
    for uri, content in pages.items():
        existing = files.get_file_from_path(uri)
        if existing is not None:
            log.warning(f"docs/{uri} is made at build time; the file in docs/ is not used")
            files.remove(existing)
        files.append(File.generated(config, uri, content=content))
    return files


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, **_: Any) -> str:
    markdown = measured_tables(markdown, Path(config.docs_dir) / "measured", page.file.src_uri)
    assert _known is not None, "on_config runs first"
    for problem in docs_cli.unknown_options(markdown, _known):
        log.warning(f"{page.file.src_uri}: {problem}")
    return markdown


def measured_tables(markdown: str, folder: Path, where: str) -> str:
    """Each ``<!-- measured: NAME -->`` line replaced by ``docs/measured/NAME.md``."""

    def table(match: re.Match[str]) -> str:
        path = folder / f"{match.group(1)}.md"
        if not path.is_file():
            log.warning(f"{where}: no measured table {match.group(1)!r} (docs/measured/)")
            return match.group(0)
        return shown(path.read_text(encoding="utf-8"))

    return MEASURED_MARKER.sub(table, markdown)


def shown(measured: str) -> str:
    """A measured file as a page shows it: the table, then the commands that made it (its
    ``<!-- made by: COMMAND (WHEN) -->`` lines, so their options are checked too)."""
    lines = measured.strip("\n").splitlines()
    made = [MADE_BY.fullmatch(line) for line in lines]
    body = [line for line, match in zip(lines, made, strict=True) if match is None]
    commands = [f"`{m.group(1)}` ({m.group(2)})" for m in made if m is not None]
    if commands:
        body += ["", "Measured with " + "; ".join(commands) + "."]
    return "\n".join(body).strip("\n")
