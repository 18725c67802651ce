"""Names and messages from untrusted files, made safe to show in a terminal, XML or HTML.

An armature, bone, constraint or file name can hold any character but NUL: an escape sequence
that clears the screen or prints a hyperlink, a carriage return that overwrites the line, a
right-to-left override that shows the rest of a name backwards, or a character XML 1.0 does
not allow at all. The text, JUnit and HTML reports show every such character as a visible
escape instead (``\\x1b``, ``\\u202e``: Python's own spelling; a byte of a file name that is
not UTF-8 as that byte, ``\\xdf``, as ``core.names`` spells a name Blender saved so), so the
report shows what the name holds and nothing the name says reaches the terminal or the parser.
The JSON report keeps names exact: ``json.dumps`` writes every control and non-ASCII character
as a ``\\u`` escape.
"""

from __future__ import annotations

import re
from typing import Any

from ..core.names import spelled

UNSAFE = re.compile(
    "["
    "\x00-\x1f\x7f-\x9f"  # C0 and C1 controls, DEL: terminal commands; XML forbids most of C0
    "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"  # bidirectional marks and overrides
    "\u2028\u2029"  # line and paragraph separators: a line break to some terminals and editors
    "\ud800-\udfff"  # lone surrogates: a file name that is not UTF-8; cannot be encoded
    "\ufffe\uffff"  # not characters; XML forbids them
    "]"
)


def visible(text: str) -> str:
    """``text`` with every control, bidi and non-character spelled as a Python escape."""
    return UNSAFE.sub(_escape, text)


def visible_strings(value: Any) -> Any:
    """A copy of a result (dicts, lists, strings, numbers) with every string made ``visible``.

    Renderers take their input through this once, so no field can be forgotten.
    """
    if isinstance(value, str):
        return visible(value)
    if isinstance(value, dict):
        return {key: visible_strings(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(visible_strings(item) for item in value)
    return value


def _escape(match: re.Match[str]) -> str:
    character = match.group()
    if "\udc80" <= character <= "\udcff":  # a byte of a file name that is not UTF-8
        return spelled(character.encode("utf-8", "surrogateescape"))
    return repr(character)[1:-1]  # every other character UNSAFE matches is one Python escapes
