"""A project's own settings: ``ik-doctor.toml``, or ``[tool.ik-doctor]`` in ``pyproject.toml``.

Found as Ruff finds its own: walking up from each checked file's folder, the first folder that
holds an ``ik-doctor.toml``, or a ``pyproject.toml`` with a ``[tool.ik-doctor]`` table, decides
(``ik-doctor.toml`` first when both are there); settings are not merged across folders. Only a
regular file is read (a folder or a FIFO named so is passed by: opening a FIFO waits forever),
and at most ``MAX_BYTES``. Every key is checked, so a typo is an error that names it, never a
setting silently ignored::

    ignore = ["symmetry"]            # checks switched off
    fail-on = "warning"              # as --fail-on
    [severity]                       # a check's findings reported at another severity
    stretch = "info"
    [options.roll]                   # a check's options, as the preferences show them
    max_angle = 12.0

No ``bpy`` here: the command line reads it before any Blender starts. The check ids and
options it names are checked against the registry by whoever has it (``check_against``), so a
plug-in check's id is taken as a built-in one is.
"""

from __future__ import annotations

import os
import stat
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .finding import Finding, Severity

FILE_NAME = "ik-doctor.toml"
PYPROJECT = "pyproject.toml"
TOOL_TABLE = "ik-doctor"
MAX_BYTES = 1 << 20
"""A settings file is a few lines; a bigger one is refused, not read into memory."""
KEYS = ("ignore", "fail-on", "severity", "options")
SEVERITIES = tuple(severity.value for severity in Severity)


class ConfigError(Exception):
    """The settings file cannot be used; the message names the file and the key."""


@dataclass(frozen=True)
class ProjectConfig:
    """What one settings file says; empty settings when none was found."""

    path: str | None = None
    ignore: frozenset[str] = frozenset()
    severity: Mapping[str, str] = field(default_factory=dict)
    options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    fail_on: str | None = None
    table: str = ""
    """Where the settings sit in the file, as its keys are named: "" or "tool.ik-doctor."."""

    def named_checks(self) -> set[str]:
        """Every check id the file names: in ``ignore``, ``severity`` and ``options``."""
        return {*self.ignore, *self.severity, *self.options}

    def checks(self, every: Iterable[str]) -> list[str]:
        """The checks of ``every`` this project keeps on."""
        return [check_id for check_id in every if check_id not in self.ignore]

    def to_dict(self) -> dict[str, Any]:
        """What a report says of the settings it ran with."""
        return {
            "path": self.path,
            "ignore": sorted(self.ignore),
            "severity": dict(self.severity),
            "options": {check: dict(values) for check, values in self.options.items()},
            "fail_on": self.fail_on,
        }


NO_CONFIG = ProjectConfig()


def discover(folder: str | Path, cache: dict[str, Any]) -> ProjectConfig:
    """The settings for files in ``folder``: the nearest settings file walking up, or none.

    ``cache`` keeps each folder's answer for the run, so a tree of files reads each file once.
    """
    start = Path(os.path.abspath(folder))
    walked: list[str] = []
    found: ProjectConfig = NO_CONFIG
    for place in (start, *start.parents):
        key = str(place)
        if key in cache:
            found = cache[key]
            break
        walked.append(key)
        here = _config_in(place)
        if here is not None:
            found = here
            break
    for key in walked:
        cache[key] = found
    return found


def load(path: str | Path) -> ProjectConfig:
    """The settings in ``path`` (``--config``): an ``ik-doctor.toml``, or a ``pyproject.toml``
    with a ``[tool.ik-doctor]`` table. Raises ``ConfigError``."""
    data = _read_toml(Path(path), must_exist=True)
    assert data is not None
    if Path(path).name == PYPROJECT:
        table = data.get("tool", {}).get(TOOL_TABLE) if isinstance(data.get("tool"), dict) else None
        if table is None:
            raise ConfigError(f"{path}: no [tool.{TOOL_TABLE}] table")
        return parse(table, str(path), f"tool.{TOOL_TABLE}.")
    return parse(data, str(path))


