"""Exact arithmetic for the one interpreter: ``fractions.Fraction`` in two readings.

- ``decimal`` reading: a literal is the exact decimal it spells (``34.8`` is 348/10,
  ``5%`` exactly 1/20): what the program *means*.
- ``float`` reading: a literal is the exact value of the double the official evaluator
  really used (``Fraction(34.8)``, ``5%`` as ``Fraction(5.0 / 100.0)``): only the
  operations are made exact, so comparing with float64 isolates operation rounding.

A result that is not rational (``exp`` with a fractional exponent that is not an
exact root) or too large to hold exactly raises :class:`~progexec.interp.arithmetic.Refusal` with the cause
IRRATIONAL or TOO_LARGE; the oracle then runs the same program under :mod:`progexec.oracle.interval`.
Floats never enter this arithmetic: ``Fraction op float`` would silently be a float.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from ..core.arithmetic import FINQA_LITERALS, LiteralRule, Refusal, RefusalCause, official_str_to_num
from ..core.ops import require_methods
from ..core.status import Status
from ..core.limits import DEFAULT_LIMITS, current
from ..core.plural import plural

MAX_EXACT_BITS = DEFAULT_LIMITS.max_exact_bits
"""Largest numerator/denominator (in bits) a power may produce exactly; beyond it, approximate."""

MAX_EXACT_WORK = DEFAULT_LIMITS.max_exact_work
"""Budget for one exact run, in bits squared summed over every result (Fraction arithmetic costs about
the square of the operand size: a gcd per operation). Long chains of long decimals (``multiply`` of
40-digit literals, thousands of steps) would otherwise grow numerators without bound; past the
budget, or past MAX_EXACT_BITS for any one value, the oracle switches to interval arithmetic."""

MAX_ROOT_DEGREE = DEFAULT_LIMITS.max_root_degree
"""Largest root degree tried when looking for an exact rational power (``exp(4, 0.5)`` is 2)."""

MAX_MAGNITUDE_BITS = DEFAULT_LIMITS.max_magnitude_bits
"""The default bound (``max_magnitude_bits``): a power whose result is beyond 2**±this is decided from the
operands before computing — overflow when huge, limit_exceeded when tiny (neither an exact Fraction nor an
interval endpoint of that size is built)."""

READINGS = ("decimal", "float")


def _exact_decimal(text: str) -> Fraction | None:
    """The exact value of a string Python's ``float()`` accepts, or None (inf, nan)."""
    try:
        value = Decimal(text.strip())
    except InvalidOperation:
        return None
    if not value.is_finite():
        return None
    return Fraction(value)


def exact_str_to_num(text: str, rule: LiteralRule = FINQA_LITERALS) -> Fraction | None:
    """A dialect's official ``str_to_num`` read exactly: same branches, exact decimals, ``%`` as an exact /100."""
    float_value = official_str_to_num(text, rule)
    if float_value is None:
        return None
    text = rule.strip(text)
    try:
        float(text)
        return _exact_decimal(text)
    except ValueError:
        pass
    if rule.percent and "%" in text:
        inner = _exact_decimal(text.replace("%", ""))
        return None if inner is None else inner / 100
    rest = text.replace("const_", "")
    return _exact_decimal("-1" if rest == "m1" else rest)


