"""HELM's ``float_equiv`` (ConvFinQA-calc metric), reproduced for comparability.

HELM reads the first number of the whole completion and the first number of ``str(gold)`` with
one pattern (sign, digits, optional fraction and exponent; no thousands separators, units or
scale words) and scores 1.0 when they differ by less than 1e-6; when either text has no number
it scores 0.0. The behaviour was read from stanford-crfm/helm,
src/helm/benchmark/metrics/conv_fin_qa_calc_metrics.py (commit 63754d0).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

HELM_EPS = 1e-6
"""HELM's default tolerance: ``abs(a - b) < eps``."""

_HELM_NUMBER = re.compile(r"[-+]?(?:\d*\.\d+|\d+\.?)(?:[Ee][-+]?\d+)?")


@dataclass(frozen=True, slots=True)
class HelmReading:
    """The first number HELM sees in a text (``None`` when it sees none)."""

    text: str | None
    value: float | None


def first_number(text: str) -> HelmReading:
    """The first match of HELM's number pattern, as text and float."""
    match = _HELM_NUMBER.search(text)
    if match is None:
        return HelmReading(None, None)
    return HelmReading(match.group(0), float(match.group(0)))


def float_equiv(completion: str, gold_text: str, eps: float = HELM_EPS) -> bool:
    """HELM's verdict: both texts hold a number and the first numbers differ by less than ``eps``."""
    pred, gold = first_number(completion).value, first_number(gold_text).value
    if pred is None or gold is None:
        return False
    return abs(pred - gold) < eps


def helm_gold_text(answer: str | float | bool) -> str:
    """The gold as HELM renders it: ``str(exe_ans)`` (a yes/no gold is the string itself)."""
    if isinstance(answer, bool):
        return "yes" if answer else "no"
    return str(answer)
