"""Which files a run checks, and a first look at each before Blender is asked to read it.

Blender reads anything it is handed and may print an error and carry on, or crash, on a file
that is not a .blend. A cheap look at the first bytes names the usual mistakes (a missing path,
an FBX passed by accident, an empty file) in one clear line, without starting Blender.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

BLEND_MAGIC = b"BLENDER"
GZIP_MAGIC = b"\x1f\x8b"
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
"""Blender 3.0+ compresses with Zstandard, older versions with gzip; both are valid .blend."""


@dataclass(frozen=True)
class Input:
    """One file to check: its path, or the reason it cannot be read at all."""

    path: str
    relative: str
    """Where the file sits below the argument that named it: its place in an output directory."""
    problem: str | None = None


def collect_inputs(arguments: list[str]) -> tuple[list[Input], list[str]]:
    """Expand files and directories (recursively, .blend files only, sorted) into inputs.

    Returns the inputs in command-line order and notes about arguments that gave no file
    (an empty directory), which are worth a line but are not errors.
    """
    inputs: list[Input] = []
    notes: list[str] = []
    for argument in arguments:
        path = Path(argument)
        if path.is_dir():
            found = sorted(p for p in path.rglob("*.blend") if p.is_file())
            if not found:
                notes.append(f"{argument}: no .blend files in this directory")
            inputs.extend(Input(str(p), str(p.relative_to(path)), blend_problem(p)) for p in found)
        else:
            inputs.append(Input(argument, path.name, blend_problem(path)))
    return inputs, notes


def blend_problem(path: Path) -> str | None:
    """Why ``path`` cannot be a .blend file, or None when its header looks like one."""
    if not path.exists():
        return "no such file"
    if path.is_dir():
        return "is a directory"
    try:
        with path.open("rb") as stream:
            head = stream.read(12)
    except OSError as error:
        return f"cannot be read: {error.strerror or error}"
    if not head:
        return "is empty, not a .blend file"
    if head.startswith((BLEND_MAGIC, GZIP_MAGIC, ZSTD_MAGIC)):
        return None
    return f"is not a .blend file (it starts with {head[:8]!r}, not 'BLENDER')"
