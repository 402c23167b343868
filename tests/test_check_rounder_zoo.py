"""A zoo of subtly wrong rounders, each wrong on one family only: the default suite catches every one.

Each rounder is CPython ``round`` except on one narrow family of inputs, so a suite that missed
that family would pass it. The expected class is reasoned from how the rounder is broken.
Also run through ``--cmd`` for two of them, so the external path catches the same things.
"""

from __future__ import annotations

import math
import sys
import textwrap
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction
from pathlib import Path

import pytest

from progexec.checker import Divergence
from progexec.checker.check import python_answerer, run_check
from progexec.checker.external import ExternalRounder

CASES = 30_000


def _naive(x: float, n: int) -> float:
    p = x * 10.0 ** n
    return p / 10.0 ** n if not math.isfinite(p) else math.copysign(float(round(p)), p) / 10.0 ** n


def _is_tie(x: float, n: int) -> bool:
    return (Fraction(x) * 10 ** n).denominator == 2


def ties_away_for_negatives(x: float, n: int) -> float:
    if x < 0 and _is_tie(x, n):
        with localcontext() as context:
            context.prec = 60
            return float(Decimal(x).quantize(Decimal(1).scaleb(-n), rounding=ROUND_HALF_UP))
    return round(x, n)


def unsigned_zero_for_subnormals(x: float, n: int) -> float:
    return 0.0 if 0.0 < abs(x) < 2.2250738585072014e-308 else round(x, n)


def subnormals_unrounded(x: float, n: int) -> float:
    return x if 0.0 < abs(x) < 2.2250738585072014e-308 else round(x, n)


def naive_when_product_above_2_53(x: float, n: int) -> float:
    return _naive(x, n) if abs(x) * 10.0 ** n >= 2.0 ** 53 else round(x, n)


def truncates_between_1e15_and_2_52(x: float, n: int) -> float:
    return float(int(x)) if 1e15 <= abs(x) < 2.0 ** 52 else round(x, n)


def naive_at_ndigits_9(x: float, n: int) -> float:
    return _naive(x, 9) if n == 9 else round(x, n)


def half_up_at_ndigits_0(x: float, n: int) -> float:
    return float(math.floor(x + 0.5)) if n == 0 else round(x, n)


def overflows_near_max(x: float, n: int) -> float:
    return math.copysign(math.inf, x) if abs(x) > 1e300 else round(x, n)


def ties_to_odd_for_large_binary_ties(x: float, n: int) -> float:
    if abs(x) > 1e9 and _is_tie(x, n):
        k = math.floor(Fraction(x) * 10 ** n)
        k = k if k % 2 else k + 1
        return float(Fraction(k, 10 ** n))
    return round(x, n)


def decimal_of_repr(x: float, n: int) -> float:
    """Rounds the shortest repr (2.675 -> 2.68), a classic port bug."""
    with localcontext() as context:
        context.prec = 800
        return float(Decimal(repr(x)).quantize(Decimal(1).scaleb(-n)))


def multiplies_by_inverse_scale(x: float, n: int) -> float:
    k = round(Fraction(x) * 10 ** n)
    return math.copysign(0.0, x) if k == 0 else k * (1.0 / 10 ** n)


def positive_zero_for_minus_zero(x: float, n: int) -> float:
    return round(abs(x), n) * (1.0 if x >= 0 else -1.0)  # -0.0 >= 0 is True: the sign is lost


ZOO: list[tuple[Callable[[float, int], float], set[str]]] = [
    (ties_away_for_negatives, {"tie_break"}),
    (unsigned_zero_for_subnormals, {"sign_of_zero"}),
    (subnormals_unrounded, {"unrounded"}),
    (naive_when_product_above_2_53, {"scale_artefact"}),
    (truncates_between_1e15_and_2_52, {"scale_artefact"}),
    (naive_at_ndigits_9, {"double_rounding"}),
    (half_up_at_ndigits_0, {"tie_break"}),
    (overflows_near_max, {"overflow"}),
    (ties_to_odd_for_large_binary_ties, {"tie_break"}),
    (decimal_of_repr, {"double_rounding"}),
    (multiplies_by_inverse_scale, {"wrong_double"}),
    (positive_zero_for_minus_zero, {"sign_of_zero"}),
]


@pytest.mark.parametrize("rounder, classes", ZOO, ids=[rounder.__name__ for rounder, _ in ZOO])
def test_subtle_wrong_rounder_is_caught(rounder: Callable[[float, int], float], classes: set[str]) -> None:
    report = run_check(python_answerer(rounder), rounder.__name__, cases=CASES)
    assert report.divergent > 0
    assert classes <= set(report.by_class), dict(report.by_class)


EXTERNAL = """
import math, sys
for line in sys.stdin:
    h, n = line.split()
    x, n = float.fromhex(h), int(n)
    if {condition}:
        r = {wrong}
    else:
        r = round(x, n)
    print(r.hex(), flush=True)
"""


@pytest.mark.parametrize("condition, wrong, kind", [
    ("n == 9 and abs(x) < 1e290", "math.floor(x * 1e9 + 0.5) / 1e9", Divergence.TIE_BREAK),
    ("x == 0.0", "0.0", Divergence.SIGN_OF_ZERO),
])
def test_subtle_external_program_is_caught(tmp_path: Path, condition: str, wrong: str, kind: Divergence) -> None:
    path = tmp_path / "zoo.py"
    path.write_text(textwrap.dedent(EXTERNAL.format(condition=condition, wrong=wrong)), encoding="utf-8")
    rounder = ExternalRounder([sys.executable, str(path)], timeout=20.0, chunk=2000)
    report = run_check(rounder, "zoo", cases=CASES)
    rounder.close()
    assert report.by_class[kind.value] > 0 and not rounder.notes
