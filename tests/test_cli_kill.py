"""Killing ``fix --in-place`` at random moments: each input stays whole, or is fixed and backed up.

A farm or CI cancels a job by killing its process group, whatever it is doing. Each kill point
copies four rigs (three with faults ``fix`` repairs without flags, one without a fault)
into a fresh directory, starts ``python -m ik_doctor fix --in-place DIR`` in a session of its
own, waits a random (seeded) time and sends SIGKILL. Once no process of the run is left (the
workers are not in the main process's group: they must die with it), every input must be:

- untouched: byte for byte the original, with no backup beside it;
- untouched with its finished backup (byte for byte the original): the kill came between the
  backup's rename and the fixed file's. Two names cannot change in one atomic step, and this is
  the order that loses nothing: a rerun fixes the file and keeps a second backup;
- fixed: Blender opens it, the faults are gone, its mode is kept, and one backup beside it is
  byte for byte the original.

Nothing else may be under a final name (no half-written backup, no ``.blend1``). A kill leaves
only temporary files: ``.NAME.RANDOM.ik-doctor-tmp`` (empty, a fixed file not yet renamed, or a
backup's copy, maybe already linked to its name) and Blender's ``...@`` (a save cut short),
which a directory scan never picks up.

When to kill is measured, not assumed: an undisturbed run per ``--jobs`` at the start says when
each moment comes on this machine as it is now (see ``Run``). A quarter of the points fall
anywhere in the run (mostly while Blender starts), a quarter anywhere while files are written,
and half within milliseconds of a backup being copied, where both renames happen; those kill
every process of the run at once (as stopping a container does), since a worker outlives its
parent by 1 to 40 ms, longer than that window.

A few runs get SIGTERM instead, while the workers start or a backup is copied: the graceful
path, which must exit 143 with the report, each file fixed (if it was handed out) or untouched,
and no temporary file left. As many get a second SIGTERM once the first is taken, which kills
the workers: 143, the report, and each input as after a kill.

A failure names its seed and moment; ``IK_DOCTOR_KILL_SEED`` and ``IK_DOCTOR_KILL_POINTS`` replay
it or run more. Processes are found in ``/proc`` (Linux).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import bpy
import jsonschema
import pytest

from ik_doctor import diagnose
from ik_doctor.cli.in_place import BACKUP_SUFFIX, TEMPORARY_SUFFIX, could_be_backup
from ik_doctor.cli.pool import NOT_CHECKED
from ik_doctor.cli.report_json import SCHEMA_PATH
from ik_doctor.sample_rig import build_character_rig

pytestmark = pytest.mark.usefixtures("temporary_folder_for_killed_runs")

SEED = os.environ.get("IK_DOCTOR_KILL_SEED", "in-place-1")
KILL_POINTS = int(os.environ.get("IK_DOCTOR_KILL_POINTS", "50"))
TERM_POINTS = 3
"""Runs stopped with SIGTERM, and as many with SIGTERM twice."""
AFTER = ("start", "writing", "backing_up", "backing_up")
"""What a kill point's delay counts from (see ``KillPoint``): half of them in the milliseconds
where a backup and the fixed file get their names."""
BACKING_UP_SPAN = 0.003
"""The least time "backing_up" kills spread over: copying a backup and the two renames took
2 ms on the development machine (ext4, 90 KB rigs), 4 ms for the heavy one."""
TERM_AFTER = ("handler", "backing_up")
"""SIGTERM comes while the workers start or while a file is written, never near the end: it
must find the run handing out files, not writing its report with the default handler back."""
CHECKS = ("target", "chain_length")
RIGS = {
    "both.blend": ("target", "chain_length"),
    "leg.blend": ("target",),
    "arm.blend": ("chain_length",),
    "good.blend": (),
}
"""Each file different, so a backup beside the wrong file would not match."""
HEAVY = ("arm.blend", 300)
"""The first file gets a grid mesh of this many subdivisions (2.8 MB, bound to nothing): its
backup takes milliseconds to copy, long enough for a kill to land in the copy."""
MODE = 0o640
"""Not the default 644: a fixed file must keep it."""
SESSION_DEADLINE = 30.0
"""Seconds the run's processes get to be gone after the kill (a worker still importing ``bpy``
when its parent died leaves once it is up; one that is serving dies with its parent)."""
SCHEMA = json.loads(SCHEMA_PATH.read_text("utf-8"))


def _break(rig: bpy.types.Object, faults: tuple[str, ...]) -> None:
    if "target" in faults:
        rig.pose.bones["shin.L"].constraints["IK"].target = None
    if "chain_length" in faults:
        rig.pose.bones["forearm.L"].constraints["IK"].chain_count = 1


@pytest.fixture(scope="module")
def originals(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """The inputs' bytes, by file name, saved by this Blender."""
    root = tmp_path_factory.mktemp("kill_originals")
    for name, faults in RIGS.items():
        bpy.ops.wm.read_homefile(use_empty=True)
        _break(build_character_rig(), faults)
        if name == HEAVY[0]:
            bpy.ops.mesh.primitive_grid_add(x_subdivisions=HEAVY[1], y_subdivisions=HEAVY[1])
        bpy.ops.wm.save_as_mainfile(filepath=str(root / name), check_existing=False)
    bpy.ops.wm.read_homefile(use_empty=True)
    return {name: (root / name).read_bytes() for name in RIGS}


