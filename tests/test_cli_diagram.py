"""The HTML report's chain diagrams: the right points, in Blender's views, faults in red."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import bpy
from solving import findings_of
from test_check_spline_ik import STRAIGHT, TAIL, add_tail
from test_cli import ik_doctor, valid_report

from ik_doctor.cli.diagram import (
    MARK_RED,
    SPLINE_IK,
    ChainGeometry,
    chain_geometry,
    chain_svg,
    faulty_parts,
    rig_geometry,
    views_for,
)
from ik_doctor.core.rig import RigView
from ik_doctor.sample_rig import build_character_rig

SVG = "{http://www.w3.org/2000/svg}"


def _leg(rig: bpy.types.Object) -> ChainGeometry:
    view = RigView(rig)
    chain = view.chain("shin.L", "IK")
    assert chain is not None
    return chain_geometry(view, chain)


def test_leg_geometry_has_bones_root_first_target_pole_and_bend_plane(rig) -> None:
    leg = _leg(rig)
    assert [name for name, _head, _tail in leg.bones] == ["thigh.L", "shin.L"]
    assert leg.parent is not None and leg.parent[0] == "hips"
    assert leg.tip == leg.bones[-1][2] == (0.1, 0.0, 0.1)
    assert leg.target == (0.1, 0.0, 0.1)  # foot_ik.L's head: IK reaches for a bone's head
    assert leg.pole == (0.1, -0.6, 0.55)
    # The sample rig's chain bones have their X axis on the bend-plane normal.
    x_axis = rig.data.bones["thigh.L"].matrix_local.col[0].xyz.normalized()
    assert leg.bend_normal is not None
    assert abs(abs(sum(a * b for a, b in zip(leg.bend_normal, x_axis, strict=True))) - 1) < 1e-6
    assert ChainGeometry.from_dict(json.loads(json.dumps(leg.to_dict()))) == leg


def test_side_view_shows_the_knee_pole_in_front_of_the_leg(rig) -> None:
    """Blender's Right view looks along -X: the front of the rig (-Y) is on the left."""
    side = ElementTree.fromstring(chain_svg(_leg(rig), set(), "side"))
    pole = next(c for c in side.iter(f"{SVG}circle") if c.findtext(f"{SVG}title") == "pole")
    knee = next(
        line for line in side.iter(f"{SVG}line") if line.findtext(f"{SVG}title") == "shin.L"
    )
    assert float(pole.get("cx")) < float(knee.get("x1"))
    assert MARK_RED not in ElementTree.tostring(side, encoding="unicode")


def test_an_arm_seen_end_on_from_the_side_also_gets_a_top_view(rig) -> None:
    view = RigView(rig)
    arm = chain_geometry(view, view.chain("forearm.L", "IK"))
    assert views_for(_leg(rig)) == ["front", "side"]
    assert views_for(arm) == ["front", "side", "top"]


def test_missing_target_is_drawn_in_red(rig) -> None:
    rig.pose.bones["shin.L"].constraints["IK"].target = None
    leg = _leg(rig)
    assert leg.target is None
    findings = [finding.to_dict() for finding in findings_of(rig, "target")]
    faulty = faulty_parts(leg, findings)
    assert faulty == {"shin.L", "target"}
    front = chain_svg(leg, faulty, "front")
    root = ElementTree.fromstring(front)
    red_bones = [
        line.findtext(f"{SVG}title")
        for line in root.iter(f"{SVG}line")
        if line.get("stroke") == MARK_RED
    ]
    assert red_bones == ["shin.L"]
    assert "no target" in front


# --- Spline IK: the curve drawn with the chain ---------------------------------------------------

RESOLUTION = 12
"""Blender's default resolution for a new curve: each bezier segment drawn as 12 steps."""
CURVE_POINTS = 1 + (len(STRAIGHT) - 1) * RESOLUTION
"""A four-point bezier at that resolution, as Blender lays the chain on it: 37 points."""


def _svg_views(page: str, armature: str) -> list[ElementTree.Element]:
    """The diagrams drawn in the page's section on ``armature`` (one chain each here)."""
    section = page.split(f'<details class="armature"><summary>{armature}<', 1)[1]
    section = section.split('<details class="armature">', 1)[0]
    return [ElementTree.fromstring(svg) for svg in re.findall(r"<svg .*?</svg>", section)]


