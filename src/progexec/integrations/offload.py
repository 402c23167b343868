"""The async rewards' worker: one scoring thread per process, so a trainer's event loop never waits on a score.

An ``async`` reward awaits :func:`offloaded`, which hands the scoring call to this thread and gives the
loop back at once. The thread is started on first use (nothing bound to an event loop exists at import,
so any loop in any thread, or a Ray actor's, can await it), is shared by every loop of the process, and
is forgotten in a forked child (it does not exist there; the child starts its own). The caller's
context variables (``progexec.limits.using``) travel with each call.

A trainer may gather a whole batch at once (verl's reward loop: thousands of ``compute_score_async``
calls in one ``asyncio.gather``), so the loop's cost per call is kept small and bounded per turn:

* the calls one loop makes within one turn are collected and sent to the thread as one job, at the
  loop's next turn (so the thread does not compete for the interpreter while the loop is still
  starting the gathered coroutines);
* the answers go back in slices: the thread queues them and wakes the loop once, and the loop settles
  at most ``async_answers_per_slice`` futures per callback, scheduling the rest for its next turn, so
  the coroutines those answers resume and the loop's other tasks (a probe, a judge's HTTP calls) take
  turns instead of waiting behind thousands of resumptions.

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
from collections import deque
from collections.abc import Callable
from typing import Any, TypeVar

from ..core.limits import current

R = TypeVar("R")

_Call = tuple["asyncio.Future[Any]", contextvars.Context, Callable[..., Any], tuple[Any, ...], dict[str, Any]]
_Answer = tuple["asyncio.Future[Any]", bool, Any]
"""A settled call: its future, whether it returned, and what it returned or raised."""


class Turn:
    """The calls one event loop made within one turn: judged on the scoring thread as one job, their answers
    handed back to the loop a slice per callback."""

    def __init__(self, loop: asyncio.AbstractEventLoop, slice_size: int) -> None:
        self.loop = loop
        self.slice_size = max(1, int(slice_size))
        self.calls: list[_Call] = []
        self.sent = False
        self._answers: deque[_Answer] = deque()
        self._lock = threading.Lock()
        self._waking = False  # a drain is scheduled on the loop (set and cleared under the lock)

    def send(self) -> None:
        """On the loop, the turn after the first call: no more calls join; the job goes to the scoring thread."""
        self.sent = True
        if getattr(_collecting, "turn", None) is self:
            _collecting.turn = None
        scoring_thread().submit(self)

    def run(self) -> None:
        """On the scoring thread: every call in order, each answer queued for the loop as soon as it is known."""
        calls, self.calls = self.calls, []
        for future, context, function, args, kwargs in calls:
            if future.cancelled():  # nobody waits for it (a read of the flag; the loop settles nothing cancelled)
                continue
            try:
                answer: _Answer = (future, True, context.run(function, *args, **kwargs))
            except BaseException as error:  # noqa: BLE001  (handed to the awaiting coroutine, raised there)
                answer = (future, False, error)
            self._queue(answer)

    def _queue(self, answer: _Answer) -> None:
        with self._lock:
            self._answers.append(answer)
            if self._waking:
                return
            self._waking = True
        try:
            self.loop.call_soon_threadsafe(self.drain)
        except RuntimeError:  # the loop was closed meanwhile: no one is waiting for the answers
            pass

    def drain(self) -> None:
        """On the loop: settle one slice of the queued answers, and come back next turn for the rest."""
        with self._lock:
            count = min(self.slice_size, len(self._answers))
            ready = [self._answers.popleft() for _ in range(count)]
            more = bool(self._answers)
            self._waking = more
        for future, returned, value in ready:
            _settle(future, returned, value)
        if more:
            self.loop.call_soon(self.drain)


def _settle(future: asyncio.Future[Any], returned: bool, value: Any) -> None:
    if future.cancelled():
        return
    if returned:
        future.set_result(value)
    elif isinstance(value, StopIteration):  # asyncio refuses to raise it through a coroutine
        future.set_exception(RuntimeError(f"the scoring call raised StopIteration: {value!r}"))
    else:
        future.set_exception(value)


class ScoringThread:
    """One daemon thread judging jobs (:class:`Turn`) in the order they come, from any event loop of the process.

    A call costs its loop a future, a context copy and a list append; a turn's job costs it one callback and one
    put on a C queue, and its answers one ``call_soon_threadsafe`` per burst: far less loop time than a
    ``concurrent.futures`` pool's submit, which matters when a trainer gathers thousands of rewards at once."""

    def __init__(self) -> None:
        self.jobs: queue.SimpleQueue[Turn] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._serve, name="progexec-reward", daemon=True)
        self.thread.start()

    def submit(self, job: Turn) -> None:
        self.jobs.put(job)

    def _serve(self) -> None:
        while True:
            self.jobs.get().run()


_lock = threading.Lock()
_worker: ScoringThread | None = None
_owner = os.getpid()
_collecting = threading.local()
"""``turn``: the :class:`Turn` collecting this thread's running loop's calls, until it is sent."""


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
    """In a forked child: the parent's thread and lock are copies of another process's (the thread is gone), and
    a turn being collected belongs to the parent's loop."""
    global _worker, _lock, _collecting
    _worker = None
    _lock = threading.Lock()
    _collecting = threading.local()


os.register_at_fork(after_in_child=_forget_after_fork)


def submit(function: Callable[..., R], /, *args: Any, **kwargs: Any) -> asyncio.Future[R]:
    """Queue ``function(*args, **kwargs)`` for the scoring thread, in the caller's context, and return the future
    it will settle on the running loop (call it from a coroutine; await the future)."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[R] = loop.create_future()
    turn: Turn | None = getattr(_collecting, "turn", None)
    if turn is None or turn.sent or turn.loop is not loop:
        turn = Turn(loop, current().async_answers_per_slice)
        _collecting.turn = turn
        loop.call_soon(turn.send)
    turn.calls.append((future, contextvars.copy_context(), function, args, kwargs))
    return future


async def offloaded(function: Callable[..., R], /, *args: Any, **kwargs: Any) -> R:
    """``function(*args, **kwargs)`` run on the scoring thread, in the caller's context; the running loop is free
    meanwhile. What it returns is returned and what it raises is raised."""
    return await submit(function, *args, **kwargs)
