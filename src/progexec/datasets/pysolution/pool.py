"""A warm pool of sandboxed workers: each a bubblewrap sandbox whose interpreter forks one child per solution.

A bwrap start-up and the import of numpy, scipy, sympy and pandas cost about a second;
a fork of a worker that already holds them costs milliseconds. So each worker
(:mod:`progexec.datasets.pysolution.zygote` in a sandbox built by :func:`progexec.isolation.bwrap.command`,
plus read-only binds of the offered libraries and a read-only ``/tmp``) loads its
libraries once and forks a fresh, confined child for every solution. One solution is in
flight per worker; a worker that dies, stalls past its deadline, sends anything but
its protocol or reports that a child changed its own state (rlimits, nice, affinity,
scheduling, the names in its writable directories) is killed with its whole PID
namespace, the solution in flight gets its own status, and a fresh worker takes its
place — so nothing one solution does reaches the verdict of another. Each child also
runs under the ``solution`` seccomp filter, which refuses signals, SysV IPC, POSIX
message queues and re-limiting, renicing or re-pinning any process but itself. Two tiers keep forks cheap: ``light`` workers hold numpy and the
standard library, ``heavy`` workers add scipy, sympy and pandas (a fork of them costs
about ten times more), and a solution goes to ``heavy`` only when its text names one of
those libraries. Gold solutions run in a pool of their own, closed before any model
solution runs, so no model solution's worker has ever held gold code.
"""

from __future__ import annotations

import importlib.util
import json
import os
import selectors
import signal
import subprocess
import sys
import tempfile
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import IO, Any

from ...core.limits import DEFAULT_LIMITS, current
from ...isolation import bwrap as bubblewrap
from .results import SolutionResult, decode_report, failure
from ...core.errors import SetupError

LIGHT_PRELOAD = ("math", "cmath", "decimal", "fractions", "statistics", "datetime", "random", "itertools",
                 "functools", "re", "json", "numpy", "numpy.random")
"""What a light worker imports once: the standard-library modules solutions use, and numpy."""

HEAVY_LIBRARIES = ("scipy", "sympy", "pandas", "mpmath")
"""Names that send a solution to a heavy worker when its text contains them."""

HEAVY_PRELOAD = LIGHT_PRELOAD + ("scipy", "scipy.optimize", "scipy.stats", "scipy.special", "scipy.integrate",
                                 "sympy", "pandas", "mpmath")
"""What a heavy worker imports once (the libraries FinanceMath's published runs had: numpy, scipy, sympy, pandas)."""

WATCHED_DIRECTORIES = ("/", "/dev", "/dev/shm", "/tmp")
"""The sandbox's directories whose names a child might change (bubblewrap's tmpfs root and ``/dev``): a worker
whose child changed them is replaced."""

OFFERED = ("numpy", "scipy", "sympy", "mpmath", "pandas", "dateutil", "six", "pytz", "tzdata")
"""Third-party packages bound read-only into the sandbox when installed (sympy needs mpmath; pandas dateutil)."""


__all__ = ["HEAVY_LIBRARIES", "HEAVY_PRELOAD", "LIGHT_PRELOAD", "OFFERED", "Budget", "Pool", "Request",
           "offered_libraries"]


@dataclass(frozen=True, slots=True)
class Budget:
    """Per-solution bounds: CPU seconds (the clock that decides ``time_limit``), a wall backstop, address space.
    The defaults are the ``solution_*`` fields of :class:`progexec.Limits`."""

    cpu_seconds: float = DEFAULT_LIMITS.solution_cpu_seconds
    wall_seconds: float = DEFAULT_LIMITS.solution_wall_seconds
    memory_bytes: int = DEFAULT_LIMITS.solution_memory_bytes
    alarm_seconds: float = DEFAULT_LIMITS.solution_alarm_seconds

    @classmethod
    def current(cls) -> Budget:
        """The budget of the limits in force (``--limit solution_cpu_seconds=...``)."""
        limits = current()
        return cls(limits.solution_cpu_seconds, limits.solution_wall_seconds, limits.solution_memory_bytes,
                   limits.solution_alarm_seconds)


