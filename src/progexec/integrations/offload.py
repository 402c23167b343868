"""The async rewards' worker: one thread pool per process, so a trainer's event loop never waits on a score.

An ``async`` reward awaits :func:`offloaded`, which runs the scoring call on this pool and gives the
loop back at once. The pool is made on first use (nothing bound to an event loop exists at import, so
any loop in any thread, or a Ray actor's, can await it), is shared by every loop of the process, and is
forgotten in a forked child (its threads do not exist there; the child makes its own). The caller's
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
import functools
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

R = TypeVar("R")

OFFLOAD_THREADS = 1
# bound: OFFLOAD_THREADS = 1 — scoring threads per process (the GIL makes more of them no faster)

_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None
_owner = os.getpid()


def shared_pool() -> ThreadPoolExecutor:
    """This process's scoring pool, made on first use (again in a forked child)."""
    global _pool, _owner
    pool = _pool
    if pool is not None and _owner == os.getpid():
        return pool
    with _lock:
        if _pool is None or _owner != os.getpid():
            _pool = ThreadPoolExecutor(max_workers=OFFLOAD_THREADS, thread_name_prefix="progexec-reward")
            _owner = os.getpid()
        return _pool


def _forget_after_fork() -> None:
    """In a forked child: the parent's pool and lock are copies of another process's (its threads are gone)."""
    global _pool, _lock
    _pool = None
    _lock = threading.Lock()


os.register_at_fork(after_in_child=_forget_after_fork)


async def offloaded(function: Callable[..., R], /, *args: Any, **kwargs: Any) -> R:
    """``function(*args, **kwargs)`` run on the shared pool, in the caller's context; the running loop is free
    meanwhile. What it returns is returned and what it raises is raised."""
    call = functools.partial(contextvars.copy_context().run, function, *args, **kwargs)
    return await asyncio.get_running_loop().run_in_executor(shared_pool(), call)
