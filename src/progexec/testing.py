"""Helpers for other projects' test suites: prove your rounder against CPython ``round``.

    from progexec.testing import assert_rounder_matches

    def test_my_port_rounds_like_finqa():
        assert_rounder_matches(my_round)          # 100,000 cases, ndigits 5 plus 0-15

The same deterministic suite as ``progexec check-rounder``; a failure lists the divergences by
class and family and the first counterexamples, in the assertion message.
"""

from __future__ import annotations

from collections.abc import Callable

from .checker.cases import DEFAULT_CASES, DigitsPlan
from .checker.check import CheckReport, python_answerer, run_check
from .checker.output import as_text

__all__ = ["assert_rounder_matches", "check_rounder"]


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
