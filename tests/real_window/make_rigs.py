"""Runs inside the Blender under test, in the background: saves the files a person opens.

``blender -b --factory-startup --python make_rigs.py -- REPO OUT_DIR`` writes, with that
Blender's own file format:
- ``demo.blend``: the demo rig (the reference character with a fault on three limbs, as
  ``ik-doctor demo`` builds it), active and selected in Object Mode;
- ``walk.blend``: the reference character with its left foot control keyed on a walk and an
  IK lock on the left knee, so Verify by Solving finds the foot missing on some frames; and
  its right knee rolled 30° off the bend axis and hinged on X, whose fix moves bones in Edit
  Mode on a skinned rig, so it asks first;
- ``export.blend``: the reference character walking the same keys, its leg following by IK
  only, in a scene that remembers the glTF exporter's settings of a person who exported it once
  with *Always Sample Animations* off (the exporter's own *Remember Export Settings*).
All open with the 3D View looking at the rig from the front, as an animator left it.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import bpy
from mathutils import Euler, Vector

repo, out = (Path(arg) for arg in sys.argv[sys.argv.index("--") + 1 :][:2])
sys.path.insert(0, str(repo))

from ik_doctor.cli.demo import build_demo_rig  # noqa: E402
from ik_doctor.core.editing import edit_bones  # noqa: E402
from ik_doctor.sample_rig import build_character_rig  # noqa: E402

WALK_FRAMES = range(1, 13)


def empty_scene() -> None:
    """The factory start-up file without its cube: the screens a new user has."""
    for obj in list(bpy.data.objects):
        if obj.type == "MESH":
            bpy.data.objects.remove(obj)


def look_from_the_front(obj: bpy.types.Object) -> None:
    for screen in bpy.data.screens:
        for area in screen.areas:
            if area.type != "VIEW_3D":
                continue
            view = area.spaces.active.region_3d
            view.view_perspective = "ORTHO"
            view.view_rotation = Euler((math.pi / 2, 0, 0)).to_quaternion()
            view.view_location = obj.matrix_world @ Vector((0, 0, 0.95))
            view.view_distance = 2.6


def make_active(obj: bpy.types.Object) -> None:
    for other in bpy.context.view_layer.objects:
        other.select_set(False)
    bpy.context.view_layer.objects.active = obj
    obj.select_set(True)


def key_walk(rig: bpy.types.Object) -> None:
    """foot_ik.L lifts and swings over frames 1-12."""
    animation = rig.animation_data_create()
    animation.action = bpy.data.actions.new("Walk")
    control = rig.pose.bones["foot_ik.L"]
    rest = control.matrix.copy()
    for frame in WALK_FRAMES:
        phase = 2.0 * math.pi * (frame - 1) / len(WALK_FRAMES)
        matrix = rest.copy()
        matrix.translation = rest.translation + Vector(
            (0.0, -0.2 * math.sin(phase), 0.25 + 0.1 * math.cos(phase))
        )
        control.matrix = matrix
        bpy.context.view_layer.update()
        control.keyframe_insert("location", frame=frame)
    bpy.context.scene.frame_start, bpy.context.scene.frame_end = 1, len(WALK_FRAMES)


def lock_the_left_knee(rig: bpy.types.Object) -> None:
    """The left knee cannot bend on X: the foot misses its keys on some frames."""
    rig.pose.bones["shin.L"].lock_ik_x = True


def export_once_without_sampling(rig: bpy.types.Object) -> None:
    """Export as a person did, with the glTF exporter remembering its settings on the scene."""
    make_active(rig)
    exported = out / "exported-once.glb"
    bpy.ops.export_scene.gltf(
        filepath=str(exported), export_force_sampling=False, will_save_settings=True
    )
    exported.unlink()


def roll_the_right_knee_off_its_hinge(rig: bpy.types.Object) -> None:
    with edit_bones(rig) as bones:
        bones["shin.R"].roll += math.radians(30)
    knee = rig.pose.bones["shin.R"]
    knee.lock_ik_y = knee.lock_ik_z = True


def save(name: str, obj: bpy.types.Object, frame: int = 1) -> None:
    make_active(obj)
    look_from_the_front(obj)
    bpy.context.scene.frame_set(frame)
    bpy.ops.wm.save_as_mainfile(filepath=str(out / name))


empty_scene()
save("demo.blend", build_demo_rig())
bpy.ops.wm.read_factory_settings()
empty_scene()
walk = build_character_rig("IKDoctorWalk")
key_walk(walk)
lock_the_left_knee(walk)
roll_the_right_knee_off_its_hinge(walk)
save("walk.blend", walk, frame=7)  # the foot's lowest: not the scan's worst frame
bpy.ops.wm.read_factory_settings()
empty_scene()
exported = build_character_rig("IKDoctorExport")
key_walk(exported)
export_once_without_sampling(exported)
save("export.blend", exported, frame=7)
