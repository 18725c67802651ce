"""A Finding's fields as a report row's properties, derived from the dataclass, so a field added
to ``Finding`` reaches the panel and comes back from it without an edit here.

Each field becomes one property by its type: text (None kept as ""), a flag, a number, an enum
member by name; any other value (tuples, a nested dataclass) is JSON in ``<field>_json``, read
back by the field's type, so tuples come back as tuples and a nested dataclass as itself.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import types
import typing
from typing import Any

from bpy.props import BoolProperty, EnumProperty, FloatProperty, IntProperty, StringProperty

from ..core.finding import Finding

_SCALARS: dict[Any, Any] = {
    str: StringProperty,
    bool: BoolProperty,
    int: IntProperty,
    float: FloatProperty,
}


@dataclasses.dataclass(frozen=True)
class _Column:
    """Where one field of Finding lives on a row, and how it is written there."""

    field: str
    hint: Any
    prop: str
    way: str
    """"text" (None as ""), "scalar", "enum" (a member's name) or "json"."""


def _without_none(hint: Any) -> tuple[Any, bool]:
    """The type inside ``X | None``, and whether None was allowed."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        args = typing.get_args(hint)
        inner = [arg for arg in args if arg is not type(None)]
        if len(inner) == 1 and len(args) == 2:
            return inner[0], True
    return hint, False


def _column(field: dataclasses.Field[Any], hint: Any) -> _Column:
    inner, optional = _without_none(hint)
    if inner is str:
        return _Column(field.name, hint, field.name, "text")
    if not optional and isinstance(hint, type) and issubclass(hint, enum.Enum):
        return _Column(field.name, hint, field.name, "enum")
    if not optional and hint in _SCALARS:
        return _Column(field.name, hint, field.name, "scalar")
    return _Column(field.name, hint, f"{field.name}_json", "json")


_HINTS = typing.get_type_hints(Finding)
COLUMNS = tuple(_column(field, _HINTS[field.name]) for field in dataclasses.fields(Finding))


def row_properties() -> dict[str, Any]:
    """The row's property for every field of Finding, for a PropertyGroup's annotations."""
    defaults = {f.name: f.default for f in dataclasses.fields(Finding)}
    properties: dict[str, Any] = {}
    for column in COLUMNS:
        default = defaults[column.field]
        given = default is not dataclasses.MISSING and default is not None
        if column.way == "enum":
            items = [(member.name, member.name.title(), "") for member in column.hint]
            # A header row holds no finding: its enum reads as the last member, the mildest
            # in Severity, whose members are declared worst first.
            start = default.name if given else items[-1][0]
            # The stubs say bpy.props functions return None; Blender returns the definition.
            properties[column.prop] = EnumProperty(items=items, default=start)  # type: ignore[func-returns-value]
        elif column.way == "json":
            properties[column.prop] = StringProperty(  # type: ignore[func-returns-value]  # as above
                default=_encode(default if given else None)
            )
        else:
            kind = _SCALARS[_without_none(column.hint)[0]]
            properties[column.prop] = kind(default=default) if given else kind()
    return properties


def copy_into(row: Any, finding: Finding) -> None:
    """Write every field of ``finding`` into ``row``."""
    for column in COLUMNS:
        value = getattr(finding, column.field)
        if column.way == "text":
            value = value or ""
        elif column.way == "enum":
            value = column.hint(value).name
        elif column.way == "json":
            value = _encode(value)
        setattr(row, column.prop, value)


def from_row(row: Any) -> Finding:
    """The Finding ``copy_into`` wrote into ``row``, equal to it field for field."""
    values: dict[str, Any] = {}
    for column in COLUMNS:
        stored = getattr(row, column.prop)
        if column.way == "text":
            values[column.field] = stored if stored or not _without_none(column.hint)[1] else None
        elif column.way == "enum":
            values[column.field] = column.hint[stored]
        elif column.way == "json":
            values[column.field] = _decode(column.hint, json.loads(stored))
        else:
            values[column.field] = stored
    return Finding(**values)


def _encode(value: Any) -> str:
    return json.dumps(_plain(value), default=list)


def _plain(value: Any) -> Any:
    """A value as JSON holds it: a dataclass as a dict, an enum member by name, tuples as lists."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    return value


def _decode(hint: Any, value: Any) -> Any:
    """``value`` read from JSON as the type ``hint`` says: tuples, dataclasses and enums again."""
    inner, optional = _without_none(hint)
    if optional:
        return None if value is None else _decode(inner, value)
    if typing.get_origin(hint) is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], item) for item in value)
        return tuple(_decode(arg, item) for arg, item in zip(args, value, strict=True))
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        hints = typing.get_type_hints(hint)
        return hint(
            **{f.name: _decode(hints[f.name], value[f.name]) for f in dataclasses.fields(hint)}
        )
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return hint[value]
    if hint is Any:
        return _frozen(value)
    return value


def _frozen(value: Any) -> Any:
    """JSON gives lists back; findings hold tuples (they are frozen and hashable)."""
    if isinstance(value, list):
        return tuple(_frozen(item) for item in value)
    return value
