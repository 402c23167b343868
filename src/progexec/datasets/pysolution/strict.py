"""progexec's ``strict`` rule beside the official one, and the class of every official-only acceptance.

Strict correct = officially correct, **and** a finite prediction with the gold's sign (both
zero, both positive or both negative), **and** equal to the gold at the gold's precision:
``|p - g| <= u / 2``, exactly (rationals, no float rounding), where ``u`` is one unit in the
last significant digit of the gold written with at most 10 significant digits, trailing
zeros dropped. Ten digits drop the float noise of an executed gold (``-8184.000000000004``
is ``-8184``, so ``u = 1``; ``0.30000000000000004`` is ``0.3``, ``u = 0.1``) and keep every
digit a real gold carries (``2.275013194817921`` keeps 10: ``u = 1e-9``). A gold of 0 needs
exactly 0. Because strict also requires the official verdict, a gold with few digits is held
to the official 0.15 % (gold 5: 5.4 rounds to 5 but is officially wrong, so strictly too).

An answer the official rule accepts and strict rejects gets one class, the first that applies:
``nan_accepted`` (the prediction is NaN), ``sign_ignored`` (opposite signs), ``power_of_ten``
(accepted by a scale test: a ratio of 10^k, or x100 / x1000 / x100000),
``ceil_3_places`` (accepted by the 3-place ceiling test), ``within_0.15_percent`` (accepted by
the relative test, but not equal at the gold's precision).
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

from .official import Gold, official_verdict

SIGNIFICANT_DIGITS = 10
DIVERGENCE_CLASSES = ("sign_ignored", "power_of_ten", "within_0.15_percent", "ceil_3_places", "nan_accepted")
SCALE_TESTS = frozenset({"power_of_ten", "times_100", "times_1000", "times_100000"})


def gold_unit(gold: int | float) -> Fraction:
    """One unit in the last significant digit of ``gold`` written with at most 10 significant digits."""
    text = f"{Decimal(gold):.{SIGNIFICANT_DIGITS - 1}e}"
    mantissa, _, exponent = text.partition("e")
    digits = mantissa.replace("-", "").replace(".", "").rstrip("0") or "0"
    return Fraction(10) ** (int(exponent) - len(digits) + 1)


def _sign(value: int | float) -> int:
    return (value > 0) - (value < 0)


def strict_match(prediction: float, gold: int | float) -> bool:
    """Same sign and equal at the gold's precision (without the official verdict)."""
    if not math.isfinite(prediction) or (isinstance(gold, float) and not math.isfinite(gold)):
        return False
    if _sign(prediction) != _sign(gold):
        return False
    if gold == 0:
        return prediction == 0
    return abs(Fraction(prediction) - Fraction(gold)) <= gold_unit(gold) / 2


def verdicts(prediction: float | None, gold: Gold) -> tuple[bool, bool, str | None]:
    """(official correct, strict correct, divergence class when only the official one is)."""
    official, test = official_verdict(prediction, gold)
    if not official or prediction is None:
        return official, False, None
    if gold.type_name == "bool" or gold.value is None or isinstance(gold.value, bool):
        return True, True, None
    if strict_match(prediction, gold.value):
        return True, True, None
    return True, False, divergence_class(prediction, gold.value, test)


def divergence_class(prediction: float, gold: int | float, test: str | None) -> str:
    """Why the official rule accepted what strict rejects (see the module docstring for the order)."""
    if math.isnan(prediction):
        return "nan_accepted"
    if _sign(prediction) * _sign(gold) < 0:
        return "sign_ignored"
    if test in SCALE_TESTS:
        return "power_of_ten"
    if test == "ceil_3_places":
        return "ceil_3_places"
    return "within_0.15_percent"
