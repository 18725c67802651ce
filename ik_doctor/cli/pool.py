"""Run file jobs in worker processes, each with its own ``bpy``, and keep the input order.

One ``bpy`` holds one open file, so files are checked in parallel only in separate processes.
Every file goes to a worker, also in a serial run: a file that crashes Blender then costs one
line in the report, not the whole run. The largest files are handed out first, so the run does
not end with one worker still reading a big rig while the others have nothing left; answers are
put back in input order, so the report of ``--jobs 4`` is the same as the report of ``--jobs 1``.

Workers run foreign files, so they are kept on a short leash: an isolated interpreter that
cannot import from the current directory, their own process group (a Ctrl-C meant for the run
does not kill a file half-saved), death with the main process, and a deadline for every wait.
A worker is this Python with its ``bpy``, or a Blender binary (``--blender``, and inside
Blender that Blender) running the same worker: one protocol, whatever Blender reads the files.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shutil
import signal
import site
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any, TextIO

from .worker import ANSWER_PREFIX, READING, READY_LINE, SAVED, SAVING, STAGE_PREFIX

Job = dict[str, Any]
Answer = dict[str, Any]
About = dict[str, Any]
"""What a worker says of its Blender when it is ready: see ``worker.about_blender``."""

PACKAGE = Path(__file__).resolve().parents[1]
PACKAGE_PARENT = str(PACKAGE.parent)
DEFAULT_TIMEOUT = 600.0
"""Seconds a worker may spend on one file, counted from when it starts reading it: ten times
the slowest real rig here (``fix`` of BlenRig's biped with every fix allowed and ``--html``
took 60 s on a busy 2-core machine), yet a file that hangs cannot hold a night's run."""
STARTUP_TIMEOUT = 120.0
"""Seconds a new worker may take to import ``bpy`` (many starting at once on a busy machine)."""
EXIT_GRACE = 5.0
"""Seconds a worker whose input is closed has to leave before it is killed; its answers are in."""
JOIN_STEP = 0.2
"""Seconds the main thread waits on a feeding thread before it runs signal handlers again."""
NOT_CHECKED = "not checked: the run was interrupted"


