"""A small SVG plot of a miss over the frames of one action, for the HTML page.

People see a curve faster than they read a list of frames: the miss (as a share of the chain's
reach) on every frame the target lay within reach, the limit drawn as a dashed line, failing
frames in red, and frames whose target was keyed beyond the reach marked grey along the bottom.

The export scan's worst joint is drawn the same way: its distance from Blender's pose (a share
of the rig's size) over the frames, not its two paths in a plane. A rigger asks when the game
leaves the pose and by how much; the distance answers both at one glance against the same
dashed limit, where two paths need a plane chosen per joint, two curves told apart and a frame
read off each point, and hide a miss along the axis the plane drops.
"""

from __future__ import annotations

from html import escape
from typing import Any

WIDTH, HEIGHT, MARGIN = 320, 110, 28


def miss_plot_svg(curve: dict[str, Any], what: str = "miss") -> str:
    """The plot of one ``MissCurve.to_dict()`` (or a curve of that shape); ``what`` names the
    measure for a screen reader."""
    misses = [(int(frame), float(miss)) for frame, miss in curve["misses"]]
    beyond = [int(frame) for frame in curve["beyond"]]
    limit = float(curve["limit"])
    frames = [frame for frame, _ in misses] + beyond
    first, last = min(frames), max(frames)
    top = max([limit * 2.0] + [miss for _, miss in misses])

    def x(frame: float) -> float:
        return MARGIN + (WIDTH - 2 * MARGIN) * ((frame - first) / ((last - first) or 1))

    def y(miss: float) -> float:
        return HEIGHT - MARGIN + (2 * MARGIN - HEIGHT) * (miss / top)

    parts = [
        f'<svg width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(what)} over the frames of {escape(curve["action"])}">',
        f'<line x1="{MARGIN}" y1="{y(0):.1f}" x2="{WIDTH - MARGIN}" y2="{y(0):.1f}" '
        'stroke="#999"/>',
        f'<line x1="{MARGIN}" y1="{y(limit):.1f}" x2="{WIDTH - MARGIN}" y2="{y(limit):.1f}" '
        'stroke="#d62828" stroke-dasharray="4 3"/>',
        f'<text x="{WIDTH - MARGIN + 2}" y="{y(limit) + 4:.1f}" font-size="10" '
        f'fill="#d62828">{_percent(limit)}</text>',
        f'<text x="{MARGIN}" y="{HEIGHT - 6}" font-size="10">{first}</text>',
        f'<text x="{WIDTH - MARGIN}" y="{HEIGHT - 6}" font-size="10" '
        f'text-anchor="end">{last}</text>',
        f'<text x="2" y="{y(top) + 4:.1f}" font-size="10">{_percent(top)}</text>',
    ]
    if len(misses) > 1:
        points = " ".join(f"{x(frame):.1f},{y(miss):.1f}" for frame, miss in misses)
        parts.append(f'<polyline points="{points}" fill="none" stroke="#1d6fa5"/>')
    for frame, miss in misses:
        colour = "#d62828" if miss > limit else "#1d6fa5"
        parts.append(f'<circle cx="{x(frame):.1f}" cy="{y(miss):.1f}" r="2" fill="{colour}"/>')
    for frame in beyond:
        parts.append(
            f'<rect x="{x(frame) - 1.5:.1f}" y="{HEIGHT - MARGIN + 2}" width="3" height="6" '
            'fill="#999"><title>target beyond reach</title></rect>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _percent(share: float) -> str:
    """A share as few digits as tell it: "1%", "0.5%", "31%"."""
    percent = share * 100.0
    return f"{percent:.0f}%" if percent >= 10.0 else f"{percent:.2g}%"
