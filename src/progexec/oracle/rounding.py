"""The named rounders: every way a FinQA port rounds its final value, each a small pure function.

FinQA's official evaluator calls CPython ``round(x, 5)`` once on the final value: the exact
binary value of ``x`` rounded half-to-even to five decimal places, then converted to the
nearest double. The rounders here are that behaviour (``spec``), a portable re-implementation
of it that never uses decimal strings or big integers in its decision (``exact``), and the
wrong-but-common ports (``naive``, ``half_up``, ``numpy``), so that the oracle and
``progexec check-rounder`` can name what each gets wrong. Every rounder has the signature
``f(x: float, ndigits: int = 5) -> float`` and is listed in :data:`ROUNDERS`.

The program-level ``per_step`` variant (rounding every intermediate) lives in the oracle,
not here: it is not a function of the final value alone.
"""

from __future__ import annotations

import importlib.util
import math
from collections.abc import Callable
from typing import Optional

Rounder = Callable[[float, int], float]
"""A rounder: ``f(x, ndigits) -> float``."""

TwoProduct = Callable[[float, float], "tuple[float, float]"]
"""An error-free product: ``(a, b) -> (p, e)`` with ``p = fl(a*b)`` and ``a*b == p + e`` exactly."""

POW10: tuple[float, ...] = (
    1.0, 10.0, 100.0, 1000.0, 10000.0, 100000.0, 1000000.0, 10000000.0, 100000000.0, 1000000000.0,
    10000000000.0, 100000000000.0, 1000000000000.0, 10000000000000.0, 100000000000000.0,
    1000000000000000.0, 10000000000000000.0, 100000000000000000.0, 1000000000000000000.0,
    10000000000000000000.0, 100000000000000000000.0, 1000000000000000000000.0,
    10000000000000000000000.0,
)
"""10**0 .. 10**22 as float literals: every one is exactly representable (5**22 < 2**53).

Written out, never computed with ``pow``: the single-rounding argument needs the scale exact."""

POW10_INT: tuple[int, ...] = tuple(int(scale) for scale in POW10)
"""The same powers as Python ints (exact, since the floats are exact)."""

EXACT_MAX_DIGITS = len(POW10) - 1
"""Largest ``ndigits`` :func:`round_exact` supports (22); above it 10**ndigits is not a double."""

_TWO_52 = 4503599627370496.0
"""2**52: every double at least this large in magnitude is an integer."""

_SPLITTER = 134217729.0
"""2**27 + 1, Veltkamp's constant that splits a double into two 26-bit halves."""


def round_spec(x: float, ndigits: int = 5) -> float:
    """CPython ``round(x, ndigits)``: the official FinQA behaviour, and the oracle's reference.

    Correctly rounded from the exact binary value, ties to even, then converted to the
    nearest double; ``round(-0.001, 2)`` is ``-0.0``, nan and inf are returned as is.
    It cannot go wrong by definition here; it goes wrong only when a port *assumes* it
    rounds the decimal literal (``round(2.675, 2)`` is 2.67 because 2.675 is 2.67499999...).
    """
    return round(x, ndigits)


