"""Divergence classes and the bit-for-bit comparison of a rounder's answers with the oracle.

The oracle is CPython ``round(x, ndigits)`` (correct rounding of the exact binary value, ties
to even; itself cross-checked against :func:`reference_round`). An answer matches only when it
is a float with the same bits (any nan matches any nan). Everything else is a divergence of one
:class:`Divergence` class, decided from the exact value of ``x * 10**ndigits`` with ``Fraction``;
the classes are data, and reporters format them.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction


class Divergence(str, Enum):
    """Why an answer differs from CPython ``round``; ``.explain`` is the message template."""

    TIE_BREAK = "tie_break"
    DOUBLE_ROUNDING = "double_rounding"
    WRONG_NEIGHBOUR = "wrong_neighbour"
    WRONG_DOUBLE = "wrong_double"
    UNROUNDED = "unrounded"
    SCALE_ARTEFACT = "scale_artefact"
    OVERFLOW = "overflow"
    WRONG_VALUE = "wrong_value"
    SIGN_OF_ZERO = "sign_of_zero"
    NOT_FLOAT = "not_float"
    EXCEPTION = "exception"
    UNPARSEABLE = "unparseable"
    NO_ANSWER = "no_answer"
    OUTPUT_FLOOD = "output_flood"
    NO_EXIT = "no_exit"
    BAD_EXIT = "bad_exit"
    UNFLUSHED = "unflushed"

    @property
    def explain(self) -> str:
        return _EXPLAIN[self]

    @property
    def minor(self) -> bool:
        """A lesser class: the value is right, only the sign of a zero differs (or the answers came late)."""
        return self in (Divergence.SIGN_OF_ZERO, Divergence.UNFLUSHED)

    @property
    def unanswered(self) -> bool:
        """The case got no answer (the program died, hung, flooded): a protocol failure, not a wrong value."""
        return self.value in UNANSWERED


UNANSWERED = frozenset({"no_answer", "output_flood", "no_exit", "bad_exit", "unflushed"})
"""The classes that stand for a case the port did not answer (the leash's fault kinds)."""

_EXPLAIN = {
    Divergence.TIE_BREAK: "x * 10**n is exactly a half-integer and the tie was not broken to even",
    Divergence.DOUBLE_ROUNDING: ("the other neighbour: the exact x * 10**n is within one ulp of a half-integer, "
                                 "so rounding the product to a double first moved it onto or across"),
    Divergence.WRONG_NEIGHBOUR: "the other neighbour of x * 10**n, not explained by a tie or by product rounding",
    Divergence.WRONG_DOUBLE: ("the right decimal but not the nearest double to it "
                              "(the final scaling was not correctly rounded)"),
    Divergence.UNROUNDED: "x itself came back, but x has more than n decimal places",
    Divergence.SCALE_ARTEFACT: ("|x * 10**n| >= 2**52, where the double grid is 1 or coarser: a rounder that "
                                "scales, adds or rounds there moves the value"),
    Divergence.OVERFLOW: "an infinity (or nan) for a finite x: x * 10**n overflowed",
    Divergence.WRONG_VALUE: "a value that is neither neighbour (wrong scale, overflow, nan or inf mishandled)",
    Divergence.SIGN_OF_ZERO: "a zero with the wrong sign (lesser: equal as numbers, not bit for bit)",
    Divergence.NOT_FLOAT: "the rounder returned something that is not a float",
    Divergence.EXCEPTION: "the rounder raised an exception",
    Divergence.UNPARSEABLE: "the external program answered a line that is not a float",
    Divergence.NO_ANSWER: "the rounder or external program died or hung, or was given up on after that",
    Divergence.OUTPUT_FLOOD: ("the program wrote more than it was asked for: an over-long line, more answers "
                              "than cases, or output after the last case (it was killed)"),
    Divergence.NO_EXIT: ("the program did not exit at end of input, or exited leaving a process that held its "
                         "output open (killed)"),
    Divergence.BAD_EXIT: "the program exited with a non-zero code at end of input",
    Divergence.UNFLUSHED: ("lesser: the program held its answers until end of input (it does not flush); "
                           "it was run in batch mode"),
}


_TWO_52 = 2 ** 52


@dataclass(frozen=True, slots=True)
class Failure:
    """An answer that is not a value: an exception, an unparseable line, a missing answer."""

    kind: Divergence
    detail: str


def reference_round(x: float, ndigits: int) -> float:
    """The exact oracle: half-even rounding of ``Fraction(x) * 10**ndigits``, then the nearest double."""
    if math.isnan(x) or math.isinf(x) or x == 0.0:
        return x
    n = round(Fraction(x) * Fraction(10) ** ndigits)
    if n == 0:
        return math.copysign(0.0, x)
    return float(Fraction(n) / Fraction(10) ** ndigits)


def same_float(a: float, b: float) -> bool:
    """Bit for bit, sign of zero included; any nan equals any nan."""
    if a != a:
        return b != b
    return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)


def mismatches(got: Sequence[object], expected: Sequence[float]) -> list[int]:
    """Indices where ``got`` is not bit-for-bit ``expected`` (fast path when every answer is a float)."""
    if all(type(value) is float for value in got):
        got_bits = array("q", array("d", got).tobytes())  # type: ignore[type-var]
        exp_bits = array("q", array("d", expected).tobytes())
        if got_bits == exp_bits:
            return []
        return [i for i, (a, b) in enumerate(zip(got_bits, exp_bits))
                if a != b and not (got[i] != got[i] and expected[i] != expected[i])]
    return [i for i, (value, want) in enumerate(zip(got, expected))
            if not (isinstance(value, float) and same_float(float(value), want))]


def classify(x: float, ndigits: int, expected: float, got: object) -> Divergence:
    """The class of one divergent answer (``got`` is known not to match ``expected``)."""
    if isinstance(got, Failure):
        return got.kind
    if not isinstance(got, float):
        return Divergence.NOT_FLOAT
    value = float(got)
    if value == expected and value == 0.0:
        return Divergence.SIGN_OF_ZERO
    if math.isfinite(x) and not math.isfinite(value):
        return Divergence.OVERFLOW
    if not (math.isfinite(x) and math.isfinite(value)):
        return Divergence.WRONG_VALUE
    if value == x:
        return Divergence.UNROUNDED
    scale = Fraction(10) ** ndigits
    product = Fraction(x) * scale
    right = round(product)
    decimal = round(Fraction(value) * scale)
    if decimal == right:
        return Divergence.WRONG_DOUBLE
    coarse = abs(product) >= _TWO_52
    low = math.floor(product)
    if product == low or decimal not in (low, low + 1):
        if coarse:
            return Divergence.SCALE_ARTEFACT
        return Divergence.WRONG_NEIGHBOUR if abs(decimal - right) == 1 else Divergence.WRONG_VALUE
    middle = low + Fraction(1, 2)
    if product == middle:
        return Divergence.TIE_BREAK
    float_scale = 10.0 ** ndigits if ndigits > 22 or ndigits < 0 else float(10 ** ndigits)
    rounded = x * float_scale
    if math.isfinite(rounded) and abs(product - middle) <= Fraction(math.ulp(rounded)):
        return Divergence.DOUBLE_ROUNDING  # one more rounding at the product's precision flips it
    return Divergence.SCALE_ARTEFACT if coarse else Divergence.WRONG_NEIGHBOUR
