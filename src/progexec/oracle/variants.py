"""Program-level variants of the official arithmetic that re-implementations get wrong."""

from __future__ import annotations

from collections.abc import Sequence

from ..core.arithmetic import FINQA_LITERALS, Float64, LiteralRule


class PerStepFloat64(Float64):
    """Float64 with every intermediate rounded to ``ndigits`` places (CPython ``round``).

    This is what uncommenting the official evaluator's ``# this_res = round(this_res, 5)``
    (and applying it to every op) does: the per_step rounder. Literals are not rounded;
    a final ``greater`` compares rounded operands, so it can flip too.
    """

    name = "per_step"

    def __init__(self, ndigits: int = 5, literals: LiteralRule = FINQA_LITERALS) -> None:
        super().__init__(literals)
        self.ndigits = ndigits

    def add(self, a: float, b: float) -> float:
        return round(super().add(a, b), self.ndigits)

    def subtract(self, a: float, b: float) -> float:
        return round(super().subtract(a, b), self.ndigits)

    def multiply(self, a: float, b: float) -> float:
        return round(super().multiply(a, b), self.ndigits)

    def divide(self, a: float, b: float) -> float:
        return round(super().divide(a, b), self.ndigits)

    def power(self, a: float, b: float) -> float:
        return round(super().power(a, b), self.ndigits)

    def row_sum(self, row: Sequence[float]) -> float:
        return round(super().row_sum(row), self.ndigits)

    def row_max(self, row: Sequence[float]) -> float:
        return round(super().row_max(row), self.ndigits)

    def row_min(self, row: Sequence[float]) -> float:
        return round(super().row_min(row), self.ndigits)

    def row_average(self, row: Sequence[float]) -> float:
        return round(super().row_average(row), self.ndigits)