def _titled(svg: ElementTree.Element, tag: str, title: str) -> ElementTree.Element:
    return next(e for e in svg.iter(f"{SVG}{tag}") if e.findtext(f"{SVG}title") == title)


def _curve_line(svg: ElementTree.Element) -> list[tuple[float, float]]:
    points = _titled(svg, "polyline", "curve").get("points", "").split()
    return [(float(x), float(y)) for x, y in (p.split(",") for p in points)]


def test_a_spline_ik_chain_is_drawn_with_its_curve_from_its_first_point(scene) -> None:
    rig = build_character_rig()
    add_tail(rig)
    (tail,) = [g for g in rig_geometry(RigView(rig)) if g.kind == SPLINE_IK]
    assert [name for name, _head, _tail in tail.bones] == list(TAIL)
    assert (tail.target, tail.pole, tail.bend_normal) == (None, None, None)
    assert tail.curve is not None and len(tail.curve) == CURVE_POINTS
    assert tail.curve[0] == tail.bones[0][1] and tail.curve[-1] == tail.bones[-1][2]
    assert ChainGeometry.from_dict(json.loads(json.dumps(tail.to_dict()))) == tail
    side = chain_svg(tail, set(), "side")
    assert "no target" not in side and MARK_RED not in side
    rig.pose.bones[TAIL[-1]].constraints[-1].target = None
    (lost,) = [g for g in rig_geometry(RigView(rig)) if g.kind == SPLINE_IK]
    assert lost.curve is None and "no curve to follow" in chain_svg(lost, set(), "side")


def test_the_html_report_draws_a_reversed_curve_starting_at_the_chains_tip(tmp_path) -> None:
    """A real file through the real command line: one rig whose tail's curve runs root to tip,
    one whose curve was drawn from the tip. Each tail's diagram holds its curve, every point
    of it, with the start dot at the root end for the first and at the tip end, in red, for the
    second, as Blender's Right view shows them."""
    bpy.ops.wm.read_homefile(use_empty=True)
    for name, points in (("Forward", STRAIGHT), ("Backward", list(reversed(STRAIGHT)))):
        rig = bpy.data.objects.new(name, bpy.data.armatures.new(name))
        bpy.context.scene.collection.objects.link(rig)
        add_tail(rig, points=points)
    path = tmp_path / "tails.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(path), check_existing=False)
    bpy.ops.wm.read_homefile(use_empty=True)
    done = ik_doctor("check", path, "--format", "json", "--html", "r.html", cwd=tmp_path)
    report = valid_report(done)
    chains = {a["name"]: a["chains"] for a in report["files"][0]["armatures"]}
    for chains_of in chains.values():
        (tail,) = chains_of
        assert tail["kind"] == SPLINE_IK and len(tail["curve"]) == CURVE_POINTS
    page = Path(tmp_path / "r.html").read_text("utf-8")
    for armature, root_end in (("Forward", True), ("Backward", False)):
        side = next(s for s in _svg_views(page, armature) if s.findtext(f"{SVG}text") == "side")
        line = _curve_line(side)
        assert len(line) == CURVE_POINTS
        root = _titled(side, "line", TAIL[0])
        tip = _titled(side, "line", TAIL[-1])
        root_head = (float(root.get("x1", "nan")), float(root.get("y1", "nan")))
        tip_tail = (float(tip.get("x2", "nan")), float(tip.get("y2", "nan")))
        start = _titled(side, "circle", "curve start: where the chain's root goes")
        dot = (float(start.get("cx", "nan")), float(start.get("cy", "nan")))
        expected = root_head if root_end else tip_tail
        assert line[0] == dot and max(abs(a - b) for a, b in zip(dot, expected, strict=True)) < 0.2
        other = tip_tail if root_end else root_head
        assert max(abs(a - b) for a, b in zip(line[-1], other, strict=True)) < 0.2
        red = _titled(side, "polyline", "curve").get("stroke") == MARK_RED
        assert red is not root_end, "the reversed curve, and only it, is drawn red"