def two_product_dekker(a: float, b: float) -> tuple[float, float]:
    """Error-free product by Veltkamp splitting and Dekker's product (no fma needed).

    Exact when nothing overflows or underflows: ``|a|, |b| < 2**996`` and the partial
    products stay above the subnormal range. :func:`round_exact` guarantees both.
    """
    p = a * b
    c = _SPLITTER * a
    a_hi = c - (c - a)
    a_lo = a - a_hi
    c = _SPLITTER * b
    b_hi = c - (c - b)
    b_lo = b - b_hi
    e = ((a_hi * b_hi - p) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo
    return p, e


def make_two_product_fma(fma: Callable[[float, float, float], float]) -> TwoProduct:
    """Error-free product from a fused multiply-add: ``e = fma(a, b, -p)`` is exact.

    ``fma`` is ``math.fma`` on Python 3.13+; tests pass a Fraction-based fma on 3.11 so
    that this path is exercised everywhere.
    """

    def two_product_fma(a: float, b: float) -> tuple[float, float]:
        p = a * b
        return p, fma(a, b, -p)

    return two_product_fma


_MATH_FMA: Optional[Callable[[float, float, float], float]] = getattr(math, "fma", None)

DEFAULT_TWO_PRODUCT: TwoProduct = (
    make_two_product_fma(_MATH_FMA) if _MATH_FMA is not None else two_product_dekker)
"""``math.fma`` when the interpreter has it (3.13+), Dekker/Veltkamp otherwise."""


def _nearest_even(whole: int, e: float) -> int:
    """The integer nearest to ``whole + e`` (``whole`` an integer, ``e`` a double), ties to even."""
    floor_e = math.floor(e)
    rest = e - floor_e  # exact: a double minus its floor
    if rest < 0.5:
        return whole + floor_e
    if rest > 0.5:
        return whole + floor_e + 1
    low = whole + floor_e
    return low if low % 2 == 0 else low + 1


def round_exact(x: float, ndigits: int = 5, two_product: Optional[TwoProduct] = None) -> float:
    """Round like CPython ``round(x, ndigits)``, bit for bit, from an error-free product.

    The port of the seed's ``round_half_even_scaled`` (SPEC §5): ``p + e == x * 10**ndigits``
    exactly (``two_product``: fma or Dekker), then the nearest integer ``n`` to ``p + e``, ties
    to even, then one correctly rounded division ``n / 10**ndigits``.

    * ``p`` neither an integer nor a half-integer: ``n = round(p)``; ``|e| < ulp(p)`` cannot
      carry the true product across the half-integer ``p`` did not cross.
    * ``p`` exactly a half-integer: the sign of ``e`` decides; ``e == 0`` is a real tie.
    * ``p`` an integer: ``n = p +`` the integer nearest ``e``, ties to even on ``n`` as a whole
      (above 2**53 the grid of ``p`` is coarser than 1, so ``e`` can exceed one half).

    Handled first: nan/inf/±0 returned as is; ``|x| >= 2**52`` returned as is (already an
    integer); ``|p| < 1/2`` gives a zero with the sign of ``x`` (also keeping Dekker's partial
    products clear of underflow). A zero result always carries the sign of ``x``.

    Where it can go wrong: only outside its preconditions. ``ndigits`` must be in
    0..22 (:data:`EXACT_MAX_DIGITS`), where ``10**ndigits`` is an exact double; anything else
    raises ``ValueError`` rather than silently double-rounding (CPython's ``round`` accepts any
    int). A port must keep the final division correctly rounded: ``n * 1e-5`` is not, and
    ``float(n) / 1e5`` is only when ``|n| < 2**53`` (Python's ``int / int`` always is).
    """
    if not 0 <= ndigits <= EXACT_MAX_DIGITS:
        raise ValueError(f"round_exact supports ndigits 0..{EXACT_MAX_DIGITS}, not {ndigits}")
    if x != x or x == 0.0 or x in (math.inf, -math.inf) or abs(x) >= _TWO_52:
        return x
    p, e = (two_product or DEFAULT_TWO_PRODUCT)(x, POW10[ndigits])
    if abs(p) < 0.5:  # rounding is monotonic and 0.5 is a double: the true product is < 1/2 too
        return math.copysign(0.0, x)
    whole = math.floor(p)
    fraction = p - whole  # exact
    if fraction == 0.0:
        n = _nearest_even(whole, e)
    elif fraction == 0.5:
        if e > 0.0:
            n = whole + 1
        elif e < 0.0:
            n = whole
        else:
            n = whole if whole % 2 == 0 else whole + 1
    else:
        n = whole if fraction < 0.5 else whole + 1
    if n == 0:
        return math.copysign(0.0, x)
    return n / POW10_INT[ndigits]


def round_exact_dekker(x: float, ndigits: int = 5) -> float:
    """:func:`round_exact` with Dekker/Veltkamp splitting forced (the pre-3.13 path)."""
    return round_exact(x, ndigits, two_product_dekker)


def round_naive(x: float, ndigits: int = 5) -> float:
    """The obvious port: ``round(x * 10**n) / 10**n`` (what the seed calls the naive port).

    Double-rounds: ``x * 10**n`` is rounded to a double first, so a true product within half
    an ulp of a half-integer lands on it or across it (3.268485 -> 3.26848, gold 3.26849).
    Modelled as a float port would run it: the zero keeps the sign of the product (C's
    ``nearbyint``), nan/inf pass through, and ``|x| > DBL_MAX / 10**n`` overflows to inf.
    """
    scale = POW10[ndigits] if 0 <= ndigits <= EXACT_MAX_DIGITS else 10.0 ** ndigits
    p = x * scale
    if not math.isfinite(p):
        return p / scale
    return math.copysign(float(round(p)), p) / scale


def round_half_up(x: float, ndigits: int = 5) -> float:
    """The "currency" port: ``floor(x * 10**n + 0.5) / 10**n`` (the seed's ``round_currency``).

    Wrong three ways: the product is rounded first (as in :func:`round_naive`), ``+ 0.5``
    rounds again once the product is large (above 2**52 it can carry a value to the next
    integer), and ties go toward +inf, not to even (2.5 -> 3, -2.5 -> -2). Zeros come out
    as +0.0 whatever the sign of ``x``; nan/inf pass through; huge ``x`` overflows to inf.
    """
    scale = POW10[ndigits] if 0 <= ndigits <= EXACT_MAX_DIGITS else 10.0 ** ndigits
    p = x * scale + 0.5
    if not math.isfinite(p):
        return p / scale
    return float(math.floor(p)) / scale


def _round_numpy(x: float, ndigits: int = 5) -> float:
    """``numpy.round(x, n)``: numpy documents that it scales, rounds half-even, scales back.

    So it double-rounds exactly like :func:`round_naive` (same product, same ``rint``),
    overflows to inf for huge ``x``, and is one correctly rounded division. Returns a
    Python float; overflow warnings are silenced. numpy is imported on first use (it is an
    optional extra, and importing it costs a tenth of a second every command would pay).
    """
    import numpy

    with numpy.errstate(all="ignore"):
        return float(numpy.round(numpy.float64(x), ndigits))


round_numpy: Optional[Rounder] = _round_numpy if importlib.util.find_spec("numpy") is not None else None
"""``numpy.round`` wrapped as a rounder, or None when numpy is not installed (found without importing it)."""

ROUNDERS: dict[str, Rounder] = {
    "spec": round_spec,
    "exact": round_exact,
    "naive": round_naive,
    "half_up": round_half_up,
}
"""Every named rounder available in this interpreter, by name (``numpy`` only when importable)."""
if round_numpy is not None:
    ROUNDERS["numpy"] = round_numpy

__all__ = [
    "DEFAULT_TWO_PRODUCT", "EXACT_MAX_DIGITS", "POW10", "POW10_INT", "ROUNDERS", "Rounder",
    "TwoProduct", "make_two_product_fma", "round_exact", "round_exact_dekker", "round_half_up",
    "round_naive", "round_numpy", "round_spec", "two_product_dekker",
]
