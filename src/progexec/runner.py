"""The one runner: ``execute(item, limits) -> Execution`` for every dialect, every command, every thread.

An Item (from :mod:`progexec.readers`) goes in; an :class:`~progexec.interp.run.Execution` comes out,
carrying the contract's outcome, the official evaluator's verdict and the gold match under the one,
official, definition (:func:`gold_match`). Work is bounded by the sizes in
:class:`~progexec.limits.Limits`; the item's wall clock is only a backstop, and an item it stops
(or that runs out of stack or memory) is a ``limit_exceeded`` Execution naming the bound. It
never raises for a bad item. Everything an item may need is imported and built by
:func:`prepare` before the first clock starts, so a loaded machine cannot cut an import short.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import NamedTuple, TypeVar

from .core.execution import gold_match, Execution
from .core.arithmetic import RefusalCause
from .interp.compiled import Compiled, fast_outcome, fast_verdict
from .core.outcome import Outcome
from .core.verdict import INVALID, OfficialVerdict
from .interp.run import execute_text, execute_tokens
from .core.status import Status
from .core.dataset import Dataset
from .core.item import Item
from .core.table import Table
from .core.registry import default_dataset
from .core.limits import ItemTimeLimitExceeded, Limits, run_with_deadline, using

T = TypeVar("T")

_PREPARED: set[str] = set()
_PREPARE_LOCK = threading.Lock()


def prepare() -> None:
    """Build the one-time caches (the LALR parsers) and import what items may need, once per process.
    Thread-safe and idempotent. (Program equivalence's sympy is prepared by
    :func:`progexec.score.equivalence.prepare_symbolic`.) The first call ends with ``gc.freeze()``: the objects
    alive then (the imported modules, the parsers; tens of thousands) leave the cyclic collector's sight, so a
    full collection triggered by a batch's allocations scans the batch, not the interpreter (on a cold pass over
    FinQA test + dev it was 40 % of the time).
    """
    if "core" in _PREPARED:  # the hot case: every item calls this
        return
    with _PREPARE_LOCK:
        if "core" not in _PREPARED:
            from .grammar.mathqa_parse import parse_linear
            from .oracle import reference  # noqa: F401  (mpmath: the report's oracle)

            for text in ("add(a (b), 1)", "add(1, 2)", "1"):  # the LALR parser; the fast path's regular expressions
                execute_text(text, None, default_dataset())
            try:
                parse_linear("add(n0,n1)")
            except ValueError:
                pass
            gc.freeze()
            _PREPARED.add("core")


def bad_input_execution(item: Item) -> Execution:
    """The Execution of an item that cannot run (its ``error``, or no program): kept in its place."""
    outcome: Outcome[float] = Outcome(Status.BAD_INPUT, message=item.error or "the item has no program")
    match, reason = gold_match(INVALID, item)
    return Execution(None, outcome, INVALID, item=item, match=match, reason=reason)


def execute_unbounded(item: Item, semantics: object = None) -> Execution:
    """Run one item without the clock (the size bounds still hold); callers add their own clock.
    ``semantics`` is handed to a dataset's own ``run`` (MathQA: whose numerics run, progexec's or google/trax's)."""
    dialect = item.dialect
    if dialect.run is not None:
        ran: Execution = dialect.run(item, semantics)
        return ran
    if item.error is not None or item.program is None:
        return bad_input_execution(item)
    if isinstance(item.program, str):
        run = execute_text(item.program, item.table, dialect)
    else:
        run = execute_tokens(item.program, item.table, dialect)
    match, reason = gold_match(run.official, item)
    return Execution(run.program, run.outcome, run.official, run.error, item, match, reason)


def limit_exceeded(item: Item, message: str, clock: bool = False) -> Execution:
    """The Execution of an item stopped by a bound: no value, officially invalid, kept in its place.
    ``clock``: the wall-clock backstop stopped it (the outcome's cause is then ``RefusalCause.CLOCK``)."""
    outcome: Outcome[float] = Outcome(Status.LIMIT_EXCEEDED, message=message,
                                      cause=RefusalCause.CLOCK if clock else None)
    match, reason = gold_match(INVALID, item)
    return Execution(None, outcome, INVALID, item=item, match=match, reason=reason)


