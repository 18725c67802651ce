"""File safety of the command line: what it opens, what it writes, and what it never touches.

A pipeline runs ``ik-doctor`` over directories it does not control. These tests build the
traps a pipeline TD would try (an output named after an input, a read-only or shared file, a
symbolic link, a hard link, a FIFO named ``x.blend``, a link out of the tree, a file from a
newer Blender) and run the real command on them. Refusals that happen before any work are
called in-process (no Blender starts for them); everything else is a real subprocess.
"""

from __future__ import annotations

import gzip
import os
import shutil
import socket
import stat
import sys
from pathlib import Path

import bpy
import pytest
from cli_rigs import broken_rig
from test_cli import SEED_CHECKS, digest, ik_doctor, valid_report

from ik_doctor.cli import in_place, main
from ik_doctor.cli.inputs import collect_inputs, header_version
from ik_doctor.sample_rig import build_character_rig

SHARED_RIGS = Path(__file__).resolve().parents[2] / "shared" / "rigs"
SAVED_IN_5_2 = SHARED_RIGS / "gltfio_00_extras_saved_in_5.2.blend"
"""A real file saved by Blender 5.2: 4.2 cannot read it, 4.5 reads it as well as it can."""
RUNNING = tuple(bpy.app.version[:2])


def _bumped(source: Path, target: Path) -> None:
    """A copy whose header says it was saved by the next Blender release after this one.

    Blender takes the version from the header, so this is a file "from the future" on every
    line, not only on the oldest.
    """
    data = bytearray(source.read_bytes())
    major, minor = RUNNING
    if data[7:8] in (b"_", b"-"):  # BLENDER-v402: pointer size, endianness, three digits
        data[9:12] = b"%d%02d" % (major, minor + 1)
    else:  # BLENDER17-01v0503 (5.0 and later): header size, format, endianness, four digits
        data[12:17] = b"v%02d%02d" % (major, minor + 1)
    target.write_bytes(bytes(data))


