"""Small SVG diagrams of IK chains, front and side view, for the HTML report.

A TD sees a broken chain faster than they read about it: the bones, where the chain reaches
(its tip), the target it reaches for, the pole it bends toward and the plane it bends in; for
a Spline IK chain the curve it lies on, with a dot on the first point, where Blender puts the
chain's root (a curve drawn from the tip, or far from the chain, shows at a glance).
``chain_geometry`` and ``spline_geometry`` read those points from the rest pose through the
``RigView`` (armature space), in a worker; ``chain_svg`` draws them and needs no Blender: the
main process, which writes the report, never starts one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from html import escape
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..core.rig import IKChain, RigView
    from ..core.spline import SplineChain

Point = tuple[float, float, float]

# (screen right, screen up) axes of Blender's Front (numpad 1), Right (3) and Top (7) views.
VIEWS: dict[str, tuple[int, int]] = {"front": (0, 2), "side": (1, 2), "top": (0, 1)}
FLAT_VIEW = 0.25
"""A view in which the chain spans less than this share of its size shows little: add Top."""

MARK_RED = "#d62828"
CURVE_CHECKS = frozenset(
    ("spline_target", "spline_direction", "spline_placement", "spline_length", "spline_controls")
)
"""Checks whose findings on a Spline IK chain are about its curve: drawn red."""
IK, SPLINE_IK = "ik", "spline_ik"


@dataclass(frozen=True)
class ChainGeometry:
    """Rest-pose points of one chain in armature space: everything its diagram draws."""

    owner: str
    constraint: str
    bones: tuple[tuple[str, Point, Point], ...]
    """(name, head, tail), root first, so the joints read from hip to ankle."""
    parent: tuple[str, Point, Point] | None
    """The bone the chain hangs from, drawn faint: where a chain cut short should have gone."""
    tip: Point
    """The point the chain brings to the target: the owner's tail (or head without use_tail)."""
    target: Point | None
    pole: Point | None
    bend_normal: Point | None
    """Normal of the plane through root, middle joint and tip; None for a straight chain."""
    kind: str = IK
    """``IK``, or ``SPLINE_IK`` for a Spline IK chain (no target, pole or bend plane)."""
    curve: tuple[Point, ...] | None = None
    """The curve a Spline IK chain lies on, from its first point, as Blender lays the chain on
    it (``core.spline.curve_path``); None for an IK chain or a curve with nothing to follow."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ChainGeometry:
        def point(value: Iterable[float] | None) -> Point | None:
            return None if value is None else _point(value)

        return cls(
            owner=data["owner"],
            constraint=data["constraint"],
            bones=tuple(_bone(bone) for bone in data["bones"]),
            parent=None if data["parent"] is None else _bone(data["parent"]),
            tip=_point(data["tip"]),
            target=point(data["target"]),
            pole=point(data["pole"]),
            bend_normal=point(data["bend_normal"]),
            kind=data.get("kind", IK),
            curve=None if data.get("curve") is None else tuple(map(_point, data["curve"])),
        )


def chain_geometry(rig: RigView, chain: IKChain) -> ChainGeometry:
    """Read one chain's diagram points from the rest pose."""
    from ..core.geometry import bend_normal  # Blender's mathutils: only where a rig is read

    root_first = tuple(reversed(chain.bones))
    parent = rig.bone(chain.root).parent
    tip = rig.chain_tip(chain)
    normal = None
    if len(root_first) >= 2:
        normal = bend_normal(rig.bone(root_first[0]).head, rig.bone(root_first[-1]).head, tip)
    target = None if chain.target_bone_missing else rig.joint_point(chain.target, chain.subtarget)
    pole = None if chain.pole_bone_missing else rig.joint_point(chain.pole, chain.pole_subtarget)
    return ChainGeometry(
        owner=chain.owner,
        constraint=chain.constraint,
        bones=tuple(_rest_bone(rig, name) for name in root_first),
        parent=None if parent is None else _rest_bone(rig, parent),
        tip=_point(tip.to_tuple()),
        target=None if target is None else _point(target.to_tuple()),
        pole=None if pole is None else _point(pole.to_tuple()),
        bend_normal=None if normal is None else _point(normal.to_tuple()),
    )


