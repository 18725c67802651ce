"""The check reference page, made from the registry and each check's own module.

Nothing here is written by hand about a check: its title, fix order, options and fixes come
from its registry entry (``Check``), its description is its module's docstring, and what its
findings may carry (their severities, a fix that changes the rest pose or asks first, the rig
view it reads) is read from the source of its module and the private helpers it imports, so a
renamed or changed check changes the page. Each check's heading has its id as anchor
(``checks.md#chain_length``): a page linking to a check that no longer exists fails the build.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from ik_doctor.core.registry import Check, all_checks

SEVERITY_ORDER = ("ERROR", "WARNING", "INFO")
RIG_VIEW_PLUMBING = {"name", "remember", "obj", "object", "bone", "pose_bone", "raw_bone"}
"""Attributes of the rig view that say nothing about what a check reads (its accessors)."""


@dataclass(frozen=True)
class SourceFacts:
    """What a check's source says about the findings it makes."""

    severities: tuple[str, ...]
    rest_pose: bool
    """Some finding sets ``changes_rest_pose`` (to True, or to a value decided on the rig)."""
    asks_first: bool
    """Some finding sets ``needs_confirmation``."""
    reads: tuple[str, ...]
    """The rig view's attributes it reads (``rig.chains``, ``rig.limb_length`` ...)."""


def defining_module(check: Check) -> ModuleType:
    """The module that holds ``check``: where its finder (else a fix) is defined."""
    functions = [check.find, *check.fixes.values()]
    for function in functions:
        module = inspect.getmodule(function)
        if module is not None and getattr(module, "CHECK", None) is check:
            return module
    module = inspect.getmodule(functions[0])
    if module is None:
        raise LookupError(f"no module found for the check {check.id!r}")
    return module


def source_modules(module: ModuleType) -> list[ModuleType]:
    """``module`` and the modules of its own package it imports that hold no check of their own
    (``checks._lock_stiffness`` for ``locks``; ``verify.scan_findings`` for ``verify``)."""
    package = module.__name__.rpartition(".")[0]
    found = [module]
    for node in ast.walk(_tree(module)):
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            helper = importlib.import_module(f"{package}.{node.module}")
            if not hasattr(helper, "CHECK") and helper not in found:
                found.append(helper)
    return found


def source_facts(check: Check) -> SourceFacts:
    severities: set[str] = set()
    reads: set[str] = set()
    rest_pose = asks_first = False
    for module in source_modules(defining_module(check)):
        for node in ast.walk(_tree(module)):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                if node.value.id == "Severity" and node.attr in SEVERITY_ORDER:
                    severities.add(node.attr)
                elif node.value.id == "rig" and not node.attr.startswith("_"):
                    reads.add(node.attr)
            elif isinstance(node, ast.keyword) and not _is_false(node.value):
                rest_pose |= node.arg == "changes_rest_pose"
                asks_first |= node.arg == "needs_confirmation"
    return SourceFacts(
        severities=tuple(s.lower() for s in SEVERITY_ORDER if s in severities),
        rest_pose=rest_pose,
        asks_first=asks_first,
        reads=tuple(sorted(reads - RIG_VIEW_PLUMBING)),
    )


@functools.cache
def _tree(module: ModuleType) -> ast.Module:
    return ast.parse(Path(inspect.getfile(module)).read_text(encoding="utf-8"))


def _is_false(value: ast.expr) -> bool:
    return isinstance(value, ast.Constant) and value.value in (False, None)


