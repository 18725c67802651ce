"""Settings a driver or keys set: a fix that writes one is taken back by Blender at once.

Production rigs drive their own settings (BlenRig drives two IK pole angles and the scale of 96
bones). A fix that writes such a setting reports a change that the driver undoes at the next
update (or the keys at the next frame), and Fix All then goes on fixing a rig that never came
to be. Measured on the reference arm: with its pole angle driven, "Set the pole angle" changed
nothing that stayed; with Use Tail driven off, Fix All connected and rolled the shoulder and
moved the pole. So a finding on a chain whose IK or bones have a driven (or keyed) setting that
fixes write offers no fix, and says which setting to change at its source.

Not the switches: a driven or keyed influence or mute is one half of an IK/FK or pole switch,
which ``fk_ik_mix`` and ``constraint_order`` judge; nor a bone's keyed transforms, which are
animation (``rest_pose`` keeps them when it clears a pose).
"""

from __future__ import annotations

from dataclasses import replace

import bpy

from .finding import Finding
from .limb import animated_paths
from .names import readable
from .rig import RigView

SWITCHES = frozenset({"influence", "mute"})
"""An IK's settings that a rig switches on purpose (judged by the checks, not withheld here)."""
BONE_SETTINGS = ("location", "rotation_", "scale", "lock_ik_", "ik_", "use_ik_")
"""A pose bone's settings that IK reads and fixes write (a B-Bone's shape is neither)."""


def withheld_where_driven(rig: RigView, finding: Finding) -> Finding:
    """``finding`` without its fix when a driver or keys set what the fix would change."""
    if finding.fix_id is None:
        return finding
    sources = _set_elsewhere(rig, finding)
    if not sources:
        return finding
    driven = any("driver" in source for source in sources)
    when, where = (
        ("at its next update", "the driver") if driven else ("on the next frame", "the keys")
    )
    reason = f"{'; '.join(sources)}: Blender would undo the fix {when}, so change {where}"
    return replace(
        finding,
        fix_id=None,
        fix_label=None,
        no_fix_reason=reason,
        changes_rest_pose=False,
        needs_confirmation=False,
        facts=(*finding.facts, ("driven", True)),
    )


def setting_source(rig: RigView, bone: str, constraint: str, setting: str) -> str | None:
    """What sets this setting of the constraint on ``bone``: "driver", "keys" or None."""
    for named, each, how in _settings_by_bone(rig).get(bone, ()):
        if (named, each) == (constraint, setting):
            return how
    return None


def _set_elsewhere(rig: RigView, finding: Finding) -> list[str]:
    """What sets the settings of the finding's IK and chain bones: "a driver sets the pole
    angle of 'IK' on forearm.L"."""
    chain = rig.chain(*finding.chain) if finding.chain is not None else None
    bones = set(chain.bones) if chain is not None else set()
    bones |= {finding.bone} if finding.bone else set()
    by_bone = _settings_by_bone(rig)
    found: list[str] = []
    for bone in sorted(bones & by_bone.keys()):
        for constraint, setting, how in by_bone[bone]:
            if constraint is not None:
                wanted = chain is not None and chain.key == (bone, constraint)
                wanted = wanted and setting not in SWITCHES
                what = f"the {setting.replace('_', ' ')} of '{constraint}' on {bone}"
            else:
                animation = how == "keys" and setting.startswith(("location", "rotation_", "scale"))
                wanted = setting.startswith(BONE_SETTINGS) and not animation
                what = f"the {setting.replace('_', ' ')} of {bone}"
            if wanted:
                found.append(f"{'a driver sets' if how == 'driver' else 'keys set'} {what}")
    return sorted(set(found))


def _settings_by_bone(rig: RigView) -> dict[str, list[tuple[str | None, str, str]]]:
    """Per pose bone, every (constraint or None, setting, "driver" or "keys") of it that a
    driver or the rig's keys set: read once per pass (a production rig drives thousands)."""

    def read() -> dict[str, list[tuple[str | None, str, str]]]:
        animation = rig.object.animation_data
        sources = {path: "keys" for path in animated_paths(rig)}
        if animation is not None:
            sources.update({readable(d, "data_path"): "driver" for d in animation.drivers})
        by_bone: dict[str, list[tuple[str | None, str, str]]] = {}
        for path, how in sources.items():
            bone, constraint, setting = _parse(path)
            if bone is not None:
                by_bone.setdefault(bone, []).append((constraint, setting, how))
        return by_bone

    return rig.remember("set_elsewhere", read)


def _parse(path: str) -> tuple[str | None, str | None, str]:
    """(bone, constraint or None, setting) of a pose bone's data path; bone None otherwise."""
    prefix = 'pose.bones["'
    if not path.startswith(prefix) or '"]' not in path:
        return None, None, ""
    bone, _, rest = path[len(prefix) :].partition('"]')
    if rest.startswith('.constraints["') and '"].' in rest:
        constraint, _, setting = rest[len('.constraints["') :].partition('"].')
        return _unescape(bone), _unescape(constraint), setting
    return _unescape(bone), None, rest.lstrip(".")


def _unescape(name: str) -> str:
    return bpy.utils.unescape_identifier(name)
