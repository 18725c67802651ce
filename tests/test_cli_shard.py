"""``--shard K/N`` and ``merge``: a run split over machines gives the report of one run.

Real runs over real files built here: the whole run once, then its parts (two and three of
them), merged back. The merged report must equal the single run's, byte for byte, in every
format, with the same exit code; merge must refuse parts that do not make one run.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import bpy
import jsonschema
import pytest

from ik_doctor.cli import main
from ik_doctor.cli.inputs import collect_inputs
from ik_doctor.cli.report_json import SCHEMA_PATH
from ik_doctor.cli.shard import Selection, Shard
from ik_doctor.sample_rig import build_character_rig

SCHEMA = json.loads(SCHEMA_PATH.read_text("utf-8"))
CHECKS = ["--checks", "target,chain_length,parenting"]
INPUTS = ["rigs", "left.blend"]
ORDER = ["broken", "good", "notes", "cube", "lamp", "left"]
"""Input order: the directory's files sorted, then the file argument."""


def ik_doctor(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run from ``cwd`` as a shell would (with ``PWD`` set: Blender 4.x reads paths from it)."""
    return subprocess.run(
        [sys.executable, "-m", "ik_doctor", *map(str, args)],
        cwd=cwd,
        env={**os.environ, "PWD": str(cwd)},
        capture_output=True,
        text=True,
        timeout=300,
    )


def _save(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    bpy.ops.wm.save_as_mainfile(filepath=str(path), check_existing=False)


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """rigs/{broken,good,notes}.blend, rigs/props/{cube,lamp}.blend and left.blend."""
    root = tmp_path_factory.mktemp("library")
    bpy.ops.wm.read_homefile(use_empty=True)
    build_character_rig()
    _save(root / "rigs" / "good.blend")
    rig = build_character_rig("Broken")
    rig.pose.bones["shin.L"].constraints["IK"].target = None
    rig.pose.bones["forearm.L"].constraints["IK"].chain_count = 1
    _save(root / "rigs" / "broken.blend")
    _save(root / "left.blend")
    bpy.ops.wm.read_homefile(use_empty=True)
    bpy.ops.mesh.primitive_cube_add()
    _save(root / "rigs" / "props" / "cube.blend")
    _save(root / "rigs" / "props" / "lamp.blend")
    bpy.ops.wm.read_homefile(use_empty=True)
    (root / "rigs" / "notes.blend").write_text("not a blend file\n")
    return root


def parts_of(count: int) -> list[list[str]]:
    """Which of ORDER each part takes."""
    relative = dict(zip(ORDER, ["broken.blend", "good.blend", "notes.blend", "props/cube.blend",
                                "props/lamp.blend", "left.blend"], strict=True))  # fmt: skip
    return [
        [name for name in ORDER if Shard(part, count).takes(relative[name])]
        for part in range(1, count + 1)
    ]


def test_the_parts_of_these_inputs_interleave() -> None:
    """The merge below must reorder files, and no part is empty (else it proves less)."""
    assert parts_of(2) == [["broken", "good", "notes", "cube", "left"], ["lamp"]]
    assert parts_of(3) == [["notes", "left"], ["broken", "good", "cube"], ["lamp"]]


def run_parts(
    library: Path, name: str, count: int, command: str, *options: str | Path
) -> list[Path]:
    """Run each part of ``command``; return their JSON reports, ``name-K-of-N.json``."""
    reports = []
    for part in range(1, count + 1):
        report = library / f"{name}-{part}-of-{count}.json"
        result = ik_doctor(command, *INPUTS, *options, "--shard", f"{part}/{count}",
                           "--format", "json", "--output", report, cwd=library)  # fmt: skip
        assert result.returncode in (0, 1, 2) and report.exists(), result.stderr
        shard = json.loads(report.read_text("utf-8"))["shard"]
        assert (shard["part"], shard["of"], shard["inputs"]) == (part, count, len(ORDER))
        reports.append(report)
    return reports


@pytest.fixture(scope="module")
def check_parts(library: Path) -> dict[int, list[Path]]:
    """The JSON reports of the parts of ``check`` in two and in three parts (with diagrams)."""
    return {
        count: run_parts(library, "check", count, "check", *CHECKS, "--html", f"part-{count}.html")
        for count in (2, 3)
    }


def test_merged_parts_give_exactly_the_report_of_one_run(library, check_parts) -> None:
    whole = ik_doctor("check", *INPUTS, *CHECKS, "--format", "json", "--output", "whole.json",
                      "--html", "whole.html", cwd=library)  # fmt: skip
    text = ik_doctor("check", *INPUTS, *CHECKS, cwd=library)
    junit = ik_doctor("check", *INPUTS, *CHECKS, "--format", "junit", cwd=library)
    single = (library / "whole.json").read_text("utf-8")
    report = json.loads(single)
    jsonschema.Draft202012Validator(SCHEMA).validate(report)
    assert whole.returncode == text.returncode == junit.returncode == report["exit_code"] == 2
    assert [Path(f["path"]).stem for f in report["files"]] == ORDER
    assert [f["index"] for f in report["files"]] == list(range(len(ORDER)))
    assert "shard" not in report

    for count, parts in check_parts.items():
        merged = ik_doctor("merge", *reversed(parts), "--format", "json", "--output",
                           f"merged-{count}.json", "--html", f"merged-{count}.html",
                           cwd=library)  # fmt: skip
        assert merged.returncode == 2, merged.stderr
        assert (library / f"merged-{count}.json").read_text("utf-8") == single
        page = (library / f"merged-{count}.html").read_text("utf-8")
        assert page == (library / "whole.html").read_text("utf-8")

    parts = check_parts[3]
    exits = [json.loads(part.read_text("utf-8"))["exit_code"] for part in parts]
    assert exits == [2, 1, 0]  # the merged exit code is the run's, not any part's
    as_text = ik_doctor("merge", *parts, cwd=library)
    as_junit = ik_doctor("merge", *parts, "--format", "junit", cwd=library)
    assert (as_text.stdout, as_text.returncode) == (text.stdout, 2)
    assert (as_junit.stdout, as_junit.returncode) == (junit.stdout, 2)
    lenient = ik_doctor("merge", *parts, "--fail-on", "info", "--format", "json", cwd=library)
    assert json.loads(lenient.stdout)["fail_on"] == "info"


def test_merged_fix_parts_equal_one_fix_run(library) -> None:
    """The same output directory for the run and for its parts, so every path is the same."""
    fixed = library / "fixed"
    options = [*CHECKS, "--output-dir", fixed]
    ik_doctor("fix", *INPUTS, *options, "--format", "json", "--output", "fix.json", cwd=library)
    single = (library / "fix.json").read_text("utf-8")
    written = sorted(fixed.rglob("*.blend"))
    assert written, "the fix run wrote nothing"
    shutil.rmtree(fixed)

    first, second = run_parts(library, "fix", 2, "fix", *options)
    assert sorted(fixed.rglob("*.blend")) == written
    second_files = json.loads(second.read_text("utf-8"))["files"]
    assert [Path(f["path"]).stem for f in second_files] == parts_of(2)[1]
    ik_doctor("merge", first, second, "--format", "json", "--output", "fix-merged.json",
              cwd=library)  # fmt: skip
    assert (library / "fix-merged.json").read_text("utf-8") == single


def test_parts_asked_for_an_armature_no_file_has_merge_into_the_runs_failure(library) -> None:
    """No part alone can tell that the armature is in no file of the run; merge must."""
    options = ["--armature", "Nobody", "--checks", "target"]
    single = ik_doctor("check", *INPUTS, *options, "--format", "json", cwd=library)
    assert single.returncode == 2 and "no checked file has an armature named" in single.stderr
    parts = run_parts(library, "nobody", 2, "check", *options)
    merged = ik_doctor("merge", *parts, "--format", "json", cwd=library)
    assert (merged.stdout, merged.returncode) == (single.stdout, 2)
    assert "no checked file has an armature named 'Nobody'" in merged.stderr


def test_a_part_takes_the_same_files_wherever_the_library_is_mounted(tmp_path) -> None:
    for mount in ("mnt/a", "farm/node7/b"):
        for name in ("x.blend", "y.blend", "sub/z.blend", "sub/deeper/w.blend", "v.blend"):
            (tmp_path / mount / "rigs" / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / mount / "rigs" / name).write_bytes(b"BLENDER-v405")
    here, _ = collect_inputs([str(tmp_path / "mnt/a/rigs")])
    there, _ = collect_inputs([str(tmp_path / "farm/node7/b/rigs")])
    for count in (1, 2, 3, 7):
        taken = [Selection.of(here, Shard(part, count)).indices for part in range(1, count + 1)]
        elsewhere = [Selection.of(there, Shard(k, count)).indices for k in range(1, count + 1)]
        assert taken == elsewhere
        assert sorted(i for part in taken for i in part) == list(range(5))  # each file once
    assert (
        Selection.of(here, Shard(1, 2)).inputs_sha256
        == Selection.of(there, Shard(2, 2)).inputs_sha256
    )


@pytest.mark.parametrize("shard", ["0/2", "3/2", "2", "a/b", "1/0", "-1/2", "1/2/3"])
def test_shard_must_be_k_of_n_with_k_from_1_to_n(shard, capsys) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["check", "x.blend", f"--shard={shard}"])
    assert stopped.value.code == 2
    assert "is not K/N with 1 <= K <= N" in capsys.readouterr().err


def edited(library: Path, name: str, change: dict[str, Any]) -> Path:
    """A copy of part 2 of 3 with some fields changed."""
    report = json.loads((library / "check-2-of-3.json").read_text("utf-8"))
    report.update(change)
    path = library / f"{name}.json"
    path.write_text(json.dumps(report), "utf-8")
    return path


@pytest.mark.parametrize(
    ("reports", "complaint"),
    [
        ([1, 3], "missing part 2 of 3"),
        ([2], "missing parts 1, 3 of 3"),
        ([1, 2, 2, 3], "are both part 2 of 3"),
        ([1, "checks", 3], "checks is ['target']"),
        ([1, "blender", 3], "blender is '9.9.9'"),
        ([1, "armature", 3], "are not parts of one run: options"),
        ([1, "command", 3], "command is 'fix'"),
        ([1, "inputs", 3], "parts of runs over different inputs"),
        ([1, "fail_on", 3], "different --fail-on (error, warning); choose one"),
        ([1, "old", 3], "comes from an ik-doctor without merge"),
        ([1, "notes", 3], "is not an ik-doctor report"),
        ([1, "other_split", 3], "parts of runs over different inputs"),
    ],
    ids=[
        "missing",
        "two_missing",
        "duplicate",
        "checks",
        "blender",
        "armature",
        "command",
        "inputs",
        "fail_on",
        "old",
        "not_a_report",
        "other_split",
    ],
)
def test_merge_refuses_parts_that_do_not_make_one_run(
    library, check_parts, reports, complaint, capsys
) -> None:
    shard = json.loads((library / "check-2-of-3.json").read_text("utf-8"))["shard"]
    changes = {
        "checks": {"checks": ["target"]},
        "blender": {"blender": "9.9.9"},
        "armature": {"options": {"armature": "Hero", "diagrams": True}},
        "command": {"command": "fix"},
        "inputs": {"shard": {**shard, "inputs_sha256": "0" * 64}},
        "fail_on": {"fail_on": "warning"},
        "old": {"shard": shard, "files": [{"path": "x.blend", "status": "ok", "problem": None,
                                           "armatures": []}]},
        "notes": {"format": "notes"},
        "other_split": {"shard": {**shard, "of": 2}},
    }  # fmt: skip
    paths = [
        str(
            check_parts[3][item - 1]
            if isinstance(item, int)
            else edited(library, item, changes[item])
        )
        for item in reports
    ]
    with pytest.raises(SystemExit) as stopped:
        main(["merge", *paths, "--format", "json", "--output", str(library / "never.json")])
    assert stopped.value.code == 2
    error = capsys.readouterr().err
    assert complaint in error, error
    assert not (library / "never.json").exists()


def test_merge_refuses_to_write_over_a_part(check_parts, capsys) -> None:
    part, other = check_parts[2]
    before = part.read_bytes()
    with pytest.raises(SystemExit) as stopped:
        main(["merge", str(part), str(other), "--output", str(part)])
    assert stopped.value.code == 2
    assert f"--output {part} would overwrite an input file" in capsys.readouterr().err
    assert part.read_bytes() == before
