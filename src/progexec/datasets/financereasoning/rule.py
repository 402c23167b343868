"""FinanceReasoning's official answer rule (``get_acc``), progexec's strict rule, and why they disagree.

Read from ``utils/evaluation_utils.py`` of BUPT-Reasoning-Lab/FinanceReasoning (b0fe645). The
official ``get_acc(prediction, gt)``: ``gt`` must be an int, float or bool; a string prediction
goes through ``normalize`` (``eval``, then rewriting, then ``eval`` again: done in the sandbox,
see :mod:`.sandbox_program`); a list or tuple counts its first element (an empty one is wrong);
``None`` is wrong; when either side is a bool the verdict is ``prediction == gt``; otherwise the
prediction must lie in ``[gt - eps, gt + eps]`` with ``eps = |gt| * 0.002`` (signed, no scale
leniency); any exception is wrong. Here the prediction is a :class:`~.values.Value` (exact
rational or special number), compared with the float bounds exactly as Python compares them.

The strict rule (progexec's, documented in docs/financereasoning.md): the solution ran; a bool
gold needs a bool (Python or numpy) of the same value; a numeric gold needs an int, float,
Decimal, Fraction or numpy number (never a bool) or a plain ASCII decimal numeral string, finite,
within half a unit of the last decimal place of the gold's shortest repr. Nothing is evaluated.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal
from fractions import Fraction

from .values import Value

PLAIN_NUMERAL = re.compile(r"-?(?:0|[1-9][0-9]{0,40})(?:\.[0-9]{1,40})?")
"""Texts whose official ``eval`` is their number (an int literal without leading zeros, or a float literal,
maybe negated): read here without eval; every other text is normalized in the sandbox."""

STRICT_NUMERAL = re.compile(r"[ \t\r\n]*[-+]?[0-9]+(?:\.[0-9]+)?[ \t\r\n]*")
"""The strings the strict rule reads as numbers: a plain ASCII decimal numeral, surrounding whitespace allowed."""

STRICT_NUMBER_CATEGORIES = frozenset({"int", "float", "Decimal", "Fraction", "numpy_number"})
STRICT_BOOL_CATEGORIES = frozenset({"bool", "numpy_bool"})

DIVERGENCE_CLASSES = ("eval_text", "text_normalized", "first_element", "one_element_array", "bool_as_number",
                      "other_type", "within_0.2_percent")
"""Why the official rule accepts what strict rejects, in the order they are tried (the first that applies)."""


def plain_value(text: str) -> Value | None:
    """The Value the official ``normalize`` gives a plain numeral (its first ``eval``), or None for other texts."""
    if not PLAIN_NUMERAL.fullmatch(text):
        return None
    if "." in text:
        number = float(text)
        return Value("num", "float", "float", exact=Fraction(number), stage="eval")
    return Value("num", "int", "int", exact=Fraction(int(text)), stage="eval")


def official_acc(value: Value | None, gt: object) -> int:
    """``get_acc`` for a prediction already normalized and unwrapped (see the module docstring)."""
    if value is None or isinstance(gt, str) or not isinstance(gt, (int, float)):
        return 0
    if value.kind == "bool":
        return int(value.boolean == gt)
    if value.kind == "complex" and value.complex_parts is not None:
        return int(isinstance(gt, bool) and complex(*value.complex_parts) == gt)
    if value.kind != "num":
        return 0
    number = value.comparable()
    if number is None:
        return 0
    if isinstance(gt, bool):
        return int(number == gt)
    if value.special == "dnan":
        return 0  # Decimal NaN raises InvalidOperation on ordering: caught, wrong
    eps = abs(gt) * 0.002
    low, high = gt - eps, gt + eps
    return int(number >= low and number <= high)


def gold_unit(gt: int | float) -> Fraction:
    """Half of this is the strict band: one unit in the last decimal place of the gold's shortest repr."""
    text = repr(gt)
    if "e" in text or "E" in text:
        exponent = Decimal(text).as_tuple().exponent
        return Fraction(10) ** int(exponent) if isinstance(exponent, int) else Fraction(1)
    places = len(text.partition(".")[2]) if "." in text else 0
    return Fraction(1, 10 ** places)


def _strict_number(prediction: Value) -> Fraction | None:
    if prediction.category == "str" and prediction.text is not None:  # a text (a long one: its numeral)
        if not STRICT_NUMERAL.fullmatch(prediction.text):
            return None
        return Fraction(Decimal(prediction.text.strip()))
    if prediction.first or prediction.category not in STRICT_NUMBER_CATEGORIES or prediction.kind != "num":
        return None
    return prediction.exact  # None for nan, inf and out-of-range values: not finite, wrong


def strict_acc(prediction: Value | None, gt: object) -> int:
    """progexec's strict verdict on the prediction as given (before any normalization)."""
    if prediction is None or isinstance(gt, str) or not isinstance(gt, (int, float)):
        return 0
    if isinstance(gt, bool):
        return int(prediction.category in STRICT_BOOL_CATEGORIES and not prediction.first
                   and prediction.boolean is gt)
    if isinstance(gt, float) and not math.isfinite(gt):
        return 0
    number = _strict_number(prediction)
    if number is None:
        return 0
    gold = Fraction(Decimal(repr(gt))) if isinstance(gt, float) else Fraction(gt)
    return int(abs(number - gold) <= gold_unit(gt) / 2)


def divergence(prediction: Value, judged: Value, gt: object) -> str:
    """Why the official rule accepted ``prediction`` (``judged`` after normalize and unwrapping) where strict
    does not: the first class of :data:`DIVERGENCE_CLASSES` that applies."""
    if prediction.kind == "text" or prediction.normalized is not None:
        if prediction.text is not None and STRICT_NUMERAL.fullmatch(prediction.text):
            return "within_0.2_percent"  # a numeral strict reads: only the precision differs
        return "eval_text" if judged.stage == "eval" else "text_normalized"
    if judged.first:
        return "first_element"
    if judged.category == "array":
        return "one_element_array"
    numeric_gold = not isinstance(gt, bool)
    if (numeric_gold and judged.category in STRICT_BOOL_CATEGORIES) or \
            (not numeric_gold and judged.category not in STRICT_BOOL_CATEGORIES):
        return "bool_as_number"
    if judged.category not in STRICT_NUMBER_CATEGORIES:
        return "other_type"
    return "within_0.2_percent"


def cot_valid(answer: object) -> bool:
    """The official ``vailid``: a non-empty answer without "none" (any case); non-text is never valid."""
    return isinstance(answer, str) and bool(answer) and "none" not in answer.lower()


def official_average(values: list[int]) -> float:
    """``get_statistics``: ``round(total / len * 100, 2)`` (0.0 for no items, where the official divides by zero)."""
    return round(sum(values) / len(values) * 100, 2) if values else 0.0
