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

from .finding import Finding
from .limb import set_elsewhere
from .rig import RigView

SWITCHES = frozenset({"influence", "mute"})
"""An IK's settings that a rig switches on purpose (judged by the checks, not withheld here)."""
BONE_SETTINGS = ("location", "rotation_", "scale", "lock_ik_", "ik_", "use_ik_")
"""A pose bone's settings that IK reads and fixes write (a B-Bone's shape is neither)."""


def withheld_where_driven(rig: RigView, finding: Finding) -> Finding:
    """``finding`` without its fix when a driver or keys set what the fix would change."""
    if finding.fix_id is None:
        return finding
    sources = _sources_of(rig, finding)
    if not sources:
        return finding
    driven = any(source.startswith("a driver") for source in sources)
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
    """How this setting of the constraint on ``bone`` is set: "driven", "keyed" or None."""
    for named, each, how in set_elsewhere(rig).get(bone, ()):
        if (named, each) == (constraint, setting):
            return how
    return None


def _sources_of(rig: RigView, finding: Finding) -> list[str]:
    """What sets the settings of the finding's IK and chain bones: "a driver sets the pole
    angle of 'IK' on forearm.L"."""
    chain = rig.chain(*finding.chain) if finding.chain is not None else None
    bones = set(chain.bones) if chain is not None else set()
    bones |= {finding.bone} if finding.bone else set()
    by_bone = set_elsewhere(rig)
    found: list[str] = []
    for bone in sorted(bones & by_bone.keys()):
        for constraint, setting, how in by_bone[bone]:
            if constraint is not None:
                wanted = chain is not None and chain.key == (bone, constraint)
                wanted = wanted and setting not in SWITCHES
                what = f"the {setting.replace('_', ' ')} of '{constraint}' on {bone}"
            else:
                animation = how == "keyed" and setting.startswith(
                    ("location", "rotation_", "scale")
                )
                wanted = setting.startswith(BONE_SETTINGS) and not animation
                what = f"the {setting.replace('_', ' ')} of {bone}"
            if wanted:
                found.append(f"{'a driver sets' if how == 'driven' else 'keys set'} {what}")
    return sorted(set(found))