def fresh_inputs(originals: dict[str, bytes], root: Path) -> Path:
    directory = root / "rigs"
    directory.mkdir()
    for name, data in originals.items():
        (directory / name).write_bytes(data)
        (directory / name).chmod(MODE)
    return directory


class Run:
    """``fix --in-place`` over a directory, in a session (and process group) of its own.

    ``seen`` holds when each moment of the run was first seen, in seconds since the start:
    ``handler`` (SIGTERM is caught: files are being handed out), ``writing`` (a temporary file
    is there), ``backing_up`` (a second temporary file beside one input: the fixed file is
    saved, its backup is being copied; the renames follow within milliseconds), ``backed_up``
    (a backup has its name), ``all_backed_up`` (every rig with a fault has one: what is left is
    reading the last one back and the report).
    """

    def __init__(self, directory: Path, jobs: int) -> None:
        self.directory = directory
        self.stdout = directory.parent / "stdout"
        self.stderr = directory.parent / "stderr"
        with self.stdout.open("w") as out, self.stderr.open("w") as err:
            # Files, not pipes: a report nobody reads from a pipe would block the run.
            self.process = subprocess.Popen(
                [sys.executable, "-m", "ik_doctor", "fix", "--in-place", str(directory),
                 "--jobs", str(jobs), "--checks", ",".join(CHECKS), "--format", "json"],
                cwd=directory.parent,
                env=dict(os.environ),
                stdout=out,
                stderr=err,
                start_new_session=True,
            )  # fmt: skip
        self.started = time.monotonic()
        self.seen: dict[str, float] = {}

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def watch(self, moment: str | None = None, within: float = math.inf) -> bool:
        """Look until ``moment`` is seen (None: until the run ends); False if the run ended or
        ``within`` seconds passed first.

        Every millisecond, and every tenth of one once files are written: a backup of these
        rigs is copied in about a millisecond.
        """
        deadline = time.monotonic() + within
        while moment not in self.seen:
            if self.process.poll() is not None or time.monotonic() >= deadline:
                return False
            self._look()
            time.sleep(0.0001 if "writing" in self.seen else 0.001)
        return True

    def _look(self) -> None:
        now = self.elapsed()
        if "handler" not in self.seen and self._catches_sigterm():
            self.seen["handler"] = now
        names = os.listdir(self.directory)
        # ".rig.blend.RANDOM.ik-doctor-tmp", and "...@" while Blender saves through it
        temporaries = {name.removesuffix("@") for name in names if TEMPORARY_SUFFIX in name}
        beside = Counter(name[1:].rsplit(".", 2)[0] for name in temporaries)
        backups = sum(BACKUP_SUFFIX in name for name in names)
        for moment, happened in (
            ("writing", bool(temporaries)),
            ("backing_up", max(beside.values(), default=0) > 1 or backups > 0),
            ("backed_up", backups > 0),
            ("all_backed_up", backups == sum(map(bool, RIGS.values()))),
        ):
            if happened:
                self.seen.setdefault(moment, now)

    def wait_for_note(self, text: str) -> bool:
        """Poll its standard error until ``text`` is there; False if the run ended first."""
        while text not in self.stderr.read_text():
            if self.process.poll() is not None:
                return False
            time.sleep(0.0001)
        return True

    def _catches_sigterm(self) -> bool:
        try:
            status = Path(f"/proc/{self.process.pid}/status").read_text()
        except OSError:
            return False
        caught = next(line for line in status.splitlines() if line.startswith("SigCgt:"))
        return bool(int(caught.split()[1], 16) & 1 << (signal.SIGTERM - 1))

    def signal_group(self, number: signal.Signals) -> None:
        with contextlib.suppress(ProcessLookupError):  # it had ended, and was reaped
            os.killpg(self.process.pid, number)

    def kill_all(self, members: Iterable[int]) -> None:
        """SIGKILL the workers and the main process at once, as stopping a container does."""
        for pid in members:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.signal_group(signal.SIGKILL)

    def wait_for_every_process(self) -> float:
        """Seconds until no process of the run's session is left (the workers included)."""
        self.process.wait(timeout=120)
        since = time.monotonic()
        while survivors(self.process.pid) and time.monotonic() - since < SESSION_DEADLINE:
            time.sleep(0.01)
        return time.monotonic() - since

    def end(self) -> None:
        """Leave nothing running, whatever the test found."""
        if self.process.poll() is None:
            self.signal_group(signal.SIGKILL)
            self.process.wait()
        self.kill_all(survivors(self.process.pid))


