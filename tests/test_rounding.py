"""The named rounders against Fraction (half-even of the exact binary value) and CPython ``round``.

Expected values come from ``fractions.Fraction``, from CPython ``round`` or from the seed's
table, never from the rounder under test.
"""

from __future__ import annotations

import math
import struct
from fractions import Fraction

import pytest
from hypothesis import example, given, strategies as st

from progexec.oracle.rounding import (
    EXACT_MAX_DIGITS, POW10, ROUNDERS, make_two_product_fma, round_exact, round_exact_dekker,
    round_half_up, round_naive, round_numpy, round_spec, two_product_dekker)


def fraction_round(x: float, ndigits: int) -> float:
    """The reference: the exact binary value of x, rounded half-even to ndigits, nearest double."""
    if math.isnan(x) or math.isinf(x) or x == 0.0:
        return x
    n = round(Fraction(x) * 10 ** ndigits)  # Fraction.__round__ is half-even on the exact value
    if n == 0:
        return math.copysign(0.0, x)
    return float(Fraction(n, 10 ** ndigits))  # correctly rounded


def fraction_fma(a: float, b: float, c: float) -> float:
    """A correctly rounded fused multiply-add, so the fma path is tested on Python < 3.13."""
    return float(Fraction(a) * Fraction(b) + Fraction(c))


round_exact_fma = make_two_product_fma(fraction_fma)


def bits(x: float) -> bytes:
    return struct.pack("<d", x)


def same(a: float, b: float) -> bool:
    """Bit for bit, sign of zero included; any nan equals any nan."""
    return (math.isnan(a) and math.isnan(b)) or bits(a) == bits(b)


def from_bits(i: int) -> float:
    return float(struct.unpack("<d", struct.pack("<q", i))[0])


def to_bits(x: float) -> int:
    return int(struct.unpack("<q", struct.pack("<d", x))[0])


EXACT_VARIANTS = {
    "default": round_exact,
    "dekker": round_exact_dekker,
    "fma": lambda x, n: round_exact(x, n, round_exact_fma),
}

# The seed's table: raw value, naive port, gold exe_ans (all at 5 places).
SEED_DOUBLE_ROUNDING = [
    ("HII/2011/page_100.pdf-3", 3.268485, 3.26848, 3.26849),
    ("RE/2010/page_42.pdf-4", 1.276875, 1.27688, 1.27687),
    ("CAT/2017/page_69.pdf-2", -0.771875, -0.77188, -0.77187),
    ("IP/2012/page_84.pdf-2", 0.115625, 0.11562, 0.11563),
    ("ETR/2017/page_143.pdf-2", 0.128525, 0.12852, 0.12853),
    ("HIG/2011/page_53.pdf-1", 0.178125, 0.17812, 0.17813),
]

SEED_TIES = [  # (x, ndigits, expected) from the seed's roundexact section
    (0.125, 2, 0.12), (-0.125, 2, -0.12), (1.5, 0, 2.0), (2.5, 0, 2.0), (2.675, 2, 2.67),
]


@pytest.mark.parametrize("name, raw, naive, gold", SEED_DOUBLE_ROUNDING)
def test_seed_double_rounding_values(name: str, raw: float, naive: float, gold: float) -> None:
    assert round_spec(raw, 5) == gold
    assert round_naive(raw, 5) == naive
    for variant in EXACT_VARIANTS.values():
        assert variant(raw, 5) == gold, name
    if round_numpy is not None:  # numpy documents the same scale-round-unscale shape
        assert round_numpy(raw, 5) == naive


@pytest.mark.parametrize("x, ndigits, expected", SEED_TIES)
@pytest.mark.parametrize("variant", sorted(EXACT_VARIANTS))
def test_seed_ties(variant: str, x: float, ndigits: int, expected: float) -> None:
    assert same(EXACT_VARIANTS[variant](x, ndigits), expected)
    assert same(round_spec(x, ndigits), expected)


def test_half_up_ties_toward_plus_infinity() -> None:
    assert round_half_up(2.5, 0) == 3.0 and round_half_up(-2.5, 0) == -2.0
    assert round_half_up(0.125, 2) == 0.13 and round(0.125, 2) == 0.12


@pytest.mark.parametrize("x", [0.0, -0.0, math.inf, -math.inf, 1e-320, -1e-320, 2.0 ** 52, -(2.0 ** 60),
                               1.7976931348623157e308, -5e-324, 0.000004, -0.000004, 0.000005, -0.000005,
                               0.0000050000000000000001, -0.49999999999999994, 0.5, -0.5, 1.5])
