"""One self-contained HTML page that starts with the answer: a summary of every file, then each
file and armature folded until opened, per chain a front and side diagram with the faults in
red, and each animation finding's misses plotted over its frames.

No external files, and only a few lines of inline script (the filters): the page can be
attached to a CI run or mailed to a TD.
"""

from __future__ import annotations

from html import escape
from typing import Any

from ..core.finding import runs_text
from .diagram import ChainGeometry, chain_svg, faulty_parts, views_for
from .miss_plot import miss_plot_svg
from .report_overview import SCRIPT, counts_text, file_anchor, filters, overview
from .report_overview import STYLE as OVERVIEW_STYLE
from .results import SEVERITIES, current_findings, current_waived, plural, summary
from .safe_text import visible_strings

Plots = dict[tuple[str, str, str], str]
"""A chain's miss plot by (owner, constraint, action)."""
OPEN_PLOTS = 2
"""A finding that showed in at most this many actions has its plots open."""

STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em;color:#222;max-width:1100px}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}
h3{font-size:1.05em}.chain{border:1px solid #ddd;border-radius:6px;padding:.6em;margin:.6em 0}
.views svg{background:#fafafa;border:1px solid #eee;margin-right:.5em}
.error{color:#d62828}.warning{color:#b7791f}.info{color:#1d6fa5}.ok{color:#2a9d5a}.waived{color:#888}
.sev{font-weight:600;text-transform:uppercase;font-size:.8em}.why{color:#555;margin-left:1em}
.legend span{margin-right:1.2em}.pair{display:flex;gap:1.5em;flex-wrap:wrap}
li{margin:.3em 0}
"""
LEGEND = (
    '<p class="legend"><span>&#9644; bone</span><span>&#9633; target</span>'
    "<span>&#9675; pole</span><span>shaded: bend plane</span><span>grey: the chain's parent</span>"
    "<span>&#8764;&#9679; the curve a Spline IK lies on, the dot on its first point</span>"
    '<span class="error">red: what is wrong</span> (as Blender\'s Front, Right and Top views; '
    "top only for a chain that points at the viewer in one of the others)</p>"
)


def render_html(files: list[dict[str, Any]], command: str, blender: str) -> str:
    """The page for ``files``, read by Blender ``blender`` (its version string).

    Names are escaped for HTML, and their control characters shown as escapes.
    """
    files = visible_strings(files)
    totals = summary(files)
    counts = ", ".join(plural(totals[s], s) for s in SEVERITIES)
    version = escape(blender)
    accepted = f"; {totals['waived']} accepted on purpose" if totals["waived"] else ""
    body = [
        f"<h1>IK Doctor {escape(command)} report</h1>",
        f"<p>Blender {version}: {plural(totals['files'], 'file')}, "
        f"{plural(totals['armatures'], 'armature')}, {counts}"
        f"{' left after fixing' if command == 'fix' else ''}"
        f"{accepted}.</p>",
        overview(files),
        filters(files),
        LEGEND,
    ]
    for index, file in enumerate(files):
        body.extend(_file_section(file, command, file_anchor(index)))
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>IK Doctor report</title><style>{STYLE}{OVERVIEW_STYLE}</style></head><body>\n"
        + "\n".join(body)
        + f"\n<script>{SCRIPT}</script>\n</body></html>\n"
    )


def _file_section(file: dict[str, Any], command: str, anchor: str) -> list[str]:
    """The file folded until opened, its counts on the folded line."""
    title = escape(file["path"])
    if command == "fix" and file.get("output"):
        title += f" &rarr; {escape(file['output'])}"
    found = [f for a in file["armatures"] if not a["problem"] for f in current_findings(a)]
    parts = [f'<details class="file" id="{anchor}"><summary>{title}{counts_text(found)}</summary>']
    if file["problem"]:
        css = "info" if file["status"] == "no_armature" else "error"
        parts.append(f'<p class="{css}">{escape(file["problem"])}</p>')
    if file.get("note"):
        parts.append(f'<p class="warning">{escape(file["note"])}</p>')
    for armature in file["armatures"]:
        parts.extend(_armature_section(armature, command))
    return [*parts, "</details>"]


def _armature_section(armature: dict[str, Any], command: str) -> list[str]:
    title = escape(armature["name"])
    if armature["library"]:
        title += f" <small>(linked from {escape(armature['library'])})</small>"
    counts = "" if armature["problem"] else counts_text(current_findings(armature))
    return [
        f'<details class="armature"><summary>{title}{counts}</summary>',
        *_armature_body(armature, command),
        "</details>",
    ]


def _armature_body(armature: dict[str, Any], command: str) -> list[str]:
    parts: list[str] = []
    if armature["problem"]:
        return [f'<p class="error">{escape(armature["problem"])}</p>']
    fix = armature.get("fix")
    if command == "fix" and fix is not None:
        parts.append(_fix_list(fix))
    chains = [ChainGeometry.from_dict(c) for c in armature.get("chains", [])]
    after = [ChainGeometry.from_dict(c) for c in (fix or {}).get("chains_after", [])]
    before_findings = armature["findings"]
    now_findings = current_findings(armature)
    troubled: list[ChainGeometry] = []
    healthy: list[ChainGeometry] = []
    for geometry in chains:
        mine = _chain_findings(geometry, before_findings)
        (troubled if mine else healthy).append(geometry)
    plots = _miss_plots(armature.get("curves", []), (fix or {}).get("curves_after"))
    for geometry in troubled:
        parts.append(_chain_card(geometry, before_findings, after, now_findings, command, plots))
    rig_wide = [f for f in now_findings if f.get("chain") is None]
    if rig_wide:
        parts.append("<p>Rig-wide:</p>" + _finding_list(rig_wide))
    if healthy:
        cards = "".join(_chain_card(g, [], after, now_findings, command, plots) for g in healthy)
        parts.append(
            f"<details><summary>{plural(len(healthy), 'chain')} without findings</summary>"
            f"{cards}</details>"
        )
    if not chains and not now_findings:
        parts.append('<p class="ok">No IK chains and no findings.</p>')
    return parts + _set_aside(armature)


def _set_aside(armature: dict[str, Any]) -> list[str]:
    """Findings accepted on purpose (with the reason) and those fixed since the baseline,
    outside the counts."""
    parts = []
    waived = current_waived(armature)
    if waived:
        items = "".join(
            f'<li class="waived"><b>{escape(w["finding"]["title"])}</b> '
            f"<code>{escape(w['finding']['check_id'])}</code> "
            f"{escape(w['finding']['bone'] or '')}: accepted on purpose: {escape(w['reason'])}"
            "</li>"
            for w in waived
        )
        parts.append(f'<p class="waived">Accepted on purpose:</p><ul>{items}</ul>')
    fixed = armature.get("fixed", [])
    if fixed:
        items = "".join(
            f'<li class="ok"><b>{escape(f["title"])}</b> <code>{escape(f["check_id"])}</code></li>'
            for f in fixed
        )
        parts.append(f'<p class="ok">Fixed since the baseline:</p><ul>{items}</ul>')
    return parts


def _chain_card(
    geometry: ChainGeometry,
    before: list[dict[str, Any]],
    after: list[ChainGeometry],
    now: list[dict[str, Any]],
    command: str,
    plots: Plots,
) -> str:
    mine = _chain_findings(geometry, before)
    title = f"{escape(geometry.owner)} ({escape(geometry.constraint)})"
    views = _views(geometry, mine)
    if command != "fix":
        return f'<div class="chain"><b>{title}</b>{views}{_finding_list(mine, plots)}</div>'
    fixed = next(
        (g for g in after if (g.owner, g.constraint) == (geometry.owner, geometry.constraint)), None
    )
    left = _chain_findings(fixed or geometry, now)
    after_views = _views(fixed, left) if fixed is not None else "<p>(chain gone)</p>"
    return (
        f'<div class="chain"><b>{title}</b><div class="pair">'
        f"<div>before{views}{_finding_list(mine, plots)}</div>"
        f"<div>after{after_views}{_finding_list(left) or '<p class=ok>no findings</p>'}</div>"
        "</div></div>"
    )


def _miss_plots(curves: list[dict[str, Any]], after: list[dict[str, Any]] | None) -> Plots:
    """Each chain's miss over the frames of each action, by (owner, constraint, action), with
    the miss after fixing beside it for ``fix``."""
    fixed = {(c["owner"], c["constraint"], c["action"]): c for c in after or []}
    plots = {}
    for curve in curves:
        key = (curve["owner"], curve["constraint"], curve["action"])
        plots[key] = miss_plot_svg(curve) + (
            f"<br>after fixing<br>{miss_plot_svg(fixed[key])}" if key in fixed else ""
        )
    return plots


def _occurrences(finding: dict[str, Any], plots: Plots) -> str:
    """Every action the finding showed in, with its frames, worst frame and plot, folded when
    there are more than a few and none carries its own series (the export scan's worst joint,
    which is always shown)."""
    occurrences = sorted(finding.get("occurrences") or [], key=lambda o: -o["worst"])
    chain = finding.get("chain")
    series = any("series" in o for o in occurrences)
    if not occurrences or (chain is None and not series):
        return ""
    figures = "".join(
        f"<figure><figcaption>'{escape(o['action'])}': frames {runs_text(o['frames'])}, worst "
        f"{o['worst_frame']} ({escape(o['measured'])})</figcaption>{_plot(o, chain, plots)}"
        "</figure>"
        for o in occurrences
    )
    opened = " open" if len(occurrences) <= OPEN_PLOTS or series else ""
    return (
        f"<details{opened}><summary>misses over the frames, "
        f"{plural(len(occurrences), 'action')}</summary>"
        f'<div class="pair">{figures}</div></details>'
    )


def _plot(occurrence: dict[str, Any], chain: dict[str, str] | None, plots: Plots) -> str:
    """The occurrence's own series drawn as a miss plot, else its chain's curve, if any."""
    series = occurrence.get("series")
    if series is None:
        key = (chain["owner"], chain["constraint"], occurrence["action"]) if chain else None
        return plots.get(key, "") if key else ""
    curve = {
        "action": occurrence["action"],
        "misses": [[series["first_frame"] + i, v] for i, v in enumerate(series["values"])],
        "beyond": [],
        "limit": series["limit"],
    }
    return miss_plot_svg(curve, f"the distance of {series['name']} from Blender's pose")


def _views(geometry: ChainGeometry, findings: list[dict[str, Any]]) -> str:
    faulty = faulty_parts(geometry, findings)
    svgs = "".join(chain_svg(geometry, faulty, view) for view in views_for(geometry))
    return f'<div class="views">{svgs}</div>'


def _chain_findings(geometry: ChainGeometry, findings: list[dict[str, Any]]) -> list[dict]:
    key = {"owner": geometry.owner, "constraint": geometry.constraint}
    return [f for f in findings if f.get("chain") == key]


def _finding_list(findings: list[dict[str, Any]], plots: Plots | None = None) -> str:
    """The findings, each its title first, then the message, the fix and (a click away) why;
    tagged with severity and check for the filters."""
    if not findings:
        return ""
    items = []
    for finding in findings:
        severity = finding["severity"]
        fix = finding["fix_label"] or finding["no_fix_reason"] or ""
        items.append(
            f'<li class="finding" data-severity="{severity}" '
            f'data-check="{escape(finding["check_id"])}"><span class="sev {severity}">{severity}'
            f"</span> <b>{escape(finding['title'])}</b> <code>{escape(finding['check_id'])}</code>"
            + (" <b>new</b>" if finding.get("baseline") == "new" else "")
            + f"<div>{escape(finding['message'])}</div>"
            + (f'<div class="why">fix: {escape(fix)}</div>' if fix else "")
            + f'<details class="why"><summary>why</summary>{escape(finding["why"])}</details>'
            + _occurrences(finding, plots or {})
            + "</li>"
        )
    return "<ul>" + "".join(items) + "</ul>"


def _fix_list(fix: dict[str, Any]) -> str:
    items = []
    if fix["skipped"]:
        items.append(f'<li class="warning">not fixed: {escape(fix["skipped"])}</li>')
    for applied in fix["applied"]:
        css = "error" if applied["failed"] else "ok" if applied["changed"] else "warning"
        items.append(f'<li class="{css}">{escape(applied["result"])}</li>')
    for held in fix["not_applied"]:
        label = held["finding"]["fix_label"] or ""
        items.append(f'<li class="warning">left: {escape(label)} ({escape(held["reason"])})</li>')
    return "<ul>" + "".join(items) + "</ul>" if items else "<p>Nothing to fix.</p>"
