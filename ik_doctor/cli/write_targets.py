"""Where a run writes, checked before any work: never onto an input, never twice onto one file.

A report path typed by mistake (``--output hero.blend``) would replace a rig with text, and
two outputs on one file keep only the last. Paths are compared as the files they name: through
symbolic links (``realpath``) and, for a file that exists, hard links (device and inode).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

from .in_place import could_be_backup


@dataclass(frozen=True)
class Target:
    """A file the run will write, and how to name it to the user."""

    label: str
    """``--output report.json``, ``the fixed copy of rigs/hero.blend``..."""
    path: str
    advice: str | None = None
    """What to do instead, added when this target lands on an input."""


def first_clash(
    inputs: Sequence[str], targets: Sequence[Target], replaced: Sequence[str] = ()
) -> str | None:
    """Why one of ``targets`` must not be written, or None when all of them may.

    ``replaced`` are the files ``--in-place`` replaces: a report must not take the name one of
    their backups may get either.
    """
    by_identity = {_identity(path): path for path in inputs}
    written: dict[object, Target] = {}
    for target in targets:
        if os.path.isdir(target.path):
            return f"{target.label} is a directory"
        identity = _identity(target.path)
        if identity in by_identity:
            clash = f"{target.label} would overwrite an input file, {by_identity[identity]}"
            return clash + (f"; {target.advice}" if target.advice else "")
        if identity in written:
            return f"{target.label} and {written[identity].label} are the same file"
        for source in replaced:
            if could_be_backup(os.path.realpath(target.path), os.path.realpath(source)):
                return f"{target.label} could be a backup of {source}"
        written[identity] = target
    return None


def _identity(path: str) -> object:
    """The file ``path`` names: its inode when it exists, else where it would be created."""
    try:
        found = os.stat(path)
    except OSError:
        return os.path.realpath(path)
    return (found.st_dev, found.st_ino)
