"""The HTML page starts with the answer: a summary of every file, then each file and armature
folded until opened, findings tagged for the filters, each scan finding's misses plotted over
the frames of every action it showed in."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

from ik_doctor.cli.report_html import render_html

CHAIN = {
    "owner": "shin.L", "constraint": "IK",
    "bones": [["thigh.L", [0, 0, 1], [0, 0, 0.5]], ["shin.L", [0, 0, 0.5], [0, 0, 0]]],
    "parent": ["hips", [0, 0, 1], [0, 0, 1.2]], "tip": [0, 0, 0],
    "target": None, "pole": None, "bend_normal": None,
}  # fmt: skip


def finding(check_id: str, severity: str, **fields: Any) -> dict[str, Any]:
    return {
        "check_id": check_id, "severity": severity, "armature": "Rig", "title": "Title",
        "message": "Message.", "why": "Why.", "bone": "shin.L", "constraint": "IK",
        "chain": {"owner": "shin.L", "constraint": "IK"}, "fix_id": None, "fix_label": None,
        "fix_args": {}, "no_fix_reason": "none", "changes_rest_pose": False,
        "needs_confirmation": False, "action": None, "frames": [], "occurrences": [], **fields,
    }  # fmt: skip


def occurrence(action: str, worst: float) -> dict[str, Any]:
    return {"action": action, "frames": [[1, 4]], "worst_frame": 2, "worst": worst,
            "measured": f"{worst:.1%} of the reach"}  # fmt: skip


def curve(action: str) -> dict[str, Any]:
    misses = [[1, 0.0], [2, 0.2], [3, 0.1], [4, 0.0]]
    return {"owner": "shin.L", "constraint": "IK", "action": action, "misses": misses,
            "beyond": [], "limit": 0.01}  # fmt: skip


def armature(findings: list[dict[str, Any]], **fields: Any) -> dict[str, Any]:
    return {"name": "Rig", "library": None, "override": False, "problem": None,
            "findings": findings, "chains": [CHAIN], **fields}  # fmt: skip


def page() -> str:
    scan = finding(
        "verify", "error", action="Run", frames=[[1, 4]],
        occurrences=[occurrence("Walk", 0.1), occurrence("Run", 0.2)],
    )  # fmt: skip
    files = [
        {"index": 0, "path": "clean.blend", "status": "ok", "problem": None,
         "armatures": [armature([finding("roll", "info")])]},
        {"index": 1, "path": "broken.blend", "status": "ok", "problem": None,
         "armatures": [armature([scan, finding("pole", "warning")],
                                curves=[curve("Walk"), curve("Run")])]},
    ]  # fmt: skip
    return render_html(files, "check", "5.3.0")


def test_the_page_opens_on_a_summary_of_every_file_worst_first() -> None:
    html = page()
    summary = html.index('<section class="overview">')
    assert summary < html.index('<details class="file"')
    table = html[summary : html.index("</table>", summary)]
    rows = re.findall(r'<a href="#(file-\d)">([^<]*)</a></td>((?:<td[^>]*>\d+</td>)+)', table)
    counts = [[int(n) for n in re.findall(r">(\d+)<", cells)] for _, _, cells in rows]
    assert [(anchor, path) for anchor, path, _ in rows] == [
        ("file-2", "broken.blend"),
        ("file-1", "clean.blend"),
    ]
    assert counts == [[1, 1, 0], [0, 0, 1]]
    assert 'id="file-2"' in html


def test_files_and_armatures_are_folded_until_opened() -> None:
    html = page()
    folds = re.findall(r'<details class="(file|armature)"', html)
    assert sorted(folds) == ["armature", "armature", "file", "file"]
    assert not re.search(r'<details open[^>]*class="(file|armature)"', html)


def test_every_finding_is_tagged_for_the_filters_and_each_value_has_a_switch() -> None:
    html = page()
    tags = re.findall(r'<li class="finding" data-severity="(\w+)" data-check="(\w+)"', html)
    assert sorted(tags) == [("error", "verify"), ("info", "roll"), ("warning", "pole")]
    switches = set(re.findall(r'<input type="checkbox" checked data-(\w+)="(\w+)"', html))
    assert {("check", check) for _, check in tags} <= switches
    assert {("severity", s) for s in ("error", "warning", "info")} <= switches
    assert "<script>" in html and "src=" not in html


def test_a_scan_finding_plots_its_misses_in_every_action_it_showed_in() -> None:
    html = page()
    item = re.search(r'<li class="finding" data-severity="error" data-check="verify".*?</li>', html)
    assert item is not None
    plotted = re.findall(r'aria-label="miss over the frames of (\w+)"', item.group(0))
    assert plotted == ["Run", "Walk"]  # the worst first


VOID = {"meta", "br", "input", "circle", "line", "polyline", "rect", "path", "polygon"}


def nesting_errors(html: str) -> list[str]:
    """Every closing tag that does not close the element open, and those never closed."""

    class Nesting(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.open: list[str] = []
            self.errors: list[str] = []

        def handle_starttag(self, tag: str, attrs: Any) -> None:
            if tag not in VOID:
                self.open.append(tag)

        def handle_endtag(self, tag: str) -> None:
            if tag in VOID:
                return
            if not self.open or self.open[-1] != tag:
                self.errors.append(f"</{tag}> closes <{self.open[-1] if self.open else ''}>")
            else:
                self.open.pop()

    parser = Nesting()
    parser.feed(html)
    parser.close()
    return parser.errors + [f"<{tag}> never closed" for tag in parser.open]


def test_an_export_finding_draws_its_worst_joint_and_a_hostile_name_stays_text() -> None:
    name = '<script>alert("x")</script>&foot'
    series = {"name": name, "first_frame": 3, "values": [0.001, 0.2, 0.05], "limit": 0.005}
    walk = {**occurrence("Walk", 0.2), "measured": f"{name} 20.0% off", "series": series}
    export = finding("export", "error", chain=None, occurrences=[walk, occurrence("Run", 0.1)])
    files = [{"index": 0, "path": "rig.blend", "status": "ok", "problem": None,
              "armatures": [armature([export])]}]  # fmt: skip
    html = render_html(files, "check", "5.3.0")
    (points,) = re.findall(r'<polyline points="([^"]*)"', html)
    assert len(points.split()) == 3  # one plot: the worst occurrence's
    assert re.findall(r'aria-label="[^"]* over the frames of (\w+)"', html) == ["Walk"]
    assert name not in html and html.count("<script") == 1
    assert nesting_errors(html) == []
