"""The optional search mode: hypothesis looks for a counterexample and shrinks it to the simplest.

The suite finds *that* a rounder is wrong; the search says *how simply*: hypothesis draws cases
from strategies that build the suite's boundary families by construction (the float nearest a
decimal tie from an integer ``k``, a binary tie from an odd ``m``, any float), so shrinking ``k``,
``m`` and ``ndigits`` toward zero gives the shortest failing float (``0.125`` at 2 places rather
than ``2506546892.765625`` at 5). Needs hypothesis (the ``test`` extra).
"""

from __future__ import annotations

import math
import random
from typing import Any

from .cases import DigitsPlan, Family, ulps_away
from .check import Answerer, Counterexample
from .divergence import classify, same_float


def _strategy(plan: DigitsPlan) -> Any:
    from hypothesis import strategies as st

    digits = st.sampled_from(sorted(plan.all, key=lambda n: (abs(n - 2), n)))
    sign = st.sampled_from((1.0, -1.0))

    @st.composite
    def near_decimal(draw: Any) -> tuple[float, int]:
        n = draw(digits)
        k = draw(st.integers(min_value=0, max_value=10 ** 20))
        tie = draw(st.booleans())
        x = float(f"{10 * k + 5}e-{n + 1}") if tie else float(f"{k}e-{n}")
        return draw(sign) * ulps_away(x, draw(st.integers(-4, 4))), n

    @st.composite
    def binary_tie(draw: Any) -> tuple[float, int]:
        n = draw(digits)
        m = 2 * draw(st.integers(min_value=0, max_value=2 ** 52 - 1)) + 1
        return draw(sign) * math.ldexp(float(m), -(n + 1)), n

    return st.one_of(near_decimal(), binary_tie(),
                     st.tuples(st.floats(allow_nan=False, allow_infinity=False), digits))


def search(answer: Answerer, plan: DigitsPlan | None = None, seed: int = 0, max_examples: int = 5000,
           allow_sign_of_zero: bool = False) -> Counterexample | None:
    """The simplest counterexample hypothesis can find within ``max_examples``, or None."""
    from hypothesis import HealthCheck, find, settings
    from hypothesis.errors import NoSuchExample

    def fails(case: tuple[float, int]) -> bool:
        x, n = case
        got = answer([x], [n])[0]
        want = round(x, n)
        if isinstance(got, float) and same_float(got, want):
            return False
        return not (allow_sign_of_zero and isinstance(got, float) and got == want == 0.0)

    config = settings(max_examples=max_examples, database=None, deadline=None,
                      suppress_health_check=list(HealthCheck))
    try:
        x, n = find(_strategy(plan or DigitsPlan()), fails, settings=config, random=random.Random(seed))
    except NoSuchExample:
        return None
    want = round(x, n)
    got = answer([x], [n])[0]
    return Counterexample(x, n, Family.SEARCH, want, got, classify(x, n, want, got))
