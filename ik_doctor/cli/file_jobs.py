"""What a worker does with one file: open it safely, diagnose it, or fix a copy of it.

Files come from anywhere, so they are opened with Python auto-execution off: a registered text
block or a Python driver expression in an untrusted file never runs. Results are plain dicts
(JSON-ready) because they travel back to the main process over a pipe.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

import bpy

from .. import apply_all_fixes, diagnose
from ..core.editing import read_only_reason
from ..core.finding import Finding
from ..core.fix_policy import FixImpact, FixPermission, fix_impact, skinned_meshes
from ..core.names import readable
from ..core.project_config import with_severities
from ..core.registry import all_checks
from ..core.rig import RigView
from ..core.scan_proofs import with_scan_proofs
from ..core.waiver_store import accepted_on, waivers_of
from ..core.waivers import Sorted, apply_waivers, with_reason
from ..verify.animation import CHECK_ID, scan_animation, scan_with_curves
from ..verify.export_roundtrip import ExportFailed
from ..verify.export_scan import CHECK_ID as EXPORT_CHECK
from ..verify.export_scan import NotExportable, not_verified, scan_export
from .diagram import rig_geometry
from .in_place import refusal as in_place_refusal
from .in_place import replace as replace_in_place
from .inputs import header_version, not_regular_problem

ALLOW_REST_POSE_FLAG = "--allow-rest-pose-changes"
ALLOW_DISCARD_FLAG = "--allow-discard"


class UnreadableFile(Exception):
    """Blender refused the file; the message is its reason, in one line."""


def open_untrusted(path: str) -> str | None:
    """Open a .blend with Python auto-execution off, whatever the preferences say; return what
    Blender said if it reported an error but read the file all the same, else None.

    Blender raises for every error it reports while reading, also when it then loads the file:
    "Data-block 'MASkin' had an invalid embedded node group, which has not been read" (4.5 and
    5.3, measured; 4.2 crashes on it), with the rig loaded, posed and whole. Only a file it
    refused is unreadable, and its ``load_post`` handlers say which (``load_post_fail`` runs
    instead): the open file's path cannot, when the same path was open before (a file fixed in
    place, read back). Only a regular file: the main process looked, but a FIFO put in the
    file's place since would leave Blender waiting for a writer forever.
    """
    problem = not_regular_problem(path)
    if problem is not None:
        raise UnreadableFile(problem)
    _preferences().filepaths.use_scripts_auto_execute = False
    try:
        with _loads_seen() as loaded:
            bpy.ops.wm.open_mainfile(filepath=path, load_ui=False, use_scripts=False)
    except RuntimeError as error:
        if not loaded:
            raise UnreadableFile(_blender_reason(error, path)) from None
        return _blender_reason(error, path)
    return None


@contextmanager
def _loads_seen() -> Iterator[list[bool]]:
    """A list that gains an item each time Blender finishes loading a file, for the duration."""
    seen: list[bool] = []

    @bpy.app.handlers.persistent  # a handler that is not is dropped as the file loads
    def loaded(*_args: Any) -> None:
        seen.append(True)

    bpy.app.handlers.load_post.append(loaded)
    try:
        yield seen
    finally:
        bpy.app.handlers.load_post.remove(loaded)


def check_file(job: dict[str, Any]) -> dict[str, Any]:
    """Diagnose every armature of one file (or the named one)."""
    result = _file_result(job)
    try:
        result.update(_noted(open_untrusted(job["path"])))
    except UnreadableFile as error:
        return _unreadable(result, str(error))
    armatures, missing = _armatures(job.get("armature"))
    if missing:
        return _without_armature(result, missing)
    failed = False
    for obj in armatures:
        entry = _armature_entry(obj)
        try:
            entry.update(_read(obj, job))
        except Exception as error:  # a check that breaks on one rig must not hide the others
            entry["problem"] = f"the checks failed on this armature: {error!r}"
            failed = True
        result["armatures"].append(entry)
    newer = _newer_blender()
    if newer is not None:
        return {**result, "status": "failed", "problem": f"{newer}: checked as read"}
    return {**result, "status": "failed" if failed else "ok"}


def fix_file(job: dict[str, Any]) -> dict[str, Any]:
    """Fix a copy of one file: diagnose, apply the allowed fixes, save, reopen and recheck.

    The input is read, never written, unless ``in_place`` is set; then a byte copy of it is
    kept as a backup before the fixed file replaces it (only when a fix changed something).
    """
    result = {**_file_result(job), "output": None, "backup": None}
    source, output = Path(job["path"]), Path(job["output"])
    try:
        result.update(_noted(open_untrusted(str(source))))
    except UnreadableFile as error:
        return _unreadable(result, str(error))
    armatures, missing = _armatures(job.get("armature"))
    if missing:
        result = _without_armature(result, missing)
        if result["status"] == "unreadable":
            return result
    newer = _newer_blender()
    refusal = None if newer is None else f"{newer}: checked as read, never rewritten"
    changed = False
    failed = False
    for obj in armatures:
        entry = _armature_entry(obj)
        try:
            entry.update(_read(obj, job))
            entry["fix"] = _fix_armature(obj, job) if refusal is None else _skipped_fix(refusal)
        except Exception as error:
            entry["problem"] = f"fixing this armature failed: {error!r}"
            failed = True
        changed = changed or any(a["changed"] for a in entry.get("fix", {}).get("applied", []))
        result["armatures"].append(entry)
    refusal = refusal or _in_place_refusal(job, changed, result.get("note"))
    if refusal is not None:
        return _refused(result, refusal)
    try:
        written = _write(output, changed, bool(job.get("in_place")))
    except (OSError, RuntimeError) as error:  # RuntimeError: Blender refused to save
        return {**result, "status": "failed", "problem": f"could not write: {error}"}
    result.update(written)
    try:
        _recheck(result, job)
    except UnreadableFile as error:
        problem = f"the fixed file does not read back: {error}"
        return {**result, "status": "failed", "problem": problem}
    if failed:
        result["status"] = "failed"
    return result


def _fix_armature(obj: bpy.types.Object, job: dict[str, Any]) -> dict[str, Any]:
    reason = read_only_reason(obj)
    if reason is not None:
        return {"skipped": reason, "applied": [], "not_applied": []}
    permission = FixPermission(
        rebind_meshes=bool(job.get("allow_rest_pose_changes")),
        discard=bool(job.get("allow_discard")),
    )
    results = apply_all_fixes(
        obj,
        checks=_wanted_checks(job),
        permission=permission,
        options=job.get("options"),
        leave=_accepted(obj, job),
        scan=partial(scan_animation, solve_untested=False) if job.get("animation") else None,
    )
    applied = [result.to_dict() for result in results]
    skinned = skinned_meshes(obj)
    not_applied = []
    for finding in _findings(obj, job):
        impact = fix_impact(finding, obj, skinned)
        if finding.fix_id is not None and not impact.allowed_by(permission):
            not_applied.append({"finding": finding.to_dict(), "reason": _held_back(impact)})
    return {"skipped": None, "applied": _json_safe(applied), "not_applied": _json_safe(not_applied)}


def _findings(obj: bpy.types.Object, job: dict[str, Any]) -> list[Finding]:
    """What the checks find, and with ``animation`` what the animation scan finds too, less
    the faults accepted on purpose."""
    found = _diagnosed(obj, job)
    if job.get("animation"):
        found = with_scan_proofs(found, scan_animation(obj))
    return _waivers_applied(obj, job, found).active


def _diagnosed(obj: bpy.types.Object, job: dict[str, Any]) -> list[Finding]:
    return diagnose(obj, checks=_wanted_checks(job), options=job.get("options"))


def _read(obj: bpy.types.Object, job: dict[str, Any]) -> dict[str, Any]:
    """An armature's entry fields: its findings, those accepted on purpose (``waived``), and
    for the page its chains and miss curves."""
    curves = None
    if not job.get("animation"):
        found = _diagnosed(obj, job)
    else:
        scanned, curves = scan_with_curves(obj)
        found = with_scan_proofs(_diagnosed(obj, job), scanned)
    found = [*found, *_exported(obj, job)]
    kept = _waivers_applied(obj, job, found)
    read = {
        "findings": _dicts(kept.active),
        "waived": _json_safe([with_reason(finding, waiver) for finding, waiver in kept.waived]),
    }
    if curves is not None and job.get("geometry"):
        read["curves"] = [curve.to_dict() for curve in curves]
    if job.get("geometry"):
        read["chains"] = [g.to_dict() for g in rig_geometry(RigView(obj))]
    return read


def _exported(obj: bpy.types.Object, job: dict[str, Any]) -> list[Finding]:
    """With ``export``: where the game's joints leave Blender's pose (check id 'export')."""
    if not job.get("export"):
        return []
    try:
        return scan_export(obj, job["export"], job.get("export_settings"))
    except (NotExportable, ExportFailed) as refusal:  # the rig's checks still stand
        return [not_verified(obj, refusal)]


def _waivers_applied(obj: bpy.types.Object, job: dict[str, Any], found: list[Finding]) -> Sorted:
    """The project's severities, then the armature's waivers (none with ``no_waivers``); a
    waiver is judged stale only for a check this job ran."""
    found = with_severities(found, job.get("severity") or {})
    if job.get("no_waivers"):
        return Sorted(found)
    return apply_waivers(found, waivers_of(obj), readable(obj), _checks_run(job))


def _wanted_checks(job: dict[str, Any]) -> list[str] | None:
    """The ids of ``--checks``, else the checks in this Blender's registry (plug-ins included,
    the scans apart) but those the project ignores; None for every check."""
    if job.get("checks") is not None or not job.get("ignore"):
        return job.get("checks")
    skipped = {*job["ignore"], CHECK_ID, EXPORT_CHECK}
    return [check.id for check in all_checks() if check.id not in skipped]


def _checks_run(job: dict[str, Any]) -> list[str]:
    scans = (CHECK_ID, EXPORT_CHECK)
    ran = _wanted_checks(job) or [check.id for check in all_checks() if check.id not in scans]
    ran = [*ran, CHECK_ID] if job.get("animation") else list(ran)
    return [*ran, EXPORT_CHECK] if job.get("export") else ran


def _accepted(obj: bpy.types.Object, job: dict[str, Any]) -> Callable[[Finding], bool] | None:
    """Which findings no fix may touch: those a waiver accepts (none with ``no_waivers``)."""
    return None if job.get("no_waivers") else accepted_on(obj)


def _held_back(impact: FixImpact) -> str:
    """Why the command line left this fix for a person to choose, with the flag that applies it."""
    flags = [ALLOW_REST_POSE_FLAG] if impact.rebinds_meshes else []
    flags += [ALLOW_DISCARD_FLAG] if impact.discards else []
    return f"{'; '.join(impact.costs())}; run with {' '.join(flags)} to apply it"


def _in_place_refusal(job: dict[str, Any], changed: bool, note: str | None) -> str | None:
    """Why the fixed rig must not replace the input, when it would (a fix changed something)."""
    if not (changed and job.get("in_place")):
        return None
    if note is not None:  # saving writes only what Blender read
        return f"not fixed in place: Blender did not read all of the file ({note})"
    reason = in_place_refusal(Path(job["output"]))
    return None if reason is None else f"not fixed in place: the file {reason}"


def _refused(result: dict[str, Any], reason: str) -> dict[str, Any]:
    """Nothing is written: what was fixed in memory is dropped, and each armature says why."""
    for entry in result["armatures"]:
        if "fix" in entry:
            entry["fix"] = _skipped_fix(reason)
    return {**result, "status": "failed", "problem": reason}


def _newer_blender() -> str | None:
    """Which Blender saved the open file, when it is newer than this one; else None.

    This Blender reads what it knows of a newer file and drops the rest, so its findings are
    about what it read, and saving the file again would quietly make it this version's.
    """
    saved = tuple(bpy.data.version)
    if saved <= tuple(bpy.app.version_file):
        return None
    this = bpy.app.version_string
    return f"saved by Blender {saved[0]}.{saved[1]}, newer than this Blender {this}"


def _skipped_fix(reason: str) -> dict[str, Any]:
    return {"skipped": reason, "applied": [], "not_applied": []}


def _write(output: Path, changed: bool, in_place: bool) -> dict[str, Any]:
    """Save the fixed rig; in place only when a fix changed something, after a backup.

    In place, ``output`` is the input itself (the file a link points to, when following).
    """
    if in_place:
        if not changed:
            return {"output": str(output), "backup": None}
        backup = replace_in_place(output, _save_copy)
        return {"output": str(output), "backup": str(backup)}
    output.parent.mkdir(parents=True, exist_ok=True)
    _save_copy(output)  # also unchanged: Blender remaps relative paths to the new folder
    return {"output": str(output), "backup": None}


def _preferences() -> bpy.types.Preferences:
    """Blender's preferences: there in the background too, though the stubs make them optional."""
    preferences = bpy.context.preferences
    assert preferences is not None
    return preferences