def parse(data: Mapping[str, Any], path: str, prefix: str = "") -> ProjectConfig:
    """Settings from a parsed TOML table; every key and value checked, but for the check ids
    and options, which only the registry knows (``check_against``)."""
    if not isinstance(data, Mapping):
        raise ConfigError(f"{path}: {prefix.rstrip('.')} must be a table")
    for key in data:
        if key not in KEYS:
            raise ConfigError(f"{path}: unknown key '{prefix}{key}' (known: {', '.join(KEYS)})")
    ignore = data.get("ignore", [])
    if not isinstance(ignore, list) or not all(isinstance(item, str) for item in ignore):
        raise ConfigError(f"{path}: '{prefix}ignore' must be a list of check ids")
    severity = _table(data, "severity", path, prefix)
    for check_id, value in severity.items():
        _severity(value, f"{prefix}severity.{check_id}", path)
    options = _table(data, "options", path, prefix)
    for check_id, values in options.items():
        if not isinstance(values, dict):
            raise ConfigError(f"{path}: '{prefix}options.{check_id}' must be a table")
    fail_on = data.get("fail-on")
    if fail_on is not None:
        _severity(fail_on, f"{prefix}fail-on", path)
    return ProjectConfig(
        path=path,
        ignore=frozenset(ignore),
        severity=dict(severity),
        options={
            check: {_option_name(k): v for k, v in values.items()}
            for check, values in options.items()
        },
        fail_on=fail_on,
        table=prefix,
    )


def check_against(config: ProjectConfig, registry: Mapping[str, Mapping[str, Any]]) -> None:
    """Raise ``ConfigError`` for a check id the registry does not hold, an option no check has,
    or a value of the wrong kind; ``registry``: each check's id and its options with their
    defaults, plug-ins' included."""
    named = [("ignore", check_id) for check_id in sorted(config.ignore)]
    named += [(f"severity.{check_id}", check_id) for check_id in config.severity]
    named += [(f"options.{check_id}", check_id) for check_id in config.options]
    for key, check_id in named:
        if check_id not in registry:
            raise ConfigError(
                f"{config.path}: '{config.table}{key}': unknown check id {check_id!r} "
                f"(known: {', '.join(registry)})"
            )
    for check_id, values in config.options.items():
        defaults = registry[check_id]
        for name, value in values.items():
            key = f"{config.table}options.{check_id}.{name}"
            if name not in defaults:
                offered = ", ".join(defaults) or "none"
                raise ConfigError(
                    f"{config.path}: unknown key '{key}' ({check_id} options: {offered})"
                )
            if not _fits(value, defaults[name]):
                raise ConfigError(
                    f"{config.path}: '{key}' must be a number like its default "
                    f"{defaults[name]!r}, not {value!r}"
                )


def _fits(value: Any, default: Any) -> bool:
    """An option's value is of its default's kind: a switch, a count, or a measure (never
    negative)."""
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(value, bool) and isinstance(default, bool)
    if isinstance(default, int):
        return isinstance(value, int) and value >= 0
    return isinstance(value, int | float) and value >= 0


def with_severities(findings: Iterable[Finding], overrides: Mapping[str, str]) -> list[Finding]:
    """The findings with each overridden check's severity."""
    return [
        replace(finding, severity=Severity(overrides[finding.check_id]))
        if finding.check_id in overrides
        else finding
        for finding in findings
    ]


def _config_in(folder: Path) -> ProjectConfig | None:
    own = _read_toml(folder / FILE_NAME)
    if own is not None:
        return parse(own, str(folder / FILE_NAME))
    project = _read_toml(folder / PYPROJECT)
    tool = project.get("tool") if project is not None else None
    if isinstance(tool, dict) and TOOL_TABLE in tool:
        return parse(tool[TOOL_TABLE], str(folder / PYPROJECT), f"tool.{TOOL_TABLE}.")
    return None


def _read_toml(path: Path, must_exist: bool = False) -> dict[str, Any] | None:
    """The parsed file; None where there is no regular file by that name (and none is asked
    for by name)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except FileNotFoundError:
        if must_exist:
            raise ConfigError(f"{path}: no such file") from None
        return None
    except OSError as error:
        raise ConfigError(f"{path}: cannot be read: {error.strerror or error}") from None
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            if must_exist:
                raise ConfigError(f"{path}: not a regular file")
            return None
        if status.st_size > MAX_BYTES:
            raise ConfigError(f"{path}: {status.st_size} bytes, more than a settings file has")
        raw = os.read(descriptor, MAX_BYTES + 1)
    finally:
        os.close(descriptor)
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise ConfigError(f"{path}: not UTF-8 text (byte {error.start})") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None
    except RecursionError:
        raise ConfigError(f"{path}: nested too deeply to be a settings file") from None


def _table(data: Mapping[str, Any], key: str, path: str, prefix: str) -> dict[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise ConfigError(f"{path}: '{prefix}{key}' must be a table")
    return value


def _severity(value: Any, key: str, path: str) -> None:
    if value not in SEVERITIES:
        raise ConfigError(f"{path}: '{key}' must be one of {', '.join(SEVERITIES)}, not {value!r}")


def _option_name(name: str) -> str:
    """Options are spelled as the preferences show them; Ruff's dashes are taken too."""
    return name.replace("-", "_")
