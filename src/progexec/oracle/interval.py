"""Interval arithmetic (mpmath ``iv``) at an explicit precision, for results that are not rational.

Every value is an enclosure [lo, hi] of the exact real; literals are read exactly
(as in :class:`~progexec.oracle.exact.Exact`) and then enclosed. The oracle raises
the precision until the 5-place rounding of the enclosure is decided, and says so
when it cannot be decided within :data:`MAX_PRECISION_BITS`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
import threading
from contextlib import contextmanager
from fractions import Fraction
from typing import Any, NoReturn

from mpmath import iv

from ..core.limits import current

from ..core.arithmetic import FINQA_LITERALS, LiteralRule, Refusal, RefusalCause
from ..core.ops import require_methods
from ..core.status import Status
from .exact import Exact, check_magnitude

_PRECISION_LOCK = threading.RLock()
"""mpmath's ``iv`` context is one object per process: one thread at a time may set its precision."""


@contextmanager
def precision(bits: int) -> Iterator[None]:
    """Set mpmath's interval precision for the block, restored after it; the block holds the process-wide
    precision lock, since mpmath keeps the precision on its one ``iv`` context, not per call or thread."""
    with _PRECISION_LOCK:
        saved = iv.prec
        iv.prec = bits
        try:
            yield
        finally:
            iv.prec = saved


def endpoints(value: Any) -> tuple[Fraction, Fraction]:
    """The exact rational endpoints of an interval."""
    low, high = value._mpi_
    return _fraction(low), _fraction(high)


def _fraction(raw: Any) -> Fraction:
    """An mpmath raw mpf ``(sign, mantissa, exponent, bitcount)`` as an exact Fraction."""
    sign, mantissa, exponent, _ = raw
    if not mantissa and exponent:  # inf, -inf, nan are encoded with a zero mantissa
        raise Refusal(Status.LIMIT_EXCEEDED, "the enclosure is unbounded", RefusalCause.UNDECIDED)
    value = Fraction(mantissa << exponent) if exponent >= 0 else Fraction(mantissa, 1 << -exponent)
    return -value if sign else value


class Interval:
    """mpmath interval arithmetic; literals are read exactly first (``decimal`` or ``float`` reading)."""

    def __init__(self, reading: str = "decimal", literals: LiteralRule = FINQA_LITERALS) -> None:
        self.exact = Exact(reading, literals)
        self.name = f"interval-{reading}"

    def literal(self, text: str) -> Any:
        value = self.exact.literal(text)
        return iv.mpf(value.numerator) / iv.mpf(value.denominator)  # an enclosure of the exact literal

    def add(self, a: Any, b: Any) -> Any:
        return a + b

    def subtract(self, a: Any, b: Any) -> Any:
        return a - b

    def multiply(self, a: Any, b: Any) -> Any:
        return a * b

    def divide(self, a: Any, b: Any) -> Any:
        low, high = endpoints(b)
        if low == 0 and high == 0:
            raise Refusal(Status.DIVIDE_BY_ZERO, "division by zero")
        if low <= 0 <= high:
            self._undecided("the divisor's enclosure contains zero")
        return a / b

    def power(self, a: Any, b: Any) -> Any:
        b_low, b_high = endpoints(b)
        a_low, a_high = endpoints(a)
        for base in (a_low, a_high):  # sized before mpmath builds it or endpoints() turns it into a Fraction
            for bound in (b_low, b_high):
                if base != 0:
                    check_magnitude(base, bound)
        if b_low == b_high and b_low.denominator == 1:
            exponent = int(b_low)
            if abs(exponent) > current().max_interval_exponent:
                self._undecided(f"the exponent {exponent} is beyond the interval limit")
            if exponent < 0 and a_low <= 0 <= a_high:
                self._undecided("a negative power of an enclosure containing zero")
            return a ** exponent
        if a_high < 0:
            raise Refusal(Status.NON_REAL_RESULT, "a negative base to a fractional power is not real")
        if a_low <= 0:
            self._undecided("the base's enclosure reaches zero or below")
        return a ** b

    def greater(self, a: Any, b: Any) -> bool:
        a_low, a_high = endpoints(a)
        b_low, b_high = endpoints(b)
        if a_low > b_high:
            return True
        if a_high <= b_low:
            return False
        self._undecided("the two enclosures overlap")

    def _undecided(self, message: str) -> NoReturn:
        raise Refusal(Status.LIMIT_EXCEEDED, message, RefusalCause.UNDECIDED)

    def row_sum(self, row: Sequence[Any]) -> Any:
        total = iv.mpf(0)
        for value in row:
            total = total + value
        return total

    def row_max(self, row: Sequence[Any]) -> Any:
        return _pick(row, largest=True)

    def row_min(self, row: Sequence[Any]) -> Any:
        return _pick(row, largest=False)

    def row_average(self, row: Sequence[Any]) -> Any:
        return self.row_sum(row) / len(row)

    def finish(self, value: Any) -> Any:
        return value


def _pick(row: Sequence[Any], largest: bool) -> Any:
    """max/min of exact literals: the enclosures of distinct rationals are separable at our precision."""
    keyed = sorted(row, key=lambda value: endpoints(value)[0], reverse=largest)
    return keyed[0]


require_methods(Interval)
