"""The docs cannot go stale: the strict build fails on a page that names what is gone.

The build tests run a page of their own through the real ``mkdocs.yml`` and its hooks
(``scripts/docs_hooks.py``), with only that page in the nav, so they hold whatever the prose
pages say today; ``scripts/test.sh`` builds the real site. MkDocs is installed on the latest
line only; the pages made from the code are tested on every line.
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import docs_checks  # noqa: E402
import docs_cli  # noqa: E402

from ik_doctor import all_checks, get_check  # noqa: E402
from ik_doctor.cli import build_parser  # noqa: E402

MEASURED = ROOT / "docs" / "measured"
GOOD_PAGE = """# A page

[The chain length check](reference/checks.md#chain_length) runs in `ik-doctor check --jobs 2`.

<!-- measured: sample -->
"""
SAMPLE_COMMAND = ".venv/latest/bin/python benchmarks/bench_scan.py --repeat 3"
SAMPLE_TABLE = f"<!-- made by: {SAMPLE_COMMAND} (Blender 5.3, 2026-12-02) -->\n\n| a |\n| - |\n"


def strict_build(tmp_path: Path, page: str, warnings: list[logging.LogRecord]) -> None:
    """Build a site of ``page`` (and the generated pages) with the project's config, keeping
    its warnings in ``warnings``; raises MkDocs' ``Abort`` when there were any."""
    pytest.importorskip("mkdocs", reason="MkDocs is installed on the latest line (scripts/env.sh)")
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    docs = tmp_path / "docs"
    (docs / "measured").mkdir(parents=True)
    (docs / "index.md").write_text(page, encoding="utf-8")
    (docs / "measured" / "sample.md").write_text(SAMPLE_TABLE, encoding="utf-8")
    config = load_config(
        str(ROOT / "mkdocs.yml"),
        docs_dir=str(docs),
        site_dir=str(tmp_path / "site"),
        nav=["index.md", "reference/checks.md", "reference/cli.md"],
        strict=True,
    )
    handler = logging.Handler(logging.WARNING)
    handler.emit = warnings.append  # type: ignore[method-assign]
    logging.getLogger("mkdocs").addHandler(handler)
    try:
        build(config)
    finally:
        logging.getLogger("mkdocs").removeHandler(handler)


def test_a_page_naming_what_exists_builds(tmp_path: Path) -> None:
    warnings: list[logging.LogRecord] = []
    strict_build(tmp_path, GOOD_PAGE, warnings)
    assert warnings == []
    page = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert SAMPLE_COMMAND in page  # the measured table came in, with the command that made it


@pytest.mark.parametrize(
    ("fault", "logger"),
    [
        ("`ik-doctor check --no-such-option`", "mkdocs.plugins.ik_doctor"),
        ("`ik-doctor merge --in-place`", "mkdocs.plugins.ik_doctor"),
        ("`benchmarks/bench_scan.py --copies 2`", "mkdocs.plugins.ik_doctor"),
        ("<!-- measured: no_such_table -->", "mkdocs.plugins.ik_doctor"),
        ("[gone](reference/checks.md#no_such_check)", "mkdocs.structure.pages"),
        ("[gone](reference/cli.md#no_such_command)", "mkdocs.structure.pages"),
    ],
)
def test_a_page_naming_what_is_gone_fails_the_build(
    tmp_path: Path, fault: str, logger: str
) -> None:
    pytest.importorskip("mkdocs", reason="MkDocs is installed on the latest line (scripts/env.sh)")
    from mkdocs.exceptions import Abort

    warnings: list[logging.LogRecord] = []
    with pytest.raises(Abort):
        strict_build(tmp_path, f"{GOOD_PAGE}\n{fault}\n", warnings)
    assert [record.name for record in warnings] == [logger]


def test_a_renamed_check_renames_its_anchor() -> None:
    check = get_check("chain_length")
    renamed = dataclasses.replace(check, id="chain_span")
    page = docs_checks.checks_page([renamed])
    assert "{#chain_span}" in page
    assert "{#chain_length}" not in page


def test_every_check_has_a_section_with_its_docstring() -> None:
    page = docs_checks.checks_page()
    for check in all_checks():
        assert f"{{#{check.id}}}" in page
        assert check.doc.strip().splitlines()[0] in page
        for fix_id in check.fixes:
            assert f"| `{fix_id}` |" in page


def test_every_option_of_the_command_line_is_on_its_reference_page() -> None:
    parser = build_parser()
    page = docs_cli.cli_page(parser)
    for name, command in docs_cli.subcommands(parser).items():
        assert f"{{#{name}}}" in page
        for action in command._actions:
            if not isinstance(action, argparse._HelpAction):
                for option in action.option_strings:
                    assert f"`{option}`" in page


def test_options_are_read_where_a_command_runs() -> None:
    known = docs_cli.known_options(build_parser(), ROOT)
    page = (
        "`ik-doctor fix --in-place` `--jobs 2` `blender --background --anything`\n"
        "```sh\nblender --command ik_doctor check --jobz 2\n"
        "ik-doctor check rigs/ \\\n  --baseline last.json\n```\n"
        "`merge --in-place`\n"
    )
    problems = docs_cli.unknown_options(page, known)
    assert [(p.option, p.program) for p in problems] == [
        ("--jobz", "ik-doctor check"),
        ("--in-place", "ik-doctor merge"),
    ]


def test_every_measured_table_is_listed_for_the_pages() -> None:
    listed = (MEASURED / "README.md").read_text(encoding="utf-8")
    for table in MEASURED.glob("*.md"):
        if table.name != "README.md":
            assert f"`{table.stem}`" in listed