def _save_copy(path: Path) -> None:
    # No numbered .blend1 next to a file we write: the backup policy is ours, not Blender's.
    _preferences().filepaths.save_version = 0
    bpy.ops.wm.save_as_mainfile(filepath=str(path), copy=True, check_existing=False)


def _recheck(result: dict[str, Any], job: dict[str, Any]) -> None:
    """Open the written file again and diagnose it: the report's "after" is what was saved."""
    open_untrusted(result["output"])
    fresh = {_identity(obj): obj for obj in _all_armatures()}
    for entry in result["armatures"]:
        if "fix" not in entry:
            continue
        obj = fresh.get((entry["name"], entry["library"]))
        if obj is None:
            entry["problem"] = f"the armature is missing from {result['output']} when read back"
            result["status"] = "failed"
            continue
        after = _read(obj, job)
        entry["fix"]["after"] = after.pop("findings")
        entry["fix"].update({f"{name}_after": value for name, value in after.items()})


def _file_result(job: dict[str, Any]) -> dict[str, Any]:
    return {"path": job["path"], "status": "ok", "problem": None, "armatures": []}


def _missing_libraries() -> list[str]:
    """Absolute paths of the libraries the open file links from that are not there."""
    return sorted(
        {
            os.path.normpath(bpy.path.abspath(readable(library, "filepath")))
            for library in bpy.data.libraries
            if library.is_missing
        }
    )


