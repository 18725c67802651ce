"""Files Debian's Blender cannot read, said plainly (issue 25).

Debian's Blender 4.3.2 says of a file saved by 5.x "Cannot read blend file, incomplete header,
may be from a newer version of Blender", where 4.2, 4.5 and 5.x say "not a blend file", and
its Python 3.13 has no ``zstandard`` to read a compressed file's header with (Debian's 5.2 has
only the standard library's, from Python 3.14). The report says which Blender saved the file
where its header can be read, and never carries a traceback.
"""

from __future__ import annotations

import pytest
import zstandard
from debian_binaries import ROOT, DebianBlender, ik_doctor
from test_blender_binary import read_report

SAVED_BY_50 = ROOT.parent / "shared" / "rigs" / "mysta_chibi_rig.blend"
"""A rig saved by Blender 5.0, compressed (zstd)."""


def test_files_from_a_newer_blender_are_unreadable_and_say_which_saved_them(
    blender: DebianBlender, tmp_path
) -> None:
    if blender.suite != "trixie":
        pytest.skip("Debian's 5.2 reads what 5.0 saved")
    if not SAVED_BY_50.exists():
        pytest.skip(f"{SAVED_BY_50} is not here")
    plain = tmp_path / "plain.blend"
    with SAVED_BY_50.open("rb") as compressed:
        reader = zstandard.ZstdDecompressor().stream_reader(compressed, read_across_frames=True)
        plain.write_bytes(reader.read())
    out = tmp_path / "report.json"
    run = ik_doctor("check", SAVED_BY_50, plain, "--blender", blender.launcher,
                    "--format", "json", "--output", out, cwd=tmp_path)  # fmt: skip
    report = read_report(out, run.returncode)
    assert run.returncode == 2, run.stderr
    assert [file["status"] for file in report["files"]] == ["unreadable", "unreadable"]
    assert "5.0" in report["files"][1]["problem"], "the plain file's header names its Blender"
    assert "Traceback" not in run.stdout + run.stderr


def test_a_file_blender_reads_with_an_error_is_checked_or_its_crash_said(
    blender: DebianBlender, made, tmp_path
) -> None:
    """A material's node tree broken in the saved bytes (``cli_rigs``): Debian's 5.2 raises on
    opening it and loads the rest, which is checked with Blender's message as the file's note;
    its 4.3.2 crashes reading it, as 4.2 does: unreadable, the crash said."""
    out = tmp_path / "report.json"
    run = ik_doctor("check", made / "nodes.blend", "--blender", blender.launcher,
                    "--format", "json", "--output", out, cwd=tmp_path)  # fmt: skip
    (file,) = read_report(out, run.returncode)["files"]
    if blender.suite == "trixie":
        assert (run.returncode, file["status"]) == (2, "unreadable"), run.stderr
    else:
        assert (run.returncode, file["status"], bool(file["note"])) == (1, "ok", True)
        found = {finding["check_id"] for finding in file["armatures"][0]["findings"]}
        assert "chain_length" in found
    assert "Traceback" not in run.stdout + run.stderr
