"""Whether the panel's short texts fit the sidebar, measured with Blender's own font (``blf``).

Blender cuts a label wider than its button and puts "..." in what it left out ("1 warni...",
"shin.L: IK 'I...octorDemo'"), so the list's rows and the summary are kept to what their
button holds. A text's width is what ``blf``
gives at Blender's UI font size; the room a button leaves for text is the region's width less
what the panel, the list and the row's icons and buttons take, which grows with the UI scale.
Those margins were measured in Blender's real window (see ``ROW_MARGIN``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import blf

from ..core.finding import runs_text
from . import report as stored_report

DEFAULT_SIDEBAR_WIDTH = 280
"""Pixels the 3D View's sidebar opens at, at UI scale 1: the UI region's width in Blender 5.2.2
and 4.3.2 with factory settings (Debian's binaries, Xvfb at 96 dpi, a file opened without its
own layout)."""
FONT_POINTS = 11.0
"""Blender's default UI font size (Preferences > Interface > Text: the widget style's points)."""
ROW_MARGIN = 137.0
"""Pixels of a sidebar's width that a finding row does not leave to its text, at UI scale 1:
the tab strip, the panel's and the list's margins, the list's scroll bar, the severity icon and
the Fix button. Measured in 5.2.2 and 4.3.2 by drawing titles of known ``blf`` widths, one
pixel apart, and finding where Blender cut them on the screenshot: at 280 wide a title of 143
pixels is drawn whole, one of 144 ends in "...". At 1.04 (96 dpi against Xvfb's 100) 151 fit
where this says 149: the margins grow a little less than the scale, so this errs on the safe
side."""
HEADER_MARGIN = 117.0
"""The same for a chain header row, an icon and no button: 163 pixels fit at 280, 164 do not."""
BOX_MARGIN = 70.0
"""The same for a line of the selected finding's box, without an icon: in a sidebar of 292 at
1.04, a line of 225 pixels was drawn whole and one of 236 cut."""
ICON = 20.0
"""Pixels an icon before a label takes, at UI scale 1 (Blender's widget unit)."""
BONE_SEPARATOR = " · "


@dataclass(frozen=True)
class PanelText:
    """One short text the panel draws, and the pixels its button leaves for it."""

    text: str
    width: float
    room: float

    @property
    def cut(self) -> bool:
        return self.width > self.room


def ui_scale(context: Any) -> float:
    """The UI's scale factor: the Resolution Scale times the display's (0 without a window)."""
    preferences = context.preferences
    return preferences.system.ui_scale or preferences.view.ui_scale


def region_width(context: Any) -> float:
    """The sidebar's width, or its default at this scale when there is no region (headless)."""
    region = context.region
    if region is None or region.width <= 1:
        return DEFAULT_SIDEBAR_WIDTH * ui_scale(context)
    return float(region.width)


def text_width(text: str, scale: float) -> float:
    """Pixels Blender's UI font takes for ``text`` at ``scale``."""
    blf.size(0, FONT_POINTS * scale)
    # The stub says dimensions returns None; Blender returns (width, height).
    size: tuple[float, float] = blf.dimensions(0, text)  # type: ignore[assignment,func-returns-value]
    return size[0]


def row_room(width: float, scale: float) -> float:
    return width - ROW_MARGIN * scale


def header_room(width: float, scale: float) -> float:
    return width - HEADER_MARGIN * scale


def box_room(width: float, scale: float) -> float:
    return width - BOX_MARGIN * scale


def wrap(text: str, room: float, scale: float) -> list[str]:
    """``text`` in lines that each fit ``room`` pixels, broken between words (a word wider than
    the room alone keeps a line of its own)."""
    lines: list[str] = []
    for word in text.split():
        joined = f"{lines[-1]} {word}" if lines else word
        if lines and text_width(joined, scale) <= room:
            lines[-1] = joined
        else:
            lines.append(word)
    return lines or [""]


def box_paragraphs(row: Any) -> list[str]:
    """What the box below the list wraps for the selected finding: the message, the action and
    frames it shows in, why, and its fix or why there is none ("" where it has none). A fix's
    label says what it does to the rest pose, in its own terms (a pole bone's rest position
    deforms nothing), so the paragraph under the Fix button says it once."""
    finding = stored_report.to_finding(row)
    where = f"Action '{row.action}', frames {runs_text(finding.frames)}"
    if len(finding.occurrences) > 1:
        where = f"{len(finding.occurrences)} actions; the worst: {where}"
    fix = row.fix_label if row.fix_id else ""
    return [
        row.message,
        where if row.action else "",
        row.why,
        fix or (f"No automatic fix: {row.no_fix_reason}" if row.no_fix_reason else ""),
    ]


def finding_text(row: Any, width: float, scale: float) -> str:
    """The title, and the bone it stands on where that is not the chain's owner and fits."""
    bone = row.bone if row.bone and row.bone != row.chain_owner else ""
    with_bone = f"{row.title}{BONE_SEPARATOR}{bone}"
    if bone and text_width(with_bone, scale) <= row_room(width, scale):
        return with_bone
    return row.title


def header_text(row: Any, width: float, scale: float) -> str:
    """A chain header names its owner bone and IK, or the owner alone where both do not fit."""
    if row.kind != "CHAIN":
        return "Rig-wide"
    both = f"{row.chain_owner}{BONE_SEPARATOR}{row.chain_constraint}"
    fits = text_width(both, scale) <= header_room(width, scale)
    return both if fits else row.chain_owner


def panel_texts(report: Any, width: float, scale: float) -> list[PanelText]:
    """Every list row's text and the summary, as the panel draws them at ``width``, and the
    lines of each finding's box as they show when it is selected."""
    texts = []
    for row in report.rows:
        if row.kind == "FINDING":
            text, room = finding_text(row, width, scale), row_room(width, scale)
            texts += _box_texts(row, width, scale)
        else:
            text, room = header_text(row, width, scale), header_room(width, scale)
        texts.append(PanelText(text, text_width(text, scale), room))
    summary = stored_report.summary(report)
    # The summary spans the panel, wider than a header row of the list inside it.
    texts.append(PanelText(summary, text_width(summary, scale), header_room(width, scale)))
    return texts


def _box_texts(row: Any, width: float, scale: float) -> list[PanelText]:
    room = box_room(width, scale)
    # The box's title has the severity icon before it, as a row of the list has.
    texts = [PanelText(row.title, text_width(row.title, scale), room - ICON * scale)]
    for paragraph in box_paragraphs(row):
        if paragraph:
            texts += [
                PanelText(line, text_width(line, scale), room)
                for line in wrap(paragraph, room, scale)
            ]
    return texts


def cut_texts(report: Any, width: float | None = None, scale: float = 1.0) -> list[PanelText]:
    """The texts Blender would cut in a sidebar ``width`` pixels wide (its default if None)."""
    width = DEFAULT_SIDEBAR_WIDTH * scale if width is None else width
    return [text for text in panel_texts(report, width, scale) if text.cut]