def _integer_root(value: int, degree: int) -> int | None:
    """The exact non-negative ``degree``-th root of ``value`` >= 0, or None."""
    if value < 2:
        return value
    guess = int(round(value ** (1.0 / degree))) if value.bit_length() < 1000 else 1 << (value.bit_length() // degree)
    for candidate in (guess - 1, guess, guess + 1):
        if candidate >= 0 and candidate ** degree == value:
            return candidate
    low, high = 0, 1 << (value.bit_length() // degree + 1)
    while low <= high:
        middle = (low + high) // 2
        power = middle ** degree
        if power == value:
            return middle
        if power < value:
            low = middle + 1
        else:
            high = middle - 1
    return None


def _magnitude_bits(base: Fraction, exponent: Fraction) -> float:
    """About ``|log2 |base ** exponent||``, from the operands alone (nothing is raised to anything)."""
    if base == 0 or abs(base) == 1:
        return 0.0
    log_base = abs(math.log2(abs(base.numerator)) - math.log2(base.denominator))
    if abs(exponent) > 10**300:
        return math.inf
    return log_base * abs(float(exponent))


def check_magnitude(base: Fraction, exponent: Fraction) -> None:
    """Refuse ``base ** exponent`` beyond 2 ** ±MAX_MAGNITUDE_BITS from the operands alone (exact or interval).

    A huge result is ``overflow`` (it is beyond float64 whatever its digits); a tiny one
    is ``limit_exceeded`` (neither a Fraction nor an interval endpoint of its size is built).
    """
    magnitude = _magnitude_bits(base, exponent)
    if magnitude <= current().max_magnitude_bits:  # sized from the operands: nothing this large is ever built
        return
    shown = f"{_short(base)} ** {_short(exponent)}"
    if (abs(base) > 1) == (exponent > 0):
        raise Refusal(Status.OVERFLOW, f"{shown} is about 2 ** {magnitude:.3g}, beyond the float64 range")
    raise Refusal(Status.LIMIT_EXCEEDED, f"{shown} is about 2 ** -{magnitude:.3g}, too small to hold "
                                         f"exactly or to enclose (limit 2 ** -{current().max_magnitude_bits})")


def _short(value: Fraction) -> str:
    """A readable spelling of an operand (interval endpoints are long fractions)."""
    text = str(value)
    return text if len(text) <= 24 else f"{float(value):.6g}"


def _too_big(base: Fraction, exponent: int) -> bool:
    bits = max(base.numerator.bit_length(), base.denominator.bit_length()) * abs(exponent)
    return bits > current().max_exact_bits


class Exact:
    """Exact rational arithmetic in the ``decimal`` or ``float`` reading of literals."""

    def __init__(self, reading: str = "decimal", literals: LiteralRule = FINQA_LITERALS) -> None:
        if reading not in READINGS:
            raise ValueError(f"reading must be one of {READINGS}, not {reading!r}")
        self.reading = reading
        self.literals = literals
        self.name = f"exact-{reading}"
        self.work = 0

    def _sized(self, value: Fraction) -> Fraction:
        """Charge ``value`` to the work budget; switch to intervals when it or the budget is too large."""
        bits = max(value.numerator.bit_length(), value.denominator.bit_length())
        self.work += bits * bits
        limits = current()
        if bits > limits.max_exact_bits:
            return self._approximate_too_large(f"an exact intermediate of {plural(bits, 'bit')} is over the limit "
                                               f"of {limits.max_exact_bits}")
        if self.work > limits.max_exact_work:
            return self._approximate_too_large(
                f"the exact computation is over its work budget ({plural(limits.max_exact_work, 'bit')} squared)")
        return value

    def literal(self, text: str) -> Fraction:
        value = official_str_to_num(text, self.literals)
        if value is None:
            raise Refusal(Status.BAD_LITERAL, f"{text!r} is not a number, percentage or constant")
        if value != value:
            raise Refusal(Status.NOT_A_NUMBER, f"literal {text!r} is NaN")
        if value in (float("inf"), float("-inf")):
            raise Refusal(Status.OVERFLOW, f"literal {text!r} is infinite")
        if self.reading == "float":
            return Fraction(value)
        exact = exact_str_to_num(text, self.literals)
        if exact is None:  # float() accepted something Decimal does not: fall back to the float read
            return Fraction(value)
        return exact

    def add(self, a: Fraction, b: Fraction) -> Fraction:
        return self._sized(a + b)

    def subtract(self, a: Fraction, b: Fraction) -> Fraction:
        return self._sized(a - b)

    def multiply(self, a: Fraction, b: Fraction) -> Fraction:
        return self._sized(a * b)

    def divide(self, a: Fraction, b: Fraction) -> Fraction:
        if b == 0:
            raise Refusal(Status.DIVIDE_BY_ZERO, "division by zero")
        return self._sized(a / b)

    def power(self, a: Fraction, b: Fraction) -> Fraction:
        if a == 0 and b < 0:
            raise Refusal(Status.DIVIDE_BY_ZERO, "zero raised to a negative power")
        check_magnitude(a, b)
        if b.denominator == 1:
            if _too_big(a, int(b)):
                return self._approximate_too_large(f"an exact {a} ** {b} would be too large")
            return a ** int(b)
        if a < 0:
            raise Refusal(Status.NON_REAL_RESULT, "a negative base to a fractional power is not real")
        degree = b.denominator
        if degree <= current().max_root_degree:
            top, bottom = _integer_root(a.numerator, degree), _integer_root(a.denominator, degree)
            if top is not None and bottom is not None:
                root = Fraction(top, bottom)
                if _too_big(root, b.numerator):
                    return self._approximate_too_large(f"an exact {a} ** {b} would be too large")
                return root ** b.numerator
        return self._approximate(f"{a} ** {b} is not rational")

    def _approximate(self, message: str) -> Fraction:
        raise Refusal(Status.LIMIT_EXCEEDED, message, RefusalCause.IRRATIONAL)  # rerun under interval arithmetic

    def _approximate_too_large(self, message: str) -> Fraction:
        raise Refusal(Status.LIMIT_EXCEEDED, message, RefusalCause.TOO_LARGE)

    def greater(self, a: Fraction, b: Fraction) -> bool:
        return a > b

    def row_sum(self, row: Sequence[Fraction]) -> Fraction:
        return self._sized(sum(row, Fraction(0)))

    def row_max(self, row: Sequence[Fraction]) -> Fraction:
        return max(row)

    def row_min(self, row: Sequence[Fraction]) -> Fraction:
        return min(row)

    def row_average(self, row: Sequence[Fraction]) -> Fraction:
        return self._sized(sum(row, Fraction(0)) / len(row))

    def finish(self, value: Fraction) -> Fraction:
        """No rounding: the oracle's value is the exact real."""
        return value


require_methods(Exact)
