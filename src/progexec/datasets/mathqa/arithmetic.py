"""The MathQA arithmetic: Python floats as MathQA-Python's generator used them.

It differs from FinQA's :class:`~progexec.core.arithmetic.Float64` in two places only:

* ``literal`` reads MathQA constants (``const_pi``, ``const_deg_to_rad``,
  ``const_0_25`` = 0.25, ``const_3_6`` = 3.6, ``const_2.0``) and the problem numbers
  bound to ``nK`` (commas already removed, ``float`` reads them);
* ``finish`` leaves the final value alone: MathQA has no 5-place rounding.

The op semantics live in :mod:`progexec.datasets.mathqa.ops`; this class only reads numbers.
"""

from __future__ import annotations

import math
import re

from ...core.arithmetic import Float64, LiteralRule, Refusal, checked_float
from ...core.status import Status

_DIGITS = re.compile(r"(\d+)(?:\.(\d+))?\Z")
_SPLIT = re.compile(r"(\d+)_(\d+)\Z")

MATHQA_LITERALS = LiteralRule("mathqa", const_marker="const_")
"""How the FinQA-style reading would spell MathQA's constants; MathQA's own reading is :meth:`MathQAFloat.literal`."""

NAMED_CONSTANTS: dict[str, float] = {
    "pi": math.pi,
    "deg_to_rad": math.pi / 180,
}
"""Constants with a name instead of digits; trax computes ``pi / 180`` in float64."""


def mathqa_constant(text: str) -> float:
    """The value of a MathQA constant ``const_*``; raise Refusal(BAD_LITERAL) for anything else.

    ``const_X`` and ``const_X.Y`` read as ``float``; ``const_X_Y`` is ``X`` plus
    ``float("0.Y")`` (the generator adds the two parts, which equals ``float("X.Y")``
    for every constant MathQA uses). trax also reads odd spellings by pulling
    digits out of them (``const_m1`` would be 1.0); those are refused here.
    """
    if not text.startswith("const_"):
        raise Refusal(Status.BAD_LITERAL, f"{text!r} is not a MathQA constant")
    body = text[len("const_"):]
    if body.lower() in NAMED_CONSTANTS:
        return NAMED_CONSTANTS[body.lower()]
    if _DIGITS.match(body):
        return float(body)
    split = _SPLIT.match(body)
    if split:
        return float(split.group(1)) + float("0." + split.group(2))
    raise Refusal(Status.BAD_LITERAL, f"{text!r} is not a MathQA constant (const_X, const_X_Y, const_pi, ...)")


class MathQAFloat(Float64):
    """float64 with MathQA's literals and no final rounding (the trax/MathQA-Python semantics)."""

    name = "mathqa-float64"

    def __init__(self) -> None:
        super().__init__(MATHQA_LITERALS)

    def literal(self, text: str) -> float:
        """A problem number (``1000``, ``1,000``, ``.5``, ``2e3``) or a MathQA constant."""
        if text.startswith("const_"):
            return mathqa_constant(text)
        try:
            value = float(text.replace(",", ""))
        except ValueError:
            raise Refusal(Status.BAD_LITERAL, f"{text!r} is not a number or MathQA constant") from None
        return checked_float(value, f"literal {text!r}")

    def finish(self, value: float) -> float:
        """The final value as computed: MathQA-Python compares it with a tolerance, never rounds."""
        return value


MATHQA_FLOAT = MathQAFloat()
"""The shared instance (the class holds no state)."""