@dataclass(frozen=True, slots=True)
class Request:
    """One solution to run: its code, how to read its result (``solution()`` or the variable ``answer``),
    and which top-level imports it may make (None: any module the sandbox holds)."""

    code: str
    entry: str = "solution"
    allowed: tuple[str, ...] | None = None

    @property
    def heavy(self) -> bool:
        return any(name in self.code for name in HEAVY_LIBRARIES)


@lru_cache(maxsize=1)
def _zygote_source() -> str:
    return resources.files("progexec.datasets.pysolution").joinpath("zygote.py").read_text(encoding="utf-8")


def _package_binds() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The installed OFFERED packages' directories (with vendored ``.libs``) and the directories holding them."""
    binds: list[str] = []
    parents: list[str] = []
    for name in OFFERED:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            spec = None
        if spec is None:
            continue
        locations = list(spec.submodule_search_locations or []) or ([spec.origin] if spec.origin else [])
        for location in locations:
            real = os.path.realpath(location)
            for path in (real, real + ".libs") if os.path.isdir(real) else (real,):
                if os.path.exists(path) and path not in binds:
                    binds.append(path)
            parent = os.path.dirname(real)
            if parent not in parents:
                parents.append(parent)
    return tuple(binds), tuple(parents)


def offered_libraries() -> dict[str, str]:
    """The third-party libraries a solution can import in the sandbox here, with their versions."""
    from importlib import metadata
    found: dict[str, str] = {}
    for name, dist in (("numpy", "numpy"), ("scipy", "scipy"), ("sympy", "sympy"), ("pandas", "pandas"),
                       ("mpmath", "mpmath")):
        if importlib.util.find_spec(name) is not None:
            try:
                found[name] = metadata.version(dist)
            except metadata.PackageNotFoundError:
                found[name] = "?"
    return found


def sandbox_command(child_argv: list[str]) -> list[str]:
    """bubblewrap's command line for a worker: the shared builder's, plus read-only binds of the offered
    libraries and a read-only ``/tmp`` (nothing in the sandbox can write a file)."""
    argv = bubblewrap.command(child_argv, None)
    separator = argv.index("--")
    extra: list[str] = []
    present = set(argv[:separator])
    for path in _package_binds()[0]:
        if path not in present:
            extra += ["--ro-bind", path, path]
    extra += ["--remount-ro", "/tmp"]
    return argv[:separator] + extra + argv[separator:]


def _seccomp_hex() -> str | None:
    fd = bubblewrap.open_seccomp("solution")
    if fd is None:
        return None
    try:
        with os.fdopen(fd, "rb") as handle:
            return handle.read().hex()
    except OSError:
        return None