@pytest.mark.parametrize("ndigits", [0, 1, 5, 15, 22])
def test_exact_special_values(x: float, ndigits: int) -> None:
    expected = round(x, ndigits)
    assert same(expected, fraction_round(x, ndigits))
    for variant in EXACT_VARIANTS.values():
        assert same(variant(x, ndigits), expected)


def test_exact_nan_and_range() -> None:
    assert math.isnan(round_exact(math.nan, 5))
    with pytest.raises(ValueError):
        round_exact(1.5, -1)
    with pytest.raises(ValueError):
        round_exact(1.5, EXACT_MAX_DIGITS + 1)


def test_scale_table_is_exact() -> None:
    for k, scale in enumerate(POW10):
        assert Fraction(scale) == 10 ** k


def test_two_product_dekker_is_error_free() -> None:
    for a in (3.268485, 0.1, -1e15 / 3, 123456789.123):
        for b in POW10:
            p, e = two_product_dekker(a, b)
            assert Fraction(p) + Fraction(e) == Fraction(a) * Fraction(b)


def test_registry_names() -> None:
    assert {"spec", "exact", "naive", "half_up"} <= set(ROUNDERS)
    assert ("numpy" in ROUNDERS) == (round_numpy is not None)


# Generated boundary cases -------------------------------------------------------------------

ndigits_st = st.integers(min_value=0, max_value=EXACT_MAX_DIGITS)


@st.composite
def near_decimal_tie(draw: st.DrawFn) -> tuple[float, int]:
    """The float nearest (k + 1/2) * 10**-n, moved a few ulps, with either sign."""
    n = draw(ndigits_st)
    k = draw(st.integers(min_value=0, max_value=10 ** draw(st.integers(1, 18))))
    x = float(Fraction(2 * k + 1, 2 * 10 ** n))
    x = from_bits(to_bits(x) + draw(st.integers(-4, 4))) if x > 0 else x
    return (-x if draw(st.booleans()) else x), n


@st.composite
def binary_tie(draw: st.DrawFn) -> tuple[float, int]:
    """x = m / 2**(n+1), m odd: x * 10**n is exactly a half-integer (a real tie)."""
    n = draw(st.integers(0, 15))
    m = 2 * draw(st.integers(0, 2 ** draw(st.integers(1, 52)))) + 1
    x = m / 2.0 ** (n + 1)
    return (-x if draw(st.booleans()) else x), n


@st.composite
def large_magnitude(draw: st.DrawFn) -> tuple[float, int]:
    """|x| near 2**53 / 10**n and above: the grid of x * 10**n is coarser than 1."""
    n = draw(ndigits_st)
    low = to_bits(2.0 ** 48 / 10 ** n)
    x = from_bits(draw(st.integers(low, to_bits(2.0 ** 53))))
    return (-x if draw(st.booleans()) else x), n


any_case = st.one_of(
    near_decimal_tie(), binary_tie(), large_magnitude(),
    st.tuples(st.floats(allow_nan=False), ndigits_st),
)


@given(any_case)
@example((3.268485, 5))
@example((0.015625, 5))
@example((-0.015625, 5))
@example((2.675, 2))
@example((5e-324, 22))
@example((9.5e10 + 0.5, 5))
def test_exact_equals_fraction_oracle(case: tuple[float, int]) -> None:
    x, n = case
    expected = fraction_round(x, n)
    assert same(round(x, n), expected)  # CPython round is itself the Fraction answer
    for name, variant in EXACT_VARIANTS.items():
        assert same(variant(x, n), expected), name


def test_exact_bulk_deterministic_sweep() -> None:
    """20,000 structured boundary cases over every ndigits, zero differences with Fraction."""
    import random
    rng = random.Random(20261130)
    for _ in range(20_000):
        n = rng.randrange(0, EXACT_MAX_DIGITS + 1)
        k = rng.randrange(0, 10 ** rng.randrange(1, 18))
        x = float(f"{10 * k + 5}e-{n + 1}")
        x = from_bits(to_bits(x) + rng.randrange(-3, 4)) * rng.choice((1.0, -1.0))
        expected = fraction_round(x, n)
        assert same(round_exact_dekker(x, n), expected), (x.hex(), n)
        assert same(round_exact(x, n, round_exact_fma), expected), (x.hex(), n)


def test_exact_over_the_corpus_final_values() -> None:
    """Every FinQA gold program's unrounded final value, at 5 places and mirrored: zero differences."""
    from progexec.checker.cases import corpus_values

    values = corpus_values()
    assert len(values) > 5000
    for x in values:
        for value in (x, -x):
            expected = fraction_round(value, 5)
            assert same(round_exact_dekker(value, 5), expected), value.hex()
            assert same(round_exact(value, 5, round_exact_fma), expected), value.hex()
