"""The top of the HTML page: the answer first, then the filters that narrow what follows.

A TD opening the page of a library wants to know at a glance how bad it is and where to look:
a table of the files with their errors, warnings and info (worst first), the causes found most
often, and the rigs with the most errors. Below it, switches by severity and check hide the
findings not wanted (a few lines of inline script: the page stays one file, with nothing
fetched).
"""

from __future__ import annotations

from collections import Counter
from html import escape
from typing import Any

from .results import SEVERITIES, current_findings, plural, severity_counts

MOST_FREQUENT = 8
WORST_RIGS = 5

STYLE = """
.overview table{border-collapse:collapse;margin:.4em 0 1em}
.overview th,.overview td{border-bottom:1px solid #e4e4e4;padding:.2em .8em;text-align:right}
.overview th:first-child,.overview td:first-child{text-align:left}
.overview td.zero{color:#bbb}.overview .cols{display:flex;gap:3em;flex-wrap:wrap}
.filters{position:sticky;top:0;background:#fff;padding:.5em 0;border-bottom:1px solid #ddd;
z-index:1}.filters label{margin-right:1em;white-space:nowrap}
details.file>summary{font-size:1.2em;font-weight:600;margin-top:1.2em;cursor:pointer}
details.armature{margin-left:1em}details.armature>summary{font-weight:600;cursor:pointer}
.counts{font-weight:400;font-size:.85em;margin-left:.6em}
.hidden{display:none}.finding figure{margin:.4em 1em .4em 0;max-width:330px;font-size:.85em}
"""
SCRIPT = """
function ikdFilter(){
  var on=function(kind){var s={};document.querySelectorAll('.filters input[data-'+kind+']')
    .forEach(function(b){s[b.getAttribute('data-'+kind)]=b.checked});return s};
  var sev=on('severity'),chk=on('check');
  document.querySelectorAll('li.finding').forEach(function(li){
    li.classList.toggle('hidden',!(sev[li.dataset.severity]&&chk[li.dataset.check]))});
  document.querySelectorAll('.chain').forEach(function(card){
    var items=card.querySelectorAll('li.finding');if(!items.length)return;
    card.classList.toggle('hidden',!card.querySelector('li.finding:not(.hidden)'))});
}
document.addEventListener('change',function(e){if(e.target.closest('.filters'))ikdFilter()});
document.addEventListener('click',function(e){var a=e.target.closest('a[href^="#file-"]');
  if(a){var d=document.getElementById(a.getAttribute('href').slice(1));if(d)d.open=true}});
"""


def overview(files: list[dict[str, Any]]) -> str:
    """The summary table, the most frequent causes and the worst rigs."""
    rows = []
    ranked = sorted(enumerate(files), key=lambda pair: _rank(_file_counts(pair[1])))
    for index, file in ranked:
        counts = _file_counts(file)
        cells = "".join(
            f'<td class="{severity if counts[severity] else "zero"}">{counts[severity]}</td>'
            for severity in SEVERITIES
        )
        rows.append(
            f'<tr><td><a href="#{file_anchor(index)}">{escape(file["path"])}</a>'
            f"{_status(file)}</td>{cells}</tr>"
        )
    head = "".join(f"<th>{severity}</th>" for severity in SEVERITIES)
    table = f"<table><tr><th>file</th>{head}</tr>{''.join(rows)}</table>"
    return (
        '<section class="overview"><h2>Summary</h2>'
        f'{table}<div class="cols">{_frequent_causes(files)}{_worst_rigs(files)}</div></section>'
    )


def filters(files: list[dict[str, Any]]) -> str:
    """Check boxes by severity and by check, every one on: unticking hides those findings."""
    checks = sorted({f["check_id"] for file in files for a in file["armatures"] for f in _of(a)})
    boxes = [_box("severity", severity) for severity in SEVERITIES]
    boxes.append("&nbsp; check:")
    boxes += [_box("check", check) for check in checks]
    return f'<form class="filters">show: {" ".join(boxes)}</form>'


def file_anchor(index: int) -> str:
    return f"file-{index + 1}"


def counts_text(findings: list[dict[str, Any]]) -> str:
    """The counts that are not zero, coloured ("2 errors, 1 warning"), for a folded line."""
    counts = severity_counts(findings)
    parts = [
        f'<span class="{severity}">{plural(counts[severity], severity)}</span>'
        for severity in SEVERITIES
        if counts[severity]
    ]
    return f'<span class="counts">{", ".join(parts) or "no findings"}</span>'


def _box(kind: str, value: str) -> str:
    return (
        f'<label><input type="checkbox" checked data-{kind}="{escape(value)}"> '
        f"{escape(value)}</label>"
    )


def _of(armature: dict[str, Any]) -> list[dict[str, Any]]:
    return [] if armature["problem"] else current_findings(armature)


def _file_counts(file: dict[str, Any]) -> dict[str, int]:
    return severity_counts(f for armature in file["armatures"] for f in _of(armature))


def _rank(counts: dict[str, int]) -> tuple[int, ...]:
    return tuple(-counts[severity] for severity in SEVERITIES)


def _status(file: dict[str, Any]) -> str:
    if file["status"] in ("unreadable", "failed"):
        return f' <span class="error">({escape(file["status"])})</span>'
    if file["status"] == "no_armature":
        return ' <span class="info">(no armature)</span>'
    return ""


def _frequent_causes(files: list[dict[str, Any]]) -> str:
    """The faults found most often, by title and check, with their severity."""
    counted: Counter[tuple[str, str, str]] = Counter(
        (f["title"], f["check_id"], f["severity"])
        for file in files
        for armature in file["armatures"]
        for f in _of(armature)
    )
    if not counted:
        return ""
    items = "".join(
        f'<tr><td><span class="sev {severity}">{severity}</span> {escape(title)} '
        f"<code>{escape(check)}</code></td><td>{count}</td></tr>"
        for (title, check, severity), count in counted.most_common(MOST_FREQUENT)
    )
    return f"<div><h3>Most frequent</h3><table>{items}</table></div>"


def _worst_rigs(files: list[dict[str, Any]]) -> str:
    """The armatures with the most errors, then warnings."""
    rigs = [
        (severity_counts(_of(armature)), index, file, armature)
        for index, file in enumerate(files)
        for armature in file["armatures"]
    ]
    rigs = [rig for rig in rigs if rig[0]["error"] or rig[0]["warning"]]
    if not rigs:
        return ""
    rigs.sort(key=lambda rig: _rank(rig[0]))
    items = "".join(
        f'<tr><td><a href="#{file_anchor(index)}">{escape(file["path"].rsplit("/", 1)[-1])}</a>'
        f": {escape(armature['name'])}</td>"
        f'<td class="error">{counts["error"]}</td><td class="warning">{counts["warning"]}</td></tr>'
        for counts, index, file, armature in rigs[:WORST_RIGS]
    )
    return (
        "<div><h3>Worst rigs</h3><table><tr><th>armature</th><th>error</th><th>warning</th></tr>"
        f"{items}</table></div>"
    )
