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


def save_with_a_broken_node_group(path: Path) -> None:
    """Save a file Blender reads with an error: the reference rig with a fault (the left arm at
    chain length 1) and a material whose embedded node tree has its ID code zeroed in the saved
    bytes. Opening it, 4.5 and 5.x raise "Data-block 'MASkin' had an invalid embedded node
    group, which has not been read" and load the rest; 4.2 and Debian's 4.3.2 crash."""
    bpy.ops.wm.read_homefile(use_empty=True)
    rig = build_character_rig()
    rig.pose.bones["forearm.L"].constraints["IK"].chain_count = 1
    skin = bpy.data.materials.new("Skin")
    if skin.node_tree is None:  # Blender 5 makes every material with its nodes
        skin.use_nodes = True
    rig.children[0].data.materials.append(skin)  # the body: a material nobody uses is not saved
    bpy.ops.wm.save_as_mainfile(filepath=str(path), copy=True, compress=False)
    data = bytearray(path.read_bytes())
    at = data.index(b"NTShader Nodetree")
    data[at : at + 2] = b"\0\0"  # no ID code: Blender drops the tree and says so
    path.write_bytes(bytes(data))
    bpy.ops.wm.read_homefile(use_empty=True)
