"""The HTML report's chain diagrams: the right points, in Blender's views, faults in red."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree

import bpy
from solving import findings_of

from ik_doctor.cli.diagram import (
    MARK_RED,
    ChainGeometry,
    chain_geometry,
    chain_svg,
    faulty_parts,
    views_for,
)
from ik_doctor.core.rig import RigView

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
