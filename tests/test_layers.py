"""The layers read one way: core → checks → doctor → verify → panel and command line.

The core (the read-only model: findings, the rig view, the registry, Edit Mode access) imports
nothing of IK Doctor above it, the checks only the core, and so on up; a lower layer that needs
plug-ins is handed them (the registry). Every import is read from the source, those inside
functions included, so an import made late to dodge a cycle counts too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "ik_doctor"
LAYERS = {"core": 0, "checks": 1, "doctor": 2, "verify": 3, "ui": 4, "cli": 4}
"""Each part of the package and its height; anything else (the lazy top-level names,
``sample_rig``, ``__main__``) stands with the panel and the command line."""
TOP = 4


def _layer(module: str) -> int:
    """The height of a module named from the package root (``core.rig``, ``doctor``)."""
    return LAYERS.get(module.split(".")[0], TOP)


def _imports(source: str, where: tuple[str, ...]) -> list[tuple[int, str]]:
    """(line, module below ``ik_doctor``) of every IK Doctor module imported by the module at
    ``where`` (its parts below the package: ``("core", "registry")``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "ik_doctor":
                    found.append((node.lineno, alias.name.removeprefix("ik_doctor").lstrip(".")))
        elif isinstance(node, ast.ImportFrom):
            named = (node.module or "").split(".")
            if node.level:
                module = ".".join([*where[: len(where) - node.level], *named]).strip(".")
            elif named[0] == "ik_doctor":
                module = ".".join(named[1:])
            else:
                continue
            if module:
                found.append((node.lineno, module))
            else:  # ``from .. import x``: the lazy top-level names, or a part by its name
                found += [(node.lineno, alias.name) for alias in node.names]
    return found


def _upward_imports(source: str, where: tuple[str, ...]) -> list[str]:
    own = _layer(".".join(where))
    return [
        f"{'/'.join(where)}.py:{line} imports ik_doctor.{module or '(top level)'}"
        for line, module in _imports(source, where)
        if _layer(module) > own
    ]


LOWER = [
    *(
        path
        for part in ("core", "checks", "verify")
        for path in sorted((PACKAGE / part).glob("*.py"))
    ),
    PACKAGE / "doctor.py",
]


@pytest.mark.parametrize("path", LOWER, ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_no_module_imports_a_layer_above_its_own(path: Path) -> None:
    where = path.relative_to(PACKAGE).with_suffix("").parts
    assert _upward_imports(path.read_text(), where) == []


def test_an_import_of_a_higher_layer_is_caught() -> None:
    """The registry loading the checks inside a function, as it once did, is an arrow up."""
    source = "def _load_checks():\n    from .. import checks\n\n    checks.load_all()\n"
    assert _upward_imports(source, ("core", "registry")) == [
        "core/registry.py:2 imports ik_doctor.checks"
    ]
    assert _upward_imports("from ..verify.solve import evaluate\n", ("checks", "pole")) == [
        "checks/pole.py:1 imports ik_doctor.verify.solve"
    ]
    assert _upward_imports("from .. import diagnose\n", ("core", "limb")) == [
        "core/limb.py:1 imports ik_doctor.diagnose"
    ]
    assert _upward_imports("from ..core.rig import RigView\n", ("checks", "pole")) == []
