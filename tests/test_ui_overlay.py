"""The viewport overlay's geometry: each chain's line to its target and pole and its bend-plane
normal, coloured by the stored report. Drawing needs a window; what is drawn is tested here."""

from __future__ import annotations

import ast
import math
from pathlib import Path

import bpy
import pytest
import test_ui_support

from ik_doctor.ui import overlay_geometry
from ik_doctor.ui.overlay_geometry import COLORS, chain_segments

addon = test_ui_support.addon  # shared fixture

CHAINS = [("shin.L", "IK"), ("shin.R", "IK"), ("forearm.L", "IK"), ("forearm.R", "IK")]


def of_chain(segments, owner: str, kind: str):
    """Segments of one kind on the chain whose tip is ``owner``'s tail."""
    tip_owner = bpy.data.objects["IKDoctorRig"].pose.bones[owner]
    tip = bpy.data.objects["IKDoctorRig"].matrix_world @ tip_owner.tail
    root = bpy.data.objects["IKDoctorRig"].matrix_world @ tip_owner.parent.head
    found = []
    for segment in segments:
        if segment.kind != kind:
            continue
        if kind == "target" and (segment.start - tip).length < 1e-6:
            found.append(segment)
        if kind in ("pole", "normal") and (segment.start - tip_owner.head).length < 1e-6:
            found.append(segment)
        if kind == "chain" and (segment.start - root).length < 1e-6:
            found.append(segment)
    return found


def test_every_chain_draws_its_bones_target_pole_and_bend_normal(rig) -> None:
    bpy.context.view_layer.update()
    segments = chain_segments(rig)
    kinds = [segment.kind for segment in segments]
    assert kinds.count("chain") == 2 * len(CHAINS)
    assert kinds.count("target") == kinds.count("pole") == kinds.count("normal") == len(CHAINS)
    assert {segment.color for segment in segments} == {COLORS[None]}


def test_lines_end_on_the_target_and_the_pole(rig) -> None:
    bpy.context.view_layer.update()
    segments = chain_segments(rig)
    pose = rig.pose.bones
    (target,) = of_chain(segments, "shin.L", "target")
    assert (target.end - pose["foot_ik.L"].head).length < 1e-6
    (pole,) = of_chain(segments, "shin.L", "pole")
    assert (pole.end - pose["knee_pole.L"].head).length < 1e-6


def test_the_normal_is_the_bend_plane_normal_and_flips_with_the_knee(rig) -> None:
    bpy.context.view_layer.update()
    (normal,) = of_chain(chain_segments(rig), "shin.L", "normal")
    thigh_x = rig.data.bones["thigh.L"].matrix_local.col[0].xyz.normalized()
    direction = (normal.end - normal.start).normalized()
    assert abs(direction.dot(thigh_x)) == pytest.approx(1.0, abs=1e-3)
    # Turn the pole half a turn: the knee points backwards and the drawn normal flips.
    rig.pose.bones["shin.L"].constraints["IK"].pole_angle += math.pi
    bpy.context.view_layer.update()
    (flipped,) = of_chain(chain_segments(rig), "shin.L", "normal")
    assert (flipped.end - flipped.start).normalized().dot(direction) < -0.9


def test_chains_take_the_colour_of_their_worst_finding(rig) -> None:
    segments = chain_segments(rig, {("shin.L", "IK"): "error", ("forearm.R", "IK"): "warning"})
    colours = {}
    for owner in ("shin.L", "forearm.R", "shin.R"):
        (target,) = of_chain(segments, owner, "target")
        colours[owner] = target.color
    assert colours == {
        "shin.L": COLORS["error"],
        "forearm.R": COLORS["warning"],
        "shin.R": COLORS[None],
    }


def test_a_muted_chain_is_not_drawn_and_a_missing_target_draws_no_target_line(rig) -> None:
    rig.pose.bones["shin.R"].constraints["IK"].mute = True
    rig.pose.bones["shin.L"].constraints["IK"].target = None
    bpy.context.view_layer.update()
    segments = chain_segments(rig)
    assert sum(segment.kind == "target" for segment in segments) == 2
    assert sum(segment.kind == "chain" for segment in segments) == 6


def test_a_straight_chain_has_no_bend_plane_to_draw(scene) -> None:
    from ik_doctor.sample_rig import build_character_rig

    rig = build_character_rig(with_mesh=False)
    bpy.context.view_layer.objects.active = rig
    bpy.ops.object.mode_set(mode="EDIT")
    thigh, shin = rig.data.edit_bones["thigh.L"], rig.data.edit_bones["shin.L"]
    shin.tail = shin.head + (thigh.tail - thigh.head).normalized() * shin.length
    bpy.ops.object.mode_set(mode="OBJECT")
    rig.pose.bones["shin.L"].constraints["IK"].influence = 0.0  # the pose stays the rest pose
    bpy.context.view_layer.update()
    normals = [s for s in chain_segments(rig) if s.kind == "normal"]
    assert len(normals) == 3
    assert of_chain(chain_segments(rig), "shin.L", "normal") == []


def test_the_geometry_module_needs_no_gpu() -> None:
    tree = ast.parse(Path(overlay_geometry.__file__).read_text())
    modules = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules.add(node.module.split(".")[0])
    assert modules.isdisjoint({"gpu", "gpu_extras"})


def test_the_overlay_switch_redraws_the_3d_views(addon, monkeypatch, capfd) -> None:
    """Its update once was a lambda that raised NameError on every toggle: Blender printed the
    traceback and went on, so the overlay showed only at the next redraw."""
    from ik_doctor.ui import report

    redrawn: list[int] = []
    monkeypatch.setattr(report, "redraw_3d_views", lambda: redrawn.append(1))
    state = bpy.context.window_manager.ik_doctor
    state.show_overlay = not state.show_overlay
    state.show_overlay = not state.show_overlay
    assert redrawn == [1, 1]
    assert "Traceback" not in capfd.readouterr().err


def test_the_draw_handler_draws_only_when_switched_on(addon, rig, monkeypatch) -> None:
    from ik_doctor.ui import overlay

    drawn: list[int] = []
    monkeypatch.setattr(overlay, "chain_segments", lambda *args: drawn.append(1) or [])
    bpy.context.view_layer.objects.active = rig
    state = bpy.context.window_manager.ik_doctor
    state.show_overlay = False
    overlay.draw()
    assert drawn == []
    state.show_overlay = True
    try:
        overlay.draw()  # no segments: returns before touching the gpu, which needs a window
    finally:
        state.show_overlay = False
    assert drawn == [1]
    if bpy.app.background:
        pytest.skip("drawing lines needs a window: the gpu module is unavailable in background")