def spline_geometry(rig: RigView, chain: SplineChain) -> ChainGeometry:
    """Read one Spline IK chain's diagram points, and its curve's, from the rest pose."""
    from ..core.spline import curve_path  # reads Blender data: only where a rig is read

    parent = rig.bone(chain.root).parent
    path = curve_path(rig, chain)
    return ChainGeometry(
        owner=chain.owner,
        constraint=chain.constraint,
        bones=tuple(_rest_bone(rig, name) for name in reversed(chain.bones)),
        parent=None if parent is None else _rest_bone(rig, parent),
        tip=_point(rig.bone(chain.owner).tail.to_tuple()),
        target=None,
        pole=None,
        bend_normal=None,
        kind=SPLINE_IK,
        curve=None if path is None else tuple(_point(p.to_tuple()) for p in path.points),
    )


def rig_geometry(rig: RigView) -> list[ChainGeometry]:
    """Diagram points of every IK chain of the rig, in the rig's chain order, then of every
    Spline IK chain."""
    from ..core.spline import spline_chains

    return [chain_geometry(rig, chain) for chain in rig.chains] + [
        spline_geometry(rig, chain) for chain in spline_chains(rig)
    ]


def faulty_parts(geometry: ChainGeometry, findings: Iterable[Mapping[str, Any]]) -> set[str]:
    """What to draw in red: bone names, and "target", "pole", "plane" for this chain.

    A finding marks the bone it names; a finding of a target, pole or bend check (by id)
    marks that part of the drawing, so a missing pole shows as a red pole, not a red shin.
    """
    bones = {name for name, _head, _tail in geometry.bones}
    parts: set[str] = set()
    for finding in findings:
        chain = finding.get("chain")
        on_chain = chain is not None and (chain["owner"], chain["constraint"]) == (
            geometry.owner,
            geometry.constraint,
        )
        if finding.get("bone") in bones:
            parts.add(finding["bone"])
        if not on_chain:
            continue
        check_id = finding["check_id"]
        if "target" in check_id:
            parts.add("target")
        if "pole" in check_id:
            parts.add("pole")
        if "bend" in check_id or "straight" in check_id:
            parts.add("plane")
        if check_id in CURVE_CHECKS:
            parts.add("curve")
    return parts


def views_for(geometry: ChainGeometry) -> list[str]:
    """Front and side, plus top when the chain points at the viewer in one of them (an arm
    seen from the side is a dot)."""
    points = [p for _name, head, tail in geometry.bones for p in (head, tail)]
    size = max(_span(points, axis) for axis in range(3))
    views = ["front", "side"]
    if any(max(_span(points, a) for a in VIEWS[v]) < FLAT_VIEW * size for v in views):
        views.append("top")
    return views


def _span(points: list[Point], axis: int) -> float:
    return max(p[axis] for p in points) - min(p[axis] for p in points)


