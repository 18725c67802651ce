"""Truth on the animator's own frames: the scan reports every real chain-action that misses.

``benchmarks/animation_table.py`` measures every IK chain of every action of the real rigs in
``../shared/rigs/`` frame by frame with code of its own, then runs ``scan_animation`` and
applies its fixes. Held here, per file: no chain-action misses without an error or warning on
it, none that lands on every frame has one, and every fix offered makes its chain-action land.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import animation_table as table

FILES = table.blend_files() if table.RIGS.is_dir() else []
pytestmark = pytest.mark.skipif(not FILES, reason=f"no rigs in {table.RIGS}")


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_chain_that_misses_on_its_frames_is_reported_and_its_fix_lands_it(path) -> None:
    try:
        rigs = list(table.survey(path))
    except RuntimeError as error:
        if "not a blend file" in str(error):
            pytest.skip(f"{path.name}: saved in a format this Blender cannot read")
        raise
    for rig in rigs:
        missing, reported = rig.missing(), rig.reported()
        assert missing - reported == set(), f"{rig.armature}: misses with no finding"
        assert reported - missing == set(), f"{rig.armature}: findings on chains that land"
        assert {key for key, worst in rig.fixed.items() if worst > table.LIMIT} == set(), (
            f"{rig.armature}: a fix the scan offered left the chain missing"
        )
        assert set(rig.fixed) <= rig.caused()
