"""Rigs the command-line tests read, built in whatever Blender runs this: pip's ``bpy`` in the
suite, or a Blender binary under test (``tests/real_blender/make_files.py``), so each saves
them in its own file format. No pytest here: a Blender binary's Python has none.
"""

from __future__ import annotations

from pathlib import Path

import bpy

from ik_doctor.sample_rig import build_character_rig


def broken_rig() -> bpy.types.Object:
    """The reference rig with a leg that has no target and an arm with chain length 1."""
    rig = build_character_rig()
    rig.pose.bones["shin.L"].constraints["IK"].target = None
    rig.pose.bones["forearm.L"].constraints["IK"].chain_count = 1
    return rig


def add_trap(rig: bpy.types.Object, markers: dict[str, Path]) -> None:
    """A registered text block and two Python drivers, each writing a marker when run."""
    text = bpy.data.texts.new("trap.py")
    text.write(
        "import bpy\n"
        f"open({str(markers['text'])!r}, 'w').write('ran')\n"
        "def ik_trap(value):\n"
        f"    open({str(markers['driver'])!r}, 'w').write('ran')\n"
        "    return value\n"
        "bpy.app.driver_namespace['ik_trap'] = ik_trap\n"
    )
    text.use_module = True
    for axis, expression in (
        (0, "ik_trap(0.0)"),
        (1, f"__import__('pathlib').Path({str(markers['expression'])!r}).write_text('ran') * 0"),
    ):
        curve = rig.driver_add("location", axis)
        curve.driver.type = "SCRIPTED"
        curve.driver.expression = expression
