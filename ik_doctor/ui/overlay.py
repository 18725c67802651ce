"""The viewport overlay: a 3D View draw handler that draws the lines ``overlay_geometry`` gives.

It draws only when the overlay is switched on and the active object is an armature; it reads
the stored report for colours and never runs a check. The handler is removed on unregister.
"""

from __future__ import annotations

import bpy
import gpu
from gpu_extras.batch import batch_for_shader

from . import report
from .overlay_geometry import chain_segments

LINE_WIDTH = 2.0

_handle: object | None = None


def draw() -> None:
    context = bpy.context
    if not report.state(context).show_overlay:
        return
    obj = context.active_object
    if obj is None or obj.type != "ARMATURE":
        return
    stored = report.report_for(context, obj)
    segments = chain_segments(obj, report.chain_severities(stored) if stored else None)
    if not segments:
        return
    coords = [point for segment in segments for point in (segment.start, segment.end)]
    colors = [segment.color for segment in segments for _ in range(2)]
    # The stub says from_builtin returns None; Blender returns the shader.
    shader: gpu.types.GPUShader = gpu.shader.from_builtin("POLYLINE_FLAT_COLOR")  # type: ignore[assignment,func-returns-value]
    batch = batch_for_shader(shader, "LINES", {"pos": coords, "color": colors})
    region = context.region
    assert region is not None, "a draw handler runs in the region it draws"
    shader.uniform_float("viewportSize", (region.width, region.height))
    shader.uniform_float("lineWidth", LINE_WIDTH)
    gpu.state.blend_set("ALPHA")
    gpu.state.depth_test_set("NONE")
    batch.draw(shader)
    gpu.state.blend_set("NONE")


def is_drawing() -> bool:
    return _handle is not None


def register() -> None:
    global _handle
    _handle = bpy.types.SpaceView3D.draw_handler_add(draw, (), "WINDOW", "POST_VIEW")


def unregister() -> None:
    global _handle
    if _handle is not None:
        bpy.types.SpaceView3D.draw_handler_remove(_handle, "WINDOW")
        _handle = None