def survivors(session: int) -> dict[int, str]:
    """The live processes of a session (found in ``/proc``), with their command lines."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[3]) == session:  # a zombie has ended
            found[int(entry.name)] = command.decode(errors="replace")[:300]
    return found


@dataclass(frozen=True)
class Timeline:
    """When each moment of an undisturbed run came (see ``Run``), on this machine as it is now."""

    handler: float
    writing: float
    backing_up: float
    backed_up: float
    all_backed_up: float


@pytest.fixture(scope="module")
def timelines(
    originals: dict[str, bytes], tmp_path_factory: pytest.TempPathFactory
) -> dict[int, Timeline]:
    """One undisturbed run for each ``--jobs`` the kill points use, which fixes every input."""
    measured = {}
    for jobs in (1, 2):
        directory = fresh_inputs(originals, tmp_path_factory.mktemp(f"kill_timeline_{jobs}"))
        run = Run(directory, jobs)
        run.watch()
        assert run.process.returncode == 0, run.stderr.read_text()
        assert [state for state, _ in inspect(directory, originals)] == ["fixed"] * 3 + [
            "untouched"
        ]
        measured[jobs] = Timeline(**run.seen)  # a moment not seen is a TypeError here
    return measured


@dataclass(frozen=True)
class KillPoint:
    """Where one kill falls, drawn from the seed and its number alone, so it can be replayed.

    ``after`` is the moment its delay counts from: "start" and "writing" kill the main process's
    group (a cancelled job: the workers must die with it), "backing_up" kills every process of
    the run at once (as stopping a container does), while a backup is copied and renamed and the
    fixed file renamed: the few milliseconds a kill of the group alone would rarely hit.
    """

    index: int
    kind: str
    """"SIGKILL", "SIGTERM", or "SIGTERM twice"."""
    jobs: int
    after: str
    fraction: float

    @classmethod
    def draw(cls, index: int, kind: str, moments: tuple[str, ...]) -> KillPoint:
        rng = random.Random(f"{SEED}:{kind}:{index}")
        return cls(index, kind, rng.choice((1, 2)), rng.choice(moments), rng.random())

    def delay(self, timeline: Timeline) -> float:
        span = {
            "start": timeline.all_backed_up,
            "handler": timeline.writing - timeline.handler,
            "writing": timeline.all_backed_up - timeline.writing,
            "backing_up": max(2 * (timeline.backed_up - timeline.backing_up), BACKING_UP_SPAN),
        }[self.after]
        return self.fraction * span

    def describe(self, timeline: Timeline) -> str:
        return (
            f"{self.kind} point {self.index} of IK_DOCTOR_KILL_SEED={SEED}: --jobs "
            f"{self.jobs}, {self.delay(timeline) * 1000:.1f} ms after {self.after} "
            f"(an undisturbed run: {timeline})"
        )


def inspect(directory: Path, originals: dict[str, bytes]) -> list[tuple[str, str | None]]:
    """Each input's state ("untouched", "untouched+backup", "fixed") and what is wrong.

    Every file in ``directory`` must be an input, its backup, or its temporary file.
    """
    names = set(os.listdir(directory))
    states = []
    for name, original in originals.items():
        path = directory / name
        backups = sorted(other for other in names if could_be_backup(directory / other, path))
        temporaries = {other for other in names if _is_temporary(other, name)}
        names -= {name, *backups, *temporaries}
        damaged = [b for b in backups if (directory / b).read_bytes() != original]
        if damaged or len(backups) > 1:
            states.append(("damaged", f"{name}: backups {backups}, not the original: {damaged}"))
        elif not RIGS[name] and (backups or path.read_bytes() != original):
            states.append(("damaged", f"{name} has no fault, yet it was rewritten or backed up"))
        elif path.read_bytes() == original:
            states.append(("untouched+backup" if backups else "untouched", None))
        elif not backups:
            states.append(("damaged", f"{name} was rewritten and has no backup"))
        else:
            states.append(("fixed", _not_fixed(path)))
    if names:
        states.append(("stray", f"files under no name a run may leave: {sorted(names)}"))
    return states


def _is_temporary(name: str, of: str) -> bool:
    """The name ``in_place`` writes through, or the one Blender saves through (``NAME@``)."""
    pattern = rf"\.{re.escape(of)}\.\w+{re.escape(TEMPORARY_SUFFIX)}@?"
    return re.fullmatch(pattern, name) is not None


def _not_fixed(path: Path) -> str | None:
    """Why ``path`` is not a fixed rig with its mode kept, or None when it is."""
    if path.stat().st_mode & 0o777 != MODE:
        return f"{path.name}: mode {path.stat().st_mode & 0o777:o}, not {MODE:o}"
    try:
        bpy.ops.wm.open_mainfile(filepath=str(path), load_ui=False, use_scripts=False)
    except RuntimeError as error:
        return f"{path.name} does not open: {error}"
    try:
        (rig,) = [obj for obj in bpy.data.objects if obj.type == "ARMATURE"]
        left = [finding.check_id for finding in diagnose(rig, checks=CHECKS)]
    finally:
        bpy.ops.wm.read_homefile(use_empty=True)
    return f"{path.name} still has {left}" if left else None


@pytest.mark.parametrize("index", range(KILL_POINTS), ids=lambda index: f"point{index}")
def test_a_kill_at_any_moment_leaves_each_input_whole_or_fixed_with_its_backup(
    index: int, originals: dict[str, bytes], timelines: dict[int, Timeline], tmp_path: Path
) -> None:
    point = KillPoint.draw(index, "SIGKILL", AFTER)
    timeline = timelines[point.jobs]
    directory = fresh_inputs(originals, tmp_path)
    run = Run(directory, point.jobs)
    try:
        members = {}
        if point.after == "backing_up" and run.watch("writing"):
            members = survivors(run.process.pid)  # now, not in the few milliseconds after
        if point.after == "start" or run.watch(point.after):
            time.sleep(point.delay(timeline))
        killed_at = run.elapsed()
        run.kill_all(members)
        gone_after = run.wait_for_every_process()
        left = survivors(run.process.pid)
    finally:
        run.end()
    states = inspect(directory, originals)
    leftovers = sorted(name for name in os.listdir(directory) if TEMPORARY_SUFFIX in name)
    print(  # shown with -s, and with a failure: what this point hit
        f"point {index}: jobs {point.jobs}, {point.after}+{point.delay(timeline) * 1000:.1f} ms,"
        f" killed at {killed_at:.3f} s (exit {run.process.returncode}), gone after "
        f"{gone_after:.2f} s: {', '.join(state for state, _ in states)}; left {leftovers}"
    )
    replay = f"{point.describe(timeline)}; killed {killed_at:.3f} s after the start"
    assert not left, f"{replay}: processes outlived the kill: {left}"
    assert not [problem for _, problem in states if problem], f"{replay}: {states}"
    shutil.rmtree(directory)  # 3 MB a point; a failing point's files are kept to look at


@pytest.mark.parametrize("twice", [False, True], ids=["once", "twice"])
@pytest.mark.parametrize("index", range(TERM_POINTS), ids=lambda index: f"point{index}")
def test_sigterm_lets_the_files_in_flight_finish_a_second_stops_them_and_the_report_says_so(
    index: int,
    twice: bool,
    originals: dict[str, bytes],
    timelines: dict[int, Timeline],
    tmp_path: Path,
) -> None:
    """Either way the run exits 143 with its report, and the report agrees with the files."""
    point = KillPoint.draw(index, "SIGTERM twice" if twice else "SIGTERM", TERM_AFTER)
    timeline = timelines[point.jobs]
    directory = fresh_inputs(originals, tmp_path)
    run = Run(directory, point.jobs)
    try:
        assert run.watch(point.after), run.stderr.read_text()
        # The delay, or less: drawn from a timeline measured under a heavier load (540 ms to back
        # the first file up), it once outlasted the run (exit 0; 4.2, three suites on two cores).
        # By the first backup other files are still to come.
        run.watch("backed_up", within=point.delay(timeline))
        run.signal_group(signal.SIGTERM)
        if twice and run.wait_for_note("ik-doctor: SIGTERM: finishing the files in flight"):
            run.signal_group(signal.SIGTERM)  # once the first is taken: two at once are one
        run.wait_for_every_process()
        left = survivors(run.process.pid)
    finally:
        run.end()
    replay = point.describe(timeline)
    errors = run.stderr.read_text()
    assert run.process.returncode == 143, f"{replay}: {errors}"
    assert "Traceback" not in errors and not left, f"{replay}: {errors} {left}"
    report = json.loads(run.stdout.read_text())
    jsonschema.Draft202012Validator(SCHEMA).validate(report)
    states = inspect(directory, originals)
    print(f"{replay}: {[(f['status'], f['problem']) for f in report['files']]}, {states}")
    assert not [problem for _, problem in states if problem], f"{replay}: {states}"
    leftovers = [name for name in os.listdir(directory) if TEMPORARY_SUFFIX in name]
    assert twice or not leftovers, f"{replay}: the graceful path left {leftovers}"
    by_name = {name: state for name, (state, _) in zip(originals, states, strict=True)}
    assert sorted(Path(entry["path"]).name for entry in report["files"]) == sorted(RIGS), replay
    for entry in report["files"]:
        name = Path(entry["path"]).name
        if entry["status"] == "ok":
            fixed = "fixed" if RIGS[name] else "untouched"
            assert by_name[name] == fixed, f"{replay}: {name} is {by_name[name]}: {entry}"
            backup = str(directory / f"{name}.ik-doctor-backup") if RIGS[name] else None
            assert entry["backup"] == backup, replay
        elif entry["problem"] == NOT_CHECKED:
            assert by_name[name] == "untouched", f"{replay}: {name} is {by_name[name]}"
        else:  # killed by the second signal: any state above, none with a problem, as said
            assert twice, f"{replay}: {entry}"
            problem = entry["problem"]
            assert problem.startswith("not finished: the run was interrupted while "), replay
            if "had replaced the input" in problem:
                assert by_name[name] == "fixed", f"{replay}: {name} is {by_name[name]}: {problem}"
            elif "replaced whole" not in problem:
                assert by_name[name] == "untouched", f"{replay}: {name} is {by_name[name]}"
    shutil.rmtree(directory)