@pytest.fixture(scope="module")
def rigs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The broken rig saved plain, zstd, gzip and "by a newer Blender"; and the correct rig."""
    root = tmp_path_factory.mktemp("cli_files")
    names = ("plain", "zstd", "gzip", "newer", "good")
    paths = {name: root / f"{name}.blend" for name in names}
    bpy.ops.wm.read_homefile(use_empty=True)
    build_character_rig()
    bpy.ops.wm.save_as_mainfile(filepath=str(paths["good"]), check_existing=False, copy=True)
    bpy.ops.wm.read_homefile(use_empty=True)
    broken_rig()
    for name, compress in (("plain", False), ("zstd", True)):  # 5.x compresses by default
        bpy.ops.wm.save_as_mainfile(
            filepath=str(paths[name]), check_existing=False, copy=True, compress=compress
        )
    bpy.ops.wm.read_homefile(use_empty=True)
    paths["gzip"].write_bytes(gzip.compress(paths["plain"].read_bytes()))
    _bumped(paths["plain"], paths["newer"])
    return paths


def _copy(source: Path, target: Path, mode: int | None = None) -> Path:
    shutil.copyfile(source, target)
    if mode is not None:
        target.chmod(mode)
    return target


# Every path the command writes is refused when it lands on an input or another output.


@pytest.mark.parametrize(
    ("args", "complaint"),
    [
        (["check", "hero.blend", "--output", "hero.blend"],
         "--output hero.blend would overwrite an input file, hero.blend"),
        (["check", "hero.blend", "--html", "./hero.blend"],
         "--html ./hero.blend would overwrite an input file, hero.blend"),
        (["check", "hero.blend", "--output", "hero_link.blend"],
         "--output hero_link.blend would overwrite an input file, hero.blend"),
        (["check", "hero.blend", "--format", "json", "--output", "hero_twin.blend"],
         "--output hero_twin.blend would overwrite an input file, hero.blend"),
        (["check", "rigs", "--html", "rigs/hero.blend"],
         "--html rigs/hero.blend would overwrite an input file, rigs/hero.blend"),
        (["check", "hero.blend", "--output", "report.txt", "--html", "report.txt"],
         "--html report.txt and --output report.txt are the same file"),
        (["check", "hero.blend", "--output", "reports"], "--output reports is a directory"),
        (["fix", "hero.blend", "--output-dir", "fixed", "--output", "hero.blend"],
         "--output hero.blend would overwrite an input file, hero.blend"),
        (["fix", "hero.blend", "--output-dir", "fixed", "--html", "fixed/hero.blend"],
         "--html fixed/hero.blend and the fixed copy of hero.blend are the same file"),
        (["fix", "hero.blend", "--in-place", "--output", "hero.blend.ik-doctor-backup-2"],
         "--output hero.blend.ik-doctor-backup-2 could be a backup of hero.blend"),
        (["demo", "--output", "rig.blend", "--report", "rig.blend"],
         "--report rig.blend and --output rig.blend are the same file"),
        (["demo", "--output", "rig.html"],
         "the report (rig.html, next to the rig) and --output rig.html are the same file"),
    ],
    ids=["output", "html", "output_via_symlink", "output_via_hard_link", "html_in_scanned_dir",
         "output_is_html", "output_is_a_directory", "fix_report_on_input", "html_on_fixed_copy",
         "report_on_a_backup", "demo_report_on_rig", "demo_default_report_on_rig"],
)  # fmt: skip
def test_a_written_path_that_is_an_input_or_another_output_is_refused_before_any_work(
    rigs, tmp_path, monkeypatch, capsys, args, complaint
) -> None:
    monkeypatch.chdir(tmp_path)
    hero = _copy(rigs["plain"], tmp_path / "hero.blend")
    (tmp_path / "rigs").mkdir()
    _copy(rigs["plain"], tmp_path / "rigs" / "hero.blend")
    (tmp_path / "hero_link.blend").symlink_to("hero.blend")
    os.link(hero, tmp_path / "hero_twin.blend")
    (tmp_path / "reports").mkdir()
    before = sorted(p.name for p in tmp_path.iterdir())
    original = digest(hero)

    with pytest.raises(SystemExit) as stopped:
        main(args)

    assert stopped.value.code == 2
    assert complaint in capsys.readouterr().err
    assert digest(hero) == original == digest(tmp_path / "rigs" / "hero.blend")
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing written, no fixed/


# fix --in-place keeps everything but the rig, or refuses with a reason.


def test_fix_in_place_keeps_mode_owner_and_links_or_refuses_and_fixes_a_file_once(
    rigs, tmp_path
) -> None:
    private = _copy(rigs["plain"], tmp_path / "private.blend", 0o640)
    owner = (65534, 65534) if os.geteuid() == 0 else (os.geteuid(), os.getegid())
    os.chown(private, *owner)  # as root: a file that belongs to somebody else
    read_only = _copy(rigs["plain"], tmp_path / "read_only.blend", 0o444)
    clean_read_only = _copy(rigs["good"], tmp_path / "clean_read_only.blend", 0o444)
    target = _copy(rigs["plain"], tmp_path / "target.blend")
    link = tmp_path / "link.blend"
    link.symlink_to(target.name)
    hard = _copy(rigs["plain"], tmp_path / "hard.blend")
    os.link(hard, tmp_path / "hard_twin.blend")
    twice = _copy(rigs["plain"], tmp_path / "twice.blend")
    untouched = [read_only, clean_read_only, target, hard]
    before = {path: digest(path) for path in [private, twice, *untouched]}

    given = [private, read_only, clean_read_only, link, hard, twice]
    result = ik_doctor("fix", *given, "./twice.blend", "--in-place", "--checks", SEED_CHECKS,
                       "--format", "json", cwd=tmp_path)  # fmt: skip

    report = valid_report(result)
    assert result.returncode == 2  # three files could not be fixed in place
    by_name = {Path(f["path"]).name: f for f in report["files"]}
    assert list(by_name) == [path.name for path in given]
    clean = by_name["clean_read_only.blend"]  # nothing to change: nothing to refuse
    assert (clean["status"], clean["backup"]) == ("ok", None), clean["problem"]
    assert "./twice.blend: the same file as" in result.stderr  # given twice, fixed once
    for name in ("private.blend", "twice.blend"):
        assert by_name[name]["status"] == "ok", by_name[name]["problem"]
        assert digest(tmp_path / name) != before[tmp_path / name]
        assert digest(Path(by_name[name]["backup"])) == before[tmp_path / name]
    kept, saved_backup = private.stat(), Path(by_name["private.blend"]["backup"]).stat()
    assert stat.S_IMODE(kept.st_mode) == stat.S_IMODE(saved_backup.st_mode) == 0o640
    assert (kept.st_uid, kept.st_gid) == owner
    refusals = {
        "read_only.blend": "is read-only",
        "hard.blend": "has 2 hard links; replacing it would split them",
        "link.blend": "is a symbolic link; --follow-symlinks fixes the file it points to",
    }
    for name, reason in refusals.items():
        assert by_name[name]["status"] == "failed"
        assert by_name[name]["problem"] == f"not fixed in place: the file {reason}"
        assert by_name[name]["backup"] is None
        assert all(a["fix"]["skipped"] for a in by_name[name]["armatures"])
    assert {path: digest(path) for path in untouched} == {p: before[p] for p in untouched}
    assert stat.S_IMODE(read_only.stat().st_mode) == 0o444
    assert link.is_symlink() and hard.stat().st_nlink == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(  # no temporary file is left
        ["private.blend", "private.blend.ik-doctor-backup", "read_only.blend",
         "clean_read_only.blend", "target.blend",
         "link.blend", "hard.blend", "hard_twin.blend", "twice.blend",
         "twice.blend.ik-doctor-backup"]
    )  # fmt: skip


def test_fix_in_place_follows_a_link_only_when_asked_and_never_rewrites_a_newer_file(
    rigs, tmp_path
) -> None:
    target = _copy(rigs["plain"], tmp_path / "target.blend", 0o600)
    link = tmp_path / "link.blend"
    link.symlink_to(target.name)
    newer = _copy(rigs["newer"], tmp_path / "newer.blend")
    newer_copy = _copy(rigs["newer"], tmp_path / "newer_too.blend")
    original, newer_bytes = digest(target), digest(newer)
    fixed = tmp_path / "fixed"

    in_place = ik_doctor("fix", link, target, newer, "--in-place", "--follow-symlinks",
                         "--checks", SEED_CHECKS, "--format", "json", cwd=tmp_path)  # fmt: skip
    elsewhere = ik_doctor("fix", newer_copy, "--output-dir", fixed, "--checks", SEED_CHECKS,
                          "--format", "json", cwd=tmp_path)  # fmt: skip

    report = valid_report(in_place)
    through_link, from_future = report["files"]  # target.blend is link.blend: fixed once
    assert through_link["status"] == "ok", through_link["problem"]
    assert through_link["output"] == str(target.resolve())
    assert through_link["backup"] == str(target.resolve()) + ".ik-doctor-backup"
    assert link.is_symlink() and digest(target) != original
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    newer_than_this = (
        f"saved by Blender {RUNNING[0]}.{RUNNING[1] + 1}, newer than this Blender "
        f"{bpy.app.version_string}: checked as read, never rewritten"
    )
    for file in (from_future, valid_report(elsewhere)["files"][0]):
        assert file["status"] == "failed"
        assert file["problem"] == newer_than_this
        assert file["output"] is None and file["backup"] is None
        (armature,) = file["armatures"]  # checked as this Blender reads it
        assert {f["check_id"] for f in armature["findings"]} == {"target", "chain_length"}
        assert armature["fix"]["skipped"] == newer_than_this
    assert digest(newer) == newer_bytes
    assert not fixed.exists()
    assert in_place.returncode == elsewhere.returncode == 2


# Only regular files are opened; directory scans stay in the tree.


def test_check_reports_fifos_devices_sockets_and_links_out_of_the_tree_without_opening_them(
    rigs, tmp_path
) -> None:
    tree, outside = tmp_path / "tree", tmp_path / "outside"
    (tree / "sub").mkdir(parents=True)
    outside.mkdir()
    _copy(rigs["plain"], tree / "rig.blend")
    _copy(rigs["newer"], tree / "newer.blend")
    os.mkfifo(tree / "pipe.blend")
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(tree / "sub" / "socket.blend"))
    (outside / "secret.blend").write_text("TOPSECRET: never printed\n")
    _copy(rigs["plain"], outside / "other.blend")
    (tree / "escape.blend").symlink_to(outside / "secret.blend")
    (tree / "linked_dir").symlink_to(outside)
    given = [tmp_path / "pipe.blend", tmp_path / "null.blend", tmp_path / "control.blend"]
    os.mkfifo(given[0])
    given[1].symlink_to(os.devnull)
    given[2].write_bytes(b"\x1b[2J\x1b]8;;http://x\x07")
    real_newer = [SAVED_IN_5_2] if SAVED_IN_5_2.exists() else []

    try:
        result = ik_doctor("check", tree, *given, *real_newer, "--checks", SEED_CHECKS,
                           "--format", "json", cwd=tmp_path)  # fmt: skip
    finally:
        server.close()

    report = valid_report(result)
    assert result.returncode == 2
    by_path = {f["path"]: f for f in report["files"]}
    found = [str(tree / n) for n in ("newer.blend", "pipe.blend", "rig.blend", "sub/socket.blend")]
    assert list(by_path) == [*found, *map(str, given), *map(str, real_newer)]
    problems = {Path(path).name: file["problem"] for path, file in by_path.items()}
    assert problems["pipe.blend"] == "is a FIFO, not a regular file"
    assert problems["socket.blend"] == "is a socket, not a regular file"
    assert problems["null.blend"] == "is a character device, not a regular file"
    assert "\x1b" not in problems["control.blend"] and "\\x1b" in problems["control.blend"]
    assert "TOPSECRET" not in result.stdout + result.stderr
    assert f"{tree / 'escape.blend'}: a symbolic link, not followed" in result.stderr
    assert f"{tree / 'linked_dir'}: a symbolic link, not followed" in result.stderr
    newer = by_path[str(tree / "newer.blend")]
    assert newer["status"] == "failed"
    assert newer["problem"] == (
        f"saved by Blender {RUNNING[0]}.{RUNNING[1] + 1}, newer than this Blender "
        f"{bpy.app.version_string}: checked as read"
    )
    assert {f["check_id"] for f in newer["armatures"][0]["findings"]} == {"target", "chain_length"}
    if real_newer:
        saved_in_5_2 = by_path[str(SAVED_IN_5_2)]
        if RUNNING >= (5, 2):
            assert saved_in_5_2["status"] == "ok"
        elif saved_in_5_2["status"] == "unreadable":  # 4.2 cannot read the 5.x format
            assert saved_in_5_2["problem"] == (
                f"saved by Blender 5.2, which this Blender {bpy.app.version_string} cannot read"
            )
        else:  # 4.5 reads it
            assert saved_in_5_2["status"] == "failed"
            assert saved_in_5_2["problem"].startswith("saved by Blender 5.2, newer than this")


def test_an_armature_name_no_checked_file_has_is_a_usage_error(rigs, tmp_path) -> None:
    rig = _copy(rigs["plain"], tmp_path / "rig.blend")
    result = ik_doctor("check", rig, "--armature", "Nope", "--format", "json", cwd=tmp_path)
    report = valid_report(result)  # the report's exit code says 2 as well
    assert result.returncode == 2
    assert "no checked file has an armature named 'Nope'" in result.stderr
    (file,) = report["files"]
    assert file["status"] == "failed"
    assert file["problem"] == "no armature named 'Nope' (this file has: IKDoctorRig)"


# The pieces, in-process: scanning, the header, and the in-place swap when something fails.


def test_a_directory_scan_follows_links_only_when_asked_and_never_loops(rigs, tmp_path) -> None:
    tree = tmp_path / "tree"
    (tree / "a").mkdir(parents=True)
    _copy(rigs["plain"], tree / "a" / "rig.blend")
    (tree / "a" / "loop").symlink_to("..")  # a link to its own parent
    (tree / "latest.blend").symlink_to("a/rig.blend")
    (tree / "a" / ".rig.blend.x1y2.ik-doctor-fixed").write_bytes(b"left by a killed run")

    kept, notes = collect_inputs([str(tree)])
    followed, _ = collect_inputs([str(tree)], follow_symlinks=True)

    assert [item.relative for item in kept] == ["a/rig.blend"]
    assert sorted(notes) == [f"{tree / 'a' / 'loop'}: a symbolic link, not followed "
                             "(--follow-symlinks follows it)",
                             f"{tree / 'latest.blend'}: a symbolic link, not followed "
                             "(--follow-symlinks follows it)"]  # fmt: skip
    assert [item.relative for item in followed] == ["a/rig.blend"]  # latest.blend is the same


def test_the_header_names_the_blender_that_saved_a_file_even_compressed(rigs) -> None:
    for name in ("plain", "zstd", "gzip"):
        assert header_version(rigs[name]) == RUNNING, name
    assert header_version(rigs["newer"]) == (RUNNING[0], RUNNING[1] + 1)
    if SAVED_IN_5_2.exists():
        assert header_version(SAVED_IN_5_2) == (5, 2)


def test_a_compressed_header_is_read_by_the_decoder_there_is_or_not_at_all(
    rigs, tmp_path, monkeypatch
) -> None:
    """Debian's Blender 4.3 runs Python 3.13 without ``zstandard`` (its 5.2 on 3.14 has the
    standard library's decoder): where there is none the version is unknown, where the import
    raised out of the worker before; a damaged stream is unknown with either."""
    damaged = tmp_path / "damaged.blend"
    damaged.write_bytes(rigs["zstd"].read_bytes()[:4] + bytes(64))
    assert header_version(damaged) is None
    monkeypatch.setitem(sys.modules, "zstandard", None)  # an import of it raises ImportError
    with_the_standard_library = sys.version_info >= (3, 14)
    assert header_version(rigs["zstd"]) == (RUNNING if with_the_standard_library else None)
    assert header_version(damaged) is None


def test_an_in_place_swap_that_fails_leaves_the_file_and_no_temporary_or_backup(
    rigs, tmp_path, monkeypatch
) -> None:
    rig = _copy(rigs["plain"], tmp_path / "rig.blend")
    original = digest(rig)

    def save_fails(path: Path) -> None:
        path.write_bytes(b"half a file")
        raise RuntimeError("Blender could not save")

    with pytest.raises(RuntimeError):
        in_place.replace(rig, save_fails)
    assert [p.name for p in tmp_path.iterdir()] == ["rig.blend"]

    def copy_breaks(source, target, *args, **kwargs) -> None:
        target.write(source.read(1000))
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(shutil, "copyfileobj", copy_breaks)
    with pytest.raises(OSError, match="No space left"):
        in_place.replace(rig, lambda path: path.write_bytes(b"fixed"))
    assert [p.name for p in tmp_path.iterdir()] == ["rig.blend"]  # no half backup, anywhere
    assert digest(rig) == original


def test_in_place_refuses_a_file_whose_owner_the_runner_cannot_give_back() -> None:
    theirs = os.stat_result((0o100644, 1, 1, 1, 1001, 1001, 10, 0, 0, 0))
    assert in_place.owner_refusal(theirs, runner=1000, groups=[1000]) == (
        "belongs to user 1001 (group 1001); the fixed file could not keep that owner"
    )
    assert in_place.owner_refusal(theirs, runner=0, groups=[0]) is None  # root gives it back
    mine_other_group = os.stat_result((0o100644, 1, 1, 1, 1000, 50, 10, 0, 0, 0))
    assert in_place.owner_refusal(mine_other_group, runner=1000, groups=[1000, 50]) is None
    assert in_place.owner_refusal(mine_other_group, runner=1000, groups=[1000]) is not None