def usable_cores() -> int:
    """The cores this process may run on (``taskset``, a container's CPU set), not the machine's."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def worker_command(blender: str | None = None) -> list[str]:
    """A worker that reads files in this Python's ``bpy``, or in the Blender binary ``blender``.

    This Python runs isolated (``-I``): no module is ever imported from the current directory.
    ``-I`` also leaves out ``PYTHONPATH`` and the user's site-packages, where a studio may keep
    ``bpy``; those are handed over (see ``_import_path``), the current directory never is.
    """
    if blender is not None:
        return _blender_worker(blender)
    bootstrap = (
        f"import sys; sys.path[:0] = {_import_path()!r}; "
        f"from ik_doctor.cli.worker import main; main(parent={os.getpid()})"
    )
    return [sys.executable, "-I", "-c", bootstrap]


def _blender_worker(blender: str) -> list[str]:
    """The worker in a Blender binary, in the background, as untrusted files ask.

    Blender's Python is isolated already (no current directory, ``PYTHONPATH`` or user site on
    its path). ``--factory-startup``: no add-on or start-up file of the user's runs, as with
    ``bpy``; ``--disable-autoexec``: no Python in a file runs, whatever the preferences say
    (the worker turns it off again before each file). This package is loaded from its own
    folder by name, with nothing added to the path: the folder beside it may be another
    Python's site-packages, whose modules must not shadow that Blender's own.
    """
    bootstrap = (
        "import importlib.util, sys; "
        f"spec = importlib.util.spec_from_file_location('ik_doctor', "
        f"{str(PACKAGE / '__init__.py')!r}, submodule_search_locations=[{str(PACKAGE)!r}]); "
        "sys.modules['ik_doctor'] = package = importlib.util.module_from_spec(spec); "
        "spec.loader.exec_module(package); "
        f"from ik_doctor.cli.worker import main; main(parent={os.getpid()})"
    )
    background = ["--background", "--factory-startup", "--disable-autoexec"]
    return [blender, *background, "--python-exit-code", "1", "--python-expr", bootstrap]


def _import_path() -> list[str]:
    """This package's folder, then what ``-I`` leaves out: ``PYTHONPATH``, the user's site.

    Entries of ``PYTHONPATH`` that are relative or name the current directory are dropped:
    they would import from wherever the command is run, such as a folder of rigs.
    """
    try:
        here = os.path.realpath(os.getcwd())
    except OSError:  # the current directory was removed: nothing can be imported from it
        here = None
    python_path = os.environ.get("PYTHONPATH", "").split(os.pathsep)
    user_site = [site.getusersitepackages()] if site.ENABLE_USER_SITE else []
    path = [PACKAGE_PARENT]
    for entry in [*python_path, *user_site]:
        if os.path.isabs(entry) and os.path.realpath(entry) != here and entry not in path:
            path.append(entry)
    return path


class Stop:
    """A request to end a run early, made from a signal handler, read by the feeding threads.

    ``gently``: no new file is handed out, the files in flight finish. ``now``: the workers are
    killed as well, and their files reported as interrupted.
    """

    def __init__(self) -> None:
        self.requested = False
        self.immediate = False
        self._lock = threading.Lock()
        self._processes: set[subprocess.Popen[str]] = set()

    def gently(self) -> None:
        self.requested = True

    def now(self) -> None:
        self.requested = self.immediate = True
        with self._lock:
            for process in self._processes:
                process.kill()

    def watch(self, process: subprocess.Popen[str]) -> None:
        with self._lock:
            self._processes.add(process)
            if self.immediate:
                process.kill()

    def forget(self, process: subprocess.Popen[str]) -> None:
        with self._lock:
            self._processes.discard(process)


def run_jobs(
    jobs: Sequence[Job],
    workers: int,
    on_answer: Callable[[int, Answer], None] | None = None,
    command: Sequence[str] | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    stop: Stop | None = None,
    on_ready: Callable[[About], None] | None = None,
) -> list[Answer]:
    """Answer every job, in input order, using up to ``workers`` processes.

    A worker that has not answered one job ``timeout`` seconds after it started reading it is
    stopped and the job reported as failed, so one file that hangs Blender cannot hang a CI
    run. After ``stop`` is requested, the jobs never handed out are answered ``NOT_CHECKED``.
    ``on_ready`` hears what each worker says of its Blender when it is ready.
    """
    stop = stop or Stop()
    answers: list[Answer | None] = [None] * len(jobs)
    todo: queue.Queue[int] = queue.Queue()
    for index in largest_first(jobs):
        todo.put(index)
    lock = threading.Lock()

    def record(index: int, answer: Answer) -> None:
        with lock:
            answers[index] = answer
            if on_answer is not None:
                on_answer(index, answer)

    def ready(about: About) -> None:
        with lock:
            if on_ready is not None:
                on_ready(about)

    argv = list(command or worker_command())
    threads = [
        threading.Thread(target=_drive, args=(jobs, todo, record, ready, argv, timeout, stop))
        for _ in range(max(1, min(workers, len(jobs))))
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        while thread.is_alive():
            # In steps, not one join: a signal the kernel gives a feeding thread is handled only
            # when the main thread runs Python again, and a join never ending on a hung file
            # left Ctrl-C unanswered for good (seen once, in CI on 4.2).
            thread.join(JOIN_STEP)
    return [
        answer if answer is not None else _failed(job, NOT_CHECKED)
        for job, answer in zip(jobs, answers, strict=True)
    ]


def largest_first(jobs: Sequence[Job]) -> list[int]:
    """The jobs' indices, largest file first (by size on disk; a file not there counts as 0).

    Reading time grows with the file, so the last files handed out are the quick ones and the
    workers run out of work together.
    """

    def size(index: int) -> int:
        try:
            return os.stat(jobs[index]["path"]).st_size
        except (OSError, ValueError):
            return 0

    return sorted(range(len(jobs)), key=lambda index: -size(index))


def ask_about_blender(stop: Stop, command: Sequence[str] | None = None) -> About | None:
    """What a worker started only to be asked says of its Blender; None if none got ready.

    For a run that handed no file to a worker (none was readable, or ``--shard`` left none),
    whose report must still name the Blender and checks it stands for, as the other parts do.
    """
    try:
        worker = _Worker(list(command or worker_command()), stop)
    except OSError:
        return None
    try:
        return worker.about if worker.await_ready() else None
    finally:
        worker.close()


def _drive(
    jobs: Sequence[Job],
    todo: queue.Queue[int],
    record: Callable[[int, Answer], None],
    ready: Callable[[About], None],
    command: list[str],
    timeout: float,
    stop: Stop,
) -> None:
    """Feed one worker until no job is left or a stop is asked; replace it when it dies.

    The worker is started and ended by this thread: on Linux a worker dies with the thread
    that started it.
    """
    worker: _Worker | None = None
    try:
        while not stop.requested:
            try:
                index = todo.get_nowait()
            except queue.Empty:
                return
            if worker is None:
                try:
                    worker = _Worker(command, stop, ready)
                except OSError as error:
                    record(index, _failed(jobs[index], f"could not start a worker: {error}"))
                    continue
            answer = worker.ask(jobs[index], timeout)
            if answer is None:
                answer = worker.lost(jobs[index], timeout)
                worker = None
            record(index, answer)
    finally:
        if worker is not None:
            worker.close()


class _Worker:
    """One worker process; its standard error goes to a temporary log, read after a crash."""

    def __init__(
        self, command: list[str], stop: Stop, on_ready: Callable[[About], None] | None = None
    ) -> None:
        # Closed in close(), after the worker has exited and its last words are read.
        self.log: TextIO = tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace")  # noqa: SIM115
        # Blender makes a folder per process in the temporary folder and removes it as it exits;
        # a worker killed (a timeout, a crash, a second Ctrl-C) cannot, and left one each. The
        # worker's temporary folder is one of ours, removed in close() however it ended.
        self.scratch = tempfile.mkdtemp(prefix="ik_doctor_worker_")
        try:
            self.process = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self.log,
                env=_environment(self.scratch),
                text=True,
                encoding="utf-8",
                process_group=0,  # a Ctrl-C at the terminal reaches the main process only
            )
        except OSError:
            shutil.rmtree(self.scratch, ignore_errors=True)
            self.log.close()
            raise
        self.stop = stop
        stop.watch(self.process)
        self.started = time.monotonic()
        self.on_ready = on_ready
        self.ready = False
        self.about: About | None = None
        self.stage: str | None = None
        self.ran_out = False
        self.lines: queue.Queue[str | None] = queue.Queue()
        assert self.process.stdout is not None
        reader = threading.Thread(target=_read_lines, args=(self.process.stdout, self.lines))
        reader.daemon = True  # it ends with the worker's output; never wait for it
        reader.start()

    def ask(self, job: Job, timeout: float) -> Answer | None:
        """Send one job and wait for its answer; None when the worker died or ran out of time.

        The clock starts when the worker, ready, can read the job: a worker's start-up (bpy's
        import, slow when many start at once) has its own, longer deadline.
        """
        assert self.process.stdin is not None
        self.stage = None
        try:
            self.process.stdin.write(json.dumps(job) + "\n")
            self.process.stdin.flush()
        except OSError:  # it died before reading the job
            return None
        if not self.await_ready():
            return None
        deadline = time.monotonic() + timeout
        while True:
            line = self._line_before(deadline)
            if line is None:
                return None
            if line.startswith(STAGE_PREFIX):
                self.stage = line.removeprefix(STAGE_PREFIX)
            elif line.startswith(ANSWER_PREFIX):
                answer: Answer = json.loads(line.removeprefix(ANSWER_PREFIX))
                return answer

    def await_ready(self) -> bool:
        """Wait until the worker says it is ready, ``STARTUP_TIMEOUT`` from its start at most."""
        while not self.ready:
            line = self._line_before(self.started + STARTUP_TIMEOUT)
            if line is None:
                return False
            if line.startswith(READY_LINE):
                self.ready = True
                self.about = json.loads(line.removeprefix(READY_LINE) or "null")
                if self.about is not None and self.on_ready is not None:
                    self.on_ready(self.about)
        return True

    def _line_before(self, deadline: float) -> str | None:
        """The worker's next protocol line; None when its output ended or time ran out (killed)."""
        try:
            return self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            self.ran_out = True
            self.process.kill()
            return None

    def lost(self, job: Job, timeout: float) -> Answer:
        """Stop the worker and say why ``job`` got no answer, and what the worker was doing."""
        how = self.close()
        doing = self.stage or READING
        if self.stop.immediate:
            left = _left_on_disk(job, doing)
            return _failed(job, f"not finished: the run was interrupted while {doing}{left}")
        if self.ran_out and not self.ready:
            return _failed(job, f"stopped: a worker was not ready after {STARTUP_TIMEOUT:g} s")
        if self.ran_out:
            problem = f"stopped: no answer after {timeout:g} s"
            return _failed(job, problem + (f" (while {self.stage})" if self.stage else ""))
        if not self.ready:
            return _failed(job, f"a worker could not start ({how or 'no answer'})")
        problem = f"Blender crashed while {doing} ({how or 'no answer'})"
        if doing != READING:  # the file was read: what broke is the check, the fix or the save
            return _failed(job, problem)
        return {"path": job["path"], "status": "unreadable", "problem": problem, "armatures": []}

    def close(self) -> str:
        """End the worker; return how it ended when it did not end well, else ""."""
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):  # a crashed worker has closed its end already
                self.process.stdin.close()
        code = _end(self.process)
        self.stop.forget(self.process)
        shutil.rmtree(self.scratch, ignore_errors=True)
        self.log.seek(0)
        tail = [line.strip() for line in self.log.read().splitlines() if line.strip()][-3:]
        self.log.close()
        if code == 0:
            return ""
        how = "it did not end when killed" if code is None else f"exit code {code}"
        if code is not None and code < 0:
            try:
                how = f"signal {signal.Signals(-code).name}"
            except ValueError:
                how = f"signal {-code}"
        return how + (f"; last words: {' | '.join(tail)}" if tail else "")


