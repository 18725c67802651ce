"""Where a benchmark leaves its table for the docs: ``docs/measured/NAME.md``.

A page shows it with the line ``<!-- measured: NAME -->`` (``scripts/docs_hooks.py`` pastes the
file in at build time), so the figures on the page are the ones the benchmark wrote. The file
opens with a comment naming the command that wrote it, with the Blender and the day. A table
measured on several Blender lines keeps one block of rows per line, its first column the
Blender version: a run on one line replaces that line's rows and keeps the others'.
"""

from __future__ import annotations

import datetime
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MEASURED = ROOT / "docs" / "measured"
MADE_BY = "<!-- made by: "


def blender_line() -> str:
    """The running Blender as the tables name it: "5.3", "4.2"."""
    import bpy

    major, minor = bpy.app.version[:2]
    return f"{major}.{minor}"


def this_command() -> str:
    """The command that runs this benchmark, as a person would type it from the repository."""
    script = Path(sys.argv[0]).resolve()
    where = script.relative_to(ROOT) if script.is_relative_to(ROOT) else script
    python = Path(sys.executable)
    venv = Path(sys.prefix)
    if venv.parent == ROOT / ".venv":
        python = Path(".venv") / venv.name / "bin" / "python"
    return " ".join([str(python), where.as_posix(), *sys.argv[1:]])


def write_table(
    name: str,
    header: Sequence[str],
    rows: Sequence[Sequence[object]],
    *,
    per_line: bool = False,
    line: str | None = None,
    key: tuple[str, str] | None = None,
    note: str = "",
) -> Path:
    """Write ``docs/measured/NAME.md``. With ``per_line`` each row starts with the Blender line
    (``line``, else the running one), or with ``key`` (its column's name and this run's value),
    and the rows already there under another value are kept. Returns the path written."""
    line = line or blender_line()
    column, value = key or ("Blender", line)
    path = MEASURED / f"{name}.md"
    made = f"{MADE_BY}{this_command()} ({column} {value}, {datetime.date.today()}) -->"
    new_rows = [_row([value, *row] if per_line else row) for row in rows]
    made_lines, old_rows = _read(path) if per_line else ([], [])
    kept = [m for m in made_lines if f"({column} {value}," not in m]
    if per_line:
        header = [column, *header]
        new_rows = _replace_line(old_rows, value, new_rows)
    text = [made, *kept, "", _row(header), _row(["---"] * len(header)), *new_rows]
    if note:
        text += ["", note]
    MEASURED.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    print(f"wrote {path.relative_to(ROOT)}")
    return path


def _replace_line(old_rows: list[str], line: str, new_rows: list[str]) -> list[str]:
    """The old rows with this line's replaced by ``new_rows`` where they stood (else last)."""
    rows: list[str] = []
    placed = False
    for row in old_rows:
        if _first_cell(row) != line:
            rows.append(row)
        elif not placed:
            rows += new_rows
            placed = True
    return rows if placed else rows + new_rows


def _row(cells: Sequence[object]) -> str:
    return "| " + " | ".join(str(cell).replace("|", "\\|") for cell in cells) + " |"


def _first_cell(row: str) -> str:
    return row.strip().strip("|").split("|")[0].strip()


def _read(path: Path) -> tuple[list[str], list[str]]:
    """The made-by comments and the body rows (header and rule left out) of an existing table."""
    if not path.is_file():
        return [], []
    lines = path.read_text(encoding="utf-8").splitlines()
    made = [line for line in lines if line.startswith(MADE_BY)]
    table = [line for line in lines if line.startswith("|")]
    return made, table[2:]
