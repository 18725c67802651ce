"""The panel reads whole as it opens: at the sidebar's default width and UI scale no row of the
findings list and not the summary is wider than the room Blender gives it (``ui.text_fit``,
whose margins were measured in the real window), for every finding the shared rigs, the demo
rig and the broken rigs of the check tests produce. A title too long for its row fails here.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import bpy
import pytest
import test_ui_support
from test_check_ids import MORE_FAULTS
from test_generated_broken_rigs import FAULTS

from ik_doctor import Finding, Severity, diagnose
from ik_doctor.cli.demo import build_demo_rig
from ik_doctor.sample_rig import build_character_rig
from ik_doctor.ui import report, text_fit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import real_rigs_table as table

addon = test_ui_support.addon
SHARED_RIGS = sorted(table.RIGS.glob("*.blend")) if table.RIGS.is_dir() else []


def cut_rows(obj: bpy.types.Object, findings: list[Finding]) -> list[text_fit.PanelText]:
    """The texts of ``obj``'s report that Blender would cut at the default width."""
    assert all(finding.title for finding in findings), "a finding without a title"
    return text_fit.cut_texts(report.store(bpy.context, obj, findings))


@pytest.mark.skipif(not SHARED_RIGS, reason=f"no rigs in {table.RIGS}")
@pytest.mark.parametrize("path", SHARED_RIGS, ids=lambda p: p.name)
def test_every_row_of_a_shared_rig_reads_whole_at_the_default_width(addon, path: Path) -> None:
    try:
        table.load(path)
    except table.UnreadableFile as error:
        pytest.skip(str(error))
    armatures = [o for o in bpy.data.objects if o.type == "ARMATURE" and o.library is None]
    assert armatures, f"{path.name}: no armature"
    assert {obj.name: cut_rows(obj, diagnose(obj)) for obj in armatures} == {
        obj.name: [] for obj in armatures
    }


def test_every_row_of_the_demo_rig_reads_whole_at_the_default_width(addon) -> None:
    obj = build_demo_rig()
    findings = diagnose(obj)
    assert findings, "the demo rig has its faults"
    assert cut_rows(obj, findings) == []


def test_every_row_of_the_broken_rigs_reads_whole_at_the_default_width(addon) -> None:
    cut: dict[str, list[text_fit.PanelText]] = {}
    for break_rig in [*FAULTS, *MORE_FAULTS]:
        bpy.ops.wm.read_homefile(use_empty=True)
        obj = build_character_rig()
        break_rig(obj)
        cut[break_rig.__name__] = cut_rows(obj, diagnose(obj))
    assert {name: texts for name, texts in cut.items() if texts} == {}


def test_a_title_one_pixel_wider_than_the_row_is_cut(addon, rig) -> None:
    """The measure can fail: a row exactly as wide as its room fits, one pixel more is cut."""
    room = text_fit.row_room(text_fit.DEFAULT_SIDEBAR_WIDTH, 1.0)
    title = "Chain"
    while text_fit.text_width(title + "n", 1.0) <= room:
        title += "n"
    finding = Finding(
        check_id="target", severity=Severity.ERROR, armature=rig.name, title=title,
        message="m", why="w",
    )  # fmt: skip
    assert cut_rows(rig, [finding]) == []
    wider = Finding(**{**finding.__dict__, "title": title + "nn"})
    assert [text.text for text in cut_rows(rig, [wider])] == [title + "nn"]


def test_the_paragraph_under_fix_is_the_fix_label_alone(addon, rig) -> None:
    """The label says what a fix does to the rest pose (the pole's move: "deforms nothing");
    the panel adds no words of its own before it, which said it twice or contradicted it."""
    finding = Finding(
        check_id="roll", severity=Severity.WARNING, armature=rig.name, title="Rolls disagree",
        message="m", why="w", fix_id="align_rolls", changes_rest_pose=True,
        fix_label="Roll the bones (changes the rest pose)",
    )  # fmt: skip
    stored = report.store(bpy.context, rig, [finding])
    (row,) = [row for row in stored.rows if row.kind == "FINDING"]
    assert text_fit.box_paragraphs(row)[-1] == finding.fix_label


def _title_literals(node: ast.AST) -> list[str]:
    """The strings a title expression can be: a literal, or either branch of a conditional."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _title_literals(node.body) + _title_literals(node.orelse)
    return []


def _titles_in(tree: ast.AST) -> list[str]:
    """Every literal title in the source: assigned to ``title`` (alone or in a tuple), passed as
    ``title=`` (not a check's own name, shown in the preferences), a pole problem's second
    argument, or returned by a function named ``..._title``."""
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name) and target.id == "title":
                    found += _title_literals(node.value)
                elif isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                    for name, value in zip(target.elts, node.value.elts, strict=False):
                        if isinstance(name, ast.Name) and name.id == "title":
                            found += _title_literals(value)
        elif isinstance(node, ast.Call):
            called = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if called == "Check":
                continue
            found += [
                t for kw in node.keywords if kw.arg == "title" for t in _title_literals(kw.value)
            ]
            if called in ("_Problem", "Remedy") and len(node.args) > 1:
                found += _title_literals(node.args[1])
        elif isinstance(node, ast.FunctionDef) and node.name.endswith("title"):
            returns = [sub for sub in ast.walk(node) if isinstance(sub, ast.Return) and sub.value]
            found += [t for sub in returns for t in _title_literals(sub.value)]  # type: ignore[arg-type]
    return found


def test_every_title_written_in_the_source_fits_its_row(addon) -> None:
    """Titles no built rig draws (a straight limb sheared as it folds, an export nobody can
    explain) are read from the source: each fits a finding row at the default width, or the
    animator reads it cut. Titles built at run time (f-strings) are held by the rigs above."""
    source = Path(__file__).resolve().parent.parent / "ik_doctor"
    titles = {t for path in source.rglob("*.py") for t in _titles_in(ast.parse(path.read_text()))}
    assert len(titles) > 100, "the title literals are no longer found where this test looks"
    room = text_fit.row_room(text_fit.DEFAULT_SIDEBAR_WIDTH, 1.0)
    wide = {t: round(text_fit.text_width(t, 1.0)) for t in titles}
    assert {t: width for t, width in wide.items() if width > room} == {}