def chain_svg(geometry: ChainGeometry, faulty: set[str], view: str, size: int = 180) -> str:
    """One view ("front", "side" or "top") of a chain as an inline SVG element."""
    right, up = VIEWS[view]
    points = [p for _name, head, tail in geometry.bones for p in (head, tail)]
    if geometry.parent is not None:
        points += [geometry.parent[1], geometry.parent[2]]
    points += [p for p in (geometry.target, geometry.pole) if p is not None]
    points += geometry.curve or ()
    project = _projector(points, right, up, size)
    root = geometry.bones[0][1]
    joint = geometry.bones[-1][1]
    parts: list[str] = []
    if geometry.parent is not None:
        name, head, tail = geometry.parent
        (x1, y1), (x2, y2) = project(head), project(tail)
        parts.append(
            f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#bbbbbb" '
            f'stroke-width="2"><title>{escape(name)} (parent, not in the chain)</title></line>'
        )
    if geometry.bend_normal is not None:
        colour = MARK_RED if "plane" in faulty else "#3a86ff"
        corners = " ".join(_xy(project(p)) for p in (root, joint, geometry.tip))
        parts.append(f'<polygon points="{corners}" fill="{colour}" fill-opacity="0.15" />')
    if geometry.pole is not None:
        colour = MARK_RED if "pole" in faulty else "#8338ec"
        x, y = project(geometry.pole)
        parts.append(_dashed(project(joint), (x, y), colour))
        parts.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="5" fill="none" stroke="{colour}" '
            f'stroke-width="2"><title>pole</title></circle>'
        )
    if geometry.curve is not None:
        parts += _curve(geometry.curve, project, MARK_RED if "curve" in faulty else "#2a9d8f")
    if geometry.target is not None:
        colour = MARK_RED if "target" in faulty else "#2a9d8f"
        x, y = project(geometry.target)
        parts.append(_dashed(project(geometry.tip), (x, y), colour))
        parts.append(
            f'<rect x="{x - 5:.1f}" y="{y - 5:.1f}" width="10" height="10" fill="none" '
            f'stroke="{colour}" stroke-width="2"><title>target</title></rect>'
        )
    for name, head, tail in geometry.bones:
        colour = MARK_RED if name in faulty else "#333333"
        (x1, y1), (x2, y2) = project(head), project(tail)
        parts.append(
            f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{colour}" '
            f'stroke-width="4" stroke-linecap="round"><title>{escape(name)}</title></line>'
        )
        parts.append(f'<circle cx="{x1:.1f}" cy="{y1:.1f}" r="3.5" fill="{colour}" />')
    missing = _missing(geometry)
    if missing:
        parts.append(
            f'<text x="4" y="{size - 6}" font-size="11" fill="{MARK_RED}">{missing}</text>'
        )
    parts.append(f'<text x="4" y="13" font-size="11" fill="#666">{view}</text>')
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
        f'viewBox="0 0 {size} {size}" class="chain-view">' + "".join(parts) + "</svg>"
    )


def _missing(geometry: ChainGeometry) -> str:
    """What the diagram says is missing: "no target" (IK), "no curve to follow" (Spline IK)."""
    if geometry.kind == SPLINE_IK:
        return "no curve to follow" if geometry.curve is None else ""
    return "no target" if geometry.target is None else ""


def _curve(curve: tuple[Point, ...], project: Any, colour: str) -> list[str]:
    """A Spline IK's curve as a line, with a dot on its first point: where the root goes."""
    line = " ".join(_xy(project(point)) for point in curve)
    x, y = project(curve[0])
    return [
        f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="2">'
        "<title>curve</title></polyline>",
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="5" fill="{colour}">'
        "<title>curve start: where the chain's root goes</title></circle>",
    ]


def _projector(points: list[Point], right: int, up: int, size: int):
    """Map armature-space points to SVG pixels: one scale for both axes, up is up."""
    xs = [p[right] for p in points]
    ys = [p[up] for p in points]
    span = max(max(xs) - min(xs), max(ys) - min(ys), 1e-6)
    margin = 18
    scale = (size - 2 * margin) / span
    centre_x = (max(xs) + min(xs)) / 2
    centre_y = (max(ys) + min(ys)) / 2

    def project(point: Point) -> tuple[float, float]:
        return (
            size / 2 + (point[right] - centre_x) * scale,
            size / 2 - (point[up] - centre_y) * scale,
        )

    return project


def _dashed(start: tuple[float, float], end: tuple[float, float], colour: str) -> str:
    return (
        f'<line x1="{start[0]:.1f}" y1="{start[1]:.1f}" x2="{end[0]:.1f}" y2="{end[1]:.1f}" '
        f'stroke="{colour}" stroke-width="1.5" stroke-dasharray="4 3" />'
    )


def _xy(point: tuple[float, float]) -> str:
    return f"{point[0]:.1f},{point[1]:.1f}"


def _rest_bone(rig: RigView, name: str) -> tuple[str, Point, Point]:
    bone = rig.bone(name)
    return (name, _point(bone.head.to_tuple()), _point(bone.tail.to_tuple()))


def _bone(data: Iterable[Any]) -> tuple[str, Point, Point]:
    name, head, tail = data
    return (name, _point(head), _point(tail))


def _point(value: Iterable[float]) -> Point:
    x, y, z = (round(float(c), 6) for c in value)
    return (x, y, z)
