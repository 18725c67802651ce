"""The panel's settings: the preferences, then the project's settings file beside the open
.blend (``core.project_config``, found walking up from its folder as the command line finds
it), so a rig is judged alike in Blender and in the pipeline."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import bpy

from ..core.project_config import NO_CONFIG, ConfigError, ProjectConfig, check_against, discover
from ..core.registry import all_checks
from . import preferences


@dataclass(frozen=True)
class PanelSettings:
    """The checks the panel runs, their options and severities, and what went wrong reading
    the project's file (then the preferences alone decide)."""

    enabled: list[str]
    options: dict[str, dict[str, Any]]
    severity: dict[str, str] = field(default_factory=dict)
    project: str | None = None
    problem: str | None = None


def panel_settings(context: bpy.types.Context) -> PanelSettings:
    enabled, options = preferences.settings(context)
    try:
        config = _project_config()
    except ConfigError as error:
        return PanelSettings(enabled, options, problem=str(error))
    for check_id, values in config.options.items():
        options.setdefault(check_id, {}).update(values)
    return PanelSettings(
        config.checks(enabled), options, dict(config.severity), project=config.path
    )


def _project_config() -> ProjectConfig:
    """The settings file beside the open .blend; none for a file never saved."""
    if not bpy.data.filepath:
        return NO_CONFIG
    config = discover(Path(bpy.data.filepath).parent, {})
    check_against(config, {check.id: check.options for check in all_checks()})
    return config
