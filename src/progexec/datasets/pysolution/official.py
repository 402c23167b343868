"""FinanceMath's (and DocMath-Eval's) answer rule for program-of-thought: ``get_acc`` with ``cot=False``
and ``compare_two_numbers``, reproduced with their type handling.

Read from ``utils/evaluation_utils.py`` of yale-nlp/FinanceMath. ``get_acc`` first calls
``float()`` on the prediction (done in the sandbox, since it may run model code), so a bool,
a numeric string or a one-element numpy value counts as its number; a value ``float()``
refuses is wrong. The gold is the *executed* gold solution, and its type decides: ``int``,
``float`` and numpy ``float64`` are compared as numbers, ``bool`` by ``==``, anything else
(numpy ``int64`` or ``float32``, ``Fraction``, a sympy number, ``str``) makes every
prediction wrong (an ``assert`` inside a ``try``). Any exception inside is a wrong answer.

``compare_two_numbers(p, gt)`` accepts, in this order (the first that holds decides):

* ``power_of_ten``: both non-zero and ``log10(max/min)`` of their absolute values is a whole
  number — a ratio of exactly 1, 10, 100, ... — so the **sign is ignored** and the scale is
  free (1 vs 1000);
* ``times_100``, ``times_1000``, ``times_100000``: the smaller absolute value, times 100
  (1,000; 100,000), is within 0.15 % of the larger one, when it is at most 1/50 (1/500;
  1/50,000) of it;
* ``ceil_3_places``: both absolute values are equal after ``ceil(x * 1000) / 1000``;
* ``within_0.15_percent``: ``gt - eps <= p <= gt + eps`` with ``eps = |gt| * 0.0015`` — the
  only test that keeps the sign.

Consequences kept on purpose: a NaN prediction is always correct (``max``/``min`` with a
NaN return the gold's magnitude twice, a ratio of 1); an infinite one never is; a ratio or a
ceiling step that overflows (``1.0001e306`` vs ``1e306``) raises inside the ``try`` and is
wrong; an integer gold too large for a float is wrong against everything.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

NUMERIC_GOLD_TYPES = frozenset({"int", "float", "float64"})
ACCEPTED_GOLD_TYPES = NUMERIC_GOLD_TYPES | {"bool"}
RELATIVE_EPS = 0.0015
SCALE_STEPS = ((100, 50, "times_100"), (1000, 500, "times_1000"), (100000, 50000, "times_100000"))


@dataclass(frozen=True, slots=True)
class Gold:
    """An executed gold solution's value as the rule sees it: ``type(v).__name__`` and the value
    (an exact int, a bool, or a float for ``float``/``float64``; None for other types)."""

    type_name: str
    value: int | float | bool | None


def _within(pred: int | float, gt: int | float) -> bool:
    eps = abs(gt) * RELATIVE_EPS
    return pred >= gt - eps and pred <= gt + eps


def _ceil3(number: int | float) -> float:
    return math.ceil(number * 1000) / 1000


def accepting_test(p: float, gt: int | float) -> str | None:
    """Which test of ``compare_two_numbers`` accepts ``p`` for ``gt`` (None: none does).

    Raises what the original raises (OverflowError, ValueError) where it would raise.
    """
    a, b = abs(gt), abs(p)
    big = b if b > a else a      # max(abs(gt), abs(p)): the first argument unless the second is larger
    small = b if b < a else a    # min(abs(gt), abs(p)): likewise
    if big != 0 and small != 0:
        exponent = math.log10(big / small)
        if int(exponent) == exponent:
            return "power_of_ten"
    for factor, divisor, name in SCALE_STEPS:
        if small <= big / divisor and _within(small * factor, big):
            return name
    if _ceil3(big) == _ceil3(small):
        return "ceil_3_places"
    if _within(p, gt):
        return "within_0.15_percent"
    return None


def official_verdict(prediction: float | None, gold: Gold) -> tuple[bool, str | None]:
    """``get_acc(prediction, gold, cot=False)`` as a bool, and the test that accepted it.

    ``prediction`` is ``float()`` of the returned value, None when float() failed.
    """
    if prediction is None or gold.type_name not in ACCEPTED_GOLD_TYPES or gold.value is None:
        return False, None
    if gold.type_name == "bool":
        return prediction == gold.value, "equal" if prediction == gold.value else None
    try:
        test = accepting_test(prediction, gold.value)
    except Exception:  # the original's try/except around the whole comparison
        return False, None
    return test is not None, test


def official_mean(values: list[int]) -> float:
    """An official aggregate: the mean of 0/1 values, as a percentage rounded to 2 places (Python's round)."""
    return round(sum(values) / len(values) * 100, 2) if values else 0.0
