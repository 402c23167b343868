"""An order-preserving map of a pure chunk function over a stream of work, on one of three engines.

``serial`` runs the chunks in this process, ``process`` on a local pool of worker processes and
``ray`` as Ray tasks, on a cluster joined by address or on a local one started for the run. Every engine
calls the same chunk function on the same chunks, so the results are the serial results: in
input order, one per item, nothing dropped. At most ``in_flight`` chunks are outstanding at
once, so memory is bounded by the chunk size, not by the length of the input.

A chunk function takes a list of work items and returns a list of results of the same length;
it must be picklable (a module-level function, or a :func:`functools.partial` of one) and must
not depend on process state that the workers do not share.

Worker processes are forked from this one on Linux when it runs a single thread (nothing can be
copied mid-lock): they start with its imports and its ``prepare`` done, at no cost. Otherwise they
start from a ``forkserver`` (else ``spawn``) that has imported the chunk function's module, and run
``prepare`` once each. Either way a worker pays its start-up once, not once per chunk.
"""

from __future__ import annotations

import importlib
import os
import sys
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from itertools import islice
from typing import TYPE_CHECKING, Any, Generic, TypeVar
from .core.plural import plural

if TYPE_CHECKING:  # multiprocessing is imported only when a process pool starts (a serial run never needs it)
    import multiprocessing.context
    from concurrent.futures import Future

from .core.errors import OptionError
from .core.limits import DEFAULT_LIMITS, current

T = TypeVar("T")
R = TypeVar("R")

ChunkFunction = Callable[[list[T]], Sequence[R]]

DEFAULT_CHUNK_SIZE = DEFAULT_LIMITS.parallel_chunk_size
# bound: DEFAULT_CHUNK_SIZE = 1000 — items per task; a reward takes ~50 µs, so a task is tens of ms
IN_FLIGHT_PER_WORKER = DEFAULT_LIMITS.chunks_in_flight_per_job
# bound: IN_FLIGHT_PER_WORKER = 2 — outstanding chunks per worker; memory is O(jobs × chunk size)
MAX_JOBS = DEFAULT_LIMITS.max_jobs
# bound: MAX_JOBS = 1024 — largest --jobs accepted (a typo like 10000 would fork-bomb the machine)


class Engine(str, Enum):
    """Where the chunks run; the value is the ``--engine`` spelling."""

    SERIAL = "serial"
    PROCESS = "process"
    RAY = "ray"


ParallelError = OptionError
"""The documented name of a chunk that could not be run (an :class:`~progexec.errors.OptionError`; the message says what and where)."""


@dataclass(frozen=True)
class ParallelOptions:
    """How to run a map: the engine, its worker count, the Ray address and the chunk size."""

    engine: Engine = Engine.SERIAL
    jobs: int = 1
    ray_address: str | None = None
    chunk_size: int = DEFAULT_CHUNK_SIZE

    def __post_init__(self) -> None:
        if not 1 <= self.jobs <= current().max_jobs:
            raise OptionError(f"jobs must be between 1 and {current().max_jobs}, not {self.jobs}")
        if self.chunk_size < 1:
            raise OptionError(f"chunk size must be at least 1, not {self.chunk_size}")
        if self.ray_address is not None and self.engine is not Engine.RAY:
            raise OptionError(f"a Ray address needs the ray engine, not {self.engine.value}")

    @classmethod
    def resolve(cls, engine: str | Engine | None = None, jobs: int | None = None,
                ray_address: str | None = None, chunk_size: int | None = None) -> ParallelOptions:
        """The options the CLI flags mean: no engine named is ``process`` for ``jobs > 1``, ``ray``
        when an address is given, else ``serial``; ``jobs`` defaults to the CPU count for ray."""
        if engine is None:
            chosen = Engine.RAY if ray_address else Engine.PROCESS if (jobs or 1) > 1 else Engine.SERIAL
        else:
            try:
                chosen = Engine(engine)
            except ValueError:
                names = ", ".join(e.value for e in Engine)
                raise OptionError(f"unknown engine {engine!r} (choose from {names})") from None
        if jobs is None:
            jobs = (os.cpu_count() or 1) if chosen is not Engine.SERIAL else 1
        return cls(chosen, jobs, ray_address, current().parallel_chunk_size if chunk_size is None else chunk_size)

    @property
    def in_flight(self) -> int:
        """Chunks outstanding at once."""
        return 1 if self.engine is Engine.SERIAL else current().chunks_in_flight_per_job * self.jobs


