"""Which files a run checks, and a first look at each before Blender is asked to read it.

Blender reads anything it is handed and may print an error and carry on, or crash, on a file
that is not a .blend. A cheap look at the first bytes names the usual mistakes (a missing path,
an FBX passed by accident, an empty file) in one clear line, without starting Blender. Only
regular files are opened at all: opening a FIFO named ``x.blend`` waits for a writer forever.

Directories come from people the runner may not trust, so a scan stays inside the tree it was
given: it does not follow symbolic links (to files or directories) unless asked to, and it never
prints bytes of a file a link leads to.
"""

from __future__ import annotations

import gzip
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

BLEND_MAGIC = b"BLENDER"
GZIP_MAGIC = b"\x1f\x8b"
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
"""Blender 3.0+ compresses with Zstandard, older versions with gzip; both are valid .blend."""
HEADER_SIZE = 17
"""``BLENDER-v402`` (12 bytes) before 5.0, ``BLENDER17-01v0500`` (17 bytes) since."""
FOLLOW_FLAG = "--follow-symlinks"
NOT_REGULAR = {
    stat.S_IFIFO: "a FIFO",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
    stat.S_IFDIR: "a directory",
}


@dataclass(frozen=True)
class Input:
    """One file to check: its path, or the reason it cannot be read at all."""

    path: str
    relative: str
    """Where the file sits below the argument that named it: its place in an output directory."""
    problem: str | None = None


def collect_inputs(
    arguments: list[str], follow_symlinks: bool = False
) -> tuple[list[Input], list[str]]:
    """Expand files and directories (recursively, .blend files only, sorted) into inputs.

    Returns the inputs in command-line order, each file once (the first name it was given by),
    and notes about arguments that gave no file (an empty directory), links a scan did not
    follow and files named twice, which are worth a line but are not errors.
    """
    inputs: list[Input] = []
    notes: list[str] = []
    seen: dict[str, str] = {}
    for argument in arguments:
        path = Path(argument)
        if path.is_dir():
            found = _scan(path, follow_symlinks, notes)
            if not found:
                notes.append(f"{argument}: no .blend files in this directory")
            named = [(str(p), str(p.relative_to(path))) for p in found]
        else:
            named = [(argument, path.name)]
        for name, relative in named:
            first = seen.setdefault(os.path.realpath(name), name)
            if first != name:
                notes.append(f"{name}: the same file as {first}, read once")
                continue
            inputs.append(Input(name, relative, blend_problem(Path(name))))
    return inputs, notes


def _scan(root: Path, follow_symlinks: bool, notes: list[str]) -> list[Path]:
    """The .blend files below ``root``; symbolic links only with ``follow_symlinks``.

    Anything named ``*.blend`` but a directory is kept, so a FIFO or a socket found here is
    reported, not silently dropped. A followed link to a directory already searched is not
    searched again (a link to its own parent would loop).
    """
    found: list[Path] = []
    searched: set[str] = set()

    def cannot_search(error: OSError) -> None:
        notes.append(f"{error.filename}: cannot be searched: {error.strerror or error}")

    for folder, directories, files in os.walk(root, onerror=cannot_search, followlinks=True):
        searched.add(os.path.realpath(folder))
        for name in list(directories):
            below = Path(folder, name)
            if below.is_symlink() and not follow_symlinks:
                notes.append(f"{below}: a symbolic link, not followed ({FOLLOW_FLAG} follows it)")
                directories.remove(name)
            elif os.path.realpath(below) in searched:
                directories.remove(name)
        for name in files:
            file = Path(folder, name)
            if not name.endswith(".blend"):
                continue
            if file.is_symlink() and not follow_symlinks:
                notes.append(f"{file}: a symbolic link, not followed ({FOLLOW_FLAG} follows it)")
                continue
            found.append(file)
    return sorted(found)


def blend_problem(path: Path) -> str | None:
    """Why ``path`` cannot be a .blend file, or None when its header looks like one.

    The reason may quote the file's first bytes (escaped, as Python writes bytes), unless the
    path goes through a symbolic link: those bytes may come from anywhere.
    """
    problem = not_regular_problem(path)
    if problem is not None:
        return problem
    try:
        # Non-blocking, in case a FIFO took the file's place since the look above.
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
        try:
            if not stat.S_ISREG(os.fstat(descriptor).st_mode):
                return "is no longer a regular file"
            head = os.read(descriptor, 12)
        finally:
            os.close(descriptor)
    except OSError as error:
        return f"cannot be read: {error.strerror or error}"
    if not head:
        return "is empty, not a .blend file"
    if head.startswith((BLEND_MAGIC, GZIP_MAGIC, ZSTD_MAGIC)):
        return None
    if _through_a_link(path):
        return "is not a .blend file (it does not start with 'BLENDER')"
    return f"is not a .blend file (it starts with {head[:8]!r}, not 'BLENDER')"


def not_regular_problem(path: Path | str) -> str | None:
    """Why ``path`` is not a regular file that can be opened without waiting, or None."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "no such file"
    except OSError as error:
        return f"cannot be read: {error.strerror or error}"
    if stat.S_ISREG(mode):
        return None
    kind = NOT_REGULAR.get(stat.S_IFMT(mode), "not a file")
    return "is a directory" if stat.S_ISDIR(mode) else f"is {kind}, not a regular file"


def _through_a_link(path: Path) -> bool:
    return os.path.realpath(path) != os.path.abspath(path)


def header_version(path: Path | str) -> tuple[int, int] | None:
    """The (major, minor) Blender version a .blend's header says saved it, or None.

    Compressed files are decompressed just far enough to read the header. The version tells a
    file from a newer Blender apart from a damaged one when this Blender cannot open it.
    """
    if not_regular_problem(path) is not None:
        return None
    try:
        with open(path, "rb") as raw:
            magic = raw.read(4)
            raw.seek(0)
            if magic.startswith(GZIP_MAGIC):
                head = gzip.GzipFile(fileobj=raw).read(HEADER_SIZE)
            elif magic == ZSTD_MAGIC:
                head = _zstd_head(raw)
            else:
                head = raw.read(HEADER_SIZE)
    except (OSError, EOFError, ValueError):
        return None
    return _parse_header(head)


def _zstd_head(raw: BinaryIO) -> bytes:
    """The first bytes the zstd stream ``raw`` holds, by whichever decoder this Python has:
    ``zstandard`` (bpy's own dependency, in Blender's bundled Python), the standard library's
    from Python 3.14 (Debian's Blender 5.2 has only that), or none (Debian's Blender 4.3, on
    Python 3.13 without ``zstandard``): then b"", and the version is not known."""
    try:
        import zstandard  # type: ignore[import-not-found]  # not in the type checker's env
    except ImportError:
        try:
            from compression import zstd  # type: ignore[import-not-found]  # Python 3.14
        except ImportError:
            return b""
        decoded = zstd.ZstdFile(raw)
        error: type[Exception] = zstd.ZstdError
    else:
        decoded = zstandard.ZstdDecompressor().stream_reader(raw)
        error = zstandard.ZstdError
    try:
        return bytes(decoded.read(HEADER_SIZE))
    except error:  # a damaged stream
        return b""


def _parse_header(head: bytes) -> tuple[int, int] | None:
    if not head.startswith(BLEND_MAGIC):
        return None
    # Before 5.0: pointer size, endianness, three digits (402). Since: header size, "-",
    # format version, endianness, four digits (0500).
    digits = head[9:12] if head[7:8] in (b"_", b"-") else head[13:17]
    if not digits.isdigit():
        return None
    version = int(digits)
    return version // 100, version % 100
