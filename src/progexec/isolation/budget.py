"""A caller's budget for sandboxed work: a deadline carried in a context variable, so ``progexec serve`` can bound
one request's solutions without knowing which dataset runs them (the dataset's pool reads :func:`deadline`)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_DEADLINE: ContextVar[float | None] = ContextVar("progexec_solution_deadline", default=None)


@contextmanager
def request_budget(seconds: float) -> Iterator[None]:
    """Within the block, a solution not yet started ``seconds`` after entering it is ``time_limit`` without running
    (``progexec serve``'s per-request budget, ``serve_solution_request_seconds``); 0 = no budget."""
    token = _DEADLINE.set(time.monotonic() + seconds if seconds > 0 else None)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def deadline() -> float | None:
    """The ``time.monotonic()`` by which the current request's solutions must have started, or None."""
    return _DEADLINE.get()


__all__ = ["deadline", "request_budget"]
