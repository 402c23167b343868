"""The oracle: the one interpreter run under exact arithmetic, falling back to intervals.

``exact_answer`` gives the exact real value of a program in one reading of its
literals, and that value rounded half-to-even at ``ndigits`` places — decided with
certainty, or reported as undecided within the precision limits.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..core.nodes import Program
from ..core.arithmetic import FINQA_LITERALS, LiteralRule, RefusalCause
from ..core.ops import FINQA_OPS, OpTable
from ..interp.evaluate import evaluate
from ..core.status import Status
from ..core.table import Table
from .exact import Exact
from ..core.limits import current
from .interval import Interval, endpoints, precision
from ..core.plural import plural


@dataclass(frozen=True, slots=True)
class ExactAnswer:
    """The oracle's answer in one reading.

    ``value`` is the exact rational (None when the result is irrational: then ``low``
    and ``high`` enclose it); ``rounded`` is the ``ndigits``-place half-even rounding
    of the exact real, or a bool for a final ``greater``; ``decided`` is False when
    the limits did not allow a certain answer.
    """

    reading: str
    status: Status
    value: Fraction | bool | None = None
    low: Fraction | None = None
    high: Fraction | None = None
    rounded: Fraction | bool | None = None
    decided: bool = True
    precision_bits: int | None = None
    message: str = ""
    too_large: bool = False
    """Intervals were used because an exact rational grew past the size or work limits
    (``oracle/exact.py``), not because the result is irrational."""

    @property
    def rational(self) -> bool:
        return self.precision_bits is None

    def rounded_float(self) -> float | bool | None:
        """The rounded answer as the nearest double (what a correct evaluator should print)."""
        if isinstance(self.rounded, Fraction):
            return float(self.rounded)
        return self.rounded


_FLOAT_MAX = Fraction(1.7976931348623157e308)


def _round(value: Fraction, ndigits: int) -> Fraction:
    """Half-to-even rounding of an exact rational at ``ndigits`` places (Fraction's own ``round``)."""
    return round(value, ndigits)


def exact_answer(program: Program, table: Table | None = None, reading: str = "decimal",
                 ndigits: int = 5, literals: LiteralRule = FINQA_LITERALS, ops: OpTable = FINQA_OPS) -> ExactAnswer:
    """Run the program exactly; use intervals of growing precision where the result is not rational."""
    arithmetic = Exact(reading, literals)
    outcome = evaluate(program, arithmetic, table, ops=ops)
    if outcome.status is Status.OK:
        value = outcome.raw
        if isinstance(value, bool):
            return ExactAnswer(reading, Status.OK, value, rounded=value)
        assert isinstance(value, Fraction)
        return ExactAnswer(reading, Status.OK, value, value, value, _round(value, ndigits))
    if outcome.cause not in (RefusalCause.IRRATIONAL, RefusalCause.TOO_LARGE):
        return ExactAnswer(reading, outcome.status, message=outcome.message)
    too_large = outcome.cause is RefusalCause.TOO_LARGE
    message = outcome.message
    precisions = current().interval_precisions
    for bits in precisions:
        interval = Interval(reading, literals)
        with precision(bits):
            approximate = evaluate(program, interval, table, ops=ops)
        if approximate.status is not Status.OK:
            if approximate.cause is not None:  # undecided, or an exact step inside it needs more
                message = approximate.message
                continue
            return ExactAnswer(reading, approximate.status, message=approximate.message, precision_bits=bits)
        raw = approximate.raw
        if isinstance(raw, bool):
            return ExactAnswer(reading, Status.OK, raw, rounded=raw, precision_bits=bits)
        low, high = endpoints(raw)
        if min(abs(low), abs(high)) > _FLOAT_MAX and (low > 0) == (high > 0):
            return ExactAnswer(reading, Status.OVERFLOW, low=low if low.denominator < 2**64 else None,
                               precision_bits=bits, message="the exact value is beyond the float64 range")
        if _round(low, ndigits) == _round(high, ndigits):
            return ExactAnswer(reading, Status.OK, None, low, high, _round(low, ndigits), precision_bits=bits,
                               too_large=too_large)
        message = f"the enclosure at {plural(bits, 'bit')} straddles a rounding boundary"
    return ExactAnswer(reading, Status.OK, decided=False, precision_bits=precisions[-1],
                       message=f"undecided within {plural(precisions[-1], 'bit')}: {message}")
