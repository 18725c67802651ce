"""How fast ``ik-doctor check`` gets through a library, next to merely opening its files.

Copies the real rigs of ``../shared/rigs`` that this Blender can read into a temporary
directory (``--copies`` of each, so about a hundred files), reads them once so every run finds
them in the page cache, compiles the ``ik_doctor`` that runs (as pip does on install: with
``PYTHONDONTWRITEBYTECODE`` set, an edited source is compiled again in every process), then
times, each as one fresh process, wall clock from start to exit:

- the floor: one Python process that imports ``bpy`` and opens every file with
  ``open_mainfile(load_ui=False, use_scripts=False)``, one after the other, and nothing else;
- one process: the floor plus what a worker does with each file (``check_file``: the checks,
  the answer as JSON), in one process, with no worker and no report: what the checks cost;
- ``ik-doctor check DIR --jobs 1 --format json --output FILE``;
- the same with ``--jobs N``, N the cores this process may use;
- the floor split over N processes side by side (largest files first, dealt in turn): how much
  faster N processes open the files on this machine, the ceiling of any ``--jobs N``.

The targets of issue 16: ``--jobs 2`` on 2 cores at least 1.7 times faster than ``--jobs 1``,
and ``--jobs 1`` within 1.2 times the floor. The machine's load average is printed beside the
figures: on a shared machine they mean little without it (each ratio is the median of the
ratios within one repeat, whose runs share the load of the same minute). The CPU time of each
run (user and system, every process of it) is printed too: it tells what a run costs even when
others share the cores, and its ratio is the ``--jobs 1`` target as a busy machine can still
measure it.

Run with the same Python as the tests:
    .venv/latest/bin/python benchmarks/bench_cli.py [--copies 4] [--repeat 10] [--json PATH]
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from measured import write_table

RIGS = Path(__file__).resolve().parents[2] / "shared" / "rigs"
ELSEWHERE = tempfile.gettempdir()
"""Where every timed process runs: ``python -m`` and ``-c`` import from the current directory
first, and from a checkout that would be the checkout's ``ik_doctor``, not the one meant."""
FLOOR = """
import json, os, sys, time
import bpy
unread = []
for path in sys.stdin.read().splitlines():
    try:
        bpy.ops.wm.open_mainfile(filepath=path, load_ui=False, use_scripts=False)
    except RuntimeError:
        unread.append(path)
print(json.dumps({"blender": bpy.app.version_string, "unread": unread}), flush=True)
os._exit(0)  # the floor is the reading; Blender's own clean-up is not needed for it
"""
"""Opens the files named on stdin in one process; says which it could not read."""
ONE_PROCESS = """
import json, os, sys
import bpy
from ik_doctor.cli.file_jobs import check_file
for path in sys.stdin.read().splitlines():
    json.dumps(check_file({"command": "check", "path": path}))
os._exit(0)
"""
"""What the workers do with the files named on stdin, in one process without the command."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=4, help="copies of each rig (default 4)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each; the median counts")
    parser.add_argument("--jobs", type=int, default=usable_cores(), help="N for --jobs N")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ik_doctor_bench_cli_") as temporary:
        library = Path(temporary) / "library"
        blender, rigs = readable_rigs()
        files = copy_rigs(rigs, library, args.copies)
        compile_package()
        figures = measure(library, files, args.jobs, args.repeat, Path(temporary) / "r.json")
    figures = {"blender": blender, "rigs": len(rigs), "cores": usable_cores(), **figures}
    print_and_write(figures, args.copies)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


def usable_cores() -> int:
    """The cores this process may run on, as ``ik-doctor`` counts them for its default."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def compile_package() -> None:
    """Byte-compile the ``ik_doctor`` a run imports (the one ``PYTHONPATH`` or the venv names)."""
    spec = importlib.util.find_spec("ik_doctor")
    if spec is None or spec.origin is None:
        raise SystemExit("ik_doctor is not importable with this Python")
    compileall.compile_dir(Path(spec.origin).parent, quiet=1)


def readable_rigs() -> tuple[str, list[Path]]:
    """This Blender's version and the shared rigs it reads (a newer Blender's files it cannot)."""
    rigs = sorted(RIGS.glob("*.blend"))
    if not rigs:
        raise SystemExit(f"no rigs in {RIGS}")
    answer = _floor(rigs)
    unread = set(answer["unread"])
    return answer["blender"], [rig for rig in rigs if str(rig) not in unread]


def copy_rigs(rigs: list[Path], library: Path, copies: int) -> list[Path]:
    """``copies`` of every rig, one folder per copy, read once so the page cache holds them."""
    files = []
    for copy in range(copies):
        folder = library / f"copy{copy}"
        folder.mkdir(parents=True)
        for rig in rigs:
            files.append(Path(shutil.copyfile(rig, folder / rig.name)))
    for file in files:
        file.read_bytes()
    return sorted(files)


