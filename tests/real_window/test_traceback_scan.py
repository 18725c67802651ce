"""The suite's traceback scan: Blender's own are ignored, ours count even when they name no file
of ours (Blender reports code it evaluated for us as ``File "<string>"``)."""

from __future__ import annotations

from blender_window import foreign_tracebacks

BLENDERS_OWN = """\
Traceback (most recent call last):
  File "/usr/share/blender/scripts/modules/addon_utils.py", line 544, in enable
    mod.register()
  File "/usr/share/blender/scripts/modules/_bpy_internal/http/downloader.py", line 51, in <module>
    import cattrs
ModuleNotFoundError: No module named 'cattrs'
Exception in module register(): /usr/share/blender/scripts/addons_core/bl_pkg/__init__.py
"""
UPDATE_LAMBDA = """\
Traceback (most recent call last):
  File "<string>", line 1, in <lambda>
NameError: name 'redraw_3d_views' is not defined
"""
IN_THE_EXTENSION = """\
Traceback (most recent call last):
  File "/tmp/home/.config/blender/5.2/extensions/user_default/ik_doctor/ui/panel.py", line 9
    raise ValueError
ValueError
"""


def test_blenders_own_traceback_is_not_ours() -> None:
    assert foreign_tracebacks(BLENDERS_OWN) == []


def test_an_update_lambdas_traceback_counts_though_it_names_no_file_of_ours() -> None:
    (found,) = foreign_tracebacks(BLENDERS_OWN + UPDATE_LAMBDA + "Info: saved\n")
    assert found.splitlines()[-1].startswith("NameError")


def test_a_traceback_through_the_extension_counts() -> None:
    assert len(foreign_tracebacks(IN_THE_EXTENSION + BLENDERS_OWN)) == 1
