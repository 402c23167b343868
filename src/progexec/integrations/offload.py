"""The async rewards' worker: one scoring thread per process, so a trainer's event loop never waits on a score.

An ``async`` reward awaits :func:`offloaded`, which hands the scoring call to this thread and gives the
loop back at once. The thread is started on first use (nothing bound to an event loop exists at import,
so any loop in any thread, or a Ray actor's, can await it), is shared by every loop of the process, and
is forgotten in a forked child (it does not exist there; the child starts its own). The caller's
context variables (``progexec.limits.using``) travel with each call.

A thread, not a process: scoring holds the GIL in short steps (a completion is at most
``max_completion_chars`` long, a longer one is ``too_large`` unread), so the loop's thread gets it
back within the interpreter's switch interval, and nothing has to be pickled across processes.
Parallel CPU comes from the trainer's own reward workers (verl's reward-loop actors, TRL's processes)
or from :func:`progexec.reward.score_batch` on Ray.
"""

from __future__ import annotations

import asyncio
import contextvars
import os
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

R = TypeVar("R")

_Call = tuple[asyncio.AbstractEventLoop, "asyncio.Future[Any]", contextvars.Context, Callable[..., Any],
              tuple[Any, ...], dict[str, Any]]


class ScoringThread:
    """One daemon thread judging calls in the order they come, from any event loop of the process.

    A call costs its loop a future and a put on a C queue, and the answer one ``call_soon_threadsafe``: far less
    loop time than a ``concurrent.futures`` pool's submit, which matters when a trainer gathers thousands of
    rewards at once."""

    def __init__(self) -> None:
        self.calls: queue.SimpleQueue[_Call] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._serve, name="progexec-reward", daemon=True)
        self.thread.start()

    def submit(self, call: _Call) -> None:
        self.calls.put(call)

    def _serve(self) -> None:
        while True:
            loop, future, context, function, args, kwargs = self.calls.get()
            try:
                outcome: tuple[bool, Any] = (True, context.run(function, *args, **kwargs))
            except BaseException as error:  # noqa: BLE001  (handed to the awaiting coroutine, raised there)
                outcome = (False, error)
            try:
                loop.call_soon_threadsafe(_settle, future, outcome)
            except RuntimeError:  # the loop was closed meanwhile: no one is waiting for the answer
                pass


def _settle(future: asyncio.Future[Any], outcome: tuple[bool, Any]) -> None:
    if future.cancelled():
        return
    done, value = outcome
    if done:
        future.set_result(value)
    elif isinstance(value, StopIteration):  # asyncio refuses to raise it through a coroutine
        future.set_exception(RuntimeError(f"the scoring call raised StopIteration: {value!r}"))
    else:
        future.set_exception(value)


_lock = threading.Lock()
_worker: ScoringThread | None = None
_owner = os.getpid()


def scoring_thread() -> ScoringThread:
    """This process's scoring thread, started on first use (again in a forked child)."""
    global _worker, _owner
    worker = _worker
    if worker is not None and _owner == os.getpid():
        return worker
    with _lock:
        if _worker is None or _owner != os.getpid():
            _worker = ScoringThread()
            _owner = os.getpid()
        return _worker


def _forget_after_fork() -> None:
    """In a forked child: the parent's thread and lock are copies of another process's (the thread is gone)."""
    global _worker, _lock
    _worker = None
    _lock = threading.Lock()


os.register_at_fork(after_in_child=_forget_after_fork)


async def offloaded(function: Callable[..., R], /, *args: Any, **kwargs: Any) -> R:
    """``function(*args, **kwargs)`` run on the scoring thread, in the caller's context; the running loop is free
    meanwhile. What it returns is returned and what it raises is raised."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[R] = loop.create_future()
    scoring_thread().submit((loop, future, contextvars.copy_context(), function, args, kwargs))
    return await future