def _left_on_disk(job: Job, doing: str) -> str:
    """What a fix stopped at ``doing`` left written, so the report never calls a replaced file
    unfinished; "" when nothing was written yet (every check, and a fix before saving)."""
    in_place = bool(job.get("in_place"))
    if doing == SAVING:
        if in_place:
            return "; the input is either untouched or replaced whole, with its backup beside it"
        return f"; {job['output']} may not have been written"
    if doing in SAVED:
        if in_place:
            return "; the fixed file had replaced the input, with its backup beside it"
        return f"; the fixed file had been written to {job['output']}"
    return ""


def _environment(temporary: str) -> dict[str, str]:
    """The environment the user gave (not bpy's changes to this process's: OCIO), ``PWD`` true,
    with ``temporary`` as the temporary folder.

    Blender 4.2 resolves a relative path against ``$PWD``, which a parent that changed
    directory without a shell (``subprocess.run(cwd=...)``) leaves pointing elsewhere.
    """
    environment = dict(os.environ)
    environment.update(TMPDIR=temporary, TEMP=temporary, TMP=temporary)
    with contextlib.suppress(OSError):  # a removed current directory has no true PWD
        environment["PWD"] = os.getcwd()
    return environment


def _end(process: subprocess.Popen[str]) -> int | None:
    """Its exit code, killing it after ``EXIT_GRACE``; None if even a kill does not end it."""
    try:
        return process.wait(timeout=EXIT_GRACE)
    except subprocess.TimeoutExpired:
        process.kill()
    try:
        return process.wait(timeout=EXIT_GRACE)
    except subprocess.TimeoutExpired:  # stuck in the kernel (a dead network share)
        return None


def _read_lines(stream: IO[str], lines: queue.Queue[str | None]) -> None:
    """Pass on the worker's complete protocol lines, then None when its output ends."""
    with contextlib.suppress(OSError, ValueError):
        for line in stream:
            if line.endswith("\n") and line.startswith((ANSWER_PREFIX, STAGE_PREFIX, READY_LINE)):
                lines.put(line.removesuffix("\n"))
    lines.put(None)


def _failed(job: Job, problem: str) -> Answer:
    return {"path": job["path"], "status": "failed", "problem": problem, "armatures": []}
