"""The checker against Python rounders: correct ones pass, wrong ones are caught with the right class.

Expected verdicts come from CPython ``round``, ``Fraction`` and the seed's table; the rounders
under test are written here, independently of progexec's own rounders where it matters.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction

import pytest

from progexec.checker import DigitsPlan, Divergence, Family, python_answerer, run_check
from progexec.checker.cases import SEED_CASES, corpus_values, iter_blocks
from progexec.checker.divergence import Failure, classify
from progexec.oracle.rounding import round_exact, round_half_up, round_naive
from progexec.testing import assert_rounder_matches, check_rounder

SMALL = 20_000


def fraction_round(x: float, n: int) -> float:
    if not math.isfinite(x) or x == 0.0:
        return x
    k = round(Fraction(x) * 10 ** n)
    return math.copysign(0.0, x) if k == 0 else float(Fraction(k, 10 ** n))


def fstring_round(x: float, n: int) -> float:
    return float(f"{x:.{n}f}")


def decimal_round(x: float, n: int, rounding: str = ROUND_HALF_EVEN) -> float:
    if not math.isfinite(x):
        return x
    with localcontext() as context:
        context.prec = 800  # enough digits for the largest floats at any ndigits the suite uses
        return float(Decimal(x).quantize(Decimal(1).scaleb(-n), rounding=rounding))


def decimal_default_context(x: float, n: int) -> float:
    """``Decimal.quantize`` at the default 28 digits, guarded where every double is an integer."""
    if not math.isfinite(x) or abs(x) >= 2.0 ** 52:
        return x
    return float(Decimal(x).quantize(Decimal(1).scaleb(-n), rounding=ROUND_HALF_EVEN))


def ties_away(x: float, n: int) -> float:
    return decimal_round(x, n, ROUND_HALF_UP)  # ROUND_HALF_UP in decimal is half away from zero


# The suite itself ----------------------------------------------------------------------------

def test_default_suite_is_large_deterministic_and_has_every_family() -> None:
    blocks = list(iter_blocks())
    assert sum(len(block) for block in blocks) == 100_000
    families = {family for block in blocks for family in block.families}
    assert families == set(Family) - {Family.NONFINITE, Family.SEARCH}
    assert all(math.isfinite(x) for block in blocks for x in block.xs)
    assert next(iter_blocks()).xs == blocks[0].xs  # no nan by default, so == is bitwise enough
    other = next(iter_blocks(seed=1))
    assert other.xs[-100:] != blocks[0].xs[-100:]


def test_suite_cases_count_and_seed_cases() -> None:
    block = next(iter_blocks(1000))
    assert len(block) == 1000
    pairs = set(zip(block.xs, block.ndigits))
    assert all((x, n) in pairs for x, n in SEED_CASES)
    assert all(math.isfinite(x) for x in block.xs)
    assert any(math.isnan(x) for x in next(iter_blocks(1000, nonfinite=True)).xs)


def test_suite_expected_values_are_the_fraction_oracle() -> None:
    block = next(iter_blocks(6000))
    for x, n, want in zip(block.xs, block.ndigits, block.expected):
        assert want == round(x, n)
        got = fraction_round(x, n)
        assert got.hex() == want.hex() or (got != got and want != want)


def test_binary_ties_are_real_ties() -> None:
    block = next(iter_blocks(20_000))
    ties = [(x, n) for x, n, f in zip(block.xs, block.ndigits, block.families) if f is Family.BINARY_TIE]
    assert len(ties) > 1000
    assert all((Fraction(x) * 10 ** n).denominator == 2 for x, n in ties)
    assert any(x < 0 for x, _ in ties) and any(abs(x) > 1e9 for x, _ in ties)


def test_corpus_family_holds_the_six_double_rounding_values() -> None:
    values = set(corpus_values())
    assert len(values) > 5000
    assert {3.268485, 1.276875, -0.771875, 0.115625, 0.128525, 0.178125} <= values
    in_suite = {x for block in iter_blocks() for x, f in zip(block.xs, block.families) if f is Family.CORPUS}
    assert values <= in_suite  # the default suite holds every corpus value as it is


def test_digits_plan_parse() -> None:
    assert DigitsPlan.parse("2").all == (2,)
    assert DigitsPlan.parse("0-3,7").all == (0, 1, 2, 3, 7)
    assert DigitsPlan.parse(None).all == tuple(range(16))
    for bad in ("x", "-2", "23", ""):
        with pytest.raises(ValueError):
            DigitsPlan.parse(bad)


# Classification of single cases (expected classes reasoned from the exact values) -------------

def test_classify_single_cases() -> None:
    assert classify(0.125, 2, 0.12, 0.13) is Divergence.TIE_BREAK
    assert classify(3.268485, 5, 3.26849, 3.26848) is Divergence.DOUBLE_ROUNDING
    assert classify(-0.001, 2, -0.0, 0.0) is Divergence.SIGN_OF_ZERO
    assert classify(1.25, 1, 1.2, Decimal("1.2")) is Divergence.NOT_FLOAT
    assert classify(1.25, 1, 1.2, 12) is Divergence.NOT_FLOAT
    assert classify(1.5, 0, 2.0, Failure(Divergence.EXCEPTION, "boom")) is Divergence.EXCEPTION
    assert classify(1e308, 1, 1e308, math.inf) is Divergence.OVERFLOW
    assert classify(1.23456789, 5, 1.23457, 1.23456789) is Divergence.UNROUNDED
    assert classify(1.23456789, 5, 1.23457, 123.457) is Divergence.WRONG_VALUE
    k = next(k for k in range(1, 10_000) if k * 1e-5 != k / 100000)
    assert classify(k / 100000, 5, k / 100000, k * 1e-5) is Divergence.WRONG_DOUBLE


# Correct rounders pass, with no false positive ----------------------------------------------

@pytest.mark.parametrize("rounder", [round, fstring_round, decimal_round, decimal_default_context, round_exact],
                         ids=["cpython_round", "fstring", "decimal_quantize", "decimal_28_digits", "exact"])
def test_correct_rounders_pass(rounder: object) -> None:
    report = assert_rounder_matches(rounder)  # type: ignore[arg-type]
    assert report.cases == 100_000 and report.divergent == 0


def test_correct_rounder_passes_at_other_digits_and_nonfinite() -> None:
    report = check_rounder(fstring_round, cases=SMALL, digits="0-15", nonfinite=True)
    assert report.divergent == 0 and report.by_family["nonfinite"][0] == 48


# Wrong rounders are caught, with the right classes ------------------------------------------

def test_catches_naive() -> None:
    report = check_rounder(round_naive)
    assert report.by_class[Divergence.DOUBLE_ROUNDING.value] > 0
    assert report.by_class[Divergence.OVERFLOW.value] > 0  # x * 1e5 overflows for the largest floats
    seed_failures = {(c.x, c.ndigits) for c in report.counterexamples if c.family is Family.SEED}
    assert {(3.268485, 5), (0.115625, 5), (2.675, 2)} <= seed_failures
    assert report.by_family["corpus"][1] >= 6  # the six real gold programs, among others


def test_catches_half_up() -> None:
    report = check_rounder(round_half_up, cases=SMALL)
    for kind in (Divergence.TIE_BREAK, Divergence.DOUBLE_ROUNDING, Divergence.SIGN_OF_ZERO):
        assert report.by_class[kind.value] > 0, kind
    assert any(c.x == 0.125 and c.got == 0.13 for c in report.counterexamples)


def test_catches_ties_away_only_as_tie_breaks() -> None:
    report = check_rounder(ties_away, cases=SMALL)
    assert report.divergent > 0 and set(report.by_class) == {Divergence.TIE_BREAK.value}


def test_exception_and_non_float_are_divergences() -> None:
    def raises_on_ties(x: float, n: int) -> float:
        if (Fraction(x) * 10 ** n).denominator == 2:
            raise RuntimeError("tie")
        return round(x, n)

    def returns_decimal(x: float, n: int) -> object:
        return Decimal(round(x, n))

    assert set(check_rounder(raises_on_ties, cases=SMALL).by_class) == {"exception"}
    assert set(check_rounder(returns_decimal, cases=SMALL).by_class) == {"not_float"}


def test_sign_of_zero_is_lesser_and_can_be_allowed() -> None:
    def unsigned_zero(x: float, n: int) -> float:
        return round(x, n) + 0.0  # -0.0 + 0.0 is +0.0

    report = check_rounder(unsigned_zero, cases=SMALL)
    assert set(report.by_class) == {"sign_of_zero"} and report.divergent_major == 0
    assert not report.passed() and report.passed(allow_sign_of_zero=True)
    with pytest.raises(AssertionError, match="sign_of_zero"):
        assert_rounder_matches(unsigned_zero, cases=SMALL)


def test_report_keeps_first_counterexample_of_each_class_and_family() -> None:
    report = run_check(python_answerer(round_half_up), "half_up", cases=SMALL, limit=3)
    assert {c.divergence.value for c in report.counterexamples} == set(report.by_class)
    assert {c.family.value for c in report.counterexamples} == {f for f, (_, d) in report.by_family.items() if d}
