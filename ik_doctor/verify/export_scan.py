"""Verify the export: IK that works in Blender and arrives broken in the game.

A game gets no constraints: the exporter must bake what the IK does into keys, and whether it
does depends on its settings and on the rig. ``scan_export`` exports the armature with Blender's
own glTF or FBX exporter and the user's settings, reads the file back, and compares every deform
joint and IK tip with Blender's own pose on every frame of every action. Where they part, it
exports again with one setting changed at a time (sampling on, deform bones only off, the whole
action baked...; ``export_remedies``) and names the first that makes the game's pose match,
with its fix where one is safe: the setting stored where the user's settings came from
(``export_settings``: a collection's exporter, or for glTF the scene), where the exporter reads
it on the next export.
Without a collection exporter FBX keeps no settings in the file, so its findings say what to
tick instead. The worst occurrence of a miss keeps the worst joint's distance over its frames,
for the HTML page's plot.

Nothing in the user's file is changed: see ``export_roundtrip``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import bpy

from ..core.armature import armature_data
from ..core.editing import FixError, require_armature
from ..core.finding import Finding, Occurrence, Series, Severity, occurrences_text, worst_of
from ..core.names import SAVED_AS_BYTES, find, has_unreadable, names_of, readable
from ..core.registry import Check
from .animation import frame_ranges
from .export_compare import ActionDifference, ProgressCallback, compare
from .export_remedies import UNEXPLAINED, Remedy, remedies
from .export_rig_changes import rig_changed
from .export_roundtrip import ExportFailed, exporter_default, round_trip
from .export_settings import EXPORTER_NAMES, SettingsSource, settings_source
from .playback import chosen_actions, frames_to_play

CHECK_ID = "export"
MISS = 0.005
"""A joint further than this share of the rig's size from Blender's pose has moved in the game.
Measured: glTF's defaults land the Trex, Horse and Rat within 0.004%, FBX with its curve
simplification within 0.13%; sampling off misses by 5% to 31%."""
WHOLE_ACTION = "the whole action is not in the file"
PROOF_FRAMES = 12
"""The worst frames of each action a changed export must land to be named the cause."""


FBX_KEPT = (
    "the FBX exporter keeps no settings in the file: export with {what}, or give the armature's "
    "collection an FBX exporter (Blender 4.2+), which keeps its settings"
)
SERIES_DIGITS = 4
"""A plotted distance's decimals: 0.01% of the rig's size, a fiftieth of ``MISS``."""


# --- the scan ------------------------------------------------------------------------------


def scan_export(
    obj: bpy.types.Object,
    exporter: str = "gltf",
    settings: Mapping[str, Any] | None = None,
    progress: ProgressCallback | None = None,
) -> list[Finding]:
    """Export ``obj`` as the user would, read the file back and report where the game's joints
    leave Blender's pose, with the export setting proved to cause it.

    ``settings`` (the exporter's own property names) override the user's: those of the
    exporter on the armature's collection, else for glTF those the scene remembers, else the
    exporter's defaults. ``progress(done, total)`` is called as frames are compared. Changes
    nothing in the file.
    """
    require_armature(obj)
    _require_readable_names(obj)
    source = settings_source(obj, exporter)
    chosen = {**source.read(), **(settings or {})}
    with round_trip(obj, exporter, chosen) as trip:
        differences = compare(obj, trip, progress=progress)
        exported = {pair.source.name for pair in trip.actions}
    expected = _expected_actions(obj)
    missing = sorted(expected - exported)
    failing = [d for d in differences if _failing(d) or d.left_out]
    if not failing and not missing:
        return []
    causes = _causes(obj, exporter, chosen, failing, missing)
    said = source.text() + (" and the settings given" if settings else "")
    return _findings(obj, source, said, failing, missing, causes)


class NotExportable(ValueError):
    """This rig cannot be exported and read back here (not a usage error: another rig can)."""


def not_verified(obj: bpy.types.Object, refusal: ValueError) -> Finding:
    """The finding a report carries where this rig's export could not be verified
    (``NotExportable``, or the exporter failed on it): the checks' findings still stand."""
    return Finding(
        check_id=CHECK_ID,
        severity=Severity.WARNING,
        armature=readable(obj),
        title="Export not verified",
        message=str(refusal),
        why="Whether the game gets the pose Blender shows is known only once it is read back.",
    )


def _require_readable_names(obj: bpy.types.Object) -> None:
    """Refuse (ValueError) an armature whose own, bones' or actions' names Python cannot read:
    the exporters are Python and read every one, and the game would get no name to match."""
    names = [readable(obj), *names_of(armature_data(obj).bones)]
    names += [readable(action) for action in chosen_actions(obj, None)]
    unreadable = sorted({name for name in names if has_unreadable(name)})
    if unreadable:
        raise NotExportable(
            f"The export was not verified: {', '.join(unreadable[:4])} "
            f"{'is' if len(unreadable) == 1 else 'are'} {SAVED_AS_BYTES}, which the exporters "
            "cannot read. Rename them in Blender, then verify the export."
        )


def _expected_actions(obj: bpy.types.Object) -> set[str]:
    """The actions the animator plays on the armature: the active one and its NLA strips'."""
    return {readable(action) for action in chosen_actions(obj, None)}


def _failing(difference: ActionDifference) -> dict[int, tuple[float, str]]:
    return {f: miss for f, miss in difference.misses.items() if miss[0] > MISS}


def _causes(
    obj: bpy.types.Object,
    exporter: str,
    settings: Mapping[str, Any],
    failing: Sequence[ActionDifference],
    missing: Sequence[str],
) -> dict[tuple[str, str], Remedy]:
    """Each failing action's proved cause, per problem: the first change after which it lands
    on its worst frames (``miss``), or after which the file holds all its frames
    (``left_out``)."""
    left = {(d.action, "miss"): d for d in failing if _failing(d)}
    left.update({(d.action, "left_out"): d for d in failing if d.left_out})
    left.update({(name, "left_out"): ActionDifference(name) for name in missing})
    proved: dict[tuple[str, str], Remedy] = {}
    sources = [find(bpy.data.actions, d.action) for d in failing]
    for remedy in remedies(obj, exporter, settings, [a for a in sources if a is not None]):
        if not left:
            break
        frames = sorted({f for d in left.values() for f in _worst(d)})
        try:
            with (
                _scene_range_over(obj, remedy.scene_range),
                rig_changed(obj, remedy.change, remedy.bones),
                round_trip(obj, exporter, {**settings, **remedy.settings}) as trip,
            ):
                names = sorted({action for action, _ in left})
                again = compare(obj, trip, actions=names, frames=frames or None)
        except ExportFailed:
            continue  # a change the exporter cannot write proves nothing
        for difference in again:
            for problem, gone in (
                ("miss", not _failing(difference)),
                ("left_out", not difference.left_out),
            ):
                if gone and left.pop((difference.action, problem), None) is not None:
                    proved[difference.action, problem] = remedy
    return proved


def _worst(difference: ActionDifference) -> list[int]:
    failing = _failing(difference)
    worst = sorted(failing, key=lambda f: failing[f][0], reverse=True)[:PROOF_FRAMES]
    return [*worst, *difference.left_out[:1], *difference.left_out[-1:]]


@contextmanager
def _scene_range_over(obj: bpy.types.Object, wanted: bool) -> Iterator[None]:
    """For FBX without All Actions: the scene's range stretched over the active action."""
    scene = bpy.context.scene
    animation = obj.animation_data
    if not wanted or scene is None or animation is None or animation.action is None:
        yield
        return
    kept = (scene.frame_start, scene.frame_end)
    first, last = animation.action.frame_range[0], animation.action.frame_range[1]
    try:
        scene.frame_start, scene.frame_end = round(first), round(last)
        yield
    finally:
        scene.frame_start, scene.frame_end = kept


# --- findings ------------------------------------------------------------------------------


def _findings(
    obj: bpy.types.Object,
    source: SettingsSource,
    said: str,
    failing: Sequence[ActionDifference],
    missing: Sequence[str],
    causes: Mapping[tuple[str, str], Remedy],
) -> list[Finding]:
    """One finding per problem and proved cause, listing every action it shows in; ``said``
    names where the settings came from."""
    groups: dict[tuple[str, str], list[Occurrence]] = {}
    for difference in failing:
        if _failing(difference):
            key = ("miss", causes.get((difference.action, "miss"), UNEXPLAINED).kind)
            groups.setdefault(key, []).append(_miss(difference))
        if difference.left_out:
            runs = frame_ranges(difference.left_out)
            cause = causes.get((difference.action, "left_out"), UNEXPLAINED)
            groups.setdefault(("left_out", cause.kind), []).append(
                Occurrence(
                    difference.action,
                    runs,
                    runs[0][0],
                    float(len(difference.left_out)),
                    f"{len(difference.left_out)} frames not in the file",
                )
            )
    for name in missing:
        cause = causes.get((name, "left_out"), UNEXPLAINED)
        action = bpy.data.actions.get(name)
        runs = frame_ranges(frames_to_play(action, None)) if action is not None else ((0, 0),)
        groups.setdefault(("left_out", cause.kind), []).append(
            Occurrence(name, runs, runs[0][0], 1.0, WHOLE_ACTION)
        )
    remedies = {remedy.kind: remedy for remedy in causes.values()}
    remedies[UNEXPLAINED.kind] = UNEXPLAINED
    return [
        _finding(obj, source, said, problem, remedies[kind], occurrences)
        for (problem, kind), occurrences in groups.items()
    ]


def _miss(difference: ActionDifference) -> Occurrence:
    """Where one action misses: its failing frames, and the worst joint's distance over every
    frame compared, which ``_finding`` keeps for the worst occurrence alone."""
    misses = _failing(difference)
    frame = max(misses, key=lambda f: misses[f][0])
    share, joint = misses[frame]
    path = difference.distances[joint]
    first = min(path)
    series = Series(
        joint,
        first,
        tuple(round(path[f], SERIES_DIGITS) for f in range(first, max(path) + 1)),
        MISS,
    )
    measured = f"{joint} {share:.1%} of the rig's size off"
    return Occurrence(difference.action, frame_ranges(misses), frame, share, measured, series)


def _finding(
    obj: bpy.types.Object,
    source: SettingsSource,
    said: str,
    problem: str,
    cause: Remedy,
    occurrences: list[Occurrence],
) -> Finding:
    worst = worst_of(occurrences)
    occurrences = [o if o is worst else replace(o, series=None) for o in occurrences]
    name = EXPORTER_NAMES[source.exporter]
    where = occurrences_text(occurrences)
    if problem == "miss":
        assert worst.series is not None
        title = cause.title
        message = f"Exported to {name} with {said}, the game's joints leave Blender's pose {where}."
        why = (
            "A game gets no constraints: the exporter must bake where the IK puts each bone "
            "into keys, and this export did not bake the pose Blender shows."
        )
    else:
        whole = all(o.measured == WHOLE_ACTION for o in occurrences)
        title = "Export leaves actions out" if whole else "Export cuts the action"
        message = (
            f"Exported to {name} with {said}, frames of the action are not in the file: {where}."
        )
        why = "Where the file has no keys the game holds the last pose, so the motion stops."
    if cause is not UNEXPLAINED:
        result = "every joint lands" if problem == "miss" else "the file holds every frame"
        message += f" Exported again with {cause.label}, {result}."
    return Finding(
        check_id=CHECK_ID,
        severity=Severity.ERROR if problem == "miss" else Severity.WARNING,
        armature=readable(obj),
        title=title,
        message=message,
        why=why,
        bone=worst.series.name.removesuffix("'s tip") if worst.series else None,
        action=worst.action,
        frames=worst.frames,
        occurrences=tuple(occurrences),
        **_fix_fields(source, problem, cause, worst.worst_frame),
    )


def _fix_fields(
    source: SettingsSource, problem: str, cause: Remedy, worst_frame: int
) -> dict[str, Any]:
    """The fix, where the proved setting can be kept where the user's settings are, or why not;
    its args name the cause, and the collection whose exporter keeps the settings."""
    no_fix = cause.no_fix_reason
    if no_fix is None and not source.can_store:
        no_fix = FBX_KEPT.format(what=cause.label)
    fixable = cause is not UNEXPLAINED and no_fix is None
    args: tuple[tuple[str, Any], ...] = (
        ("exporter", source.exporter),
        ("problem", problem),
        ("cause", cause.kind),
        ("settings", tuple(sorted(cause.settings.items()))),
        ("worst_frame", worst_frame),
    )
    if source.collection is not None:
        args += (("collection", source.collection),)
    return {
        "fix_id": "store_export_setting" if fixable else None,
        "fix_label": f"Store {cause.label} in {source.keeper()}" if fixable else None,
        "fix_args": args,
        "no_fix_reason": None if fixable else no_fix,
    }


# --- the fix: a setting stored where the exporter reads it ---------------------------------


def _source(finding: Finding) -> SettingsSource:
    return SettingsSource(finding.args["exporter"], finding.args.get("collection"))


def store_export_setting(obj: bpy.types.Object, finding: Finding) -> str:
    """Store the proved settings where the user's settings came from."""
    source = _source(finding)
    where = source.keeper()
    try:
        source.store(dict(finding.args["settings"]))
    except (ValueError, AttributeError, TypeError) as error:
        raise FixError(f"Could not store the export settings in {where}: {error}") from None
    return (
        f"Stored {', '.join(f'{k} = {v}' for k, v in finding.args['settings'])} in {where}: "
        "the exporter starts from them on the next export."
    )


def _refind(obj: bpy.types.Object, finding: Finding) -> Finding | None:
    """The finding while the settings where it was found still differ from its fix."""
    source = _source(finding)
    stored = source.read()
    wanted = dict(finding.args.get("settings", ()))
    kept = all(stored.get(k, exporter_default(source.exporter, k)) == v for k, v in wanted.items())
    return None if kept else finding


CHECK = Check(
    id=CHECK_ID,
    title="Verify the export",
    doc=__doc__ or "",
    find=lambda rig, options: (),
    fixes={"store_export_setting": store_export_setting},
    order=70,
    refind=_refind,
)