class Stop(NamedTuple):
    """Why an item's work was stopped: the message names the bound; ``clock`` when the wall clock did it."""

    message: str
    clock: bool = False


def bounded(item: Item, work: Callable[[], T], stopped: Callable[[Stop], T], limits: Limits | None = None) -> T:
    """Run ``work`` for ``item`` under ``limits`` and its wall-clock backstop; ``stopped(Stop)`` when
    the clock, the stack or memory runs out (the message names the bound)."""
    if limits is None:  # the limits already in force: no context to install (the common, hot case)
        return _backstopped(work, stopped)
    with using(limits):
        return _backstopped(work, stopped)


def _backstopped(work: Callable[[], T], stopped: Callable[[Stop], T]) -> T:
    try:
        return run_with_deadline(work)
    except ItemTimeLimitExceeded as error:
        return stopped(Stop(str(error), clock=True))
    except RecursionError:
        return stopped(Stop("the item is nested too deeply to execute (the interpreter's stack)"))
    except MemoryError:
        return stopped(Stop("the item needs more memory than is available"))


def stopped_by_clock(execution: Execution) -> bool:
    """True when the item's wall-clock backstop, not a counted bound, stopped it: its figures then depend on
    the machine, and every run that has one says so and fails."""
    return execution.outcome.cause is RefusalCause.CLOCK


class CompiledRun(NamedTuple):
    """What :func:`execute`'s first step gives a program the compiled path takes: its compiled form (the
    Execution's lazy program), the Outcome and the official verdict."""

    compiled: Compiled
    outcome: Outcome[float]
    verdict: OfficialVerdict


def compiled_run(program: str | Sequence[str], table: Table | None, dataset: Dataset,
                 limits: Limits | None = None) -> CompiledRun | None:
    """:func:`execute`'s first step alone (the compiled path, under its clock): None where the general path
    must decide. A caller that needs only the verdict (a reward) gets the runner's, without the Execution."""
    prepare()
    found = _compiled_step(program, table, dataset, limits)
    return None if found is None else CompiledRun(*found)


def _compiled_step(program: str | Sequence[str], table: Table | None, dataset: Dataset, limits: Limits | None,
                   ) -> tuple[Compiled, Outcome[float], OfficialVerdict] | None:
    """The compiled path's program, Outcome and verdict (a plain tuple: this is every item's hot path), or None."""
    found = fast_outcome(program, table, dataset, limits, clock=True)
    if found is None:
        return None
    verdict = fast_verdict(*found)
    return None if verdict is None else (found[0], found[1], verdict)


def execute(item: Item, limits: Limits | None = None, semantics: object = None) -> Execution:
    """Run one item under ``limits`` (default: those in force); never raises for a bad item."""
    prepare()
    if item.error is None and item.program is not None:
        found = _compiled_step(item.program, item.table, item.dialect, limits)
        if found is not None:
            compiled, outcome, verdict = found
            match, reason = gold_match(verdict, item)
            return Execution.lazy(compiled, outcome, verdict, item, match, reason)
    return bounded(item, lambda: execute_unbounded(item, semantics),
                   lambda stop: limit_exceeded(item, stop.message, stop.clock), limits)


def execute_all(items: Iterable[Item], limits: Limits | None = None,
                semantics: object = None) -> Iterator[Execution]:
    """Execute items lazily, in input order, one Execution each."""
    prepare()
    for item in items:
        yield execute(item, limits, semantics)


__all__ = ["CompiledRun", "compiled_run", "prepare", "gold_match", "bad_input_execution", "execute", "execute_all", "execute_unbounded", "bounded", "limit_exceeded", "Stop", "stopped_by_clock"]