@dataclass
class RunStats:
    """Run metadata (the only output allowed to name the engine or a time)."""

    engine: str
    jobs: int
    chunk_size: int
    items: int = 0
    chunks: int = 0
    seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    def record(self) -> dict[str, Any]:
        return {"engine": self.engine, "jobs": self.jobs, "chunk_size": self.chunk_size, "items": self.items,
                "chunks": self.chunks, "seconds": round(self.seconds, 3), **self.extra}


def chunked(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """Consecutive lists of ``size`` items (the last may be shorter), read lazily."""
    iterator = iter(items)
    while chunk := list(islice(iterator, size)):
        yield chunk


def _checked(results: Sequence[R], chunk: Sequence[object], index: int) -> Sequence[R]:
    if len(results) != len(chunk):
        raise ParallelError(f"chunk {index} ({plural(len(chunk), 'item')}) came back with "
                            f"{plural(len(results), 'result')}")
    return results


class _Backend(Generic[T, R]):
    """Submits one chunk and hands back a handle whose :meth:`wait` returns the chunk's results."""

    def submit(self, function: ChunkFunction[T, R], chunk: list[T]) -> Callable[[], Sequence[R]]:
        raise NotImplementedError

    def close(self) -> None:
        """Release the workers (a no-op where there are none)."""


class _Serial(_Backend[T, R]):
    def submit(self, function: ChunkFunction[T, R], chunk: list[T]) -> Callable[[], Sequence[R]]:
        results = function(chunk)
        return lambda: results


def _threads() -> int:
    """The threads of this process, native ones included where the system tells (Linux), else Python's."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        import threading

        return threading.active_count()


def fork_is_safe() -> bool:
    """True when worker processes may be forked from this one: Linux (where ``fork`` is the system's own way
    to start a process) and one thread only, so no lock held by another thread is copied."""
    import multiprocessing

    return (sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()
            and _threads() == 1)


def _context(preload: Sequence[str] = ()) -> multiprocessing.context.BaseContext:
    """``fork`` when :func:`fork_is_safe`, else ``forkserver`` (importing ``preload`` once, in the server), else
    ``spawn``."""
    import multiprocessing

    if fork_is_safe():
        return multiprocessing.get_context("fork")
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(list(preload))
        return context
    return multiprocessing.get_context("spawn")


def _modules(function: Callable[..., object]) -> list[str]:
    """The modules a chunk function lives in (through :class:`PerItem` and :func:`functools.partial`), for the
    forkserver to import once rather than every worker."""
    names: list[str] = []
    target: object = function
    while target is not None:
        module = getattr(target, "__module__", None)
        if isinstance(module, str) and module.startswith("progexec") and module not in names:
            names.append(module)
        target = getattr(target, "function", None) or getattr(target, "func", None)
    return names


class _Processes(_Backend[T, R]):
    def __init__(self, jobs: int, prepare: Callable[[], object] | None, preload: Sequence[str]) -> None:
        from concurrent.futures import ProcessPoolExecutor

        if prepare is not None and fork_is_safe():
            prepare()  # once, here: every forked worker starts with it done (it must not start a thread)
        context = _context(preload)
        if context.get_start_method() == "fork":
            prepare = None
            for stream in (sys.stdout, sys.stderr):  # a forked worker must not write what was buffered here
                if stream is not None:
                    stream.flush()
        self.pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=prepare)

    def submit(self, function: ChunkFunction[T, R], chunk: list[T]) -> Callable[[], Sequence[R]]:
        from concurrent.futures.process import BrokenProcessPool

        future: Future[Sequence[R]] = self.pool.submit(function, chunk)

        def wait() -> Sequence[R]:
            try:
                return future.result()
            except BrokenProcessPool as error:
                raise OptionError(f"a worker process died: {error}") from error

        return wait

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


def _apply(function: Callable[[list[Any]], Sequence[Any]], chunk: list[Any]) -> list[Any]:
    """What a Ray task runs: the chunk function, its results as a list (Ray returns one object)."""
    return list(function(chunk))


class _Ray(_Backend[T, R]):
    def __init__(self, jobs: int, address: str | None) -> None:
        try:
            ray = importlib.import_module("ray")
        except ImportError:
            raise OptionError("the ray engine needs Ray: pip install 'progexec[ray]'") from None
        self.ray: Any = ray
        self.started = False
        if not ray.is_initialized():
            if address is not None:
                ray.init(address=address, log_to_driver=False)
            else:
                ray.init(num_cpus=jobs, include_dashboard=False, log_to_driver=False,
                         configure_logging=False)
            self.started = True
        self.task = ray.remote(num_cpus=1)(_apply)

    def submit(self, function: ChunkFunction[T, R], chunk: list[T]) -> Callable[[], Sequence[R]]:
        reference = self.task.remote(function, chunk)

        def wait() -> Sequence[R]:
            errors = self.ray.exceptions
            try:
                results: Sequence[R] = self.ray.get(reference)
            except errors.RayTaskError:  # the chunk function raised: also an instance of its exception
                raise
            except errors.RayError as error:
                raise OptionError(f"a Ray task failed: {type(error).__name__}: {error}") from error
            return results

        return wait

    def close(self) -> None:
        if self.started:
            self.ray.shutdown()


def _backend(options: ParallelOptions, function: ChunkFunction[Any, Any],
             prepare: Callable[[], object] | None) -> _Backend[Any, Any]:
    if options.engine is Engine.PROCESS:
        return _Processes(options.jobs, prepare, _modules(function))
    if options.engine is Engine.RAY:
        return _Ray(options.jobs, options.ray_address)
    return _Serial()


def parallel_map(function: ChunkFunction[T, R], items: Iterable[T], options: ParallelOptions | None = None,
                 stats: RunStats | None = None, prepare: Callable[[], object] | None = None,
                 ) -> Generator[R, None, None]:
    """``function`` over ``items`` in chunks, yielding one result per item in input order.

    The input is read lazily and at most ``options.in_flight`` chunks are outstanding. A chunk
    whose result has the wrong length, or a worker that dies, raises :class:`OptionError`;
    an exception raised by ``function`` itself propagates unchanged. ``stats``, when given, is
    filled in as the run goes (items, chunks, seconds). ``prepare`` (picklable, idempotent: the chunk
    function must not rely on it) is the workers' one-time set-up: run here before forking them, or
    once in each worker started otherwise.
    """
    options = options or ParallelOptions()
    started = time.monotonic()
    backend: _Backend[T, R] = _backend(options, function, prepare)
    pending: deque[tuple[int, list[T], Callable[[], Sequence[R]]]] = deque()
    try:
        for index, chunk in enumerate(chunked(items, options.chunk_size)):
            pending.append((index, chunk, backend.submit(function, chunk)))
            if len(pending) >= options.in_flight:
                yield from _drain_one(pending, stats)
        while pending:
            yield from _drain_one(pending, stats)
    finally:  # also when the consumer stops early: close() cancels what has not started
        backend.close()
        if stats is not None:
            stats.seconds = time.monotonic() - started


def _drain_one(pending: deque[tuple[int, list[T], Callable[[], Sequence[R]]]],
               stats: RunStats | None) -> Iterator[R]:
    index, chunk, wait = pending.popleft()
    results = _checked(wait(), chunk, index)
    if stats is not None:
        stats.items += len(results)
        stats.chunks += 1
    yield from results


class PerItem(Generic[T, R]):
    """A picklable chunk function that applies a picklable item function to each item of a chunk."""

    def __init__(self, function: Callable[[T], R]) -> None:
        self.function = function

    def __call__(self, chunk: list[T]) -> list[R]:
        function = self.function
        return [function(item) for item in chunk]


def run_stats(options: ParallelOptions) -> RunStats:
    """Empty run metadata for ``options``."""
    return RunStats(options.engine.value, options.jobs, options.chunk_size)