def tainted(line: bytes) -> bool:
    """Whether a worker's report says the child changed the worker's own state (or cannot be read to say not)."""
    try:
        report = json.loads(line.decode("ascii"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return True
    return not isinstance(report, dict) or report.get("tainted") != []


class _Worker:
    """One sandbox process and the solution in flight in it."""

    def __init__(self, preload: Sequence[str], isolated: bool) -> None:
        self.busy: int | None = None
        self.deadline = 0.0
        self.buffer = b""
        self.workdir: tempfile.TemporaryDirectory[str] | None = None
        source = _zygote_source()
        if isolated:
            argv = sandbox_command([bubblewrap.runtime().executable, "-I", "-S", "-c", source])
            self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=subprocess.DEVNULL, start_new_session=True, cwd="/", env={})
            path = list(_package_binds()[1])
        else:
            self.workdir = tempfile.TemporaryDirectory(prefix="progexec-pysolution-")
            env = dict(bubblewrap.CHILD_ENV) | {"PATH": "/usr/bin:/bin"}
            self.process = subprocess.Popen([sys.executable, "-I", "-S", "-c", source], stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                            start_new_session=True, cwd=self.workdir.name, env=env)
            path = list(_package_binds()[1])
        bounds = current()
        init = {"path": path, "preload": list(preload), "seccomp": _seccomp_hex() if isolated else None,
                "watch": list(WATCHED_DIRECTORIES) if isolated else [],
                "bounds": {"result_cap": bounds.solution_result_bytes, "message_chars": bounds.solution_message_chars,
                           "repr_chars": bounds.solution_repr_chars}}
        self.send(init)
        self.loaded: tuple[str, ...] = ()

    def wait_ready(self) -> None:
        """Wait for the worker's ready line (its libraries imported); raises SetupError if it fails."""
        line = self._read_line(time.monotonic() + current().solution_worker_ready_seconds)
        ready = json.loads(line) if line else None
        if not isinstance(ready, dict) or ready.get("ready") is not True:
            self.kill()
            raise SetupError("a sandbox worker did not start (its interpreter or libraries failed to load)")
        self.loaded = tuple(name for name in ready.get("loaded", []) if isinstance(name, str))

    @property
    def stdout(self) -> IO[bytes]:
        assert self.process.stdout is not None
        return self.process.stdout

    def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message, ensure_ascii=True).encode("ascii") + b"\n")
        self.process.stdin.flush()

    def _read_line(self, deadline: float) -> bytes | None:
        with selectors.DefaultSelector() as selector:
            selector.register(self.stdout, selectors.EVENT_READ)
            while b"\n" not in self.buffer:
                remaining = deadline - time.monotonic()
                if remaining <= 0 or not selector.select(remaining):
                    if time.monotonic() >= deadline:
                        return None
                    continue
                chunk = os.read(self.stdout.fileno(), 65536)
                if not chunk:
                    return None
                self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line

    def kill(self) -> None:
        """Kill the sandbox (bwrap's death takes its PID namespace along) and reap it."""
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.process.kill()
        except (ProcessLookupError, PermissionError):
            pass
        for stream in (self.process.stdin, self.process.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        self.process.wait()
        if self.workdir is not None:
            self.workdir.cleanup()


class Pool:
    """Up to ``jobs`` light and ``jobs // 2`` heavy warm workers; :meth:`run` runs solutions and returns their
    results in input order.

    A context manager: leaving it kills every worker. Raises SetupError when the
    machine cannot isolate and ``unsafe_no_isolation`` is not set.
    """

    def __init__(self, jobs: int = 2, budget: Budget | None = None, *, unsafe_no_isolation: bool = False) -> None:
        isolation = bubblewrap.status()
        if not isolation.available and not unsafe_no_isolation:
            raise SetupError(
                f"refusing to run model-written code without isolation: {isolation.reason}. Install bubblewrap "
                "(apt-get install bubblewrap) or, only for code you trust, pass --unsafe-no-isolation")
        self.isolated = isolation.available
        self.isolation = isolation.describe()
        self.jobs = max(1, jobs)
        self.budget = budget if budget is not None else Budget.current()
        self.workers: dict[str, list[_Worker]] = {"light": [], "heavy": []}
        self.restarts = 0

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """End every worker: idle ones by closing their input (they exit and are reaped, so their CPU time is
        accounted to this process), then kill whatever is left."""
        everyone = [worker for workers in self.workers.values() for worker in workers]
        for worker in everyone:
            if worker.busy is None and worker.process.stdin is not None:
                try:
                    worker.process.stdin.close()
                except OSError:
                    pass
        deadline = time.monotonic() + current().solution_pool_close_seconds
        for worker in everyone:
            try:
                worker.process.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
            worker.kill()
        for workers in self.workers.values():
            workers.clear()

    def limit(self, tier: str) -> int:
        """Workers of a tier: ``jobs`` light ones, half as many heavy ones (they hold ~5x the memory)."""
        return self.jobs if tier == "light" else max(1, self.jobs // 2)

    def _spawn(self, tier: str, count: int = 1) -> list[_Worker]:
        """Start ``count`` workers of a tier at once (their imports overlap), then wait until each is ready."""
        started = [_Worker(HEAVY_PRELOAD if tier == "heavy" else LIGHT_PRELOAD, self.isolated) for _ in range(count)]
        ready: list[_Worker] = []
        failed: Exception | None = None
        for worker in started:
            try:
                worker.wait_ready()
                ready.append(worker)
            except (OSError, SetupError) as error:
                failed = error
        self.workers[tier] += ready
        if not ready and failed is not None:
            raise failed
        return ready

    def _message(self, seq: int, request: Request) -> dict[str, Any]:
        return {"seq": seq, "code": request.code, "entry": request.entry,
                "allowed": list(request.allowed) if request.allowed is not None else None,
                "cpu_seconds": self.budget.cpu_seconds, "wall_seconds": self.budget.wall_seconds,
                "memory_bytes": self.budget.memory_bytes, "alarm_seconds": self.budget.alarm_seconds}

    def _retire(self, tier: str, worker: _Worker) -> None:
        worker.kill()
        self.workers[tier].remove(worker)
        self.restarts += 1

    def run(self, requests: Sequence[Request], progress: Callable[[int], None] | None = None,
            deadline: float | None = None) -> list[SolutionResult]:
        """Run every request; one result per request, in order. Never raises for what a solution does.

        ``deadline`` (a ``time.monotonic()`` value): a request not yet started by then is ``time_limit``
        without running (a caller's budget for the whole batch; started ones keep their own bounds)."""
        results: list[SolutionResult | None] = [None] * len(requests)
        pending = {"light": deque[int](), "heavy": deque[int]()}
        for index, request in enumerate(requests):
            pending["heavy" if request.heavy else "light"].append(index)
        done = 0
        with selectors.DefaultSelector() as selector:
            while pending["light"] or pending["heavy"] or any(w.busy is not None for ws in self.workers.values()
                                                               for w in ws):
                for tier, queue in pending.items():
                    while queue and deadline is not None and time.monotonic() >= deadline:
                        results[queue.popleft()] = failure(
                            "time_limit", "the request's sandbox budget ran out before this solution ran",
                            wall_clock=True)
                        done += 1
                    while queue:
                        idle = [w for w in self.workers[tier] if w.busy is None]
                        cap = self.limit(tier)
                        if not idle and len(self.workers[tier]) < cap:
                            try:
                                idle = self._spawn(tier, min(cap - len(self.workers[tier]), len(queue)))
                            except (OSError, SetupError) as error:
                                index = queue.popleft()
                                results[index] = failure("sandbox_error", f"cannot start a sandbox worker: {error}")
                                done += 1
                                continue
                        if not idle:
                            break
                        worker, index = idle[0], queue.popleft()
                        try:
                            worker.send(self._message(index, requests[index]))
                        except OSError:
                            self._retire(tier, worker)
                            queue.appendleft(index)
                            continue
                        worker.busy = index
                        worker.deadline = time.monotonic() + self.budget.wall_seconds + current().solution_answer_margin_seconds
                        selector.register(worker.stdout, selectors.EVENT_READ, (tier, worker))
                busy = [(tier, w) for tier, ws in self.workers.items() for w in ws if w.busy is not None]
                if not busy:
                    continue
                timeout = max(0.0, min([w.deadline for _, w in busy]
                                       + ([deadline] if deadline is not None and (pending["light"] or pending["heavy"])
                                          else [])) - time.monotonic())
                for key, _ in selector.select(timeout):
                    tier, worker = key.data
                    chunk = os.read(worker.stdout.fileno(), 65536)
                    worker.buffer += chunk
                    index = worker.busy
                    assert index is not None
                    if b"\n" in worker.buffer or not chunk or len(worker.buffer) > 1 << 20:
                        selector.unregister(worker.stdout)
                        worker.busy = None
                        if b"\n" in worker.buffer:
                            line, _, worker.buffer = worker.buffer.partition(b"\n")
                            results[index] = decode_report(line, index)
                            if tainted(line):
                                self._retire(tier, worker)
                        else:
                            message = "the sandbox worker died" if not chunk else "the sandbox worker sent too much"
                            results[index] = failure("crash", message)
                            self._retire(tier, worker)
                        done += 1
                        if progress is not None:
                            progress(done)
                now = time.monotonic()
                for tier, worker in busy:
                    if worker.busy is not None and now >= worker.deadline:
                        selector.unregister(worker.stdout)
                        index = worker.busy
                        worker.busy = None
                        results[index] = failure("time_limit", "the sandbox worker did not answer in time; killed",
                                                 wall_clock=True)
                        self._retire(tier, worker)
                        done += 1
                        if progress is not None:
                            progress(done)
        return [result if result is not None else failure("sandbox_error", "no result") for result in results]
