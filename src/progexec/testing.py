"""Helpers for other projects' test suites: prove a rounder, or a whole evaluator port, in pytest.

    from progexec.testing import assert_evaluator_matches, assert_rounder_matches

    def test_my_port_rounds_like_finqa():
        assert_rounder_matches(my_round)          # 100,000 cases, ndigits 5 plus 0-15

    def test_my_evaluator_port():
        assert_evaluator_matches(my_eval_program, cases=5000)   # or "node port.js" / ["./port"]

The same deterministic suites as ``progexec check-rounder`` and ``check-evaluator``; a failure
lists the divergences by class and family and the simplest counterexamples in the message.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Sequence
from typing import Any, Optional, Union

from .checker.cases import DEFAULT_CASES, DigitsPlan
from .checker.check import CheckReport, python_answerer, run_check
from .checker.evaluator.check import ChildEvaluator, EvalReport, callable_answerer, run_evaluator_check
from .checker.evaluator.output import as_text as evaluator_text
from .checker.evaluator.protocol import Protocol
from .checker.output import as_text

__all__ = ["assert_evaluator_matches", "assert_rounder_matches", "check_evaluator", "check_rounder"]


def check_rounder(rounder: Callable[[float, int], object], *, cases: int = DEFAULT_CASES, seed: int = 0,
                  digits: str | int | None = None, nonfinite: bool = False) -> CheckReport:
    """Run the suite through ``rounder(x, ndigits)`` and return the report (never raises for a divergence).

    ``digits``: None for the default plan (5, plus 0-15 in ``other_ndigits``), an int, or the
    ``--digits`` syntax (``"0-15"``, ``"2,5"``).
    """
    plan = DigitsPlan.parse(None if digits is None else str(digits))
    name = getattr(rounder, "__qualname__", repr(rounder))
    return run_check(python_answerer(rounder), name, cases, seed, plan, nonfinite=nonfinite)


def assert_rounder_matches(rounder: Callable[[float, int], object], *, cases: int = DEFAULT_CASES, seed: int = 0,
                           digits: str | int | None = None, nonfinite: bool = False,
                           allow_sign_of_zero: bool = False, examples: int = 10) -> CheckReport:
    """Fail (``AssertionError``) unless ``rounder`` equals CPython ``round`` bit for bit on the whole suite.

    Returns the report when it passes. ``allow_sign_of_zero`` tolerates zeros with the wrong sign
    (equal as numbers, so FinQA's ``==`` scoring cannot tell).
    """
    __tracebackhide__ = True  # pytest: show the caller's line, not this one
    report = check_rounder(rounder, cases=cases, seed=seed, digits=digits, nonfinite=nonfinite)
    if not report.passed(allow_sign_of_zero):
        raise AssertionError("rounder differs from CPython round\n" + as_text(report, allow_sign_of_zero, examples))
    return report


Port = Union[Callable[..., Any], str, Sequence[str]]
"""A callable ``f(program, table, dialect) -> (valid, value)`` (flat: ``f(ops, ..., n_steps)``), or a command."""


def check_evaluator(port: Port, *, protocol: str = "jsonl", suite: str = "all", cases: Optional[int] = None,
                    seed: int = 0, timeout: float = 20.0) -> EvalReport:
    """Run the check-evaluator suite through ``port`` and return the report (never raises for a divergence).

    A callable runs in this process (trusted code); a command (a string split like a shell, or an
    argv list) runs as a leashed child process, exactly as ``check-evaluator --cmd``.
    """
    kind = Protocol(protocol)
    if callable(port):
        name = getattr(port, "__qualname__", repr(port))
        return run_evaluator_check(callable_answerer(port, kind), name, kind, suite, cases, seed)
    argv = shlex.split(port) if isinstance(port, str) else list(port)
    child = ChildEvaluator(argv, kind, timeout=timeout)
    child.start()
    try:
        report = run_evaluator_check(child, " ".join(argv), kind, suite, cases, seed)
    finally:
        child.close()
    report.faults = child.faults()
    report.notes = child.engine.notes + report.notes
    return report


def assert_evaluator_matches(port: Port, *, protocol: str = "jsonl", suite: str = "all",
                             cases: Optional[int] = None, seed: int = 0, strict: bool = False,
                             timeout: float = 20.0) -> EvalReport:
    """Fail (``AssertionError``) unless ``port`` gives the official answer on every case of the suite.

    Lesser classes (a 1-ulp libm ``pow``, a zero's sign, a port that does not flush) fail only
    with ``strict``. Returns the report when it passes.
    """
    __tracebackhide__ = True
    report = check_evaluator(port, protocol=protocol, suite=suite, cases=cases, seed=seed, timeout=timeout)
    if not report.passed(strict):
        raise AssertionError("evaluator differs from the official answers\n" + evaluator_text(report, strict))
    return report
