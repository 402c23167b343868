"""Every bound progexec puts on its work, in one place: read them, change them, and run one batch
item under a wall-clock limit.

The limits themselves live next to the code they protect (``MAX_STEPS`` in the interpreter,
``MAX_EXACT_BITS`` in the exact oracle, ...), which reads them at call time; this module names
them (:data:`LIMITS`), lets a command line or a caller set them (:func:`set_limit`, the
``--limit NAME=VALUE`` option of ``exec`` and ``report``), and provides :func:`run_with_time_limit`,
which batch commands wrap around each item so that no single item can stall a run.

The time limit uses ``signal.setitimer(ITIMER_REAL)`` and so works in the main thread of a
POSIX process; elsewhere the item simply runs without a clock (the size limits still hold).
A signal is only seen between Python bytecodes: the size limits are what keep any single C-level
operation (a big-integer multiplication, a regex match) short; the clock is the backstop.
"""

from __future__ import annotations

import importlib
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")

ITEM_TIME_LIMIT = 1.0
"""Wall-clock seconds one batch item may take (parse, execute, and in ``report`` the oracle); 0 disables."""


@dataclass(frozen=True, slots=True)
class Limit:
    """One configurable bound: where it lives, its type, and what it protects."""

    name: str
    module: str
    attribute: str
    kind: type
    doc: str


LIMITS: dict[str, Limit] = {limit.name: limit for limit in (
    Limit("item_time_limit", "progexec.limits", "ITEM_TIME_LIMIT", float,
          "wall-clock seconds per batch item (exec, report); 0 = no clock"),
    Limit("max_program_chars", "progexec.grammar.parse", "MAX_PROGRAM_CHARS", int,
          "longest program text parsed; longer text is refused before parsing"),
    Limit("max_steps", "progexec.interp.evaluate", "MAX_STEPS", int,
          "most steps one program may have"),
    Limit("max_literal_chars", "progexec.interp.evaluate", "MAX_LITERAL_CHARS", int,
          "longest literal or table cell read as a number"),
    Limit("max_line_chars", "progexec.inputs", "MAX_LINE_CHARS", int,
          "longest JSON Lines line; a longer line becomes a bad_input item"),
    Limit("max_exact_bits", "progexec.oracle.exact", "MAX_EXACT_BITS", int,
          "largest numerator/denominator (bits) the exact oracle holds; beyond it, intervals"),
    Limit("max_exact_work", "progexec.oracle.exact", "MAX_EXACT_WORK", int,
          "exact-oracle work budget per run (sum of squared result sizes in bits); beyond it, intervals"),
    Limit("max_root_degree", "progexec.oracle.exact", "MAX_ROOT_DEGREE", int,
          "largest root degree tried for an exact rational power"),
    Limit("max_interval_exponent", "progexec.oracle.interval", "MAX_EXPONENT", int,
          "largest |integer exponent| taken to an interval power; beyond it, undecided"),
    Limit("interval_precisions", "progexec.oracle.interval", "PRECISIONS", tuple,
          "interval precisions (bits) tried in turn; the last is the most the oracle spends"),
)}
"""Every limit by its public name."""


class LimitError(ValueError):
    """An unknown limit name or a value of the wrong kind."""


def get_limit(name: str) -> Any:
    """The current value of a named limit."""
    limit = _lookup(name)
    return getattr(importlib.import_module(limit.module), limit.attribute)


def set_limit(name: str, value: Any) -> Any:
    """Set a named limit (process-wide) and return its previous value."""
    limit = _lookup(name)
    module = importlib.import_module(limit.module)
    previous = getattr(module, limit.attribute)
    setattr(module, limit.attribute, value)
    return previous


def parse_assignment(text: str) -> tuple[str, Any]:
    """``NAME=VALUE`` (as given to ``--limit``) -> (name, typed value); raise LimitError when malformed."""
    name, equals, raw = text.partition("=")
    name = name.strip().replace("-", "_")
    if not equals:
        raise LimitError(f"--limit expects NAME=VALUE, got {text!r}")
    limit = _lookup(name)
    try:
        if limit.kind is tuple:
            value: Any = tuple(int(part) for part in raw.split(",") if part.strip())
            if not value or any(bits < 53 for bits in value):
                raise ValueError("at least one precision of 53 bits or more")
        else:
            value = limit.kind(raw)
            if value < 0:
                raise ValueError("must not be negative")
    except ValueError as error:
        raise LimitError(f"bad value {raw!r} for limit {name}: {error}") from None
    return name, value


def _lookup(name: str) -> Limit:
    try:
        return LIMITS[name]
    except KeyError:
        raise LimitError(f"unknown limit {name!r}; known limits: {', '.join(sorted(LIMITS))}") from None


class ItemTimeLimitExceeded(BaseException):
    """Raised inside an item's work when its wall-clock limit expires.

    A BaseException, like KeyboardInterrupt: the official evaluator's model and the libraries we
    call catch ``Exception`` broadly, and a swallowed one-shot alarm would leave the item unbounded.
    """

    def __init__(self, seconds: float) -> None:
        super().__init__(f"the item took longer than the per-item time limit of {seconds:g} s")
        self.seconds = seconds


def _clock_available() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


def run_with_time_limit(work: Callable[[], T], seconds: float | None = None) -> T:
    """Run ``work()``; raise :class:`ItemTimeLimitExceeded` if it takes longer than ``seconds``.

    ``seconds`` defaults to :data:`ITEM_TIME_LIMIT` (read at call time); 0 or no usable clock
    (not the main thread, no ``setitimer``) runs ``work`` without a limit. The previous SIGALRM
    handler and timer are restored afterwards, so calls may nest and other users of the clock survive.
    """
    limit = ITEM_TIME_LIMIT if seconds is None else seconds
    if not limit or limit <= 0 or not _clock_available():
        return work()

    active = [True]  # the handler raises only while work() runs, never during the clean-up below

    def expire(signum: int, frame: Any) -> None:
        if active[0]:
            raise ItemTimeLimitExceeded(limit)

    previous_handler = signal.signal(signal.SIGALRM, expire)
    previous_delay, previous_interval = signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        result = work()
        active[0] = False
        return result
    finally:
        active[0] = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous_handler)
        if previous_delay:
            signal.setitimer(signal.ITIMER_REAL, previous_delay, previous_interval)




def apply_limit_options(assignments: list[str] | None) -> None:
    """Apply ``--limit NAME=VALUE`` options (raise LimitError on a bad one; nothing is applied then)."""
    parsed = [parse_assignment(text) for text in assignments or []]
    for name, value in parsed:
        set_limit(name, value)


def limit_help() -> str:
    """The ``--limit`` help text: every name (values are in docs/robustness.md; no module is imported here)."""
    return ("set a limit, e.g. item_time_limit=2 or max_steps=500 (repeatable; see docs/robustness.md): "
            + ", ".join(sorted(LIMITS)))


__all__ = ["ITEM_TIME_LIMIT", "LIMITS", "Limit", "LimitError", "ItemTimeLimitExceeded", "get_limit", "set_limit",
           "parse_assignment", "run_with_time_limit", "apply_limit_options", "limit_help"]
