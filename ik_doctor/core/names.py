"""Names Python cannot read, and the one way IK Doctor writes them.

Blender 2.4x saved names in the user's 8-bit code page: a Latin-1 'ß' is the byte 0xdf, which
is not UTF-8. Measured on bpy 4.2, 4.5 and 5.3 alike, on a file whose saved bytes were edited so:
reading ``.name`` of such an object, bone, pose bone, constraint or action raises
``UnicodeDecodeError`` (so does an F-curve's ``data_path`` or a constraint's ``subtarget`` that
holds one), and ``keys()`` of a collection that holds one raises ``SystemError``; ``repr()`` of
such an object, or of any bone or constraint inside it, crashes the process, and so does looking
one up by a string with a lone surrogate (Python's own spelling of an undecodable byte). Blender
still loads, poses and solves the rig.

IK Doctor reads every name through ``readable``: where the bytes are not UTF-8 it spells each
byte that does not decode as a Python escape (``Fu\\xdf.L``). That spelling is plain text every
report, the panel and JSON carry as it is, and a lookup by it finds nothing (never a crash):
``find`` finds such an item by walking its collection, and a fix whose finding, chain, target or
pole holds one refuses (``has_unreadable``, asked by ``doctor.run_fix``) rather than guess.
"""

from __future__ import annotations

import re
from typing import Any

ESCAPED_BYTE = re.compile(r"\\x[89a-f][0-9a-f]")
"""How ``readable`` spells a byte that is not UTF-8 (every such byte is 0x80 or above)."""
SAVED_AS_BYTES = "saved in bytes that are not text (as Blender 2.4x saved names)"
"""How a refusal says why a name with ``ESCAPED_BYTE`` cannot be asked for: the words every
message that names one shares."""


def readable(item: Any, attribute: str = "name", default: str | None = None) -> str:
    """The string ``attribute`` of a Blender item (its name by default), with every byte that
    is not UTF-8 spelled as an escape; ``default`` where the item has no such attribute."""
    try:
        return getattr(item, attribute) if default is None else getattr(item, attribute, default)
    except UnicodeDecodeError as error:  # Blender hands Python the saved bytes as they are
        return spelled(error.object)


def spelled(raw: bytes) -> str:
    """Bytes as IK Doctor shows them: UTF-8 where they decode, each byte that does not as a
    Python escape (``\\xdf``). A file name that is not UTF-8 is shown so too (``safe_text``)."""
    return raw.decode("utf-8", "backslashreplace")


def has_unreadable(name: str | None) -> bool:
    """Whether ``readable`` spelled some of this name's bytes: Blender cannot be asked for it by
    this name."""
    return name is not None and ESCAPED_BYTE.search(name) is not None


def names_of(collection: Any) -> list[str]:
    """The names of a collection's items, in order, each ``readable``."""
    try:
        return list(collection.keys())
    except SystemError:  # keys() fails whole on one undecodable name
        return [readable(item) for item in collection]


def find(collection: Any, name: str) -> Any:
    """The item of a Blender collection with this ``readable`` name, or None (also when two
    undecodable names read the same: a guess is not a find)."""
    if not has_unreadable(name):
        return collection.get(name)
    found = [item for item in collection if readable(item) == name]
    return found[0] if len(found) == 1 else None


def named(collection: Any, name: str) -> Any:
    """``find``, for an item that must be there: KeyError when it is not."""
    item = find(collection, name)
    if item is None:
        raise KeyError(name)
    return item
