"""The command-line reference page, from ``ik-doctor``'s own argument parser, and the check
that every option the docs name is one the parser (or the benchmark named beside it) knows.

A renamed option changes the reference page, and a page that still names the old one fails
the strict build: every inline code span and every line of a fenced code block that runs
``ik-doctor`` (or one of its subcommands, or ``blender --command ik_doctor``), a script of
``benchmarks/`` or ``scripts/``, or that is a bare option (```--jobs 2```) is read, and each
``--option`` in it must be one that program takes. Commands of other programs (``pytest``,
``blender``, ``pip``) are not read.
"""

from __future__ import annotations

import argparse
import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

OPTION = re.compile(r"(?<![\w/.-])--[A-Za-z][\w-]*")
CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)")
FENCE = re.compile(r"^\s*(```|~~~)")
SCRIPT = re.compile(r"(?:^|/)((?:benchmarks|scripts)/\w+\.py)$")
BLENDER_OPTIONS = frozenset(
    ("--background", "--factory-startup", "--disable-autoexec", "--command", "--python-expr")
)
"""Options of Blender itself that the docs name on their own: Blender's binary is not here to
be asked, so they are listed (a command that starts with ``blender`` is not read at all)."""


@dataclass(frozen=True)
class KnownOptions:
    """The options of ``ik-doctor`` (by subcommand; None: the top level) and of each script."""

    ik_doctor: dict[str | None, frozenset[str]]
    scripts: dict[str, frozenset[str]]

    def anywhere(self) -> frozenset[str]:
        return frozenset().union(*self.ik_doctor.values(), *self.scripts.values(), BLENDER_OPTIONS)


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _option_strings(parser: argparse.ArgumentParser) -> frozenset[str]:
    return frozenset(s for action in parser._actions for s in action.option_strings)


def known_options(parser: argparse.ArgumentParser, root: Path) -> KnownOptions:
    top = _option_strings(parser)
    by_command: dict[str | None, frozenset[str]] = {None: top}
    for name, sub in subcommands(parser).items():
        by_command[name] = _option_strings(sub) | top
    scripts = {
        path.relative_to(root).as_posix(): script_options(path)
        for folder in ("benchmarks", "scripts")
        for path in sorted((root / folder).glob("*.py"))
    }
    return KnownOptions(ik_doctor=by_command, scripts=scripts)


def script_options(path: Path) -> frozenset[str]:
    """The ``--options`` a script's ``add_argument`` calls name (read, not run: the benchmarks
    start Blender when imported)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return frozenset(
        arg.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "add_argument"
        for arg in node.args
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str)
        if arg.value.startswith("--")
    ) | {"--help"}


def snippets(markdown: str) -> Iterator[str]:
    """Every inline code span, and every command line of the fenced code blocks."""
    in_fence = False
    pending = ""
    for line in markdown.splitlines():
        if FENCE.match(line):
            in_fence = not in_fence
            continue
        if in_fence:
            line = pending + line.split(" #")[0].strip()
            pending = line[:-1] + " " if line.endswith("\\") else ""
            if not pending and line:
                yield line.removeprefix("$ ")
        else:
            yield from (match.group(2).strip() for match in CODE_SPAN.finditer(line))


@dataclass(frozen=True)
class UnknownOption:
    """An option a page names that the program it is written with does not take."""

    option: str
    snippet: str
    program: str

    def __str__(self) -> str:
        return f"'{self.option}' in `{self.snippet}` is no option of {self.program}"


def unknown_options(markdown: str, known: KnownOptions) -> list[UnknownOption]:
    """Each option named in ``markdown`` that its program does not take."""
    problems = []
    for snippet in snippets(markdown):
        found = _program(snippet, known)
        if found is None:
            continue
        program, allowed, rest = found
        problems += [
            UnknownOption(option, snippet, program)
            for option in OPTION.findall(rest)
            if option not in allowed
        ]
    return problems


def _program(snippet: str, known: KnownOptions) -> tuple[str, frozenset[str], str] | None:
    """Which program ``snippet`` runs, the options it takes, and the text its options are in."""
    words = [w for w in snippet.split() if not re.fullmatch(r"[A-Z_]+=\S*", w)]
    if not words:
        return None
    if words[0].startswith("--"):
        return "any command these docs describe", known.anywhere(), snippet
    if words[0] == "blender" and words[1:3] == ["--command", "ik_doctor"]:
        words = ["ik-doctor", *words[3:]]
    commands = [c for c in known.ik_doctor if c is not None]
    if words[0].endswith("ik-doctor") or words[0] in commands:
        rest = words[1:] if words[0].endswith("ik-doctor") else words
        command = next((w for w in rest[:1] if w in commands), None)
        name = "ik-doctor" + (f" {command}" if command else "")
        allowed = (
            known.ik_doctor[command] if command else frozenset().union(*known.ik_doctor.values())
        )
        return name, allowed, " ".join(rest)
    for index, word in enumerate(words[:3]):
        script = SCRIPT.search(word)
        if script and script.group(1) in known.scripts:
            return script.group(1), known.scripts[script.group(1)], " ".join(words[index + 1 :])
    return None


def cli_page(parser: argparse.ArgumentParser) -> str:
    """The reference page: the top level, then each subcommand with every argument."""
    lines = [
        "# Command-line reference",
        "",
        "<!-- Made by scripts/docs_cli.py from ik-doctor's argument parser at each build; "
        "do not edit. -->",
        "",
        f"{parser.description}",
        "",
        "```text",
        _usage(parser),
        "```",
        "",
        f"{parser.epilog}" if parser.epilog else "",
        "",
    ]
    for name, sub in subcommands(parser).items():
        lines += ["", *command_section(parser, name, sub)]
    return "\n".join(lines) + "\n"


def command_section(
    parser: argparse.ArgumentParser, name: str, sub: argparse.ArgumentParser
) -> list[str]:
    helps = {
        choice.dest: choice.help
        for action in parser._actions
        if isinstance(action, argparse._SubParsersAction)
        for choice in action._choices_actions
    }
    lines = [f"## {parser.prog} {name} {{#{name}}}", "", f"{helps.get(name) or ''}", ""]
    lines += ["```text", _usage(sub), "```", ""]
    lines += ["| argument | value | default | what it does |", "| --- | --- | --- | --- |"]
    formatter = sub._get_formatter()
    for action in sub._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        names = ", ".join(action.option_strings) or (action.metavar or action.dest)
        help_text = formatter._expand_help(action) if action.help else ""
        if action.required and action.option_strings:
            help_text += " (required)"
        lines.append(f"| `{names}` | {_value(action)} | {_default(action)} | {_cell(help_text)} |")
    return lines


def _usage(parser: argparse.ArgumentParser) -> str:
    """The usage argparse prints, without its "usage: " (and that much of every line's indent)."""
    prefix = "usage: "
    lines = parser.format_usage().rstrip().splitlines()
    return "\n".join(
        line.removeprefix(prefix if i == 0 else " " * len(prefix)) for i, line in enumerate(lines)
    )


def _value(action: argparse.Action) -> str:
    if action.nargs == 0:
        return "-"
    if action.choices is not None:
        return " \\| ".join(f"`{choice}`" for choice in action.choices)
    metavar = action.metavar or action.dest.upper()
    shown = metavar if isinstance(metavar, str) else " ".join(metavar)
    return f"`{shown}`" + (" ..." if action.nargs in ("+", "*") else "")


def _default(action: argparse.Action) -> str:
    if action.default in (None, False, argparse.SUPPRESS) or action.nargs in ("+", "*"):
        return "-"
    return f"`{action.default}`"


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")
