"""The project settings each checked file runs with (``core.project_config``), as Ruff does it.

Without options each file follows the nearest ``ik-doctor.toml`` or ``[tool.ik-doctor]`` walking
up from its folder; ``--config PATH`` makes one file decide for every checked file, and
``--isolated`` reads none. The command line's own options win over a file's: ``--checks`` over
its ``ignore``, ``--fail-on`` over its ``fail-on``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from ..core.project_config import NO_CONFIG, ProjectConfig, check_against, discover, load
from .inputs import Input
from .results import ANIMATION_CHECK, EXPORT_CHECK


def add_config_options(parser: argparse.ArgumentParser) -> None:
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--config",
        metavar="PATH",
        help="take the settings from this ik-doctor.toml or pyproject.toml for every file "
        "(default: the nearest one walking up from each file)",
    )
    where.add_argument(
        "--isolated", action="store_true", help="ignore every settings file (ik-doctor.toml)"
    )


def configs_for(args: argparse.Namespace, inputs: list[Input]) -> list[ProjectConfig]:
    """Each input's settings; raises ``ConfigError`` for a file that cannot be used."""
    if args.isolated:
        return [NO_CONFIG for _ in inputs]
    if args.config is not None:
        chosen = load(args.config)
        return [chosen for _ in inputs]
    cache: dict[str, Any] = {}
    return [discover(Path(item.path).parent, cache) for item in inputs]


def check_configs(
    configs: list[ProjectConfig],
    built_in: Iterable[str],
    ask_registry: Callable[[], dict[str, Any] | None],
) -> None:
    """Raise ``ConfigError`` for a check id or option a file names that the registry does not
    hold. The registry (each check's options, plug-ins' included) is only a Blender's: it is
    asked (``ask_registry``) only when a file sets options or names a check that is not a
    built-in one or a scan, which every registry holds."""
    every_registry_holds = {*built_in, ANIMATION_CHECK, EXPORT_CHECK}
    used = {config.path: config for config in configs if config.path is not None}.values()
    if all(not config.options and config.named_checks() <= every_registry_holds for config in used):
        return
    registry = ask_registry()
    if registry is None:  # no Blender started: every file fails to be read, and says why
        return
    for config in used:
        check_against(config, registry)


def job_settings(args: argparse.Namespace, config: ProjectConfig) -> dict[str, Any]:
    """The job fields a file's settings decide: the checks run (``--checks`` wins over
    ``ignore``, which the worker takes from its registry, plug-ins included), the animation and
    export scans, severities and options."""
    return {
        "checks": args.checks,
        "ignore": sorted(config.ignore) if args.checks is None else [],
        "animation": args.animation and ANIMATION_CHECK not in config.ignore,
        "severity": dict(config.severity),
        "options": {check: dict(values) for check, values in config.options.items()},
        "no_waivers": args.no_waivers,
        **({"export": None} if EXPORT_CHECK in config.ignore else {}),
    }


def file_fields(args: argparse.Namespace, config: ProjectConfig) -> dict[str, Any]:
    """What a file's report says of its settings: which file, and its ``fail-on`` when that
    decides (no --fail-on given)."""
    fields: dict[str, Any] = {"config": config.path}
    if args.fail_on is None and config.fail_on is not None:
        fields["fail_on"] = config.fail_on
    return fields