def _without_armature(result: dict[str, Any], reason: str) -> dict[str, Any]:
    """No armature to check: a plain fact, unless it may sit in a library that is missing."""
    missing = _missing_libraries()
    if not missing:
        return {**result, "status": "no_armature", "problem": reason}
    return {
        **result,
        "status": "unreadable",
        "problem": f"{reason}, and linked data cannot be read: missing {', '.join(missing)}",
    }


def _noted(note: str | None) -> dict[str, Any]:
    """The report's ``note`` on a file Blender read with an error: it was checked as read."""
    return {} if note is None else {"note": f"Blender read it with an error: {note}"}


def _unreadable(result: dict[str, Any], problem: str) -> dict[str, Any]:
    return {**result, "status": "unreadable", "problem": problem}


def _all_armatures() -> list[bpy.types.Object]:
    return [obj for obj in bpy.data.objects if obj.type == "ARMATURE"]


def _armatures(name: str | None) -> tuple[list[bpy.types.Object], str | None]:
    """The armatures to check, or why there are none."""
    found = _all_armatures()
    if not found:
        return [], "no armature in this file"
    if name is None:
        return found, None
    named = [obj for obj in found if readable(obj) == name]
    if not named:
        names = ", ".join(sorted(readable(obj) for obj in found))
        return [], f"no armature named '{name}' (this file has: {names})"
    return named, None