def measure(library: Path, files: list[Path], jobs: int, repeat: int, report: Path) -> dict:
    names = ("floor", "one_process", "jobs_1", f"jobs_{jobs}", f"floor_{jobs}")
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in names}
    loads = []
    for _ in range(repeat):
        loads.append(os.getloadavg()[0])
        runs["floor"].append(_timed(lambda: _floor(files)))
        runs["one_process"].append(_timed(lambda: _one_process(files)))
        for workers in (1, jobs):
            runs[f"jobs_{workers}"].append(_timed(lambda w=workers: _check(library, w, report)))
            checked = json.loads(report.read_text("utf-8"))["summary"]
            if (checked["files"], checked["unreadable"]) != (len(files), 0):
                raise SystemExit(f"ik-doctor check did not read every file: {checked}")
        runs[f"floor_{jobs}"].append(_timed(lambda: _floor_side_by_side(files, jobs)))
        loads.append(os.getloadavg()[0])
    seconds = {name: statistics.median(wall for wall, _cpu in runs[name]) for name in names}
    cpu = {name: statistics.median(cpu for _wall, cpu in runs[name]) for name in names}

    def ratio(top: str, bottom: str, column: int = 0) -> float:
        """The median of the ratios within each repeat: the runs of one repeat, minutes apart
        at most, share the machine's load; runs of different repeats may not."""
        pairs = zip(runs[top], runs[bottom], strict=True)
        return statistics.median(over[column] / under[column] for over, under in pairs)

    return {
        "files": len(files),
        "jobs": jobs,
        "seconds": seconds,
        "cpu_seconds": cpu,
        "runs": runs,
        "jobs_1_over_floor": ratio("jobs_1", "floor"),
        "one_process_over_floor": ratio("one_process", "floor"),
        "cpu_jobs_1_over_floor": ratio("jobs_1", "floor", column=1),
        "speed_up": ratio("jobs_1", f"jobs_{jobs}"),
        "floor_speed_up": ratio("floor", f"floor_{jobs}"),
        "load_average": [min(loads), max(loads)],
    }


def _run_script(script: str, files: list[Path]) -> str:
    """Run ``script`` in a fresh Python, elsewhere, the files named on its stdin; its stdout."""
    return subprocess.run(
        [sys.executable, "-c", script],
        input="\n".join(map(str, files)),
        capture_output=True,
        text=True,
        check=True,
        cwd=ELSEWHERE,
    ).stdout


def _floor(files: list[Path]) -> dict:
    return json.loads(_run_script(FLOOR, files).strip().splitlines()[-1])


def _floor_side_by_side(files: list[Path], processes: int) -> None:
    """The floor's work in ``processes`` processes at once, each opening its share."""
    largest_first = sorted(files, key=lambda file: -file.stat().st_size)
    shares = [largest_first[start::processes] for start in range(processes)]
    running = [
        subprocess.Popen(
            [sys.executable, "-c", FLOOR],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            text=True,
            cwd=ELSEWHERE,
        )
        for _share in shares
    ]
    for process, share in zip(running, shares, strict=True):
        assert process.stdin is not None
        process.stdin.write("\n".join(map(str, share)))
        process.stdin.close()
    if any(process.wait() != 0 for process in running):
        raise SystemExit("a floor process failed")


def _one_process(files: list[Path]) -> None:
    _run_script(ONE_PROCESS, files)


def _check(library: Path, jobs: int, report: Path) -> None:
    command = [sys.executable, "-m", "ik_doctor", "check", str(library), "--jobs", str(jobs)]
    process = subprocess.run(
        [*command, "--format", "json", "--output", str(report)],
        capture_output=True,
        text=True,
        cwd=ELSEWHERE,
    )
    if process.returncode not in (0, 1):
        raise SystemExit(f"ik-doctor check failed ({process.returncode}): {process.stderr}")


def _timed(run) -> tuple[float, float]:
    """Wall-clock seconds of ``run`` and the CPU seconds of the processes it waited for."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    run()
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu


def tables(figures: dict) -> list[tuple[list[str], list[str]]]:
    """Two tables (header, row): the targets, then what bounds them (the checks, the machine,
    the CPU)."""
    seconds, cpu, jobs = figures["seconds"], figures["cpu_seconds"], figures["jobs"]
    low, high = figures["load_average"]
    return [
        (
            [
                "files",
                "floor s",
                "--jobs 1 s",
                f"--jobs {jobs} s",
                "jobs 1 / floor",
                f"speed-up jobs {jobs}",
                "load average",
                "repeats",
            ],
            [
                str(figures["files"]),
                f"{seconds['floor']:.1f}",
                f"{seconds['jobs_1']:.1f}",
                f"{seconds[f'jobs_{jobs}']:.1f}",
                f"{figures['jobs_1_over_floor']:.2f}",
                f"{figures['speed_up']:.2f}",
                f"{low:.1f}-{high:.1f}",
                str(len(figures["runs"]["floor"])),
            ],
        ),
        (
            [
                "files",
                "one process / floor",
                f"floor in {jobs} processes: speed-up",
                f"CPU s floor / one process / jobs 1 / jobs {jobs}",
                "CPU jobs 1 / floor",
            ],
            [
                str(figures["files"]),
                f"{figures['one_process_over_floor']:.2f}",
                f"{figures['floor_speed_up']:.2f}",
                f"{cpu['floor']:.1f} / {cpu['one_process']:.1f} / {cpu['jobs_1']:.1f} / "
                f"{cpu[f'jobs_{jobs}']:.1f}",
                f"{figures['cpu_jobs_1_over_floor']:.2f}",
            ],
        ),
    ]


def print_and_write(figures: dict, copies: int) -> None:
    """Print both tables, and write them to the docs (``cli-speed``, ``cli-speed-cpu``): one row
    per Blender line and number of copies."""
    for name, (header, row) in zip(("cli-speed", "cli-speed-cpu"), tables(figures), strict=True):
        print(f"| Blender | {' | '.join(header)} |")
        print("|---" * (len(header) + 1) + "|")
        print(f"| {figures['blender']} | {' | '.join(row)} |\n")
        line = ".".join(figures["blender"].split(".")[:2])
        key = ("Blender, copies", f"{line}, {copies}")
        write_table(name, header, [row], per_line=True, line=line, key=key)


if __name__ == "__main__":
    main()
