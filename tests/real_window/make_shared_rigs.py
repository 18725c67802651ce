"""Runs inside the Blender under test, in the background: each shared rig as a person opens it.

``blender -b --factory-startup --python make_shared_rigs.py -- REPO RIGS_DIR OUT_DIR`` opens
every ``.blend`` of ``../shared/rigs`` that this Blender reads, without the layout it was saved
with (so the sidebar opens at its default width, as in a new user's Blender), makes the armature
with the most findings active and selected in Object Mode, and saves it to ``OUT_DIR`` under
the rig's file name. Rigs whose armatures have no finding are left out: their panel says only
"No problems found". ``OUT_DIR/rigs.json`` maps each saved file to its armature and finding
count.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import bpy

repo, rigs, out = (Path(arg) for arg in sys.argv[sys.argv.index("--") + 1 :][:3])
sys.path.insert(0, str(repo))

from ik_doctor import diagnose  # noqa: E402


def _show(obj: bpy.types.Object) -> None:
    """Make ``obj`` visible, as a person does in the outliner before working on it (the Godot
    robot's armature sits in a collection hidden in the viewport)."""
    for collection in obj.users_collection:
        collection.hide_viewport = False
    for layer in _layer_collections(bpy.context.view_layer.layer_collection):
        if obj.name in layer.collection.objects:
            layer.exclude = layer.hide_viewport = False
    obj.hide_set(False)


def _all_in_object_mode() -> None:
    """Leave every object in Object Mode, not only the active one. An object keeps the mode it
    was saved in: the red robot's, the Alien's, the Cat's and the Cowboy's armatures were saved
    in Pose Mode while a mesh (or nothing) was active, so once their armature was made active
    here, the window opened the file already in Pose Mode and the test's Ctrl+Tab left it."""
    view_layer = bpy.context.view_layer
    for each in view_layer.objects:
        if each.mode != "OBJECT":
            view_layer.objects.active = each
            bpy.ops.object.mode_set(mode="OBJECT")


def _layer_collections(layer: bpy.types.LayerCollection):
    yield layer
    for child in layer.children:
        yield from _layer_collections(child)


if not any(rigs.glob("*.blend")):
    # Not a rig this Blender cannot read: the folder is out of its sight (a ../shared that is a
    # symbolic link Debian's system could not follow made every panel test skip, 29 of 29).
    raise RuntimeError(f"no .blend file in {rigs}, as this Blender sees it")
saved = {}
for path in sorted(rigs.glob("*.blend")):
    try:
        bpy.ops.wm.open_mainfile(filepath=str(path), load_ui=False)
    except RuntimeError:
        continue  # saved by a newer Blender than this one
    armatures = [o for o in bpy.data.objects if o.type == "ARMATURE" and o.library is None]
    counted = sorted(((len(diagnose(o)), o.name) for o in armatures), reverse=True)
    if not counted or counted[0][0] == 0:
        continue
    count, name = counted[0]
    obj = bpy.data.objects[name]
    _show(obj)
    _all_in_object_mode()
    for other in bpy.context.view_layer.objects:
        other.select_set(False)
    bpy.context.view_layer.objects.active = obj
    obj.select_set(True)
    bpy.ops.wm.save_as_mainfile(filepath=str(out / path.name), copy=True)
    # A file with a script that runs on load opens behind Blender's "automatic execution of
    # Python scripts disabled" dialog, which a person dismisses first.
    scripts = any(text.use_module for text in bpy.data.texts)
    saved[path.name] = {"armature": name, "findings": count, "scripts": scripts}
(out / "rigs.json").write_text(json.dumps(saved, indent=1))
