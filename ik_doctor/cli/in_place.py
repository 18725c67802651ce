"""Replacing a file in place without losing it, or anything about it but the rig inside.

``fix --in-place`` must leave every input either untouched or fully fixed with a byte copy
beside it, whatever happens: an exception, a full disk, a kill. So nothing is ever written
under a final name. The fixed file and the backup are written under temporary names in the
same directory, flushed to disk, and renamed, which the file system does atomically; temporary
files are removed on every way out but a kill. A file whose replacement would change more than
its content (its owner, its links, a read-only promise) is refused with the reason instead.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Callable, Collection, Iterator
from pathlib import Path

from .inputs import FOLLOW_FLAG

BACKUP_SUFFIX = ".ik-doctor-backup"
TEMPORARY_SUFFIX = ".ik-doctor-tmp"
"""Temporary files end here, not in ``.blend``: a scan of the directory never picks one up."""


def refusal(path: Path) -> str | None:
    """Why replacing ``path`` would change more than the rig in it, or None when it would not."""
    try:
        found = os.lstat(path)
    except OSError as error:
        return f"cannot be read: {error.strerror or error}"
    if stat.S_ISLNK(found.st_mode):
        return f"is a symbolic link; {FOLLOW_FLAG} fixes the file it points to"
    if not stat.S_ISREG(found.st_mode):
        return "is not a regular file"
    if found.st_nlink > 1:
        return f"has {found.st_nlink} hard links; replacing it would split them"
    if not found.st_mode & 0o222 or not os.access(path, os.W_OK):
        return "is read-only"
    if not os.access(path.parent, os.W_OK | os.X_OK):
        return "is in a directory this user cannot write to (the backup is kept beside it)"
    return owner_refusal(found, runner=os.geteuid(), groups={os.getegid(), *os.getgroups()})


def owner_refusal(found: os.stat_result, runner: int, groups: Collection[int]) -> str | None:
    """Why the replacement could not keep the file's owner and group, or None.

    A new file belongs to whoever writes it. Only root may give it to another user, and an
    owner only to a group they are in; rather than leave the rig with a new owner, refuse.
    """
    if runner == 0 or (found.st_uid == runner and found.st_gid in groups):
        return None
    return (
        f"belongs to user {found.st_uid} (group {found.st_gid}); "
        "the fixed file could not keep that owner"
    )


def replace(path: Path, save: Callable[[Path], None]) -> Path:
    """Replace ``path`` by what ``save`` writes, after keeping a byte copy; return the copy.

    Each step may be the last: the fixed file is written under a temporary name, given the
    original's owner and mode, and flushed; the backup is copied, flushed and renamed to a free
    name; only then does the fixed file take the original's name.
    """
    original = os.stat(path)
    with _temporary(path) as fixed:
        private = os.umask(0o077)  # the fixed rig is nobody else's until it has the right mode
        try:
            save(fixed)
        finally:
            os.umask(private)
        _give_owner_and_mode(fixed, original)
        _flush(fixed)
        backup = _keep_backup(path, original)
        os.replace(fixed, path)
    _flush(path.parent)
    return backup


def could_be_backup(path: str | Path, of: str | Path) -> bool:
    """``path`` is where ``replace`` may keep a backup of ``of`` (both resolved by the caller)."""
    path, of = Path(path), Path(of)
    first = of.name + BACKUP_SUFFIX
    numbered = re.fullmatch(re.escape(first) + r"-[0-9]+", path.name)
    return path.parent == of.parent and (path.name == first or numbered is not None)


def _backup_name(path: Path, number: int) -> Path:
    """``rig.blend.ik-doctor-backup``, then ``-2``, ``-3``...: an older backup is never replaced."""
    suffix = BACKUP_SUFFIX if number == 1 else f"{BACKUP_SUFFIX}-{number}"
    return path.with_name(path.name + suffix)


def _keep_backup(path: Path, original: os.stat_result) -> Path:
    with _temporary(path) as copying:
        with open(path, "rb") as source, open(copying, "wb") as target:
            shutil.copyfileobj(source, target)
            target.flush()
            os.fsync(target.fileno())
        shutil.copystat(path, copying)
        _give_owner_and_mode(copying, original)
        return _claim_free_name(copying, path)


def _claim_free_name(copying: Path, path: Path) -> Path:
    """Give the finished copy the first free backup name, atomically and without overwriting.

    A hard link fails when the name exists, where a rename would replace it.
    """
    number = 1
    while True:
        backup = _backup_name(path, number)
        try:
            os.link(copying, backup)
            return backup
        except FileExistsError:
            number += 1
        except OSError:  # a file system without hard links: look, then rename
            if backup.exists():
                number += 1
                continue
            os.rename(copying, backup)
            return backup


def _give_owner_and_mode(path: Path, original: os.stat_result) -> None:
    written = os.stat(path)
    if (written.st_uid, written.st_gid) != (original.st_uid, original.st_gid):
        os.chown(path, original.st_uid, original.st_gid)
    os.chmod(path, stat.S_IMODE(original.st_mode))  # after chown, which clears setuid bits


def _flush(path: Path) -> None:
    """Push a file (or a directory's entries: a rename) to the disk before the next step."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        with contextlib.suppress(OSError):  # some file systems cannot sync a directory
            os.fsync(descriptor)
    finally:
        os.close(descriptor)


@contextlib.contextmanager
def _temporary(beside: Path) -> Iterator[Path]:
    """A new private file next to ``beside``, removed on the way out whatever happened.

    Blender saves through ``NAME@`` and renames it to ``NAME``: that one is removed too.
    """
    descriptor, name = tempfile.mkstemp(
        prefix=f".{beside.name}.", suffix=TEMPORARY_SUFFIX, dir=beside.parent
    )
    os.close(descriptor)
    temporary = Path(name)
    try:
        yield temporary
    finally:
        for leftover in (temporary, temporary.with_name(temporary.name + "@")):
            leftover.unlink(missing_ok=True)
