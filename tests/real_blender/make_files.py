"""Runs inside the Blender under test: saves the rigs the command-line tests read, in that
Blender's own file format (Blender 4.3 cannot read a file saved by 5.x).

``blender -b --factory-startup --python make_files.py -- REPO OUT_DIR`` writes:
- ``good.blend``: the reference rig; ``broken.blend``: its leg without a target;
- ``trap.blend``: the broken rig with a registered text block and Python drivers that write
  ``marker_*`` files in OUT_DIR when run;
- ``hangs.blend``: the reference rig linked from ``library.blend`` (the test puts a FIFO in
  the library's place, so a worker reading it waits for as long as the test wants);
- ``nodes.blend``: a file this Blender reads with an error, or crashes on.
"""

from __future__ import annotations

import sys
from pathlib import Path

import bpy

repo, out = (Path(arg) for arg in sys.argv[sys.argv.index("--") + 1 :][:2])
sys.path[:0] = [str(repo), str(repo / "tests")]

from cli_rigs import add_trap, broken_rig, save_with_a_broken_node_group  # noqa: E402

from ik_doctor.sample_rig import build_character_rig  # noqa: E402

MARKERS = ("text", "driver", "expression")


def save(name: str) -> None:
    bpy.ops.wm.save_as_mainfile(filepath=str(out / name), check_existing=False)
    bpy.ops.wm.read_homefile(use_empty=True)


bpy.ops.wm.read_homefile(use_empty=True)
build_character_rig()
save("good.blend")
broken_rig()
save("broken.blend")
add_trap(broken_rig(), {name: out / f"marker_{name}" for name in MARKERS})
save("trap.blend")
build_character_rig()
save("library.blend")
with bpy.data.libraries.load(str(out / "library.blend"), link=True, relative=True) as (_, linked):
    linked.objects = ["IKDoctorRig"]
bpy.context.scene.collection.objects.link(linked.objects[0])
save("hangs.blend")
save_with_a_broken_node_group(out / "nodes.blend")
