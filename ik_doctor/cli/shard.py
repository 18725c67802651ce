"""``--shard K/N``: one machine's part of a run too big for one machine.

A file's part is decided by a hash of its path below the argument that named it (the file's
name for a file argument), with ``/`` separators: every machine given the same arguments takes
the same files, wherever the library is mounted, and a file keeps its part when others are
added. Every file keeps its place in the full input list (``index`` in the JSON report), and a
sharded report says which part it is, of how many inputs, so ``ik-doctor merge`` can restore the
one-run order and tell a missing part, a part given twice, or parts run over other inputs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any, TypeVar

from .inputs import Input

T = TypeVar("T")


@dataclass(frozen=True)
class Shard:
    """Part ``part`` (1-based) of ``count``."""

    part: int
    count: int

    def takes(self, relative: str) -> bool:
        key = PurePath(relative).as_posix().encode("utf-8", "surrogateescape")
        digest = hashlib.sha256(key).digest()
        return int.from_bytes(digest[:8], "big") % self.count + 1 == self.part


def parse_shard(text: str) -> Shard:
    """``K/N`` with 1 <= K <= N, for argparse (a bad value is a usage error, exit 2)."""
    part, slash, count = text.partition("/")
    try:
        shard = Shard(int(part), int(count))
    except ValueError:
        shard = None
    if not slash or shard is None or not 1 <= shard.part <= shard.count:
        raise argparse.ArgumentTypeError(f"{text!r} is not K/N with 1 <= K <= N (e.g. 2/4)")
    return shard


@dataclass(frozen=True)
class Selection:
    """The inputs this run handles, by their place in the full input list."""

    indices: tuple[int, ...]
    total: int
    shard: Shard | None
    inputs_sha256: str
    """Digest of every input's hashed path, in order: parts of one run have the same."""

    @classmethod
    def of(cls, inputs: Sequence[Input], shard: Shard | None) -> Selection:
        relatives = [PurePath(item.relative).as_posix() for item in inputs]
        indices = tuple(
            index
            for index, relative in enumerate(relatives)
            if shard is None or shard.takes(relative)
        )
        listing = json.dumps(relatives).encode()  # ASCII: json escapes the rest
        return cls(indices, len(inputs), shard, hashlib.sha256(listing).hexdigest())

    def take(self, items: Sequence[T]) -> list[T]:
        """This run's share of a list that runs parallel to the inputs."""
        return [items[index] for index in self.indices]

    def numbered(self, files: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        """This run's results, each with its ``index`` in the full input list."""
        return [{"index": index, **file} for index, file in zip(self.indices, files, strict=True)]

    def describe(self) -> dict[str, Any] | None:
        """The JSON report's ``shard``; None for a run over every input."""
        if self.shard is None:
            return None
        return {
            "part": self.shard.part,
            "of": self.shard.count,
            "inputs": self.total,
            "inputs_sha256": self.inputs_sha256,
        }