def checks_page(checks: list[Check] | None = None) -> str:
    """The whole page, every registered check in fix order."""
    checks = all_checks() if checks is None else checks
    lines = [
        "# Checks",
        "",
        "<!-- Made by scripts/docs_checks.py from the check registry at each build; "
        "do not edit. -->",
        "",
        f"Every check IK Doctor runs ({len(checks)}), in the order Fix All applies their fixes. "
        "Each section is made at build time from the check itself: its registry entry "
        "(`ik_doctor.core.registry.Check`), its module's docstring, and what its source says "
        "its findings carry. A finding's own severity is decided on the rig; the severities "
        "below are those the check can give, and for every check an error on an IK switched "
        "off as one half of a switch (off beside a live twin, or off by a driven or keyed "
        "switch) is a warning that names the switch. Its options are set in the add-on's "
        "preferences or under `[options.ID]` in a project's settings file; its findings are "
        "switched off with `ignore` there, or with `--checks` on the command line.",
        "",
        "| id | title | severities | fixes |",
        "| --- | --- | --- | --- |",
    ]
    facts = {check.id: source_facts(check) for check in checks}
    for check in checks:
        fixes = ", ".join(f"`{fix_id}`" for fix_id in check.fixes) or "none"
        severities = ", ".join(facts[check.id].severities) or "-"
        lines.append(f"| [`{check.id}`](#{check.id}) | {check.title} | {severities} | {fixes} |")
    for check in checks:
        lines += ["", *check_section(check, facts[check.id])]
    return "\n".join(lines) + "\n"


def check_section(check: Check, facts: SourceFacts) -> list[str]:
    module = defining_module(check)
    lines = [f"## `{check.id}`: {check.title} {{#{check.id}}}", "", *_doc_lines(check.doc), ""]
    lines += ["| | |", "| --- | --- |", f"| module | `{module.__name__}` |"]
    lines.append(f"| runs in | {_runs_in(check)} |")
    lines.append(f"| severities | {', '.join(facts.severities) or '-'} |")
    lines.append(f"| fix order | {check.order} |")
    options = ", ".join(f"`{name}` = {value!r}" for name, value in check.options.items())
    lines.append(f"| options | {options or 'none'} |")
    if facts.reads:
        lines.append(f"| reads (rig view) | {', '.join(f'`{name}`' for name in facts.reads)} |")
    lines += ["", *fix_lines(check, facts)]
    return lines


def _runs_in(check: Check) -> str:
    from ik_doctor import verify

    if check.id in {scan.id for scan in verify.scans()}:
        return f"its scan, `{defining_module(check).__name__}` (`diagnose` finds none)"
    return "`diagnose`: the panel's Check Rig, `ik-doctor check` (reads the rig, changes nothing)"


def fix_lines(check: Check, facts: SourceFacts) -> list[str]:
    if not check.fixes:
        return ["No fix: each finding says what to do by hand."]
    lines = ["| fix id | function | what it does (its docstring) |", "| --- | --- | --- |"]
    for fix_id, function in check.fixes.items():
        lines.append(f"| `{fix_id}` | `{function.__name__}` | {_first_paragraph(function)} |")
    lines += [
        "",
        "In Blender each is the finding's **Fix** button (`ik_doctor.fix_finding`) and **Fix "
        "All** (`ik_doctor.fix_all`); on the command line, `ik-doctor fix`.",
    ]
    if facts.rest_pose:
        lines.append(
            "Some of its fixes change the rest pose (on a rig that deforms a mesh they ask first, "
            "and `ik-doctor fix` applies them with `--allow-rest-pose-changes`)."
        )
    if facts.asks_first:
        lines.append(
            "Some of its fixes throw something away and ask first (`ik-doctor fix` applies them "
            "with `--allow-discard`)."
        )
    return lines


def _first_paragraph(function: object) -> str:
    doc = inspect.getdoc(function)
    if not doc:
        return "(see above)"
    return " ".join(doc.split("\n\n")[0].split()).replace("|", "\\|")


def _doc_lines(doc: str) -> Iterator[str]:
    """The module docstring as Markdown: its paragraphs, with reST's ``::`` blocks fenced."""
    text = inspect.cleandoc(doc) if doc else "(This check's module has no docstring.)"
    in_block = False
    for line in text.splitlines():
        if in_block and line and not line.startswith(" "):
            yield "```"
            in_block = False
        if line.rstrip().endswith("::") and not in_block:
            yield line.rstrip()[:-1]
            yield ""
            yield "```"
            in_block = True
            continue
        yield line[4:] if in_block else line
    if in_block:
        yield "```"
