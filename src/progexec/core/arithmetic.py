"""Pluggable arithmetic for the one interpreter: the protocol and Float64, the official semantics.

An arithmetic reads literals from their source text and applies the ten ops. It
signals a refusal by raising :class:`Refusal` with a status; the interpreter turns
that into an Outcome. Exact and multiprecision arithmetics live in ``progexec.oracle``.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from collections.abc import Sequence
from typing import Protocol, TypeVar

from .bytecache import memo
from .ops import require_methods
from .status import Status
from .errors import ProgexecError

V = TypeVar("V")


def sum_left_to_right(values: Sequence[float]) -> float:
    """``0 + v0 + v1 + ...`` in float64, one rounding per addition: what the builtin ``sum`` computed on
    the Pythons that made the datasets' ``exe_ans``. Since CPython 3.12 ``sum`` of floats is compensated
    and can differ in the last bit, so the official semantics never call it."""
    total: float = 0
    for value in values:
        total += value
    return total


class RefusalCause(enum.Enum):
    """Why an oracle arithmetic refused, beyond the contract status: what the oracle does next reads this
    from the Outcome (never from flags left on the arithmetic object)."""

    IRRATIONAL = "irrational"      # the exact value is not rational: enclose it with intervals
    TOO_LARGE = "too_large"        # a rational value grew past its size bound: enclose it with intervals
    UNDECIDED = "undecided"        # an enclosure is too wide to decide: try a higher precision
    CLOCK = "clock"                # the wall-clock backstop stopped the item (a machine-dependent stop)


class Refusal(ProgexecError):
    """A value that cannot be produced: raised inside an arithmetic, by the interpreter for a step it
    refuses, and by the flat compiler for a program it cannot lower. Carries the contract status, for the
    oracle's arithmetics the cause, and where known the location (0-based ``step``, 1-based ``arg``)."""

    kind = "refusal"

    def __init__(self, status: Status, message: str, cause: RefusalCause | None = None, *,
                 step: int | None = None, arg: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.cause = cause
        self.step = step
        self.arg = arg


class Arithmetic(Protocol[V]):
    """What the interpreter needs from a number system."""

    name: str

    def literal(self, text: str) -> V: ...
    def add(self, a: V, b: V) -> V: ...
    def subtract(self, a: V, b: V) -> V: ...
    def multiply(self, a: V, b: V) -> V: ...
    def divide(self, a: V, b: V) -> V: ...
    def power(self, a: V, b: V) -> V: ...
    def greater(self, a: V, b: V) -> bool: ...
    def row_sum(self, row: Sequence[V]) -> V: ...
    def row_max(self, row: Sequence[V]) -> V: ...
    def row_min(self, row: Sequence[V]) -> V: ...
    def row_average(self, row: Sequence[V]) -> V: ...
    def finish(self, value: V) -> V: ...


@dataclass(frozen=True, slots=True)
class LiteralRule:
    """A dialect's official ``str_to_num`` as data: the characters removed first, whether a ``%`` that
    ``float`` refuses divides by 100, and the substring that marks a constant (``const_m1`` is -1).

    FinQA removes ``,`` and divides ``5%`` by 100; MultiHiertt removes ``$ , - %`` (``-5`` reads 5).
    """

    name: str
    removed: str = ","
    percent: bool = True
    const_marker: str = "const"

    def strip(self, text: str) -> str:
        """The text after the rule's characters are removed (what ``float`` is tried on first)."""
        for char in self.removed:
            text = text.replace(char, "")
        return text


FINQA_LITERALS = LiteralRule("finqa")
"""FinQA's ``str_to_num``: commas removed, ``float``, then ``%`` / 100.0, then ``const``."""
CONVFINQA_LITERALS = LiteralRule("convfinqa", const_marker="const_")
"""ConvFinQA's: as FinQA's, but a constant must be spelled ``const_``."""


def read_str_to_num(text: str, rule: LiteralRule = FINQA_LITERALS) -> float | None:
    """A dialect's official ``str_to_num``: the rule's characters removed, ``float``, then ``%`` / 100.0
    (where the rule has it), then the constant branch.

    Returns None where the official function returns ``"n/a"`` or raises (both make the program invalid).
    Not cached: the compiler reads each literal of a program once, and the compiled program is cached;
    :func:`official_str_to_num` is the cached form, for the general interpreter's repeated reads.
    """
    text = rule.strip(text)
    try:
        return float(text)
    except ValueError:
        pass
    if rule.percent and "%" in text:
        try:
            return float(text.replace("%", "")) / 100.0
        except ValueError:
            return None
    if rule.const_marker in text:
        try:
            return official_constant(text)
        except ValueError:
            return None
    return None


official_str_to_num = memo("max_memo_bytes")(read_str_to_num)
""":func:`read_str_to_num`, its results kept within ``Limits.max_memo_bytes``."""


def official_constant(text: str) -> float:
    """The constant branch of ``str_to_num``: ``const_`` removed, ``m1`` read as -1, then ``float`` — which
    raises (ValueError) for ``const_x``, outside ``str_to_num``'s own try: the official loop's bare
    ``except`` then ends the program (the value returned beside the flag is not rounded)."""
    rest = text.replace("const_", "")
    return float("-1" if rest == "m1" else rest)


def official_number(text: str, rule: LiteralRule = FINQA_LITERALS) -> float | None:
    """``str_to_num`` exactly as the official loop sees it: None for ``"n/a"``, ValueError where it raises."""
    value = official_str_to_num(text, rule)
    if value is None:
        stripped = rule.strip(text)
        if rule.const_marker in stripped and not (rule.percent and "%" in stripped):
            official_constant(stripped)
    return value


def checked_float(value: float, what: str) -> float:
    """Refuse NaN and infinities, which the contract never returns as values."""
    if math.isnan(value):
        raise Refusal(Status.NOT_A_NUMBER, f"{what} is NaN")
    if math.isinf(value):
        raise Refusal(Status.OVERFLOW, f"{what} is infinite")
    return value


class Float64:
    """IEEE binary64 with Python's operators: exactly what the official evaluator computes."""

    name = "float64"

    def __init__(self, literals: LiteralRule = FINQA_LITERALS) -> None:
        self.literals = literals

    def literal(self, text: str) -> float:
        value = official_str_to_num(text, self.literals)
        if value is None:
            raise Refusal(Status.BAD_LITERAL, f"{text!r} is not a number, percentage or constant")
        return value if value - value == 0.0 else checked_float(value, f"literal {text!r}")

    # ``r - r == 0.0`` is the fast finiteness test: it is NaN for NaN and for either infinity.

    def add(self, a: float, b: float) -> float:
        result = a + b
        return result if result - result == 0.0 else checked_float(result, "the sum")

    def subtract(self, a: float, b: float) -> float:
        result = a - b
        return result if result - result == 0.0 else checked_float(result, "the difference")

    def multiply(self, a: float, b: float) -> float:
        result = a * b
        return result if result - result == 0.0 else checked_float(result, "the product")

    def divide(self, a: float, b: float) -> float:
        if b == 0.0:
            raise Refusal(Status.DIVIDE_BY_ZERO, "division by zero")
        result = a / b
        return result if result - result == 0.0 else checked_float(result, "the quotient")

    def power(self, a: float, b: float) -> float:
        try:
            result = a ** b
        except ZeroDivisionError:
            raise Refusal(Status.DIVIDE_BY_ZERO, "zero raised to a negative power") from None
        except OverflowError:
            raise Refusal(Status.OVERFLOW, "the power overflows float64") from None
        if isinstance(result, complex):
            raise Refusal(Status.NON_REAL_RESULT, "a negative base to a fractional power is not real")
        return checked_float(result, "the power")

    def greater(self, a: float, b: float) -> bool:
        return a > b

    def row_sum(self, row: Sequence[float]) -> float:
        return checked_float(sum_left_to_right(row), "the row sum")

    def row_max(self, row: Sequence[float]) -> float:
        return max(row)

    def row_min(self, row: Sequence[float]) -> float:
        return min(row)

    def row_average(self, row: Sequence[float]) -> float:
        return checked_float(sum_left_to_right(row), "the row sum") / len(row)

    def finish(self, value: float) -> float:
        """CPython ``round(x, 5)``, once, on the final value only."""
        return round(value, 5)


require_methods(Float64)