def _armature_entry(obj: bpy.types.Object) -> dict[str, Any]:
    name, library = _identity(obj)
    return {
        "name": name,
        "library": library,
        "override": obj.override_library is not None,
        "problem": None,
        "findings": [],
    }


def _identity(obj: bpy.types.Object) -> tuple[str, str | None]:
    """Name and absolute library path: a linked armature may share its name with a local one.

    Absolute, because saving elsewhere rewrites a relative library path.
    """
    if obj.library is None:
        return readable(obj), None
    return readable(obj), os.path.normpath(bpy.path.abspath(readable(obj.library, "filepath")))


def _dicts(findings: Iterable[Finding]) -> list[dict[str, Any]]:
    return _json_safe([finding.to_dict() for finding in findings])


def _json_safe(value: Any) -> Any:
    """Fix arguments may hold vectors or tuples: make everything a JSON type."""
    if isinstance(value, dict):
        return {str(key): _json_safe(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_json_safe(item) for item in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    try:
        return [_json_safe(item) for item in value]
    except TypeError:
        return str(value)


NEWER_OR_DAMAGED = ("not a blend file", "may be from a newer version of Blender")
"""What Blender says of a .blend whose header it does not take: 4.2, 4.5 and 5.x "not a blend
file"; 4.3 "Cannot read blend file, incomplete header, may be from a newer version of Blender"
(Debian's 4.3.2, measured on files saved by 5.0 and 5.2)."""


def _blender_reason(error: RuntimeError, path: str) -> str:
    """Blender's own error in one line, without the path the reader already sees."""
    text = " ".join(str(error).split()).removeprefix("Error:").strip()
    if any(symptom in text for symptom in NEWER_OR_DAMAGED):
        # The header said .blend (checked before): a newer file format or a damaged file.
        saved = header_version(path)
        if saved is not None and saved > tuple(bpy.app.version[:2]):
            return (
                f"saved by Blender {saved[0]}.{saved[1]}, "
                f"which this Blender {bpy.app.version_string} cannot read"
            )
        return (
            f"Blender {bpy.app.version_string} cannot read this .blend "
            "(saved by a newer Blender, or damaged)"
        )
    for symptom in ("Missing DNA block", "File format is not supported"):
        if symptom in text:  # the header looked right: what follows it is cut off or broken
            return f"the file is truncated or damaged (Blender: {symptom})"
    for noise in (f'Loading "{path}" failed:', f'in file "{path}"', f"'{path}'", f'"{path}"'):
        text = text.replace(noise, "")
    text = " ".join(text.split()).replace(" :", ":").replace(" ,", ",")
    return text.strip(" :,") or "Blender could not read it"
